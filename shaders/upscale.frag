#version 330 core
// The scene drawn at a fraction of the window's resolution, scaled up (bilinear).
in vec2 v_uv;

uniform sampler2D u_image;

out vec4 frag;

void main() {
    frag = vec4(texture(u_image, v_uv).rgb, 1.0);
}
