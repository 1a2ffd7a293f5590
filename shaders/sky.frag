#version 330 core
// A gradient sky with a sun disc and glow, from the view ray through each pixel.
in vec3 v_dir;

uniform vec3 u_sun_dir;
uniform vec3 u_zenith;
uniform vec3 u_horizon;
uniform vec3 u_below;          // under the horizon (haze over the far ground)

out vec4 frag;

void main() {
    vec3 dir = normalize(v_dir);
    float up = dir.y;
    vec3 color = up >= 0.0 ? mix(u_horizon, u_zenith, sqrt(up))
                           : mix(u_horizon, u_below, clamp(-up * 4.0, 0.0, 1.0));
    float sun = max(dot(dir, u_sun_dir), 0.0);
    float glow = sun * sun;
    glow *= glow;
    glow *= glow;                                  // sun^8
    color += vec3(1.0, 0.9, 0.7) * (smoothstep(0.9990, 0.9996, sun) * 1.5 + glow * 0.12);
    frag = vec4(color, 1.0);
}
