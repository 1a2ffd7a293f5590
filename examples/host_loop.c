/* A host's frame loop with interpolation: the runtime steps at a fixed 1/60 s, the host draws
 * at whatever rate it gets (here 144 Hz with jitter and one long stall), and draws the pose the
 * runtime blends between the last two steps (gait_character_pose, by gait_world_alpha).
 *
 *   cc host_loop.c $(pkg-config --cflags --libs gait) -lm -o host_loop && ./host_loop
 *
 * At 144 Hz most frames run no step at all; the raw step position stands still on those frames
 * and jumps on the others, while the blended pose moves a little every frame. The program
 * checks exactly that, and that the stall is capped (the clock drops steps past its cap rather
 * than spiralling), then exits 0 (1 when a check fails). */
#include <gait/gait.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double frame_time(int frame) {
    if (frame == 300) return 0.5;                       /* a half-second hitch (loading, a breakpoint) */
    double jitter = ((frame * 7919) % 100) / 100.0 - 0.5; /* repeatable +-0.5 ms */
    return 1.0 / 144 + jitter * 0.001;
}

int main(void) {
    gait_world_def wd = gait_default_world_def();
    gait_world *world = gait_world_create(&wd);
    if (!world) return 1;
    static float heights[128 * 128];
    gait_heightfield_def hf = {128, 128, 1.0, {-64, 0, -64}, heights};
    gait_character_def cd = gait_default_character_def();
    gait_character_id hero;
    if (gait_collider_set_terrain(gait_world_collider(world), &hf) != GAIT_OK ||
        gait_character_create(world, &cd, &hero) != GAIT_OK) {
        fprintf(stderr, "set-up: %s\n", gait_world_last_error(world));
        return 1;
    }

    int frames_without_step = 0, still_raw = 0, still_drawn = 0, max_steps = 0;
    double last_drawn_z = 0, last_raw_z = 0;
    for (int frame = 0; frame < 600; frame++) {
        double dt = frame_time(frame);
        gait_input in = {.move_y = 1};
        gait_character_set_input(world, hero, &in);
        int steps = 0;
        gait_world_update(world, dt, &steps);
        if (steps > max_steps) max_steps = steps;

        gait_character_info info;          /* the last step's state: what the game logic reads */
        gait_pose pose;                    /* blended by the alpha: what the host draws */
        gait_character_info_get(world, hero, &info);
        gait_character_pose(world, hero, &pose);
        /* Once running (after 1 s), count the frames on which each one stood still. */
        if (frame > 144 && frame != 300 && frame != 301) {
            if (steps == 0) frames_without_step++;
            if (info.position.z == last_raw_z) still_raw++;
            if (pose.position.z <= last_drawn_z) still_drawn++;
        }
        last_raw_z = info.position.z;
        last_drawn_z = pose.position.z;
        if (frame % 144 == 143)
            printf("frame %3d  steps this frame %d  alpha %.2f  step z %.3f  drawn z %.3f\n",
                   frame + 1, steps, gait_world_alpha(world), info.position.z, pose.position.z);
    }
    const gait_clock *clock = gait_world_clock(world);
    printf("frames with no step %d, raw position still on %d frames, drawn pose still on %d; "
           "at most %d steps in one frame, %llu steps dropped by the cap\n",
           frames_without_step, still_raw, still_drawn, max_steps,
           (unsigned long long)clock->dropped_steps);
    gait_world_destroy(world);
    int ok = frames_without_step > 100 && still_raw >= frames_without_step && still_drawn == 0 &&
             max_steps == wd.clock.max_steps_per_frame;
    printf("%s\n", ok ? "ok" : "FAILED");
    return ok ? 0 : 1;
}
