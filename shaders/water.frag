#version 330 core
// The water surface, per pixel: a sun highlight and more sky at grazing angles (seen from
// above); seen from below (the eye under the surface) it is a bright ceiling.
//
// The surface is flat and level (its normal is +y), so the shading needs no per-pixel normal:
// n.v is view.y and n.h is h.y. Powers by repeated squaring: under llvmpipe this shader runs on
// every water pixel of the frame, and pow() there costs a log2 and an exp2 per call.
in vec3 v_pos;
in vec4 v_color;              // lit.vert's lit colour, a = fog amount

uniform vec3 u_sun_dir;
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;
uniform vec3 u_fog_color;
uniform vec4 u_tint;
uniform float u_specular;     // 0 from below

out vec4 frag;

void main() {
    vec3 color = v_color.rgb;
    if (u_specular <= 0.0) {
        // From below: the bright underside of the surface, fading into the water's fog.
        color = mix(vec3(0.35, 0.62, 0.72), u_fog_color, v_color.a);
    } else {
        vec3 view = normalize(-v_pos);
        float g = 1.0 - abs(view.y);
        float fres = g * g * g;                                  // (1 - n.v)^3
        color = mix(color, u_sky_color * 1.1, 0.5 * fres * (1.0 - v_color.a));
        float s = max(normalize(u_sun_dir + view).y, 0.0);      // n.h
        float s2 = s * s, s4 = s2 * s2, s8 = s4 * s4, s16 = s8 * s8, s64 = s16 * s16 * s16 * s16;
        color += u_specular * u_sun_color * (s64 * s16) * (1.0 - v_color.a);   // (n.h)^80
    }
    frag = vec4(color, u_tint.a);
}
