/* gait-sandbox: a window onto a gait world — walk, climb, glide and swim in it.
 *
 *   gait-sandbox [WORLD.lua] [--world FILE] [--root DIR] [--frames N] [--screenshot FILE.png]
 *                [--shot-frame N] [--input TRACK] [--fps N] [--status-interval S] [--size WxH]
 *                [--kit NAME] [--no-hud] [--record FILE.replay | --replay FILE.replay]
 *
 * A frame (docs/behaviour.md, "The frame and the step"): read input once -> hold the presses (the character keeps them until a step
 * reads them) -> turn the camera -> run the whole fixed steps due (gait_world_update, or the Lua
 * layer's frame when it is built in: kits first, then the steps) -> draw the body blended between
 * the last two steps -> the follow camera follows the blended body.
 *
 * Headless use (under Xvfb): --frames N ends after N frames, --screenshot FILE writes the last
 * frame (or frame --shot-frame N), --input TRACK plays a scripted input track (controls.c), and a
 * status line goes to stdout every --status-interval seconds (1 by default):
 *   status t=… pos=x,y,z state=… stamina=… fps=… frame_ms=… runtime_ms=… (then more fields)
 * plus one "state t=… from=… to=…" line per state change and "script_error …" / "world_error …"
 * lines when a script or the world file fails.
 *
 * Replays (gait/replay.h): --record FILE writes every frame's seconds and the player's input,
 * saved when the sandbox ends (window closed, --frames, a track's quit, SIGINT or SIGTERM) with
 * a last "record_done hash=… frames=… file=…" line; --replay FILE plays one back instead of the
 * live input (the same frame seconds, so the same steps) and ends with
 * "replay_done hash=… frames=…". `gait replay FILE` rebuilds the same world headless (the world
 * file named in the header, the tuning, the kit) and prints the same hash. */
#include "sandbox.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


typedef struct sb_options {
    char root[SB_PATH_MAX];
    char world[SB_PATH_MAX];
    char level[SB_PATH_MAX];     /* --level: a level file (glTF, OBJ, FBX, ...) */
    char screenshot[SB_PATH_MAX];
    char input[SB_PATH_MAX];
    char kit[64];
    long frames;                 /* 0 = until closed */
    long shot_frame;             /* 0 = at the end */
    double fps;                  /* pacing target; 0 = unpaced */
    double status_interval;      /* s */
    bool place;                  /* --place: start there instead of the world's spawn */
    gait_vec3 place_at;
    double place_yaw;
    double render_scale;         /* fraction of the window's resolution the scene is drawn at;
                                    0: picks itself from the frame time (see render_scale_auto) */
    bool render_scale_given;
    int width, height;
    bool hud;
    bool profile;                /* --profile: time every pass (each waits for the rasterizer) */
    bool world_given;            /* --world or WORLD.lua (a replay's own world otherwise) */
    char record[SB_PATH_MAX];    /* --record: the replay file to write */
    char replay[SB_PATH_MAX];    /* --replay: the replay file to play */
} sb_options;

/* Everything the sandbox owns. The GLFW callbacks reach only `controls`, through the window's
 * user pointer. */
struct line_list;

typedef struct sb_app {
    sb_controls controls;
    struct line_list *lines;          /* the debug view's lines this frame */
    sb_options opt;
    GLFWwindow *window;
    gait_world *world;
    gait_character_id player;
    sb_scene scene;
    sb_renderer *renderer;
    gait_script *script;
    unsigned script_errors_seen;
    sb_tuning *tuning;                /* the numbers in force, for reload reports and the panel */
    /* the tuning panel (F2) */
    bool panel_ready, panel_open;
    sb_tuning_row rows[96];
    bool edited[96];
    int row_count;
    gait_body_type rows_body;
    double rows_time;                 /* when the rows were read (-1: read them again) */
    char panel_status[SB_ERROR_MAX];
    float plot_stamina[SB_PLOT_SAMPLES], plot_speed[SB_PLOT_SAMPLES], plot_height[SB_PLOT_SAMPLES];
    int plot_count, plot_head;
    sb_view view;
    int party;
    bool debug, help;
    char error[SB_ERROR_MAX];         /* the last script or world error, shown on the HUD */
    double error_time;
    bool error_is_world;              /* the banner is the world file's (else a script's) */
    char notice[SB_ERROR_MAX];        /* the last successful reload and what it changed */
    double notice_time;
    /* statistics over the current status interval */
    double stat_start, stat_work, stat_runtime, stat_cpu;
    int stat_frames;
    double fps, frame_ms, runtime_ms, cpu_ms; /* of the last interval */
    /* the render scale that picks itself (no --render-scale given) */
    double scale_start, scale_work;
    int scale_frames;
    gait_state last_state;
    long frame;
    double t0;
    char shot_dir[SB_PATH_MAX];
    int shot_count;
    bool shot_failed;                 /* a --screenshot could not be written */
    gait_replay_recorder *rec;        /* --record */
    gait_replay_player *play;         /* --replay */
    char kit_used[64];                /* the kit the player got (for the replay header) */
    int rec_events;                   /* party switches and tuning reloads recorded (meta event.N) */
    int play_event;                   /* the next event.N a replay applies */
} sb_app;

static void record_event(sb_app *app, const char *what);
static void record_tuning(sb_app *app);
static bool replay_events(sb_app *app);

/* SIGINT / SIGTERM while recording: end the frame loop cleanly so the replay is saved. */
static volatile sig_atomic_t stop_requested;
static void on_stop_signal(int sig) { (void)sig; stop_requested = 1; }

/* ---- arguments ---------------------------------------------------------------------------- */

static void usage(FILE *f) {
    fprintf(f,
            "usage: gait-sandbox [WORLD.lua] [options]\n"
            "  --world FILE          world file (default: <root>/scripts/worlds/default.lua)\n"
            "  --level FILE          walk a level file: glTF/GLB, OBJ, FBX, PLY, ... (anything\n"
            "                        assimp reads); alone, or added to --world's world\n"
            "  --root DIR            repo root holding shaders/ and scripts/ (default: found from\n"
            "                        the executable, then the current directory)\n"
            "  --frames N            quit after N frames\n"
            "  --screenshot FILE     write a PNG of the last frame (or of --shot-frame N)\n"
            "  --shot-frame N        take the --screenshot at frame N instead of the end\n"
            "  --input FILE          play a scripted input track (format: runtime/sandbox/controls.c)\n"
            "  --fps N               pace frames to N per second (default 60; 0 = as fast as possible)\n"
            "  --status-interval S   seconds between status lines on stdout (default 1)\n"
            "  --size WxH            window size (default 1280x720)\n"
            "  --render-scale S      draw the 3D scene at S x the window's resolution, [0.1, 1];\n"
            "                        'auto' (the default): 1, 0.75 or 0.5, whichever keeps the\n"
            "                        frame within 1/--fps s (render_scale lines say when it moves)\n"
"  --place X,Y,Z[,YAW]   start there (m, rad) instead of the world's spawn\n"
            "  --kit NAME            the player's kit (scripts/kits/NAME.lua; with the Lua layer)\n"
            "  --no-hud              draw no HUD\n"
            "  --profile             time each drawing pass (each waits for the rasterizer:\n"
            "                        slower, for finding where the frame goes); adds passes=...\n"
            "                        to the status lines\n"
            "  --record FILE         record every frame's seconds and the player's input to a\n"
            "                        replay file, saved at exit (`gait replay FILE` plays it)\n"
            "  --replay FILE         play a replay file instead of the live input; prints\n"
            "                        'replay_done hash=... frames=...' at the end\n");
}

/* A whole number (or a finite number) and nothing else: "--frames abc" or "--fps 6O" is an
 * error naming the flag, not a silent 0 (which for --frames would mean "run forever"). */
static bool arg_long(const char *flag, const char *val, long lo, long *out) {
    char *end = NULL;
    errno = 0;
    long v = strtol(val, &end, 10);
    if (errno || end == val || *end || v < lo) {
        fprintf(stderr, "gait-sandbox: %s wants a whole number >= %ld, not '%s'\n", flag, lo, val);
        return false;
    }
    *out = v;
    return true;
}

static bool arg_double(const char *flag, const char *val, double lo, double hi, bool lo_open,
                       double *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(val, &end);
    if (errno || end == val || *end || !isfinite(v) || v < lo || v > hi || (lo_open && v == lo)) {
        fprintf(stderr, "gait-sandbox: %s wants a number in %s%g, %g], not '%s'\n", flag,
                lo_open ? "(" : "[", lo, hi, val);
        return false;
    }
    *out = v;
    return true;
}

