/* A Lua kit driven from C: the host makes a gait_script on its own world, loads the shipped
 * tuning and gives its character the shipped sword kit, then presses E (skill) once.
 *
 *   cc kit_from_c.c $(pkg-config --cflags --libs gait) -o kit_from_c
 *   ./kit_from_c "$(pkg-config --variable=datadir gait)"
 *
 * The argument is the directory holding lua/ and scripts/ (`make install` puts them in
 * PREFIX/share/gait; gait.pc names it as `datadir`). The sword kit takes the skill press, turns
 * the body to the nearest target and holds it still for 0.5 s; the program checks the body
 * turned to the target, held still, and moved again after the action, then exits 0. */
#include <gait/gait.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define PI 3.14159265358979323846

int main(int argc, char **argv) {
    const char *root = argc > 1 ? argv[1] : ".";
    gait_world_def wd = gait_default_world_def();
    gait_world *world = gait_world_create(&wd);
    static float heights[64 * 64];
    gait_heightfield_def hf = {64, 64, 1.0, {-32, 0, -32}, heights};
    gait_character_def cd = gait_default_character_def();
    gait_character_id hero;
    if (!world || gait_collider_set_terrain(gait_world_collider(world), &hf) != GAIT_OK ||
        gait_character_create(world, &cd, &hero) != GAIT_OK) {
        fprintf(stderr, "set-up failed\n");
        return 1;
    }

    gait_script_def sd = gait_default_script_def();
    sd.world = world;              /* gait.world.host() in Lua */
    sd.root = root;
    gait_script *script = gait_script_create(&sd);
    if (!script) {
        fprintf(stderr, "no Lua layer: is %s/lua/boot.lua there?\n", root);
        return 1;
    }
    if (gait_script_load_tuning(script, NULL) != GAIT_OK ||     /* <root>/scripts/tuning/ */
        gait_script_set_kit(script, hero, "sword") != GAIT_OK ||  /* <root>/scripts/kits/sword.lua */
        gait_script_run_string(script, "require(\"gait\").world.host():set_targets{{10, 0, 0}}",
                               "targets") != GAIT_OK) {
        fprintf(stderr, "%s\n", gait_script_last_error(script));
        return 1;
    }
    printf("tuning from %s: run_speed %.2f m/s\n", root,
           gait_world_locomotion(world, GAIT_BODY_MEDIUM_FEMALE)->run_speed);

    gait_character_info info;
    double held_at = 0, yaw_after_skill = 0;
    char action[32] = "";
    for (int frame = 0; frame < 90; frame++) {
        gait_input in = {.move_y = frame < 20 ? 0 : 1};   /* run forward from frame 20 */
        if (frame == 20) in.pressed = GAIT_BUTTON_SKILL;
        gait_character_set_input(world, hero, &in);
        gait_script_poll(script, NULL);                     /* hot reload of saved scripts */
        if (gait_script_frame(script, 1.0 / 60, NULL) != GAIT_OK)   /* kits, then the steps */
            fprintf(stderr, "kit: %s\n", gait_script_last_error(script));
        gait_character_info_get(world, hero, &info);
        if (frame == 22) {
            snprintf(action, sizeof action, "%s", info.action_name);
            held_at = info.position.z;
            yaw_after_skill = info.yaw;
        }
        if (frame == 40 && fabs(info.position.z - held_at) > 1e-9) held_at = NAN; /* it moved */
    }
    printf("after E: action \"%s\", facing %.2f rad (the target lies at +x: %.2f); "
           "0.5 s later it runs again, %.2f m on\n", action, yaw_after_skill, PI / 2,
           info.position.z);
    gait_script_destroy(script);
    gait_world_destroy(world);
    int ok = strcmp(action, "skill") == 0 && fabs(yaw_after_skill - PI / 2) < 0.01 &&
             !isnan(held_at) && info.position.z > 1.0;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
