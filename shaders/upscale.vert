#version 330 core
// One triangle covering the screen, for drawing the scene's reduced-resolution image.
out vec2 v_uv;

void main() {
    vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
    v_uv = p * 0.5 + 0.5;
    gl_Position = vec4(p, 0.0, 1.0);
}