static bool parse_args(int argc, char **argv, sb_options *o) {
    memset(o, 0, sizeof *o);
    o->fps = 60;
    o->status_interval = 1.0;
    o->width = 1280, o->height = 720;
    o->hud = true;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = (i + 1 < argc) ? argv[i + 1] : NULL;
#define NEED_VALUE() do { if (!val) { fprintf(stderr, "gait-sandbox: %s needs a value\n", a); return false; } i++; } while (0)
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { usage(stdout); exit(0); }
        else if (strcmp(a, "--world") == 0) { NEED_VALUE(); snprintf(o->world, sizeof o->world, "%s", val); }
        else if (strcmp(a, "--root") == 0) { NEED_VALUE(); snprintf(o->root, sizeof o->root, "%s", val); }
        else if (strcmp(a, "--level") == 0) { NEED_VALUE(); snprintf(o->level, sizeof o->level, "%s", val); }
        else if (strcmp(a, "--frames") == 0) { NEED_VALUE(); if (!arg_long(a, val, 1, &o->frames)) return false; }
        else if (strcmp(a, "--screenshot") == 0) { NEED_VALUE(); snprintf(o->screenshot, sizeof o->screenshot, "%s", val); }
        else if (strcmp(a, "--shot-frame") == 0) { NEED_VALUE(); if (!arg_long(a, val, 1, &o->shot_frame)) return false; }
        else if (strcmp(a, "--input") == 0) { NEED_VALUE(); snprintf(o->input, sizeof o->input, "%s", val); }
        else if (strcmp(a, "--fps") == 0) { NEED_VALUE(); if (!arg_double(a, val, 0, 1000, false, &o->fps)) return false; }
        else if (strcmp(a, "--status-interval") == 0) {
            NEED_VALUE();
            if (!arg_double(a, val, 0, 3600, true, &o->status_interval)) return false;
        }
        else if (strcmp(a, "--render-scale") == 0) {
            NEED_VALUE();
            o->render_scale_given = strcmp(val, "auto") != 0;   /* auto: picks itself (the default) */
            if (!o->render_scale_given) o->render_scale = 0;
            else if (!arg_double(a, val, 0.1, 1.0, false, &o->render_scale)) return false;
        }
        else if (strcmp(a, "--place") == 0) {
            NEED_VALUE();
            char tail = 0;
            int n = sscanf(val, "%lf,%lf,%lf,%lf%c", &o->place_at.x, &o->place_at.y, &o->place_at.z,
                           &o->place_yaw, &tail);
            if (n == 3) n = sscanf(val, "%lf,%lf,%lf%c", &o->place_at.x, &o->place_at.y, &o->place_at.z, &tail);
            if ((n != 3 && n != 4) || !isfinite(o->place_at.x + o->place_at.y + o->place_at.z + o->place_yaw)) { fprintf(stderr, "gait-sandbox: --place wants X,Y,Z[,YAW]\n"); return false; }
            o->place = true;
        }
        else if (strcmp(a, "--kit") == 0) { NEED_VALUE(); snprintf(o->kit, sizeof o->kit, "%s", val); }
        else if (strcmp(a, "--size") == 0) {
            NEED_VALUE();
            char tail = 0;
            if (sscanf(val, "%dx%d%c", &o->width, &o->height, &tail) != 2 || o->width < 64 ||
                o->height < 64 || o->width > 16384 || o->height > 16384) {
                fprintf(stderr, "gait-sandbox: --size wants WxH, e.g. 1280x720\n");
                return false;
            }
        }
        else if (strcmp(a, "--no-hud") == 0) o->hud = false;
        else if (strcmp(a, "--profile") == 0) o->profile = true;
        else if (strcmp(a, "--record") == 0) { NEED_VALUE(); snprintf(o->record, sizeof o->record, "%s", val); }
        else if (strcmp(a, "--replay") == 0) { NEED_VALUE(); snprintf(o->replay, sizeof o->replay, "%s", val); }
        else if (a[0] == '-') { fprintf(stderr, "gait-sandbox: unknown option %s\n", a); usage(stderr); return false; }
        else snprintf(o->world, sizeof o->world, "%s", a);
        if (strcmp(a, "--world") == 0 || a[0] != '-') o->world_given = true;
#undef NEED_VALUE
    }
    if (o->record[0] && o->replay[0]) {
        fprintf(stderr, "gait-sandbox: --record and --replay cannot be used together\n");
        return false;
    }
    return true;
}

static bool file_exists(const char *path) {
    struct stat st;
    return stat(path, &st) == 0;
}

/* The repo root: --root, else up to three levels above the executable (build/, build/asan/),
 * else the current directory — the first that holds shaders/lit.vert. */
static void find_root(sb_options *o) {
    char probe[SB_PATH_MAX];
    if (o->root[0]) return;
    char exe[SB_PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char dir[SB_PATH_MAX];
        sb_path_dir(dir, sizeof dir, exe);
        for (int up = 0; up < 4; up++) {
            sb_path_join(probe, sizeof probe, dir, "shaders/lit.vert");
            if (file_exists(probe)) { snprintf(o->root, sizeof o->root, "%s", dir); return; }
            char parent[SB_PATH_MAX];
            sb_path_dir(parent, sizeof parent, dir);
            snprintf(dir, sizeof dir, "%s", parent);
        }
    }
    snprintf(o->root, sizeof o->root, ".");
}

