/* gait sandbox — a GLFW + OpenGL 3.3 host of the runtime (issue 7).
 *
 * The sandbox is a host like any engine: it links libgait.a and uses runtime/include only.
 * Modules, one job each:
 *   main.c      arguments, the window, the frame loop (docs/behaviour.md, "The frame and the step"), status lines, screenshots
 *   controls.c  keys, mouse, gamepad and scripted input tracks -> gait_input + sandbox actions
 *   scene.c     the world file (Lua data) -> terrain, water, landmarks in the collider + draw data
 *   render.c    shaders from shaders/, terrain/water/landmark/character/sky drawing, debug lines
 *   hud.c       the HUD and help overlay (stb_easy_font), 2D rectangles
 *   shot.c      PNG screenshots (stb_image_write; stb_image itself lives in the library)
 *
 * World coordinates are doubles; everything drawn is float relative to a floating origin (the
 * camera's eye), subtracted in double first. */
#ifndef GAIT_SANDBOX_H
#define GAIT_SANDBOX_H

#include <glad/gl.h>
/* glad provides the GL declarations; keep GLFW from including the system GL header. */
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <stdbool.h>
#include <stdio.h>

#include "gait/gait.h"
#include "gait/script.h"

#define SB_PATH_MAX 1024
#define SB_MAX_LANDMARKS 2048      /* world-file landmarks and a level's meshes together */
#define SB_MAX_PATH 16             /* points of a moving landmark's path in a world file */
#define SB_MAX_WATER 32
#define SB_MAX_GADGETS 64
#define SB_ERROR_MAX 2048

/* ---- scene (scene.c) --------------------------------------------------------------------- */

/* A vertex as the lit shader reads it: position (relative to its mesh's offset), normal, colour. */
typedef struct sb_vertex {
    float px, py, pz;
    float nx, ny, nz;
    float r, g, b;
} sb_vertex;

/* Flat-shaded triangles (3 vertices each) at a world offset. */
typedef struct sb_draw_mesh {
    sb_vertex *verts;
    int count;                   /* vertices */
    gait_vec3 offset;            /* world position of the mesh's local origin (m) */
    char name[32];
} sb_draw_mesh;

typedef struct sb_scene {
    char path[SB_PATH_MAX];      /* the world file */
    char dir[SB_PATH_MAX];       /* its directory */
    char name[64];
    gait_vec3 spawn;
    double spawn_yaw;
    /* terrain, as the heightmap maps it (for drawing; the collider holds the heights) */
    bool has_terrain;
    int samples_x, samples_z;
    double cell_size;
    gait_vec3 origin;
    double sea_level;            /* -INFINITY: none */
    int water_count;
    gait_water_region water[SB_MAX_WATER];
    int landmark_count;
    gait_landmark_id landmarks[SB_MAX_LANDMARKS];
    sb_draw_mesh meshes[SB_MAX_LANDMARKS];
    int generation;              /* bumped on each successful (re)load: the renderer re-uploads */
    long long mtime_ns;          /* of the world file when last read, loaded or not (hot reload:
                                    a broken file is reported once, not every poll) */
    /* A level file (--level, or `level = "file"` in the world file) read through the host-side
     * importer (runtime/cli/level.h: assimp: glTF/GLB, OBJ, FBX, PLY, ...). */
    char level[SB_PATH_MAX];     /* the level file loaded, "" none */
    long long level_mtime_ns;
    int level_first, level_count;/* its meshes: landmarks[level_first .. + level_count) */
    int level_triangles;
    gait_vec3 level_min, level_max;
    bool spawn_from_level;       /* the spawn came from the level (its start node or centre) */
    char spawn_source[96];       /* how the spawn was chosen, for the console */
} sb_scene;

/* Reads the world file (path "" for none: an empty world) and the level (level_path, or the
 * world file's `level` key when ""), and builds them into the world's collider. On failure
 * nothing changes and err holds "file:line: message". A reload replaces the landmarks, water,
 * terrain and level. */
