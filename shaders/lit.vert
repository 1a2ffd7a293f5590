#version 330 core
// Lit, flat-coloured geometry: terrain, landmarks, the character, water.
// Positions arrive relative to their mesh's origin; u_offset moves them to the floating origin
// (the camera's eye), already subtracted in double on the CPU.
//
// Lighting and fog are computed here, per vertex (Gouraud): under llvmpipe the fragment shader
// runs on every covered pixel of a 1280x720 frame and dominates the frame time, while the
// landmarks are flat-shaded anyway (one normal per face) and the terrain is finely tessellated.
layout(location = 0) in vec3 a_pos;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec3 a_color;

uniform mat4 u_view_proj;
uniform vec3 u_offset;
uniform mat3 u_model;         // a moving landmark's turn (identity for everything else)
uniform vec3 u_sun_dir;       // unit, towards the sun
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;     // ambient from above
uniform vec3 u_ground_color;  // ambient from below
uniform vec3 u_fog_color;
uniform float u_fog_density;  // 1/m
uniform vec4 u_tint;          // rgb multiplies the colour, a is the output alpha

out vec3 v_pos;     // relative to the eye (m)
out vec3 v_normal;
out vec4 v_color;   // lit and fogged; a = fog amount (for the water's own shading)

void main() {
    vec3 p = u_model * a_pos + u_offset;
    v_pos = p;
    v_normal = u_model * a_normal;
    vec3 n = v_normal;
    // Two-sided: light the side facing the eye (thin shapes, water seen from below).
    if (dot(n, -p) < 0.0) n = -n;
    float diffuse = max(dot(n, u_sun_dir), 0.0);
    vec3 ambient = mix(u_ground_color, u_sky_color, 0.5 + 0.5 * n.y);
    vec3 color = a_color * u_tint.rgb * (ambient + u_sun_color * diffuse);
    float d = length(p) * u_fog_density;
    float fog = clamp(1.0 - exp(-d * d), 0.0, 1.0);
    v_color = vec4(mix(color, u_fog_color, fog), fog);
    gl_Position = u_view_proj * vec4(p, 1.0);
}