/* ---- small helpers ------------------------------------------------------------------------ */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* CPU seconds used by the whole process (this thread, llvmpipe's rasterizer threads, Lua): a
 * frame's cost that other programs on the machine do not inflate, unlike the wall clock. */
static double cpu_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void sleep_s(double s) {
    if (s <= 0) return;
    struct timespec ts = {(time_t)s, (long)((s - floor(s)) * 1e9)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {}
}

static void set_error(sb_app *app, const char *kind, const char *msg) {
    snprintf(app->error, sizeof app->error, "%s", msg);
    app->error_is_world = strcmp(kind, "world_error") == 0;
    app->error_time = now_s();
    /* One line on stdout (the first line of the message: file:line: what). */
    const char *nl = strchr(msg, '\n');
    int len = nl ? (int)(nl - msg) : (int)strlen(msg);
    printf("%s t=%.2f %.*s\n", kind, now_s() - app->t0, len, msg);
    fflush(stdout);
}

static void on_glfw_error(int code, const char *desc) {
    fprintf(stderr, "gait-sandbox: GLFW error %d: %s\n", code, desc);
}

/* ---- camera ------------------------------------------------------------------------------- */

static void camera_init(sb_app *app) {
    app->view.fov_y = (float)(60.0 * M_PI / 180.0);
}

/* The view from the character's follow camera (camera.h), which the world turned by this
 * frame's look and moved after the steps to follow the blended body, its arm kept out of walls
 * by a sphere cast. */
static void camera_view(sb_app *app) {
    gait_camera cam;
    if (gait_character_camera(app->world, app->player, &cam) != GAIT_OK) return;
    app->view.eye = cam.eye;
    app->view.target = cam.pivot;
    app->view.yaw = cam.yaw;
    app->view.pitch = cam.pitch;
    app->view.distance = cam.arm;
}

/* ---- world -------------------------------------------------------------------------------- */

static bool load_world(sb_app *app, bool first) {
    char err[SB_ERROR_MAX];
    if (!sb_scene_load(&app->scene, app->world, app->opt.world, app->opt.level, err, sizeof err)) {
        set_error(app, "world_error", err);
        return false;
    }
    if (err[0]) set_error(app, "world_error", err);   /* loaded, but a landmark was refused */
    if (first && app->scene.spawn_from_level && !app->opt.place) {
        /* A start found in the level: placed there like --place, so a recording says where
         * (its `place` meta) and `gait replay` starts the body at the same spot. */
        app->opt.place = true;
        app->opt.place_at = app->scene.spawn;
        app->opt.place_yaw = app->scene.spawn_yaw;
    }
    if (first) {
        gait_character_def cd = gait_default_character_def();
        cd.position = app->scene.spawn;
        cd.yaw = app->scene.spawn_yaw;
        gait_status st = gait_character_create(app->world, &cd, &app->player);
        if (st != GAIT_OK) {
            fprintf(stderr, "gait-sandbox: cannot create the player: %s (%s)\n", gait_status_string(st),
                    gait_world_last_error(app->world));
            return false;
        }
        gait_character_set_camera_yaw(app->world, app->player, cd.yaw);
        if (app->opt.place) {
            st = gait_character_place(app->world, app->player, app->opt.place_at, app->opt.place_yaw);
            if (st != GAIT_OK)
                fprintf(stderr, "gait-sandbox: --place: %s (%s)\n", gait_status_string(st),
                        gait_world_last_error(app->world));
        }
    }
    printf("world t=%.2f %s: %d landmarks, %d water regions, terrain %dx%d\n", now_s() - app->t0,
           app->scene.name, app->scene.landmark_count, app->scene.water_count, app->scene.samples_x,
           app->scene.samples_z);
    if (app->scene.level[0])
        printf("level t=%.2f %s: %d meshes, %d triangles, box %.2f,%.2f,%.2f .. %.2f,%.2f,%.2f; "
               "start %.2f,%.2f,%.2f (%s)\n", now_s() - app->t0, app->scene.level,
               app->scene.level_count, app->scene.level_triangles, app->scene.level_min.x,
               app->scene.level_min.y, app->scene.level_min.z, app->scene.level_max.x,
               app->scene.level_max.y, app->scene.level_max.z, app->scene.spawn.x,
               app->scene.spawn.y, app->scene.spawn.z, app->scene.spawn_source);
    fflush(stdout);
    return true;
}

/* The party's slots (keys 1-4) carry the kits that move the body, one to try each; until a slot
 * is chosen the player has --kit (the sword by default). */
static const char *const party_kits[4] = {"updraft", "plunge_leap", "dash_to", "water_sprint"};

/* (Re)loads the tuning files and the player's kit: at start and on F5. */
static void script_load(sb_app *app) {
    char probe[SB_PATH_MAX];
    sb_path_join(probe, sizeof probe, app->opt.root, "scripts/tuning/locomotion.lua");
    if (file_exists(probe) && gait_script_load_tuning(app->script, NULL) != GAIT_OK)
        set_error(app, "script_error", gait_script_last_error(app->script));
    const char *kit = app->party ? party_kits[app->party - 1] : app->opt.kit[0] ? app->opt.kit : "sword";
    char kit_path[SB_PATH_MAX];
    snprintf(probe, sizeof probe, "scripts/kits/%s.lua", kit);
    sb_path_join(kit_path, sizeof kit_path, app->opt.root, probe);
    if (app->opt.kit[0] || file_exists(kit_path)) {
        if (gait_script_set_kit(app->script, app->player, kit) != GAIT_OK)
            set_error(app, "script_error", gait_script_last_error(app->script));
        else
            snprintf(app->kit_used, sizeof app->kit_used, "%s", kit);
    }
    app->script_errors_seen = gait_script_error_count(app->script);
}

static void script_start(sb_app *app) {
    gait_script_def d = gait_default_script_def();
    d.world = app->world;
    d.root = app->opt.root;
    app->script = gait_script_create(&d);
    if (!app->script) {
        set_error(app, "script_error", "the Lua layer could not start (lua/ not found under the root?)");
        return;
    }
    script_load(app);
    char err[SB_ERROR_MAX];
    app->tuning = sb_tuning_open(app->script, app->opt.root, err, sizeof err);
    if (!app->tuning) fprintf(stderr, "gait-sandbox: no tuning panel or reload report: %s\n", err);
    else sb_tuning_remember(app->tuning);
}

/* Hot reload of saved tuning and kit files. A reload that worked says so, on screen and on
 * stdout, with every number it changed ("reload_change locomotion.lua: medium_female.run_speed
 * 5.6 → 7.0"), and clears the error banner and count; a failed one is reported by
 * script_check with the file and line. */
static void script_poll(sb_app *app) {
    int reloaded = 0;
    gait_status st = gait_script_poll(app->script, &reloaded);
    if (st != GAIT_OK || reloaded == 0) return;
    gait_character_info info;
    gait_character_info_get(app->world, app->player, &info);
    char changes[SB_ERROR_MAX] = "";
    int n = app->tuning ? sb_tuning_changes(app->tuning, info.body_type, changes, sizeof changes) : 0;
    if (n < 0) snprintf(changes, sizeof changes, "%s", sb_tuning_error(app->tuning)), n = 0;
    double t = now_s() - app->t0;
    printf("reload t=%.2f ok: %d file%s reloaded, %d number%s changed\n", t, reloaded,
           reloaded == 1 ? "" : "s", n, n == 1 ? "" : "s");
    for (char *line = changes; *line;) {
        char *nl = strchr(line, '\n');
        printf("reload_change %.*s\n", nl ? (int)(nl - line) : (int)strlen(line), line);
        if (!nl) break;
        line = nl + 1;
    }
    fflush(stdout);
    snprintf(app->notice, sizeof app->notice, "reloaded: %.2000s", n ? changes : "no tuning number changed");
    app->notice_time = now_s();
    if (app->rec) record_tuning(app);
    if (!app->error_is_world) app->error[0] = '\0';
    app->rows_time = -1;
    memset(app->edited, 0, sizeof app->edited);   /* the file now says what is in force */
    gait_script_clear_error(app->script);
    app->script_errors_seen = 0;
}

/* Reports each new script error once. */
static void script_check(sb_app *app) {
    if (!app->script) return;
    unsigned n = gait_script_error_count(app->script);
    if (n != app->script_errors_seen) {
        app->script_errors_seen = n;
        set_error(app, "script_error", gait_script_last_error(app->script));
    }
}

/* ---- debug view --------------------------------------------------------------------------- */

typedef struct line_list {
    sb_line_vertex v[8192];
    int n;
    gait_vec3 origin;            /* the eye the vertices are relative to */
    struct { gait_vec3 at; char text[48]; uint32_t rgba; } labels[64];
    int label_count;
} line_list;

static void line_add(line_list *l, gait_vec3 origin, gait_vec3 a, gait_vec3 b, float r, float g, float bl) {
    if (l->n + 2 > (int)(sizeof l->v / sizeof l->v[0])) return;
    l->v[l->n++] = (sb_line_vertex){(float)(a.x - origin.x), (float)(a.y - origin.y), (float)(a.z - origin.z), r, g, bl, 1};
    l->v[l->n++] = (sb_line_vertex){(float)(b.x - origin.x), (float)(b.y - origin.y), (float)(b.z - origin.z), r, g, bl, 1};
}

static gait_vec3 v3(double x, double y, double z) { return (gait_vec3){x, y, z}; }
static gait_vec3 v3_add(gait_vec3 a, gait_vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static gait_vec3 v3_mul(gait_vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }

/* The runtime's debug-draw callbacks (gait_world_draw_debug): traversal sweeps and traces, the
 * ledge segment, the grab point, the corridor and the latch. Colours are 0xRRGGBBAA. */
static void rgba_split(uint32_t c, float *r, float *g, float *b) {
    *r = (float)((c >> 24) & 0xFF) / 255.0f, *g = (float)((c >> 16) & 0xFF) / 255.0f,
    *b = (float)((c >> 8) & 0xFF) / 255.0f;
}

static void dbg_line(gait_vec3 a, gait_vec3 b, uint32_t rgba, void *user) {
    line_list *l = user;
    float r, g, bl;
    rgba_split(rgba, &r, &g, &bl);
    line_add(l, l->origin, a, b, r, g, bl);
}

static void dbg_point(gait_vec3 p, double size, uint32_t rgba, void *user) {
    line_list *l = user;
    float r, g, b;
    rgba_split(rgba, &r, &g, &b);
    double s = size > 0 ? size * 0.5 : 0.05;
    line_add(l, l->origin, (gait_vec3){p.x - s, p.y, p.z}, (gait_vec3){p.x + s, p.y, p.z}, r, g, b);
    line_add(l, l->origin, (gait_vec3){p.x, p.y - s, p.z}, (gait_vec3){p.x, p.y + s, p.z}, r, g, b);
    line_add(l, l->origin, (gait_vec3){p.x, p.y, p.z - s}, (gait_vec3){p.x, p.y, p.z + s}, r, g, b);
}

static void dbg_text(gait_vec3 p, const char *text, uint32_t rgba, void *user) {
    line_list *l = user;
    if (l->label_count >= (int)(sizeof l->labels / sizeof l->labels[0])) return;
    l->labels[l->label_count].at = p;
    l->labels[l->label_count].rgba = rgba;
    snprintf(l->labels[l->label_count].text, sizeof l->labels[0].text, "%s", text);
    l->label_count++;
}

/* What the public API tells of the body: its capsule, contacts and their normals, the ground
 * normal, the velocity, the facing, the camera arm. */
static void build_debug_lines(sb_app *app, const gait_character_info *info, const gait_pose *pose,
                              const gait_locomotion *num, line_list *l) {
    gait_vec3 o = l->origin;
    gait_vec3 feet = pose->position;
    double r = num->capsule_radius;
    double h = info->crouching ? num->crouch_height : num->capsule_height;
    gait_capsule cap = {v3(feet.x, feet.y + r, feet.z), v3(feet.x, feet.y + h - r, feet.z), r + 0.05};
    gait_contact_point pts[32];
    bool truncated = false;
    int n = gait_collider_capsule_overlap(gait_world_collider_const(app->world), &cap, NULL, pts, 32, &truncated);
    for (int i = 0; i < n; i++) {
        float cr = pts[i].cls == GAIT_CONTACT_FLOOR ? 0.2f : pts[i].cls == GAIT_CONTACT_WALL ? 1.0f : 0.9f;
        float cg = pts[i].cls == GAIT_CONTACT_FLOOR ? 1.0f : pts[i].cls == GAIT_CONTACT_WALL ? 0.5f : 0.2f;
        float cb = pts[i].cls == GAIT_CONTACT_CEILING ? 0.9f : 0.2f;
        gait_vec3 p = pts[i].point;
        line_add(l, o, p, v3_add(p, v3_mul(pts[i].normal, 0.6)), cr, cg, cb);
        const double s = 0.08;
        line_add(l, o, v3(p.x - s, p.y, p.z), v3(p.x + s, p.y, p.z), cr, cg, cb);
        line_add(l, o, v3(p.x, p.y, p.z - s), v3(p.x, p.y, p.z + s), cr, cg, cb);
    }
    /* The capsule's outline: two rings and four lines. */
    for (int ring = 0; ring < 2; ring++) {
        double y = ring ? feet.y + h - r : feet.y + r;
        for (int k = 0; k < 16; k++) {
            double a0 = 2 * M_PI * k / 16, a1 = 2 * M_PI * (k + 1) / 16;
            line_add(l, o, v3(feet.x + r * cos(a0), y, feet.z + r * sin(a0)),
                     v3(feet.x + r * cos(a1), y, feet.z + r * sin(a1)), 1, 1, 1);
        }
    }
    double th, tz;
    gait_vec3 tn;
    if (gait_terrain_sample(gait_world_collider_const(app->world), feet.x, feet.z, &th, &tn)) {
        gait_vec3 g = v3(feet.x, th, feet.z);
        line_add(l, o, g, v3_add(g, v3_mul(tn, 1.0)), 0.3f, 0.6f, 1.0f);
        (void)tz;
    }
    gait_vec3 mid = v3(feet.x, feet.y + h * 0.5, feet.z);
    line_add(l, o, mid, v3_add(mid, v3_mul(info->velocity, 0.25)), 1.0f, 1.0f, 0.2f);
    line_add(l, o, mid, v3_add(mid, v3(sin(pose->yaw), 0, cos(pose->yaw))), 1.0f, 0.2f, 1.0f);
    /* The camera arm, from the pivot towards the eye (stopping short so it shows on screen). */
    gait_vec3 arm = v3(app->view.eye.x - app->view.target.x, app->view.eye.y - app->view.target.y,
                       app->view.eye.z - app->view.target.z);
    line_add(l, o, app->view.target, v3_add(app->view.target, v3_mul(arm, 0.8)), 0.2f, 1.0f, 1.0f);
}

/* ---- HUD ---------------------------------------------------------------------------------- */

/* The help overlay, from the bindings in force (scripts/controls.lua). */
static void help_text(const sb_app *app, char *out, size_t cap) {
    static const struct { int action; const char *does; } rows[] = {
        {SB_DO_JUMP, "jump / open-close glider / climb jump"}, {SB_DO_SPRINT, "dash, hold to sprint"},
        {SB_DO_WALK, "walk switch"}, {SB_DO_DROP, "let go of a wall"},
        {SB_DO_ATTACK, "attack (plunge in the air)"}, {SB_DO_SKILL, "skill"}, {SB_DO_BURST, "burst"},
        {SB_DO_CROUCH, "crouch switch"}, {SB_DO_DEBUG, "debug view"}, {SB_DO_PANEL, "tuning panel"},
        {SB_DO_RELOAD, "reload the world, tuning, kit now"}, {SB_DO_SCREENSHOT, "screenshot"},
        {SB_DO_HELP, "this help"}, {SB_DO_FREE_CURSOR, "free the cursor (a click recaptures)"},
    };
    char keys[64], f[64], b[64], l[64], r[64];
    sb_controls_describe(&app->controls, SB_DO_FORWARD, f, sizeof f);
    sb_controls_describe(&app->controls, SB_DO_LEFT, l, sizeof l);
    sb_controls_describe(&app->controls, SB_DO_BACK, b, sizeof b);
    sb_controls_describe(&app->controls, SB_DO_RIGHT, r, sizeof r);
    size_t o = (size_t)snprintf(out, cap, "CONTROLS (scripts/controls.lua, reloaded when saved)\n"
                                "%s %s %s %s  move (camera-relative); mouse look, wheel zoom\n",
                                f, l, b, r);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0] && o < cap; i++) {
        sb_controls_describe(&app->controls, rows[i].action, keys, sizeof keys);
        o += (size_t)snprintf(out + o, cap - o, "%-16s %s\n", keys, rows[i].does);
    }
    if (o < cap)
        snprintf(out + o, cap - o, "1 2 3 4          party member (body type; kits updraft, plunge_leap, dash_to, water_sprint)\n"
                 "gamepad: left stick moves (a part push walks), right stick looks,\n"
                 "         A jump, B attack, RT skill, Y burst, RB dash/sprint, X drop");
}

/* A message box across the window whose bottom is at `bottom` (pixels): wrapped to the width,
 * tabs expanded, at most 6 lines (the console has it whole). Returns its top. */
static float banner(sb_renderer *r, int w, float bottom, const char *text, float br, float bg,
                    float bb, float cr, float cg, float cb) {
    char shown[2048];
    const float scale = 1.5f, line_h = 12.0f * scale;
    int lines = sb_hud_wrap(text, scale, (float)w - 40, 6, shown, sizeof shown);
    float height = (float)lines * line_h + 12, top = bottom - height;
    sb_hud_rect(r, 8, top, (float)w - 16, height, br, bg, bb, 0.6f);
    sb_hud_text(r, 16, top + 6, scale, shown, cr, cg, cb);
    return top;
}

static void draw_hud(sb_app *app, const gait_character_info *info, double runtime_ms) {
    sb_renderer *r = app->renderer;
    int w = app->view.width, h = app->view.height;
    sb_hud_begin(r, w, h);
    char buf[1024];
    double speed = hypot(info->velocity.x, info->velocity.z);
    const char *state = gait_state_name(info->phase.state);
    sb_hud_rect(r, 8, 8, 330, 144, 0, 0, 0, 0.35f);
    snprintf(buf, sizeof buf, "gait sandbox - %s", app->scene.name);
    sb_hud_text(r, 16, 14, 2, buf, 1, 1, 1);
    snprintf(buf, sizeof buf, "state  %s  (%.1f s)", state ? state : "?", info->phase.seconds);
    sb_hud_text(r, 16, 40, 2, buf, 1.0f, 0.9f, 0.4f);
    snprintf(buf, sizeof buf, "speed  %.2f m/s  vy %.2f", speed, info->velocity.y);
    sb_hud_text(r, 16, 62, 2, buf, 1, 1, 1);
    snprintf(buf, sizeof buf, "body   %s%s%s", gait_body_type_name(info->body_type),
             info->walking ? "  walk" : "", info->crouching ? "  crouch" : "");
    sb_hud_text(r, 16, 84, 2, buf, 0.8f, 0.9f, 1);
    gait_anim_signal anim;
    if (gait_character_anim(app->world, app->player, &anim) == GAIT_OK) {
        snprintf(buf, sizeof buf, "anim   %s%s%s", gait_anim_state_name(anim.wanted),
                 anim.clip && anim.clip[0] ? "  clip " : "", anim.clip ? anim.clip : "");
        sb_hud_text(r, 16, 128, 2, buf, 0.7f, 0.8f, 1.0f);
    }
    if (info->action_seconds_left > 0 || info->action_name[0]) {
        snprintf(buf, sizeof buf, "action %s  %.2f s", info->action_name[0] ? info->action_name : "-",
                 info->action_seconds_left);
        sb_hud_text(r, 16, 106, 2, buf, 1.0f, 0.6f, 0.3f);
    } else {
        sb_hud_text(r, 16, 106, 2, "action -", 0.7f, 0.7f, 0.7f);
    }

    /* Stamina: a bar above the centre of the screen's lower half, like the game's wheel spot. */
    double frac = info->stamina_max > 0 ? info->stamina / info->stamina_max : 0;
    float bw = 260, bh = 14, bx = (float)w * 0.5f - bw * 0.5f, by = (float)h - 70;
    sb_hud_rect(r, bx - 2, by - 2, bw + 4, bh + 4, 0, 0, 0, 0.5f);
    float cr = frac < 0.25 ? 1.0f : 0.95f, cg = frac < 0.25 ? 0.3f : 0.85f, cb = 0.2f;
    sb_hud_rect(r, bx, by, (float)(bw * frac), bh, cr, cg, cb, 0.95f);
    snprintf(buf, sizeof buf, "stamina %.0f / %.0f", info->stamina, info->stamina_max);
    sb_hud_text(r, bx, by - 22, 2, buf, 1, 1, 1);
    /* And the game's wheel beside the body while the pool is not full. */
    float sx, sy;
    gait_vec3 shoulder = {info->position.x, info->position.y + 1.4, info->position.z};
    if (frac < 0.999 && sb_renderer_project(r, shoulder, w, h, &sx, &sy)) {
        sb_hud_ring(r, sx + 60, sy, 13, 20, 1.0f, 0, 0, 0, 0.45f);
        sb_hud_ring(r, sx + 60, sy, 14, 19, (float)frac, cr, cg, cb, 0.95f);
    }

    /* Performance, top right. */
    snprintf(buf, sizeof buf, "%.0f fps\nframe %.2f ms\ncpu %.2f ms\nruntime %.3f ms", app->fps,
             app->frame_ms, app->cpu_ms, runtime_ms);
    /* 4 lines of 12 px glyph rows at scale 2, and the margins: the box holds its last line */
    sb_hud_rect(r, (float)w - 220, 8, 212, 4 * 24 + 12, 0, 0, 0, 0.35f);
    sb_hud_text(r, (float)w - 212, 14, 2, buf, 0.8f, 1.0f, 0.8f);
    sb_hud_text(r, (float)w - 212, 4 * 24 + 26, 1.5f, "H: help   F1: debug", 0.9f, 0.9f, 0.9f);

    if (app->debug) {
        const gait_contact *c = &info->contact;
        snprintf(buf, sizeof buf,
                 "DEBUG\npos %.2f %.2f %.2f\nyaw %.2f cam %.2f\ngrounded %d rising %d\nwall %d ahead %d top %d\n"
                 "above %.2f m\nwater %.2f sub %.2f\nsteps %llu alpha %.2f",
                 info->position.x, info->position.y, info->position.z, info->yaw, info->camera_yaw,
                 c->grounded, c->rising, c->wall, c->wall_ahead, c->over_top,
                 isfinite(c->height_above_ground) ? c->height_above_ground : -1.0, c->water_depth,
                 isfinite(c->submersion) ? c->submersion : -1.0, (unsigned long long)info->steps,
                 gait_world_alpha(app->world));
        sb_hud_rect(r, 8, 160, 300, 190, 0, 0, 0, 0.35f);
        sb_hud_text(r, 16, 166, 2, buf, 0.6f, 1.0f, 1.0f);
        for (int i = 0; i < app->lines->label_count; i++) {
            float lx, ly, lr, lg, lb;
            if (!sb_renderer_project(r, app->lines->labels[i].at, w, h, &lx, &ly)) continue;
            rgba_split(app->lines->labels[i].rgba, &lr, &lg, &lb);
            sb_hud_text(r, lx, ly, 1.5f, app->lines->labels[i].text, lr, lg, lb);
        }
    }
    if (app->help) {
        char text[2048];
        help_text(app, text, sizeof text);
        sb_hud_rect(r, (float)w * 0.5f - 390, 60, 780, 500, 0, 0, 0, 0.7f);
        sb_hud_text(r, (float)w * 0.5f - 376, 72, 2, text, 1, 1, 1);
    }
    /* The last script / world error with its file:line; above it, for a few seconds, the last
     * successful reload and what it changed. */
    float above = (float)h - 100;
    if (app->error[0]) above = banner(r, w, above, app->error, 0.3f, 0, 0, 1.0f, 0.45f, 0.4f) - 8;
    if (app->notice[0] && now_s() - app->notice_time < 6.0)
        banner(r, w, above, app->notice, 0, 0.25f, 0.05f, 0.6f, 1.0f, 0.6f);
    sb_hud_end(r);
}

/* ---- the tuning panel ----------------------------------------------------------------------- */

static void panel_rows(sb_app *app, gait_body_type body, bool force) {
    if (!app->tuning) return;
    double t = now_s();
    if (!force && body == app->rows_body && app->rows_time >= 0 && t - app->rows_time < 2.0) return;
    if (body != app->rows_body) memset(app->edited, 0, sizeof app->edited);
    int n = sb_tuning_rows(app->tuning, body, app->rows, (int)(sizeof app->rows / sizeof app->rows[0]));
    if (n < 0) {
        snprintf(app->panel_status, sizeof app->panel_status, "%s", sb_tuning_error(app->tuning));
        n = 0;
    }
    app->row_count = n;
    app->rows_body = body;
    app->rows_time = t;
}

static int panel_find(const sb_app *app, const char *key) {
    for (int i = 0; i < app->row_count; i++)
        if (strcmp(app->rows[i].key, key) == 0) return i;
    return -1;
}

/* A number dragged (or set by a track): into the world now; marked edited until written. */
static void panel_apply(sb_app *app, gait_body_type body, int i, double value) {
    sb_tuning_row *r = &app->rows[i];
    if (!sb_tuning_apply(app->tuning, body, r->key, value)) {
        snprintf(app->panel_status, sizeof app->panel_status, "%s", sb_tuning_error(app->tuning));
        printf("panel_error t=%.2f %s\n", now_s() - app->t0, app->panel_status);
        return;
    }
    printf("panel_set t=%.2f %s %s %g -> %g\n", now_s() - app->t0, gait_body_type_name(body), r->key,
           r->value, value);
    r->value = value;
    app->edited[i] = true;
    snprintf(app->panel_status, sizeof app->panel_status, "%s = %g in force now (not yet in %s)", r->key,
             value, r->file);
}

/* Puts a row's value into its file (the text kept); the reload that follows changes nothing. */
static void panel_write(sb_app *app, int i) {
    sb_tuning_row *r = &app->rows[i];
    int line = 0;
    if (!sb_tuning_write(app->tuning, r, r->value, &line)) {
        snprintf(app->panel_status, sizeof app->panel_status, "%s", sb_tuning_error(app->tuning));
        printf("panel_error t=%.2f %s\n", now_s() - app->t0, app->panel_status);
        return;
    }
    printf("panel_write t=%.2f %s:%d %s%s%s = %g\n", now_s() - app->t0, r->file, line, r->block,
           r->block[0] ? "." : "", strrchr(r->key, '.') ? strrchr(r->key, '.') + 1 : r->key, r->value);
    snprintf(app->panel_status, sizeof app->panel_status, "wrote %g to %s:%d", r->value, r->file, line);
    app->edited[i] = false;
    app->rows_time = -1;
}

static void panel_frame(sb_app *app, const gait_character_info *info, const sb_actions *act) {
    if (!app->tuning) return;
    /* the plots sample every frame, open or not, so they show the seconds before opening too */
    int k = app->plot_head;
    app->plot_stamina[k] = (float)info->stamina;
    app->plot_speed[k] = (float)hypot(info->velocity.x, info->velocity.z);
    app->plot_height[k] = (float)info->position.y;
    app->plot_head = (k + 1) % SB_PLOT_SAMPLES;
    if (app->plot_count < SB_PLOT_SAMPLES) app->plot_count++;

    gait_body_type body = info->body_type;
    if (act->panel_set || act->panel_write) {
        panel_rows(app, body, true);
        int i = panel_find(app, act->panel_key);
        if (i < 0) {
            printf("panel_error t=%.2f no number '%s' for %s\n", now_s() - app->t0, act->panel_key,
                   gait_body_type_name(body));
        } else if (act->panel_set) {
            panel_apply(app, body, i, act->panel_value);
        } else {
            panel_write(app, i);
        }
    }
#ifdef GAIT_SANDBOX_PANEL
    if (!app->panel_ready) return;
    if (app->panel_open) panel_rows(app, body, false);
    sb_panel_view v;
    memset(&v, 0, sizeof v);
    v.open = app->panel_open;
    v.body = gait_body_type_name(body);
    v.measured = gait_world_locomotion_measured(app->world, body);
    v.rows = app->rows;
    v.row_count = app->row_count;
    v.edited = app->edited;
    v.status = app->panel_status;
    v.state_count = GAIT_STATE_COUNT;
    v.state = (int)info->phase.state;
    for (int s = 0; s < GAIT_STATE_COUNT; s++) {
        v.state_names[s] = gait_state_name((gait_state)s);
        sb_state_color((gait_state)s, v.state_rgb[s]);
    }
    /* the ring buffers, oldest first once full */
    v.stamina = app->plot_stamina, v.speed = app->plot_speed, v.height = app->plot_height;
    v.samples = app->plot_count;
    v.head = app->plot_count < SB_PLOT_SAMPLES ? 0 : app->plot_head;
    v.stamina_max = (float)info->stamina_max;
    v.plot_seconds = (float)app->plot_count / 60.0f;
    char verdict[160];
    gait_traverse_info ti;
    if (gait_character_traverse_info(app->world, app->player, &ti) == GAIT_OK)
        snprintf(verdict, sizeof verdict, "%s%s%s (height %.2f m, depth %.2f m); last action %s",
                 ti.scan.reason, ti.scan.ok ? ": " : "", ti.scan.ok ? "an action fits" : "", ti.scan.height,
                 ti.scan.depth, gait_traverse_kind_name(ti.kind));
    else
        snprintf(verdict, sizeof verdict, "-");
    v.verdict = verdict;
    v.kit = app->kit_used;
    v.kit_error = app->script ? gait_script_last_error(app->script) : "";
    sb_panel_edit e;
    sb_panel_draw(&v, &e);
    app->controls.ui_mouse = sb_panel_wants_mouse();
    app->controls.ui_keyboard = sb_panel_wants_keyboard();
    if (e.row >= 0 && e.row < app->row_count) panel_apply(app, body, e.row, e.value);
    if (e.write_row >= 0 && e.write_row < app->row_count) panel_write(app, e.write_row);
    if (e.write_all)
        for (int i = 0; i < app->row_count; i++)
            if (app->edited[i]) panel_write(app, i);
#endif
}

/* ---- the frame loop ----------------------------------------------------------------------- */

/* The render scale picks itself: under Mesa's llvmpipe (no GPU) the frame is nearly all
 * per-pixel work, so when the frame's work (input to swap, without the pacing sleep) over the
 * last second does not fit the frame budget (1/60 s, or 1/--fps) the 3D scene is drawn at a
 * step less of the window's resolution (1, 0.75, 0.5), and a step more once it fits with room
 * to spare. Measured with --profile at 1280x720 over the lake: the scene's passes at 0.5 cost
 * about a third of their CPU at 1, the scale-up pass about 6 ms. The HUD and panel stay sharp. */
static void render_scale_auto(sb_app *app, double now, double work) {
    app->scale_work += work;
    app->scale_frames++;
    if (app->scale_start == 0) app->scale_start = now;
    if (now - app->scale_start < 1.0 || app->scale_frames < 10) return;
    double avg_ms = 1000.0 * app->scale_work / app->scale_frames;
    double budget = 1000.0 / (app->opt.fps > 0 ? app->opt.fps : 60.0);
    static const float steps[] = {1.0f, 0.75f, 0.5f};
    float scale = sb_renderer_scale(app->renderer);
    int k = 0;
    while (k < 2 && steps[k] > scale + 0.01f) k++;
    int next = k;
    if (avg_ms > budget * 0.95 && k < 2) next = k + 1;
    else if (avg_ms < budget * 0.5 && k > 0) next = k - 1;   /* room for twice the pixels */
    if (next != k) {
        sb_renderer_set_scale(app->renderer, steps[next]);
        printf("render_scale t=%.2f %.2f (frame work %.1f ms, budget %.1f ms)\n", now - app->t0,
               steps[next], avg_ms, budget);
        fflush(stdout);
    }
    app->scale_start = now;
    app->scale_work = 0;
    app->scale_frames = 0;
}

/* scripts/controls.lua under the root: read at start and when saved. A broken file keeps the
 * last good controls and says why (controls_error, the banner). */
static void controls_load(sb_app *app, bool reload) {
    char path[SB_PATH_MAX], err[SB_ERROR_MAX];
    sb_path_join(path, sizeof path, app->opt.root, "scripts/controls.lua");
    if (!reload && !file_exists(path)) return;   /* the built-in defaults (the same) */
    if (!sb_controls_load_bindings(&app->controls, path, err, sizeof err)) {
        set_error(app, "controls_error", err);
        return;
    }
    printf("controls t=%.2f %s%s: sensitivity %.4f rad/px%s\n", now_s() - app->t0, path,
           reload ? " reloaded" : "", app->controls.bind.sensitivity,
           app->controls.bind.invert_y ? ", invert-Y" : "");
    fflush(stdout);
    if (reload) {
        snprintf(app->notice, sizeof app->notice, "reloaded: controls.lua");
        app->notice_time = now_s();
        if (strncmp(app->error, path, strlen(path)) == 0) app->error[0] = '\0';
    }
}


/* F12 and a track's bare screenshot: gait-shot-NNN.png, numbered past the files already there
 * (a new run never overwrites the last run's shots). Returns false when it could not be written. */
static bool take_screenshot(sb_app *app, const char *path) {
    char auto_path[SB_PATH_MAX];
    if (!path || !path[0]) {
        do snprintf(auto_path, sizeof auto_path, "gait-shot-%03d.png", ++app->shot_count);
        while (file_exists(auto_path) && app->shot_count < 100000);
        path = auto_path;
    }
    char err[256];
    bool ok = sb_screenshot(path, app->view.width, app->view.height, err, sizeof err);
    if (ok) printf("screenshot t=%.2f %s\n", now_s() - app->t0, path);
    else fprintf(stderr, "gait-sandbox: screenshot: %s\n", err);
    fflush(stdout);
    return ok;
}

static int run(sb_app *app) {
    double last = now_s();
    app->t0 = last;
    app->stat_start = last;
    app->last_state = GAIT_STATE_COUNT;
    double world_check = 0, controls_check = 0;
    while (!glfwWindowShouldClose(app->window) && !stop_requested) {
        if (app->play && gait_replay_player_frame_index(app->play) >= gait_replay_player_frame_count(app->play))
            break;   /* a replay of no frames */
        double start = now_s(), cpu_start = cpu_s();
        double dt = start - last;
        last = start;
        if (app->frame == 0) dt = 1.0 / 60.0;
        if (dt > 0.25) dt = 0.25;   /* a stall is clamped here too; the clock caps its steps */

        glfwPollEvents();
        sb_actions act;
        memset(&act, 0, sizeof act);
        sb_controls_play_track(&app->controls, start - app->t0, &act);
        gait_input in;
        sb_controls_gather(&app->controls, app->window, &in, &act);

        if (start - controls_check > 0.5) {
            controls_check = start;
            if (sb_controls_bindings_changed(&app->controls)) controls_load(app, true);
        }
        if (act.help_toggle) app->help = !app->help;
        if (act.panel_toggle || act.panel_show) {
            bool open = act.panel_show ? act.panel_show == 1 : !app->panel_open;
#ifdef GAIT_SANDBOX_PANEL
            if (!app->panel_ready && open) {
                set_error(app, "panel_error", "the tuning panel could not start (see stderr)");
                open = false;
            }
#else
            if (open) {
                set_error(app, "panel_error", "this sandbox was built without Dear ImGui (libimgui-dev): "
                                              "no tuning panel; make deps, then make");
                open = false;
            }
#endif
            app->panel_open = open;
            app->rows_time = -1;
            /* the panel wants the cursor; closing it gives the mouse back to the camera */
            sb_controls_set_captured(app->window, &app->controls, !open);
            printf("panel t=%.2f %s\n", now_s() - app->t0, open ? "open" : "closed");
        }
        if (act.debug_toggle) app->debug = !app->debug;
        if (act.party >= 1 && act.party <= 4) {
            static const gait_body_type types[4] = {GAIT_BODY_MEDIUM_FEMALE, GAIT_BODY_MEDIUM_MALE,
                                                    GAIT_BODY_TALL_FEMALE, GAIT_BODY_TALL_MALE};
            if (!app->play && gait_character_set_body_type(app->world, app->player, types[act.party - 1]) == GAIT_OK) {
                app->party = act.party;
                if (app->rec) {
                    char ev[64];
                    snprintf(ev, sizeof ev, "party %s", gait_body_type_name(types[act.party - 1]));
                    record_event(app, ev);
                }
                const char *kit = party_kits[act.party - 1];
                if (app->script && gait_script_set_kit(app->script, app->player, kit) == GAIT_OK) {
                    snprintf(app->kit_used, sizeof app->kit_used, "%s", kit);
                    if (app->rec) {
                        char ev[80];
                        snprintf(ev, sizeof ev, "kit %s", kit);
                        record_event(app, ev);
                    }
                }
            }
        }
        if (act.reload || (start - world_check > 0.5 && (world_check = start, sb_scene_changed(&app->scene)))) {
            if (load_world(app, false) && app->error_is_world) app->error[0] = '\0';
            if (act.reload && app->script && !app->play) {   /* F5: the scripts too, now */
                script_load(app);
                if (app->rec) record_tuning(app);
            }
        }

        /* Input: the look turns the camera now; the presses are held until a step reads them.
         * A replay gives the recorded input and frame seconds instead (the live input still
         * drives the sandbox's own actions: help, debug view, screenshots). */
        if (app->play) {
            if (!replay_events(app)) return 1;
            if (gait_replay_player_next(app->play, app->world, &dt) != GAIT_OK) {
                fprintf(stderr, "gait-sandbox: --replay %s: %s\n", app->opt.replay,
                        gait_replay_player_last_error(app->play));
                return 1;
            }
        } else {
            gait_character_set_input(app->world, app->player, &in);
            if (app->rec && gait_replay_recorder_input(app->rec, app->player, &in) != GAIT_OK)
                fprintf(stderr, "gait-sandbox: --record: %s\n", gait_replay_recorder_last_error(app->rec));
        }

        /* hot reload of saved files (not while replaying: the replay's reloads are its own) */
        if (app->script && !app->play) script_poll(app);
        /* The runtime's share of the frame: the kits (with the Lua layer), the fixed steps and
         * the camera's follow, all inside this call. */
        double rt0 = now_s();
        int steps = 0;
        if (app->script) {
            gait_script_frame(app->script, dt, &steps);
            script_check(app);
        } else
        {
            gait_world_update(app->world, dt, &steps);
        }
        double runtime = now_s() - rt0;
        if (app->rec && gait_replay_recorder_end_frame(app->rec, dt) != GAIT_OK)
            fprintf(stderr, "gait-sandbox: --record: %s\n", gait_replay_recorder_last_error(app->rec));

        gait_character_info info;
        gait_pose pose;
        gait_character_info_get(app->world, app->player, &info);
        gait_character_pose(app->world, app->player, &pose);
        if (info.phase.state != app->last_state) {
            if (app->last_state != GAIT_STATE_COUNT)
                printf("state t=%.2f from=%s to=%s stamina=%.1f\n", start - app->t0,
                       gait_state_name(app->last_state), gait_state_name(info.phase.state), info.stamina);
            app->last_state = info.phase.state;
        }

        /* The follow camera has followed the blended body (inside the update). */
        camera_view(app);
        int fbw, fbh;
        glfwGetFramebufferSize(app->window, &fbw, &fbh);
        app->view.width = fbw, app->view.height = fbh;

        const gait_locomotion *num = gait_world_locomotion(app->world, info.body_type);
        sb_character_draw chd;
        chd.pose = pose;
        chd.state = info.phase.state;
        chd.radius = num->capsule_radius;
        chd.crouching = info.crouching || info.phase.state == GAIT_STATE_CROUCH;
        chd.height = chd.crouching ? num->crouch_height : num->capsule_height;
        chd.party = app->party ? app->party : 1;
        /* Faded when the camera comes within a body's width of its axis (a wall behind it
         * shortening the arm): from opaque at 1.2 m to a ghost at 0.4 m. */
        {
            double ax = pose.position.x, az = pose.position.z;
            double ay = fmin(fmax(app->view.eye.y, pose.position.y), pose.position.y + chd.height);
            double d = sqrt((app->view.eye.x - ax) * (app->view.eye.x - ax) + (app->view.eye.y - ay) * (app->view.eye.y - ay) +
                            (app->view.eye.z - az) * (app->view.eye.z - az)) - chd.radius;
            chd.alpha = (float)fmin(1.0, fmax(0.15, (d - 0.4) / 0.8));
        }
        /* The ground below the feet (terrain or a landmark), for the shadow and facing arrow. */
        {
            gait_hit hit;
            gait_vec3 from = {pose.position.x, pose.position.y + 0.2, pose.position.z};
            chd.has_ground = gait_collider_ray_cast(gait_world_collider_const(app->world), from,
                                                    (gait_vec3){0, -30, 0}, NULL, &hit);
            if (chd.has_ground) chd.ground = hit.point, chd.ground_normal = hit.normal;
        }

        double ws, wd;
        bool underwater = gait_water_at(gait_world_collider_const(app->world), app->view.eye.x,
                                        app->view.eye.z, &ws, &wd) && app->view.eye.y < ws;

        line_list *lines = app->lines;
        lines->n = 0;
        lines->label_count = 0;
        lines->origin = app->view.eye;
        if (app->debug) {
            build_debug_lines(app, &info, &pose, num, lines);
            gait_world_draw_debug(app->world);
        }

        sb_renderer_sync_scene(app->renderer, &app->scene, gait_world_collider_const(app->world));
        sb_renderer_move_landmarks(app->renderer, gait_world_collider_const(app->world),
                                   gait_world_alpha(app->world));
        /* The debug view shows the level's own triangles. */
        sb_renderer_set_wireframe(app->renderer, app->scene.level_first, app->debug ? app->scene.level_count : 0);
        sb_renderer_draw(app->renderer, &app->scene, &app->view, &chd, lines->v, lines->n, underwater);
        if (app->opt.hud) draw_hud(app, &info, app->runtime_ms);
        sb_renderer_profile_mark(app->renderer, -1);
        panel_frame(app, &info, &act);
        sb_renderer_profile_mark(app->renderer, SB_PASS_PANEL);

        app->frame++;
        bool last_frame = (app->opt.frames > 0 && app->frame >= app->opt.frames) || act.quit ||
                          stop_requested ||
                          (app->play && gait_replay_player_frame_index(app->play) >=
                                            gait_replay_player_frame_count(app->play));
        if (act.screenshot) take_screenshot(app, act.screenshot_path);
        if (app->opt.screenshot[0] &&
            ((app->opt.shot_frame > 0 && app->frame == app->opt.shot_frame) ||
             (app->opt.shot_frame == 0 && last_frame)) &&
            !take_screenshot(app, app->opt.screenshot))
            app->shot_failed = true;   /* --screenshot asked for it: the run fails (exit 1) */
        sb_renderer_profile_mark(app->renderer, -1);
        glfwSwapBuffers(app->window);
        sb_renderer_profile_mark(app->renderer, SB_PASS_SWAP);

        double end = now_s();
        app->stat_frames++;
        app->stat_work += end - start;
        app->stat_runtime += runtime;
        app->stat_cpu += cpu_s() - cpu_start;
        if (end - app->stat_start >= app->opt.status_interval || last_frame) {  /* and a last one */
            double span = end - app->stat_start;
            app->fps = app->stat_frames / span;
            app->frame_ms = 1000.0 * app->stat_work / app->stat_frames;
            app->runtime_ms = 1000.0 * app->stat_runtime / app->stat_frames;
            app->cpu_ms = 1000.0 * app->stat_cpu / app->stat_frames;
            gait_anim_signal anim;
            if (gait_character_anim(app->world, app->player, &anim) != GAIT_OK) anim.wanted = GAIT_ANIM_IDLE;
            printf("status t=%.2f pos=%.3f,%.3f,%.3f state=%s stamina=%.1f fps=%.1f frame_ms=%.2f "
                   "runtime_ms=%.3f cpu_ms=%.2f cam_yaw=%.4f yaw=%.4f speed=%.2f steps=%llu frame=%ld action=%s "
                   "anim=%s errors=%u banner=%s\n",
                   end - app->t0, info.position.x, info.position.y, info.position.z,
                   gait_state_name(info.phase.state), info.stamina, app->fps, app->frame_ms,
                   app->runtime_ms, app->cpu_ms, info.camera_yaw, info.yaw, hypot(info.velocity.x, info.velocity.z),
                   (unsigned long long)info.steps, app->frame,
                   info.action_name[0] ? info.action_name : "-", gait_anim_state_name(anim.wanted),
                   app->script ? gait_script_error_count(app->script) : 0u,
                   !app->error[0] ? "-" : app->error_is_world ? "world" : "script");
            if (app->opt.profile) {
                static const char *const names[SB_PASS_COUNT] = {"clear", "opaque", "sky", "lines", "water",
                                                                 "upscale", "hud", "panel", "swap"};
                double ms[SB_PASS_COUNT];
                sb_renderer_pass_ms(app->renderer, ms);
                printf("passes t=%.2f frames=%d", end - app->t0, app->stat_frames);
                for (int k = 0; k < SB_PASS_COUNT; k++) printf(" %s=%.2f", names[k], ms[k] / app->stat_frames);
                printf(" terrain_tris=%d\n", sb_renderer_terrain_triangles(app->renderer));
            }
            fflush(stdout);
            app->stat_start = end;
            app->stat_frames = 0;
            app->stat_work = app->stat_runtime = app->stat_cpu = 0;
        }
        if (!app->opt.render_scale_given) render_scale_auto(app, end, end - start);
        if (last_frame) break;
        /* Pace to the target rate ourselves: swap intervals do not pace under Xvfb. */
        if (app->opt.fps > 0) sleep_s(start + 1.0 / app->opt.fps - now_s());
    }
    return 0;
}

static int sb_main(sb_app *app, int argc, char **argv);

/* ---- replays ------------------------------------------------------------------------------ */

/* --replay: loads the file; its world, kit and --place become the run's unless given. */
static bool replay_open(sb_app *app) {
    char err[1024];
    if (gait_replay_player_open(app->opt.replay, NULL, &app->play, err, sizeof err) != GAIT_OK) {
        fprintf(stderr, "gait-sandbox: --replay: %s\n", err);
        return false;
    }
    const char *world = gait_replay_player_world_name(app->play);
    if (!app->opt.world_given && world[0]) snprintf(app->opt.world, sizeof app->opt.world, "%s", world);
    const char *kit = gait_replay_player_meta(app->play, "kit");
    if (!app->opt.kit[0] && kit) snprintf(app->opt.kit, sizeof app->opt.kit, "%s", kit);
    const char *place = gait_replay_player_meta(app->play, "place");
    if (!app->opt.place && place &&
        sscanf(place, "%lf,%lf,%lf,%lf", &app->opt.place_at.x, &app->opt.place_at.y,
               &app->opt.place_at.z, &app->opt.place_yaw) == 4)
        app->opt.place = true;
    printf("replay %s: %d frames of %s\n", app->opt.replay, gait_replay_player_frame_count(app->play),
           world[0] ? world : "(no world)");
    return true;
}

/* --record: the header says what `gait replay` must rebuild: the world file (an absolute path
 * when it can be made one), the host, the kit and where the player was placed. */
static bool record_start(sb_app *app) {
    char world[PATH_MAX];
    if (!realpath(app->opt.world, world)) snprintf(world, sizeof world, "%s", app->opt.world);
    app->rec = gait_replay_recorder_create(NULL, world);
    char buf[256];
    bool ok = app->rec != NULL &&
              gait_replay_recorder_set_meta(app->rec, "host", "sandbox") == GAIT_OK &&
              gait_replay_recorder_add_character(app->rec, app->player) == GAIT_OK;
    if (ok) {
        snprintf(buf, sizeof buf, "%g", app->opt.fps);
        gait_replay_recorder_set_meta(app->rec, "fps", buf);
        if (app->kit_used[0]) gait_replay_recorder_set_meta(app->rec, "kit", app->kit_used);
        if (app->opt.place) {
            snprintf(buf, sizeof buf, "%a,%a,%a,%a", app->opt.place_at.x, app->opt.place_at.y,
                     app->opt.place_at.z, app->opt.place_yaw);
            gait_replay_recorder_set_meta(app->rec, "place", buf);
        }
    }
    if (!ok) {
        fprintf(stderr, "gait-sandbox: --record %s: could not start recording: %s\n", app->opt.record,
                app->rec ? gait_replay_recorder_last_error(app->rec) : "bad world path or out of memory");
        return false;
    }
    signal(SIGINT, on_stop_signal);
    signal(SIGTERM, on_stop_signal);
    return true;
}

/* What a replay must redo at a frame besides the inputs: a party switch ("party tall_male") or
 * a tuning reload ("tuning DIR": the files as they were then, copied beside the replay), as the
 * header's meta pairs "event.N" = "FRAME what" (applied before that frame's inputs). The header
 * holds GAIT_REPLAY_MAX_META pairs: past that a run's replay cannot match, and it says so. */
static void record_event(sb_app *app, const char *what) {
    char key[32], value[256];
    snprintf(key, sizeof key, "event.%d", app->rec_events + 1);
    snprintf(value, sizeof value, "%d %s", gait_replay_recorder_frame_count(app->rec), what);
    if (gait_replay_recorder_set_meta(app->rec, key, value) != GAIT_OK) {
        fprintf(stderr, "gait-sandbox: --record: cannot note \"%s\" (%s): the replay will not match "
                        "this run from here on\n", what, gait_replay_recorder_last_error(app->rec));
        return;
    }
    app->rec_events++;
    printf("record_event %s = %s\n", key, value);
    fflush(stdout);
}

/* The tuning files now in force, copied to RECORD.tuning-N/ beside the replay. */
static void record_tuning(sb_app *app) {
    static const char *const files[] = {"locomotion", "stamina", "gates", "traversal", "camera", "anim"};
    char dir[SB_PATH_MAX + 32], from[SB_PATH_MAX], to[SB_PATH_MAX * 2], rel[64], abs_dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s.tuning-%d", app->opt.record, app->rec_events + 1);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "gait-sandbox: --record: %s: %s (the replay will not match)\n", dir, strerror(errno));
        return;
    }
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        snprintf(rel, sizeof rel, "scripts/tuning/%s.lua", files[i]);
        sb_path_join(from, sizeof from, app->opt.root, rel);
        if (!file_exists(from)) continue;
        snprintf(to, sizeof to, "%s/%s.lua", dir, files[i]);
        if (!sb_copy_file(from, to)) {
            fprintf(stderr, "gait-sandbox: --record: cannot copy %s to %s (the replay will not match)\n", from, to);
            return;
        }
    }
    char what[PATH_MAX + 16];
    snprintf(what, sizeof what, "tuning %s", realpath(dir, abs_dir) ? abs_dir : dir);
    record_event(app, what);
}

