/* The README's "C API in one screen", whole: a flat 64 m heightfield, one character running
 * forward and jumping, read back each frame as a host would draw it.
 *
 *   cc one_screen.c $(pkg-config --cflags --libs gait) -o one_screen && ./one_screen
 *
 * Exits 0 when the body ran forward and left the ground once, 1 otherwise. */
#include <gait/gait.h>
#include <stdio.h>

int main(void) {
    gait_world_def wd = gait_default_world_def();
    gait_world *world = gait_world_create(&wd);
    if (!world) return 1;

    static float heights[64 * 64];               /* all 0: flat ground at y = 0 */
    gait_heightfield_def heightfield = {64, 64, 1.0, {-32, 0, -32}, heights};
    gait_collider_set_terrain(gait_world_collider(world), &heightfield);   /* or load a PNG */

    gait_character_def cd = gait_default_character_def();
    gait_character_id hero;
    if (gait_character_create(world, &cd, &hero) != GAIT_OK) {
        fprintf(stderr, "%s\n", gait_world_last_error(world));
        return 1;
    }

    const double frame_seconds = 1.0 / 60;
    double top = 0;
    gait_pose pose = {{0, 0, 0}, 0};
    for (int frame = 0; frame < 120; frame++) {                       /* once a frame */
        gait_input in = {.move_y = 1, .pressed = frame == 30 ? GAIT_BUTTON_JUMP : 0};
        gait_character_set_input(world, hero, &in);      /* presses held until a step reads them */
        gait_world_update(world, frame_seconds, NULL);    /* whole 1/60 s steps, capped */
        gait_character_pose(world, hero, &pose);                      /* blended: draw this */
        gait_camera cam;      gait_character_camera(world, hero, &cam);    /* eye, yaw, pitch, arm */
        gait_anim_signal anim; gait_character_anim(world, hero, &anim);   /* clip + crossfade */
        if (pose.position.y > top) top = pose.position.y;
        if (frame % 30 == 29)
            printf("frame %3d  feet %.2f %.2f %.2f  state %s  camera eye y %.2f\n", frame + 1,
                   pose.position.x, pose.position.y, pose.position.z,
                   gait_anim_state_name(anim.wanted), cam.eye.y);
    }
    gait_world_destroy(world);
    /* 2 s at the run speed (5.6 m/s) less the start: well past 5 m; a 1.2 m jump's apex */
    int ok = pose.position.z > 5 && top > 0.8;
    printf("%s: ran %.1f m, highest feet %.2f m\n", ok ? "ok" : "FAILED", pose.position.z, top);
    return ok ? 0 : 1;
}
