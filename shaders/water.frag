#version 330 core
// The water surface, per pixel: a sun highlight and more sky at grazing angles (seen from
// above); seen from below (the eye under the surface) it is a bright ceiling.
in vec3 v_pos;
in vec3 v_normal;
in vec4 v_color;              // lit.vert's lit colour, a = fog amount

uniform vec3 u_sun_dir;
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform vec3 u_fog_color;
uniform vec4 u_tint;
uniform float u_specular;     // 0 from below

out vec4 frag;

void main() {
    vec3 view = normalize(-v_pos);
    vec3 n = normalize(v_normal);
    vec3 color = v_color.rgb;
    if (u_specular <= 0.0) {
        // From below: the bright underside of the surface, fading into the water's fog.
        color = mix(vec3(0.35, 0.62, 0.72), u_fog_color, v_color.a);
    } else {
        vec3 h = normalize(u_sun_dir + view);
        float fres = pow(1.0 - abs(dot(n, view)), 3.0);
        color = mix(color, u_sky_color * 1.1, 0.5 * fres * (1.0 - v_color.a));
        color += u_specular * u_sun_color * pow(max(dot(n, h), 0.0), 80.0) * (1.0 - v_color.a);
    }
    frag = vec4(color, u_tint.a);
}