bool sb_scene_load(sb_scene *scene, gait_world *world, const char *path, const char *level_path,
                   char *err, size_t cap);
void sb_scene_free(sb_scene *scene, gait_world *world);
/* True when the world file or the level file changed on disk since it was loaded. */
bool sb_scene_changed(const sb_scene *scene);

/* ---- controls (controls.c) --------------------------------------------------------------- */

enum { SB_MOUSE_BUTTONS = 8 };

/* One line of an input track (see controls.c for the format). */
typedef struct sb_track_event {
    double time;                 /* s since the start */
    int kind;                    /* SB_EV_* */
    int code;                    /* GLFW key or mouse button */
    double a, b;                 /* mouse dx, dy / wheel */
    char text[SB_PATH_MAX];      /* screenshot path */
} sb_track_event;

enum { SB_EV_KEY_DOWN, SB_EV_KEY_UP, SB_EV_KEY_TAP, SB_EV_BUTTON_DOWN, SB_EV_BUTTON_UP,
       SB_EV_BUTTON_TAP, SB_EV_MOUSE, SB_EV_WHEEL, SB_EV_SCREENSHOT, SB_EV_QUIT,
       SB_EV_PAD_DOWN, SB_EV_PAD_UP, SB_EV_PAD_TAP, SB_EV_PAD_AXIS, SB_EV_PANEL_OPEN,
       SB_EV_PANEL_SET, SB_EV_PANEL_WRITE };

/* What a control does (scripts/controls.lua names them). */
enum {
    SB_DO_FORWARD, SB_DO_BACK, SB_DO_LEFT, SB_DO_RIGHT, SB_DO_JUMP, SB_DO_SPRINT, SB_DO_WALK,
    SB_DO_DROP, SB_DO_ATTACK, SB_DO_SKILL, SB_DO_BURST, SB_DO_CROUCH, SB_DO_PARTY1,
    SB_DO_PARTY2, SB_DO_PARTY3, SB_DO_PARTY4, SB_DO_DEBUG, SB_DO_PANEL, SB_DO_RELOAD,
    SB_DO_SCREENSHOT, SB_DO_HELP, SB_DO_FREE_CURSOR, SB_DO_COUNT
};
enum { SB_BIND_MAX = 4, SB_PAD_TRIGGER = 100 };  /* pad codes >= SB_PAD_TRIGGER: a trigger axis */

/* The controls in force: scripts/controls.lua, or the built-in defaults (the same file's). */
typedef struct sb_bindings {
    int keys[SB_DO_COUNT][SB_BIND_MAX];       /* GLFW keys, -1 unused */
    int buttons[SB_DO_COUNT][SB_BIND_MAX];    /* GLFW mouse buttons, -1 unused */
    int pad[SB_DO_COUNT][SB_BIND_MAX];        /* GLFW gamepad buttons, SB_PAD_TRIGGER + axis */
    double sensitivity;          /* rad per pixel */
    bool invert_y;
    double wheel_zoom;           /* m per notch */
    int move_stick, look_stick;  /* 0 left, 1 right */
    double look_speed;           /* rad/s at full tilt */
    bool pad_invert_y;
    double deadzone;
} sb_bindings;

