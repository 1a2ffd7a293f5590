#version 330 core
// Lit, flat-coloured geometry: terrain, landmarks, the character, water.
// Positions arrive relative to their mesh's origin; u_offset moves them to the floating origin
// (the camera's eye), already subtracted in double on the CPU.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_color;

uniform mat4 u_view_proj;
uniform vec3 u_offset;

out vec3 v_pos;     // relative to the eye (m)
out vec3 v_normal;
out vec3 v_color;

void main() {
    vec3 p = a_pos + u_offset;
    v_pos = p;
    v_normal = a_normal;
    v_color = a_color;
    gl_Position = u_view_proj * vec4(p, 1.0);
}
