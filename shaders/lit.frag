#version 330 core
// Everything is lit per vertex (lit.vert): the pixel only takes the colour. (lit.vert's v_pos
// and v_normal are for water.frag; not declared here, so nothing interpolates them.)
in vec4 v_color;

uniform vec4 u_tint;          // a is the output alpha

out vec4 frag;

void main() {
    frag = vec4(v_color.rgb, u_tint.a);
}