typedef struct sb_controls {
    bool key_down[GLFW_KEY_LAST + 1];
    bool key_pressed[GLFW_KEY_LAST + 1];    /* edges since the last gather */
    bool button_down[SB_MOUSE_BUTTONS];
    bool button_pressed[SB_MOUSE_BUTTONS];
    double mouse_dx, mouse_dy;              /* pixels since the last gather */
    double last_x, last_y;
    bool have_last;
    double wheel;                           /* notches since the last gather */
    bool captured;                          /* cursor disabled (mouse look) */
    bool pad_prev[GLFW_GAMEPAD_BUTTON_LAST + 1 + 6];   /* buttons, then triggers as buttons */
    sb_bindings bind;
    char bind_path[SB_PATH_MAX];            /* scripts/controls.lua, "" when built-in */
    long long bind_mtime_ns;
    /* A gamepad fed by an input track (pad events): the same path as a real one, for tests
     * and for machines without one (Xvfb has no joystick). */
    bool virtual_pad;
    GLFWgamepadstate pad_state;
    bool pad_tap_release[GLFW_GAMEPAD_BUTTON_LAST + 1];
    bool trigger_tap[2];
    /* the panel has the mouse / the keyboard (a click on it is not a recapture, typing in it
     * moves no body) */
    bool ui_mouse, ui_keyboard;
    /* the scripted input track */
    sb_track_event *track;
    int track_count, track_next;
    bool tap_release_pending[GLFW_KEY_LAST + 1];
    bool tap_button_pending[SB_MOUSE_BUTTONS];
} sb_controls;

/* What the sandbox itself does this frame (besides the character's input). */
typedef struct sb_actions {
    int party;                   /* 1..4 pressed this frame, else 0 */
    bool debug_toggle, panel_toggle, reload, screenshot, help_toggle, quit;
    /* from an input track: what the panel's widgets do (tests drive the panel this way) */
    int panel_show;              /* 1 open, 2 close */
    bool panel_set, panel_write;
    char panel_key[48];
    double panel_value;
    char screenshot_path[SB_PATH_MAX]; /* from a track; "" = the default name */
} sb_actions;

void sb_controls_init(sb_controls *c);
void sb_controls_free(sb_controls *c);
void sb_controls_install(GLFWwindow *window);   /* GLFW callbacks */
bool sb_controls_load_track(sb_controls *c, const char *path, char *err, size_t cap);
/* Applies the track's events due by time t (s). */
void sb_controls_play_track(sb_controls *c, double t, sb_actions *act);
/* Turns this frame's keys, mouse and gamepad into the character's input and the sandbox's
 * actions, then clears the frame's edges. */
void sb_controls_gather(sb_controls *c, GLFWwindow *window, gait_input *in, sb_actions *act);
void sb_controls_key(sb_controls *c, int key, bool down);
/* Reads scripts/controls.lua (path) into the bindings; on an error nothing changes and err
 * holds "file:line: what". */
bool sb_controls_load_bindings(sb_controls *c, const char *path, char *err, size_t cap);
/* True when the controls file changed on disk since it was read. */
bool sb_controls_bindings_changed(const sb_controls *c);
/* The key names bound to an action ("W", "Space / right mouse"), for the help overlay. */
void sb_controls_describe(const sb_controls *c, int action, char *out, size_t cap);
void sb_controls_button(sb_controls *c, int button, bool down);
/* Captures (mouse look) or frees the cursor. */
void sb_controls_set_captured(GLFWwindow *window, sb_controls *c, bool on);

/* ---- rendering (render.c, hud.c) --------------------------------------------------------- */

typedef struct sb_line_vertex {
    float x, y, z;
    float r, g, b, a;
} sb_line_vertex;

typedef struct sb_view {
    gait_vec3 eye, target;       /* world (m) */
    double yaw, pitch, distance; /* rad, rad, m */
    float fov_y;                 /* rad */
    int width, height;           /* framebuffer pixels */
} sb_view;

typedef struct sb_renderer sb_renderer;

sb_renderer *sb_renderer_create(const char *shader_dir, char *err, size_t cap);
void sb_renderer_destroy(sb_renderer *r);
/* Re-uploads the scene's terrain and landmarks when its generation changed. */
void sb_renderer_sync_scene(sb_renderer *r, const sb_scene *scene, const gait_collider *collider);
/* Puts the moving landmarks where they are drawn this frame (blended by the world's alpha). */
void sb_renderer_move_landmarks(sb_renderer *r, const gait_collider *collider, double alpha);

