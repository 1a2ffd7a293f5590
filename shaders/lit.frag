#version 330 core
// Sun + sky hemisphere light, exponential-squared distance fog towards the sky's horizon colour
// (or the water's colour when the eye is under water).
in vec3 v_pos;
in vec3 v_normal;
in vec3 v_color;

uniform vec3 u_sun_dir;       // unit, towards the sun
uniform vec3 u_sun_color;
uniform vec3 u_sky_color;     // ambient from above
uniform vec3 u_ground_color;  // ambient from below
uniform vec3 u_fog_color;
uniform float u_fog_density;  // 1/m
uniform vec4 u_tint;          // rgb multiplies the colour, a is the output alpha
uniform float u_specular;     // 0 for matte, ~1 for water

out vec4 frag;

void main() {
    vec3 n = normalize(v_normal);
    if (!gl_FrontFacing) n = -n;           // two-sided: thin shapes and water seen from below
    vec3 view = normalize(-v_pos);
    float diffuse = max(dot(n, u_sun_dir), 0.0);
    vec3 ambient = mix(u_ground_color, u_sky_color, 0.5 + 0.5 * n.y);
    vec3 albedo = v_color * u_tint.rgb;
    vec3 color = albedo * (ambient + u_sun_color * diffuse);
    if (u_specular > 0.0) {
        vec3 h = normalize(u_sun_dir + view);
        color += u_specular * u_sun_color * pow(max(dot(n, h), 0.0), 80.0);
        // Fresnel-ish: grazing views reflect more sky.
        float fres = pow(1.0 - max(dot(n, view), 0.0), 3.0);
        color = mix(color, u_sky_color * 1.1, 0.5 * fres);
    }
    float d = length(v_pos) * u_fog_density;
    float fog = 1.0 - exp(-d * d);
    color = mix(color, u_fog_color, clamp(fog, 0.0, 1.0));
    frag = vec4(color, u_tint.a);
}