/* --replay: the events due at the next frame (party switches, tuning reloads). */
static bool replay_events(sb_app *app) {
    int frame = gait_replay_player_frame_index(app->play);
    for (;;) {
        char key[32];
        snprintf(key, sizeof key, "event.%d", app->play_event + 1);
        const char *ev = gait_replay_player_meta(app->play, key);
        int at = -1, used = 0;
        if (!ev || sscanf(ev, "%d %n", &at, &used) != 1 || at > frame) return true;
        const char *what = ev + used;
        app->play_event++;
        if (strncmp(what, "party ", 6) == 0) {
            int type = gait_body_type_from_name(what + 6);
            if (type < 0 || gait_character_set_body_type(app->world, app->player, (gait_body_type)type) != GAIT_OK) {
                fprintf(stderr, "gait-sandbox: --replay: %s: bad party switch \"%s\"\n", key, what);
                return false;
            }
        } else if (strncmp(what, "kit ", 4) == 0) {
            if (!app->script || gait_script_set_kit(app->script, app->player, what + 4) != GAIT_OK) {
                fprintf(stderr, "gait-sandbox: --replay: %s: the kit %s does not load\n", key, what + 4);
                return false;
            }
        } else if (strncmp(what, "tuning ", 7) == 0) {
            if (!app->script || gait_script_load_tuning(app->script, what + 7) != GAIT_OK) {
                fprintf(stderr, "gait-sandbox: --replay: %s: the tuning in %s does not load: %s\n", key,
                        what + 7, app->script ? gait_script_last_error(app->script) : "no Lua layer");
                return false;
            }
        } else {
            fprintf(stderr, "gait-sandbox: --replay: %s: unknown event \"%s\"\n", key, what);
            return false;
        }
        printf("replay_event frame=%d %s\n", frame, what);
    }
}