typedef struct sb_character_draw {
    gait_pose pose;
    gait_state state;
    double radius, height;       /* capsule (m), the crouched height when crouching */
    bool crouching;
    int party;                   /* 1..4: tints the body */
    float alpha;                 /* 1 opaque; less when the camera is very close (fades out) */
    bool has_ground;             /* a surface below the feet: the shadow and the facing arrow */
    gait_vec3 ground, ground_normal;
} sb_character_draw;

/* Fraction of the window's resolution the 3D scene is drawn at, in [0.1, 1] (1 by default);
 * the HUD stays at full resolution. */
void sb_renderer_set_scale(sb_renderer *r, float scale);
float sb_renderer_scale(const sb_renderer *r);
/* Profiling (--profile): every pass waits for the rasterizer and is timed. */
enum { SB_PASS_CLEAR, SB_PASS_OPAQUE, SB_PASS_SKY, SB_PASS_LINES, SB_PASS_WATER, SB_PASS_UPSCALE,
       SB_PASS_HUD, SB_PASS_PANEL, SB_PASS_SWAP, SB_PASS_COUNT };
void sb_renderer_set_profile(sb_renderer *r, bool on);
int sb_renderer_terrain_triangles(const sb_renderer *r);   /* drawn in the last frame */
/* ms per pass summed since the last call (then zeroed). */
void sb_renderer_pass_ms(sb_renderer *r, double out[SB_PASS_COUNT]);
/* Books the time since the last mark to `pass` (-1: starts a mark without booking). */
void sb_renderer_profile_mark(sb_renderer *r, int pass);
/* Landmarks [first, first + count) are drawn again as dark wireframe (count 0: none). */
void sb_renderer_set_wireframe(sb_renderer *r, int first, int count);
/* Draws sky, terrain, landmarks, the character, water and the debug lines (may be NULL). */
void sb_renderer_draw(sb_renderer *r, const sb_scene *scene, const sb_view *view,
                      const sb_character_draw *ch, const sb_line_vertex *lines, int line_count,
                      bool underwater);

/* Where a world point fell on the last frame drawn (pixels from the top left); false behind
 * the eye. */
bool sb_renderer_project(const sb_renderer *r, gait_vec3 p, int width, int height, float *sx, float *sy);

/* HUD (2D, pixels from the top left). */
void sb_hud_begin(sb_renderer *r, int width, int height);
void sb_hud_rect(sb_renderer *r, float x, float y, float w, float h, float cr, float cg, float cb,
                 float ca);
/* A ring centred at (cx, cy), filled clockwise from the top for `frac` of a turn. */
void sb_hud_ring(sb_renderer *r, float cx, float cy, float r_in, float r_out, float frac, float cr,
                 float cg, float cb, float ca);
/* Text at (x, y) scaled by `scale` (stb_easy_font's glyphs are ~6 px tall at 1); returns the
 * width in pixels. Newlines start a new line. */
float sb_hud_text(sb_renderer *r, float x, float y, float scale, const char *text, float cr,
                  float cg, float cb);
void sb_hud_end(sb_renderer *r);
/* Wraps text for the HUD (tabs expanded, glyphs it lacks replaced) to max_width pixels at
 * `scale`, at most max_lines lines into out; returns the line count. */
int sb_hud_wrap(const char *text, float scale, float max_width, int max_lines, char *out, size_t cap);

/* ---- the tuning in force (tuning.c + tuning.lua; with the Lua layer) ---------------------- */

typedef struct sb_tuning sb_tuning;

/* One number a body moves by, as the panel shows it. */
typedef struct sb_tuning_row {
    char key[48];                /* "run_speed", "costs.dash" */
    double value, min, max;      /* in force; the schema's allowed range */
    char unit[24];
    char file[SB_PATH_MAX];      /* the tuning file that holds (or would hold) it */
    char block[32];              /* "provisional", "medium_female", "costs", "" (top level) */
    char group[16];              /* "locomotion", "gates", "stamina" */
    int line;                    /* of `key =` in that block, 0 when the block does not set it */
    bool set;                    /* the block sets it itself (false: a built-in default) */
    bool measured;               /* it comes from the body type's own (measured) entry */
} sb_tuning_row;

