#version 330 core
// Everything is lit per vertex (lit.vert): the pixel only takes the colour.
in vec3 v_pos;
in vec3 v_normal;
in vec4 v_color;

uniform vec4 u_tint;          // a is the output alpha

out vec4 frag;

void main() {
    frag = vec4(v_color.rgb, u_tint.a);
}