/* Saves the replay and prints the hash `gait replay` must reproduce. */
static bool record_finish(sb_app *app) {
    if (gait_replay_recorder_save(app->rec, app->opt.record) != GAIT_OK) {
        fprintf(stderr, "gait-sandbox: --record: %s\n", gait_replay_recorder_last_error(app->rec));
        return false;
    }
    printf("record_done hash=%016llx frames=%d file=%s\n",
           (unsigned long long)gait_world_state_hash(app->world),
           gait_replay_recorder_frame_count(app->rec), app->opt.record);
    fflush(stdout);
    return true;
}

int main(int argc, char **argv) {
    /* Status lines go to a pipe in tests: keep them line by line. */
    setvbuf(stdout, NULL, _IOLBF, 0);
    sb_app *owned = calloc(1, sizeof *owned);   /* too large for the stack */
    if (!owned) return 1;
    int rc = sb_main(owned, argc, argv);
    free(owned);
    return rc;
}

static int sb_main(sb_app *app, int argc, char **argv) {
    app->t0 = now_s();
    if (!parse_args(argc, argv, &app->opt)) return 2;
    find_root(&app->opt);
    if (app->opt.replay[0] && !replay_open(app)) return 1;
    if (app->opt.record[0]) {
        /* Fail now, not after the run: the file must be writable (it is written at exit). */
        FILE *probe = fopen(app->opt.record, "w");
        if (!probe) {
            fprintf(stderr, "gait-sandbox: --record %s: cannot write the replay: %s\n",
                    app->opt.record, strerror(errno));
            return 2;
        }
        fclose(probe);
    }
    /* --level alone: an empty world holding just the level. */
    if (!app->opt.world[0] && !app->opt.level[0])
        sb_path_join(app->opt.world, sizeof app->opt.world, app->opt.root, "scripts/worlds/default.lua");
    if (app->opt.record[0] && app->opt.level[0]) {
        fprintf(stderr, "gait-sandbox: --record with --level: a replay names a world file; put "
                        "level = \"%s\" in one and pass that instead\n", app->opt.level);
        return 2;
    }

    const char *display = getenv("DISPLAY"), *wayland = getenv("WAYLAND_DISPLAY");
    if ((!display || !display[0]) && (!wayland || !wayland[0])) {
        fprintf(stderr,
                "gait-sandbox: no display (DISPLAY is not set), so there is no window to open.\n"
                "  Run it in a desktop session, or under Xvfb:\n"
                "    xvfb-run -a -s '-screen 0 1280x720x24' %s\n"
                "  or play the headless demo: make run (or build/gait run scripts/demo.lua)\n",
                argv[0]);
        return 3;
    }
    glfwSetErrorCallback(on_glfw_error);
    if (!glfwInit()) {
        fprintf(stderr, "gait-sandbox: GLFW could not start (no usable display at '%s'); "
                        "see the GLFW error above. Try: make run (the headless demo).\n",
                display ? display : "");
        return 3;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_RESIZABLE, GLFW_TRUE);
    sb_controls_init(&app->controls);
    char title[128];
    const char *shown = app->opt.world[0] ? app->opt.world : app->opt.level;
    const char *base = strrchr(shown, '/');
    snprintf(title, sizeof title, "gait sandbox - %.100s", base ? base + 1 : shown);
    app->window = glfwCreateWindow(app->opt.width, app->opt.height, title, NULL, NULL);
    if (!app->window) {
        fprintf(stderr, "gait-sandbox: could not open a %dx%d OpenGL 3.3 core window\n",
                app->opt.width, app->opt.height);
        glfwTerminate();
        return 3;
    }
    glfwMakeContextCurrent(app->window);
    glfwSwapInterval(0);   /* we pace ourselves */
    if (!gladLoadGL(glfwGetProcAddress)) {
        fprintf(stderr, "gait-sandbox: could not load OpenGL 3.3 core functions\n");
        glfwTerminate();
        return 3;
    }
    glfwSetWindowUserPointer(app->window, &app->controls);
    sb_controls_install(app->window);
#ifdef GAIT_SANDBOX_PANEL
    /* after the sandbox's callbacks: ImGui's chain to them */
    app->panel_ready = sb_panel_create(app->window);
    if (!app->panel_ready) fprintf(stderr, "gait-sandbox: Dear ImGui could not start: no tuning panel\n");
#endif
    const char *renderer = (const char *)glGetString(GL_RENDERER);
    /* Full resolution to start; without --render-scale the scale then picks itself
     * (render_scale_auto). */
    double scale = app->opt.render_scale > 0 ? app->opt.render_scale : 1.0;
    printf("gait-sandbox: OpenGL %s, %s; scene drawn at %.2fx%s; root %s\n",
           (const char *)glGetString(GL_VERSION), renderer ? renderer : "?", scale,
           app->opt.render_scale_given ? "" : " (picks itself)", app->opt.root);

    char err[SB_ERROR_MAX];
    int rc = 1;
    controls_load(app, false);
    if (app->opt.input[0] && !sb_controls_load_track(&app->controls, app->opt.input, err, sizeof err)) {
        fprintf(stderr, "gait-sandbox: %s\n", err);
        goto out;
    }
    char shader_dir[SB_PATH_MAX];
    sb_path_join(shader_dir, sizeof shader_dir, app->opt.root, "shaders");
    app->renderer = sb_renderer_create(shader_dir, err, sizeof err);
    if (!app->renderer) {
        fprintf(stderr, "gait-sandbox: %s\n", err);
        goto out;
    }
    sb_renderer_set_scale(app->renderer, (float)scale);
    sb_renderer_set_profile(app->renderer, app->opt.profile);
    gait_world_def wd = gait_default_world_def();
    app->world = gait_world_create(&wd);
    app->lines = calloc(1, sizeof *app->lines);
    if (!app->world || !app->lines) {
        fprintf(stderr, "gait-sandbox: could not create the world\n");
        goto out;
    }
    gait_debug_draw dd = {dbg_line, dbg_point, dbg_text, app->lines};
    gait_world_set_debug_draw(app->world, &dd);
    app->t0 = now_s();
    camera_init(app);
    if (!load_world(app, true)) {
        fprintf(stderr, "gait-sandbox: %s\n", app->error);
        goto out;
    }
    script_start(app);
    if (app->opt.record[0] && !record_start(app)) goto out;
    rc = run(app);
    if (rc == 0 && app->shot_failed) rc = 1;
    if (rc == 0 && app->opt.screenshot[0] && app->opt.shot_frame > app->frame) {
        fprintf(stderr, "gait-sandbox: --shot-frame %ld: the run ended at frame %ld, no screenshot\n",
                app->opt.shot_frame, app->frame);
        rc = 1;
    }
    if (rc == 0 && app->rec && !record_finish(app)) rc = 1;
    if (rc == 0 && app->play) {
        printf("replay_done hash=%016llx frames=%d\n",
               (unsigned long long)gait_world_state_hash(app->world),
               gait_replay_player_frame_index(app->play));
        fflush(stdout);
    }
out:
    sb_tuning_close(app->tuning);
#ifdef GAIT_SANDBOX_PANEL
    if (app->panel_ready) sb_panel_destroy();
#endif
    if (app->script) gait_script_destroy(app->script);
    sb_scene_free(&app->scene, app->world);
    if (app->world) gait_world_destroy(app->world);
    sb_renderer_destroy(app->renderer);
    sb_controls_free(&app->controls);
    gait_replay_recorder_destroy(app->rec);
    gait_replay_player_destroy(app->play);
    free(app->lines);
    glfwDestroyWindow(app->window);
    glfwTerminate();
    return rc;
}