sb_tuning *sb_tuning_open(gait_script *script, const char *root, char *err, size_t cap);
void sb_tuning_close(sb_tuning *t);
const char *sb_tuning_error(const sb_tuning *t);
/* Remembers the numbers in force now (what the next sb_tuning_changes compares against). */
bool sb_tuning_remember(sb_tuning *t);
/* What changed since the last remember, one line each ("locomotion.lua: medium_female.run_speed
 * 5.6 → 7.0"; indented lines explain, e.g. which block wins for the current body); returns the
 * number of changes (-1 on error) and remembers the new numbers. */
int sb_tuning_changes(sb_tuning *t, gait_body_type current, char *out, size_t cap);
/* The numbers in force for a body type; returns how many rows (-1 on error). */
int sb_tuning_rows(sb_tuning *t, gait_body_type body, sb_tuning_row *rows, int cap);
/* Applies one number to the world now (not to the file). */
bool sb_tuning_apply(sb_tuning *t, gait_body_type body, const char *key, double value);
/* Writes it into its file, keeping the rest of the text; *out_line gets its line. */
bool sb_tuning_write(sb_tuning *t, const sb_tuning_row *row, double value, int *out_line);

/* ---- the tuning panel (panel.cpp: Dear ImGui; built when libimgui-dev is there) ----------- */

enum { SB_PLOT_SAMPLES = 600 };   /* 10 s at 60 fps */

typedef struct sb_panel_view {
    bool open;
    const char *body;                      /* body type name */
    bool measured;
    const sb_tuning_row *rows;
    int row_count;
    const bool *edited;                    /* rows changed in the panel and not yet written */
    const char *status;                    /* the last write or apply, "" none */
    const char *state_names[GAIT_STATE_COUNT];
    float state_rgb[GAIT_STATE_COUNT][3];
    int state_count, state;
    const float *stamina, *speed, *height; /* ring buffers of `samples`, oldest at `head` */
    int samples, head;
    float stamina_max, plot_seconds;
    const char *verdict;                   /* the traversal scan's last verdict */
    const char *kit, *kit_error;
} sb_panel_view;

typedef struct sb_panel_edit {
    int row;                     /* a number dragged this frame (-1: none) to `value` */
    int write_row;               /* "write" pressed for this row (-1: none) */
    bool write_all;              /* "write all edited" pressed */
    double value;
} sb_panel_edit;

/* Installs Dear ImGui on the window (its GLFW callbacks chain the sandbox's, installed first).
 * False when it cannot (or the sandbox was built without it). */
bool sb_panel_create(GLFWwindow *window);
void sb_panel_destroy(void);
/* Draws the panel when v->open (nothing at all otherwise) and says what the designer did. */
void sb_panel_draw(const sb_panel_view *v, sb_panel_edit *out);
bool sb_panel_wants_mouse(void);
bool sb_panel_wants_keyboard(void);

/* The colour the body is drawn in for a state (render.c), for the legend. */
void sb_state_color(gait_state s, float *rgb);

/* ---- screenshots (shot.c) ---------------------------------------------------------------- */

/* Reads the current framebuffer and writes a PNG. */
bool sb_screenshot(const char *path, int width, int height, char *err, size_t cap);

/* ---- small helpers ----------------------------------------------------------------------- */

void sb_path_join(char *out, size_t cap, const char *dir, const char *file);
void sb_path_dir(char *out, size_t cap, const char *path);
/* The whole file as a NUL-terminated string (malloc'd), or NULL. */
char *sb_read_file(const char *path, size_t *out_len);
bool sb_copy_file(const char *from, const char *to);

#endif
