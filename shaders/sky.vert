#version 330 core
// One triangle covering the screen at the far plane (depth 1: drawn after the opaque world,
// only where nothing stands). The view ray is computed per vertex: with the eye at the origin,
// (inverse view-projection * NDC).xyz is linear across the screen, so it interpolates exactly.
uniform mat4 u_inv_view_proj;

out vec3 v_dir;

void main() {
    vec2 p = vec2((gl_VertexID == 1) ? 3.0 : -1.0, (gl_VertexID == 2) ? 3.0 : -1.0);
    v_dir = (u_inv_view_proj * vec4(p, 1.0, 1.0)).xyz;
    gl_Position = vec4(p, 1.0, 1.0);
}
