/* Keys, mouse, gamepad and scripted input tracks.
 *
 * Key state is tracked, not events counted: a press is a key going from up to down. X servers
 * auto-repeat held keys (xdotool's keydown too, after ~0.66 s); GLFW reports repeats as
 * GLFW_REPEAT or, without detectable auto-repeat, as another PRESS while the key is down —
 * neither is a new press here.
 *
 * Bindings are data: scripts/controls.lua (keyboard, mouse buttons, mouse sensitivity and
 * invert-Y, the gamepad map), reloaded when saved; the built-in defaults below are the same as
 * the shipped file. A gamepad is the first joystick GLFW has a gamepad mapping for, or a
 * virtual one an input track drives (pad events): both go through apply_gamepad.
 *
 * Input track (--input FILE): one event a line, '#' starts a comment, times in seconds since
 * the sandbox started (events fire at the first frame at or after their time, in the file's
 * order; a frame takes one screenshot, one panel change and one quit, and a tapped key's next
 * event waits for its release: an event that finds its slot taken waits, with all after it, for
 * the next frame, so none is lost on a slow frame):
 *   TIME key NAME down|up|tap     NAME: a-z 0-9 space lshift rshift lctrl rctrl lalt ralt tab
 *                                 enter escape backspace up down left right f1-f12
 *                                 (a tap is down now, up next frame)
 *   TIME button left|right|middle down|up|tap
 *   TIME mouse DX DY              a relative mouse move in pixels
 *   TIME wheel N                  wheel notches (+ towards the screen: zoom in)
 *   TIME pad BUTTON down|up|tap   a virtual gamepad's button (controls.lua's names: a b x y lb
 *                                 rb back start guide ls rs dpad_up ...; lt and rt press the
 *                                 trigger fully)
 *   TIME pad AXIS VALUE           left_x left_y right_x right_y lt rt, in [-1, 1] (GLFW's:
 *                                 stick up is -1)
 *   TIME panel open|close | panel set KEY VALUE | panel write KEY   (the tuning panel)
 *   TIME screenshot FILE.png
 *   TIME quit
 */
#include "sandbox.h"

#include <ctype.h>
#include <lauxlib.h>
#include <lua.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const struct { const char *name; int key; } key_names[] = {
    {"space", GLFW_KEY_SPACE}, {"lshift", GLFW_KEY_LEFT_SHIFT}, {"rshift", GLFW_KEY_RIGHT_SHIFT},
    {"lctrl", GLFW_KEY_LEFT_CONTROL}, {"rctrl", GLFW_KEY_RIGHT_CONTROL},
    {"lalt", GLFW_KEY_LEFT_ALT}, {"ralt", GLFW_KEY_RIGHT_ALT}, {"tab", GLFW_KEY_TAB},
    {"enter", GLFW_KEY_ENTER}, {"escape", GLFW_KEY_ESCAPE}, {"backspace", GLFW_KEY_BACKSPACE},
    {"up", GLFW_KEY_UP}, {"down", GLFW_KEY_DOWN}, {"left", GLFW_KEY_LEFT}, {"right", GLFW_KEY_RIGHT},
};

static const char *const action_names[SB_DO_COUNT] = {
    "forward", "back", "left", "right", "jump", "sprint", "walk", "drop", "attack", "skill",
    "burst", "crouch", "party1", "party2", "party3", "party4", "debug", "panel", "reload",
    "screenshot", "help", "free_cursor",
};

static const struct { const char *name; int code; } pad_names[] = {
    {"a", GLFW_GAMEPAD_BUTTON_A}, {"b", GLFW_GAMEPAD_BUTTON_B}, {"x", GLFW_GAMEPAD_BUTTON_X},
    {"y", GLFW_GAMEPAD_BUTTON_Y}, {"lb", GLFW_GAMEPAD_BUTTON_LEFT_BUMPER},
    {"rb", GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER}, {"back", GLFW_GAMEPAD_BUTTON_BACK},
    {"start", GLFW_GAMEPAD_BUTTON_START}, {"guide", GLFW_GAMEPAD_BUTTON_GUIDE},
    {"ls", GLFW_GAMEPAD_BUTTON_LEFT_THUMB}, {"rs", GLFW_GAMEPAD_BUTTON_RIGHT_THUMB},
    {"dpad_up", GLFW_GAMEPAD_BUTTON_DPAD_UP}, {"dpad_right", GLFW_GAMEPAD_BUTTON_DPAD_RIGHT},
    {"dpad_down", GLFW_GAMEPAD_BUTTON_DPAD_DOWN}, {"dpad_left", GLFW_GAMEPAD_BUTTON_DPAD_LEFT},
    {"lt", SB_PAD_TRIGGER + GLFW_GAMEPAD_AXIS_LEFT_TRIGGER},
    {"rt", SB_PAD_TRIGGER + GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER},
};

static const struct { const char *name; int axis; } axis_names[] = {
    {"left_x", GLFW_GAMEPAD_AXIS_LEFT_X}, {"left_y", GLFW_GAMEPAD_AXIS_LEFT_Y},
    {"right_x", GLFW_GAMEPAD_AXIS_RIGHT_X}, {"right_y", GLFW_GAMEPAD_AXIS_RIGHT_Y},
    {"lt", GLFW_GAMEPAD_AXIS_LEFT_TRIGGER}, {"rt", GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* a-z, 0-9, f1-f12 and the named keys above; -1 when unknown. */
static int key_from_name(const char *s) {
    if (s[0] && !s[1] && s[0] >= 'a' && s[0] <= 'z') return GLFW_KEY_A + (s[0] - 'a');
    if (s[0] && !s[1] && s[0] >= '0' && s[0] <= '9') return GLFW_KEY_0 + (s[0] - '0');
    if (s[0] == 'f' && s[1] >= '1' && s[1] <= '9') {
        int n = atoi(s + 1);
        char back[8];
        snprintf(back, sizeof back, "f%d", n);
        if (n >= 1 && n <= 12 && strcmp(back, s) == 0) return GLFW_KEY_F1 + n - 1;
    }
    for (int i = 0; i < COUNT(key_names); i++)
        if (strcmp(s, key_names[i].name) == 0) return key_names[i].key;
    return -1;
}

static void key_name(int key, char *out, size_t cap) {
    if (key >= GLFW_KEY_A && key <= GLFW_KEY_Z) { snprintf(out, cap, "%c", 'A' + key - GLFW_KEY_A); return; }
    if (key >= GLFW_KEY_0 && key <= GLFW_KEY_9) { snprintf(out, cap, "%c", '0' + key - GLFW_KEY_0); return; }
    if (key >= GLFW_KEY_F1 && key <= GLFW_KEY_F12) { snprintf(out, cap, "F%d", key - GLFW_KEY_F1 + 1); return; }
    for (int i = 0; i < COUNT(key_names); i++)
        if (key == key_names[i].key) { snprintf(out, cap, "%s", key_names[i].name); return; }
    snprintf(out, cap, "key %d", key);
}

static int pad_from_name(const char *s) {
    for (int i = 0; i < COUNT(pad_names); i++)
        if (strcmp(s, pad_names[i].name) == 0) return pad_names[i].code;
    return -1;
}

static int button_from_name(const char *s) {
    return strcmp(s, "left") == 0 ? GLFW_MOUSE_BUTTON_LEFT : strcmp(s, "right") == 0 ? GLFW_MOUSE_BUTTON_RIGHT
         : strcmp(s, "middle") == 0 ? GLFW_MOUSE_BUTTON_MIDDLE : -1;
}

/* The defaults: the same as the shipped scripts/controls.lua. */
static void default_bindings(sb_bindings *b) {
    memset(b, 0xFF, sizeof b->keys + sizeof b->buttons + sizeof b->pad);   /* all -1 */
    static const struct { int action; const char *key; } keys[] = {
        {SB_DO_FORWARD, "w"}, {SB_DO_BACK, "s"}, {SB_DO_LEFT, "a"}, {SB_DO_RIGHT, "d"},
        {SB_DO_JUMP, "space"}, {SB_DO_SPRINT, "lshift"}, {SB_DO_WALK, "lctrl"}, {SB_DO_DROP, "x"},
        {SB_DO_SKILL, "e"}, {SB_DO_BURST, "q"}, {SB_DO_CROUCH, "c"}, {SB_DO_PARTY1, "1"},
        {SB_DO_PARTY2, "2"}, {SB_DO_PARTY3, "3"}, {SB_DO_PARTY4, "4"}, {SB_DO_DEBUG, "f1"},
        {SB_DO_PANEL, "f2"}, {SB_DO_RELOAD, "f5"}, {SB_DO_SCREENSHOT, "f12"}, {SB_DO_HELP, "h"},
        {SB_DO_FREE_CURSOR, "escape"},
    };
    for (int i = 0; i < COUNT(keys); i++) b->keys[keys[i].action][0] = key_from_name(keys[i].key);
    b->buttons[SB_DO_ATTACK][0] = GLFW_MOUSE_BUTTON_LEFT;
    b->buttons[SB_DO_SPRINT][0] = GLFW_MOUSE_BUTTON_RIGHT;
    static const struct { int action; const char *pad; } pads[] = {
        {SB_DO_JUMP, "a"}, {SB_DO_ATTACK, "b"}, {SB_DO_SKILL, "rt"}, {SB_DO_BURST, "y"},
        {SB_DO_SPRINT, "rb"}, {SB_DO_DROP, "x"}, {SB_DO_WALK, "ls"}, {SB_DO_CROUCH, "rs"},
        {SB_DO_PARTY1, "dpad_up"}, {SB_DO_PARTY2, "dpad_right"}, {SB_DO_PARTY3, "dpad_down"},
        {SB_DO_PARTY4, "dpad_left"},
    };
    for (int i = 0; i < COUNT(pads); i++) b->pad[pads[i].action][0] = pad_from_name(pads[i].pad);
    b->sensitivity = 0.0030;
    b->invert_y = false;
    b->wheel_zoom = 0.8;
    b->move_stick = 0, b->look_stick = 1;
    b->look_speed = 3.0;
    b->pad_invert_y = false;
    b->deadzone = 0.15;
}

void sb_controls_init(sb_controls *c) {
    memset(c, 0, sizeof *c);
    default_bindings(&c->bind);
    /* GLFW's triggers rest at -1 */
    c->pad_state.axes[GLFW_GAMEPAD_AXIS_LEFT_TRIGGER] = c->pad_state.axes[GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER] = -1.0f;
}

void sb_controls_free(sb_controls *c) {
    free(c->track);
    c->track = NULL;
    c->track_count = 0;
}

void sb_controls_key(sb_controls *c, int key, bool down) {
    if (key < 0 || key > GLFW_KEY_LAST) return;
    if (down && !c->key_down[key]) c->key_pressed[key] = true;
    c->key_down[key] = down;
}

void sb_controls_button(sb_controls *c, int button, bool down) {
    if (button < 0 || button >= SB_MOUSE_BUTTONS) return;
    if (down && !c->button_down[button]) c->button_pressed[button] = true;
    c->button_down[button] = down;
}

/* ---- GLFW callbacks: the one mutable state they reach is the window's user pointer -------- */

static sb_controls *controls_of(GLFWwindow *w) { return glfwGetWindowUserPointer(w); }

static void on_key(GLFWwindow *w, int key, int scancode, int action, int mods) {
    (void)scancode, (void)mods;
    if (action == GLFW_REPEAT) return;
    sb_controls_key(controls_of(w), key, action == GLFW_PRESS);
}

static void set_captured(GLFWwindow *w, sb_controls *c, bool on) {
    c->captured = on;
    glfwSetInputMode(w, GLFW_CURSOR, on ? GLFW_CURSOR_DISABLED : GLFW_CURSOR_NORMAL);
    /* No raw mouse motion: XTEST's relative moves (xdotool, the e2e test) arrive only as plain
     * motion events under Xvfb. The first move after a capture counts from where the cursor is
     * now, so it is not lost as a baseline. */
    glfwGetCursorPos(w, &c->last_x, &c->last_y);
    c->have_last = true;
}

void sb_controls_set_captured(GLFWwindow *window, sb_controls *c, bool on) {
    if (c->captured != on) set_captured(window, c, on);
}

static void on_button(GLFWwindow *w, int button, int action, int mods) {
    (void)mods;
    sb_controls *c = controls_of(w);
    if (c->ui_mouse) return;   /* a click on the panel */
    if (!c->captured && action == GLFW_PRESS) {
        /* A click with the cursor free recaptures it and is not an attack. */
        set_captured(w, c, true);
        return;
    }
    sb_controls_button(c, button, action == GLFW_PRESS);
}

static void on_cursor(GLFWwindow *w, double x, double y) {
    sb_controls *c = controls_of(w);
    if (c->have_last && c->captured) {
        c->mouse_dx += x - c->last_x;
        c->mouse_dy += y - c->last_y;
    }
    c->last_x = x, c->last_y = y;
    c->have_last = true;
}

static void on_scroll(GLFWwindow *w, double dx, double dy) {
    (void)dx;
    controls_of(w)->wheel += dy;
}

static void on_focus(GLFWwindow *w, int focused) {
    /* Keys held when the focus leaves never see their release: let them all go. */
    if (!focused) {
        sb_controls *c = controls_of(w);
        memset(c->key_down, 0, sizeof c->key_down);
        memset(c->button_down, 0, sizeof c->button_down);
    }
}

void sb_controls_install(GLFWwindow *window) {
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_button);
    glfwSetCursorPosCallback(window, on_cursor);
    glfwSetScrollCallback(window, on_scroll);
    glfwSetWindowFocusCallback(window, on_focus);
    set_captured(window, controls_of(window), true);
}

/* ---- input tracks ------------------------------------------------------------------------- */

bool sb_controls_load_track(sb_controls *c, const char *path, char *err, size_t cap) {
    FILE *f = fopen(path, "r");
    if (!f) { snprintf(err, cap, "%s: cannot open", path); return false; }
    char line[SB_PATH_MAX + 64];
    int lineno = 0, n = 0, capacity = 64;
    sb_track_event *ev = malloc(sizeof *ev * (size_t)capacity);
    bool ok = ev != NULL;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash) *hash = '\0';
        char what[32] = "", a1[SB_PATH_MAX] = "", a2[32] = "";
        double t;
        int got = sscanf(line, "%lf %31s %1023s %31s", &t, what, a1, a2);
        if (got <= 0) continue; /* blank */
        if (got < 2 || !isfinite(t) || t < 0) {
            snprintf(err, cap, "%s:%d: expected 'TIME EVENT ...'", path, lineno);
            ok = false;
            break;
        }
        if (n == capacity) {
            capacity *= 2;
            sb_track_event *grown = realloc(ev, sizeof *ev * (size_t)capacity);
            if (!grown) { ok = false; snprintf(err, cap, "out of memory"); break; }
            ev = grown;
        }
        sb_track_event e;
        memset(&e, 0, sizeof e);
        e.time = t;
        if (strcmp(what, "key") == 0 || strcmp(what, "button") == 0) {
            bool is_key = what[0] == 'k';
            int code = -1;
            if (is_key) code = key_from_name(a1);
            else if (strcmp(a1, "left") == 0) code = GLFW_MOUSE_BUTTON_LEFT;
            else if (strcmp(a1, "right") == 0) code = GLFW_MOUSE_BUTTON_RIGHT;
            else if (strcmp(a1, "middle") == 0) code = GLFW_MOUSE_BUTTON_MIDDLE;
            int kind = strcmp(a2, "down") == 0 ? 0 : strcmp(a2, "up") == 0 ? 1 : strcmp(a2, "tap") == 0 ? 2 : -1;
            if (code < 0 || kind < 0) {
                snprintf(err, cap, "%s:%d: unknown %s '%s' or action '%s' (down, up, tap)", path,
                         lineno, what, a1, a2);
                ok = false;
                break;
            }
            e.kind = (is_key ? SB_EV_KEY_DOWN : SB_EV_BUTTON_DOWN) + kind;
            e.code = code;
        } else if (strcmp(what, "pad") == 0) {
            int code = pad_from_name(a1), axis = -1;
            for (int k = 0; k < COUNT(axis_names); k++)
                if (strcmp(a1, axis_names[k].name) == 0) axis = axis_names[k].axis;
            int kind = strcmp(a2, "down") == 0 ? 0 : strcmp(a2, "up") == 0 ? 1 : strcmp(a2, "tap") == 0 ? 2 : -1;
            char *end = NULL;
            double v = strtod(a2, &end);
            if (code >= 0 && kind >= 0) {
                e.kind = SB_EV_PAD_DOWN + kind;
                e.code = code;
            } else if (axis >= 0 && end != a2 && !*end && v >= -1 && v <= 1) {
                e.kind = SB_EV_PAD_AXIS;
                e.code = axis;
                e.a = v;
            } else {
                snprintf(err, cap, "%s:%d: expected 'TIME pad BUTTON down|up|tap' or 'TIME pad AXIS "
                         "VALUE' (VALUE in [-1, 1]), got '%s %s'", path, lineno, a1, a2);
                ok = false;
                break;
            }
        } else if (strcmp(what, "panel") == 0) {
            double v = 0;
            if (strcmp(a1, "open") == 0 || strcmp(a1, "close") == 0) {
                e.kind = SB_EV_PANEL_OPEN;
                e.code = a1[0] == 'o';
            } else if (strcmp(a1, "set") == 0 && a2[0] && sscanf(line, "%*f %*s %*s %*s %lf", &v) == 1 && isfinite(v)) {
                e.kind = SB_EV_PANEL_SET;
                e.a = v;
                snprintf(e.text, sizeof e.text, "%s", a2);
            } else if (strcmp(a1, "write") == 0 && a2[0]) {
                e.kind = SB_EV_PANEL_WRITE;
                snprintf(e.text, sizeof e.text, "%s", a2);
            } else {
                snprintf(err, cap, "%s:%d: expected 'TIME panel open|close', 'TIME panel set KEY VALUE' "
                         "or 'TIME panel write KEY'", path, lineno);
                ok = false;
                break;
            }
        } else if (strcmp(what, "mouse") == 0) {
            e.kind = SB_EV_MOUSE;
            if (sscanf(line, "%*f %*s %lf %lf", &e.a, &e.b) != 2) {
                snprintf(err, cap, "%s:%d: expected 'TIME mouse DX DY'", path, lineno);
                ok = false;
                break;
            }
        } else if (strcmp(what, "wheel") == 0) {
            e.kind = SB_EV_WHEEL;
            e.a = atof(a1);
        } else if (strcmp(what, "screenshot") == 0 && a1[0]) {
            e.kind = SB_EV_SCREENSHOT;
            snprintf(e.text, sizeof e.text, "%s", a1);
        } else if (strcmp(what, "quit") == 0) {
            e.kind = SB_EV_QUIT;
        } else {
            snprintf(err, cap, "%s:%d: unknown event '%s' (key, button, pad, mouse, wheel, screenshot, quit)",
                     path, lineno, what);
            ok = false;
            break;
        }
        ev[n++] = e;
    }
    fclose(f);
    if (!ok) { free(ev); return false; }
    /* Stable order by time (insertion sort: tracks are short and mostly sorted). */
    for (int i = 1; i < n; i++) {
        sb_track_event e = ev[i];
        int j = i - 1;
        while (j >= 0 && ev[j].time > e.time) { ev[j + 1] = ev[j]; j--; }
        ev[j + 1] = e;
    }
    free(c->track);
    c->track = ev;
    c->track_count = n;
    c->track_next = 0;
    return true;
}

/* Whether this frame already holds what the event would set: an action (one panel change, one
 * screenshot, one quit a frame), or a key, button or pad button tapped this frame (its release
 * is next frame's). */
static bool action_taken(const sb_controls *c, const sb_actions *act, const sb_track_event *e) {
    switch (e->kind) {
    case SB_EV_KEY_DOWN: case SB_EV_KEY_UP: case SB_EV_KEY_TAP: return c->tap_release_pending[e->code];
    case SB_EV_BUTTON_DOWN: case SB_EV_BUTTON_UP: case SB_EV_BUTTON_TAP:
        return c->tap_button_pending[e->code];
    case SB_EV_PAD_DOWN: case SB_EV_PAD_UP: case SB_EV_PAD_TAP:
        return e->code >= SB_PAD_TRIGGER
                   ? c->trigger_tap[e->code - SB_PAD_TRIGGER - GLFW_GAMEPAD_AXIS_LEFT_TRIGGER]
                   : c->pad_tap_release[e->code];
    case SB_EV_PANEL_OPEN: return act->panel_show != 0;
    case SB_EV_PANEL_SET: case SB_EV_PANEL_WRITE: return act->panel_set || act->panel_write;
    case SB_EV_SCREENSHOT: return act->screenshot;
    case SB_EV_QUIT: return act->quit;
    default: return false;
    }
}

void sb_controls_play_track(sb_controls *c, double t, sb_actions *act) {
    /* Taps pressed last frame are released now, so the press and the release fall in
     * different frames like a real tap. */
    for (int k = 0; k <= GLFW_KEY_LAST; k++)
        if (c->tap_release_pending[k]) { sb_controls_key(c, k, false); c->tap_release_pending[k] = false; }
    for (int b = 0; b < SB_MOUSE_BUTTONS; b++)
        if (c->tap_button_pending[b]) { sb_controls_button(c, b, false); c->tap_button_pending[b] = false; }
    for (int b = 0; b <= GLFW_GAMEPAD_BUTTON_LAST; b++)
        if (c->pad_tap_release[b]) { c->pad_state.buttons[b] = GLFW_RELEASE; c->pad_tap_release[b] = false; }
    for (int k = 0; k < 2; k++)
        if (c->trigger_tap[k]) { c->pad_state.axes[GLFW_GAMEPAD_AXIS_LEFT_TRIGGER + k] = -1.0f; c->trigger_tap[k] = false; }
    while (c->track_next < c->track_count && c->track[c->track_next].time <= t) {
        const sb_track_event *e = &c->track[c->track_next];
        /* an event whose slot this frame holds waits for the next frame with every event after
         * it: a slow frame (a loaded machine, llvmpipe's first frames) delays a track's events
         * but never drops or reorders them */
        if (action_taken(c, act, e)) break;
        c->track_next++;
        switch (e->kind) {
        case SB_EV_KEY_DOWN: sb_controls_key(c, e->code, true); break;
        case SB_EV_KEY_UP: sb_controls_key(c, e->code, false); break;
        case SB_EV_KEY_TAP: sb_controls_key(c, e->code, true); c->tap_release_pending[e->code] = true; break;
        case SB_EV_BUTTON_DOWN: sb_controls_button(c, e->code, true); break;
        case SB_EV_BUTTON_UP: sb_controls_button(c, e->code, false); break;
        case SB_EV_BUTTON_TAP: sb_controls_button(c, e->code, true); c->tap_button_pending[e->code] = true; break;
        case SB_EV_PAD_DOWN: case SB_EV_PAD_UP: case SB_EV_PAD_TAP: {
            bool down = e->kind != SB_EV_PAD_UP;
            c->virtual_pad = true;
            if (e->code >= SB_PAD_TRIGGER) {
                /* a trigger "button": fully in, or out; a tap is released by the next frame's
                 * axis event the track gives, or at once here */
                c->pad_state.axes[e->code - SB_PAD_TRIGGER] = down ? 1.0f : -1.0f;
                if (e->kind == SB_EV_PAD_TAP) c->trigger_tap[e->code - SB_PAD_TRIGGER - GLFW_GAMEPAD_AXIS_LEFT_TRIGGER] = true;
            } else {
                c->pad_state.buttons[e->code] = down ? GLFW_PRESS : GLFW_RELEASE;
                if (e->kind == SB_EV_PAD_TAP) c->pad_tap_release[e->code] = true;
            }
            break;
        }
        case SB_EV_PANEL_OPEN: act->panel_show = e->code ? 1 : 2; break;
        case SB_EV_PANEL_SET:
            act->panel_set = true;
            act->panel_value = e->a;
            snprintf(act->panel_key, sizeof act->panel_key, "%.47s", e->text);
            break;
        case SB_EV_PANEL_WRITE:
            act->panel_write = true;
            snprintf(act->panel_key, sizeof act->panel_key, "%.47s", e->text);
            break;
        case SB_EV_PAD_AXIS:
            c->virtual_pad = true;
            c->pad_state.axes[e->code] = (float)e->a;
            break;
        case SB_EV_MOUSE: c->mouse_dx += e->a; c->mouse_dy += e->b; break;
        case SB_EV_WHEEL: c->wheel += e->a; break;
        case SB_EV_SCREENSHOT:
            act->screenshot = true;
            snprintf(act->screenshot_path, sizeof act->screenshot_path, "%s", e->text);
            break;
        case SB_EV_QUIT: act->quit = true; break;
        default: break;
        }
    }
}

/* ---- gather ------------------------------------------------------------------------------- */

static double deadzone(double v, double dz) {
    if (fabs(v) < dz) return 0;
    return (v - copysign(dz, v)) / (1 - dz);
}

static bool any_key(const sb_controls *c, int action, const bool *keys, const bool *buttons) {
    for (int i = 0; i < SB_BIND_MAX; i++) {
        int k = c->bind.keys[action][i], b = c->bind.buttons[action][i];
        if (k >= 0 && keys[k]) return true;
        if (b >= 0 && b < SB_MOUSE_BUTTONS && buttons[b]) return true;
    }
    return false;
}

static const uint32_t action_bit[SB_DO_COUNT] = {
    [SB_DO_JUMP] = GAIT_BUTTON_JUMP, [SB_DO_SPRINT] = GAIT_BUTTON_SPRINT, [SB_DO_WALK] = GAIT_BUTTON_WALK,
    [SB_DO_DROP] = GAIT_BUTTON_DROP, [SB_DO_ATTACK] = GAIT_BUTTON_ATTACK, [SB_DO_SKILL] = GAIT_BUTTON_SKILL,
    [SB_DO_BURST] = GAIT_BUTTON_BURST, [SB_DO_CROUCH] = GAIT_BUTTON_CROUCH,
};

/* One frame of a gamepad (a real one or the track's virtual one): sticks, then every bound
 * button; a trigger counts as down past a third of its travel (GLFW's triggers run -1..1). */
static void apply_gamepad(sb_controls *c, const GLFWgamepadstate *gp, gait_input *in, sb_actions *act) {
    const sb_bindings *b = &c->bind;
    int mx = b->move_stick ? GLFW_GAMEPAD_AXIS_RIGHT_X : GLFW_GAMEPAD_AXIS_LEFT_X;
    int lx = b->look_stick ? GLFW_GAMEPAD_AXIS_RIGHT_X : GLFW_GAMEPAD_AXIS_LEFT_X;
    double sx = deadzone(gp->axes[mx], b->deadzone), sy = deadzone(gp->axes[mx + 1], b->deadzone);
    if (sx != 0 || sy != 0) {
        /* Stick up is -1; a part push stays below 1 so the runtime walks it. */
        in->move_x = sx, in->move_y = -sy;
        double l = hypot(in->move_x, in->move_y);
        if (l > 1) in->move_x /= l, in->move_y /= l;
    }
    double rx = deadzone(gp->axes[lx], b->deadzone), ry = deadzone(gp->axes[lx + 1], b->deadzone);
    const double look_rate = b->look_speed / 60.0;   /* rad per frame at full tilt, at 60 fps */
    in->look_yaw += -rx * look_rate;
    in->look_pitch += (b->pad_invert_y ? ry : -ry) * look_rate;
    for (int a = 0; a < SB_DO_COUNT; a++) {
        bool now = false;
        int slot = -1;
        for (int i = 0; i < SB_BIND_MAX; i++) {
            int code = b->pad[a][i];
            if (code < 0) continue;
            bool d = code >= SB_PAD_TRIGGER ? gp->axes[code - SB_PAD_TRIGGER] > -0.33f
                                            : gp->buttons[code] == GLFW_PRESS;
            int s = code >= SB_PAD_TRIGGER ? GLFW_GAMEPAD_BUTTON_LAST + 1 + (code - SB_PAD_TRIGGER) : code;
            if (d) now = true;
            if (d && slot < 0) slot = s;
            if (!d && slot < 0) slot = s;
        }
        if (slot < 0) continue;
        bool pressed = now && !c->pad_prev[slot];
        c->pad_prev[slot] = now;
        if (action_bit[a]) {
            if (now) in->held |= action_bit[a];
            if (pressed) in->pressed |= action_bit[a];
        } else if (pressed) {
            if (a >= SB_DO_PARTY1 && a <= SB_DO_PARTY4) act->party = a - SB_DO_PARTY1 + 1;
            else if (a == SB_DO_DEBUG) act->debug_toggle = true;
            else if (a == SB_DO_PANEL) act->panel_toggle = true;
            else if (a == SB_DO_RELOAD) act->reload = true;
            else if (a == SB_DO_SCREENSHOT) act->screenshot = true;
            else if (a == SB_DO_HELP) act->help_toggle = true;
        }
    }
}

void sb_controls_gather(sb_controls *c, GLFWwindow *window, gait_input *in, sb_actions *act) {
    memset(in, 0, sizeof *in);
    static const bool none[GLFW_KEY_LAST + 1];
    /* typing into the panel moves no body */
    const bool *down = c->ui_keyboard ? none : c->key_down, *pressed = c->ui_keyboard ? none : c->key_pressed;
    const bool *bdown = c->button_down, *bpressed = c->button_pressed;
    const sb_bindings *b = &c->bind;

    /* Move: forward along the camera's yaw, right to the right. */
    in->move_y = (any_key(c, SB_DO_FORWARD, down, bdown) ? 1 : 0) - (any_key(c, SB_DO_BACK, down, bdown) ? 1 : 0);
    in->move_x = (any_key(c, SB_DO_RIGHT, down, bdown) ? 1 : 0) - (any_key(c, SB_DO_LEFT, down, bdown) ? 1 : 0);
    double len = hypot(in->move_x, in->move_y);
    if (len > 1) in->move_x /= len, in->move_y /= len;

    /* Mouse right turns the camera right (clockwise seen from above: a negative yaw delta);
     * mouse up (negative dy) looks up unless inverted. The wheel towards the screen zooms in. */
    in->look_yaw = -c->mouse_dx * b->sensitivity;
    in->look_pitch = (b->invert_y ? c->mouse_dy : -c->mouse_dy) * b->sensitivity;
    in->look_zoom = -c->wheel * b->wheel_zoom;

    for (int a = 0; a < SB_DO_COUNT; a++) {
        if (action_bit[a]) {
            if (any_key(c, a, down, bdown)) in->held |= action_bit[a];
            if (any_key(c, a, pressed, bpressed)) in->pressed |= action_bit[a];
        }
    }
    for (int k = 0; k < 4; k++)
        if (any_key(c, SB_DO_PARTY1 + k, pressed, bpressed)) act->party = k + 1;
    if (any_key(c, SB_DO_DEBUG, pressed, bpressed)) act->debug_toggle = true;
    if (any_key(c, SB_DO_PANEL, pressed, bpressed)) act->panel_toggle = true;
    if (any_key(c, SB_DO_RELOAD, pressed, bpressed)) act->reload = true;
    if (any_key(c, SB_DO_SCREENSHOT, pressed, bpressed)) act->screenshot = true;
    if (any_key(c, SB_DO_HELP, pressed, bpressed)) act->help_toggle = true;
    if (any_key(c, SB_DO_FREE_CURSOR, pressed, bpressed) && window && c->captured) set_captured(window, c, false);

    /* Gamepad: the track's virtual one, else the first joystick with a GLFW gamepad mapping. */
    if (c->virtual_pad) {
        apply_gamepad(c, &c->pad_state, in, act);
    } else {
        for (int j = GLFW_JOYSTICK_1; window && j <= GLFW_JOYSTICK_LAST; j++) {
            GLFWgamepadstate gp;
            if (!glfwJoystickIsGamepad(j) || !glfwGetGamepadState(j, &gp)) continue;
            apply_gamepad(c, &gp, in, act);
            break;
        }
    }

    memset(c->key_pressed, 0, sizeof c->key_pressed);
    memset(c->button_pressed, 0, sizeof c->button_pressed);
    c->mouse_dx = c->mouse_dy = 0;
    c->wheel = 0;
}

/* ---- scripts/controls.lua ----------------------------------------------------------------- */

static long long mtime_ns(const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) return -1;
    return (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

bool sb_controls_bindings_changed(const sb_controls *c) {
    return c->bind_path[0] && mtime_ns(c->bind_path) != c->bind_mtime_ns;
}

/* The line of `key =` inside the block `block = {` (the whole file when block is NULL), 0 when
 * not found: messages point at the key's own line. */
static int line_of(const char *text, const char *block, const char *key) {
    const char *p = text;
    int line = 1, depth = 0, in_block = block ? 0 : 1, block_depth = -1;
    size_t kn = strlen(key), bn = block ? strlen(block) : 0;
    while (*p) {
        if (p[0] == '-' && p[1] == '-') { while (*p && *p != '\n') p++; continue; }
        if (*p == '\n') { line++; p++; continue; }
        if (*p == '{') depth++;
        if (*p == '}') { if (depth == block_depth) in_block = 0; depth--; }
        bool start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        if (start && block && !in_block && strncmp(p, block, bn) == 0 && !(isalnum((unsigned char)p[bn]) || p[bn] == '_')) {
            const char *q = p + bn;
            while (*q == ' ' || *q == '\t') q++;
            if (*q == '=') { in_block = 1; block_depth = depth + 1; }
        }
        if (start && in_block && strncmp(p, key, kn) == 0 && !(isalnum((unsigned char)p[kn]) || p[kn] == '_')) {
            const char *q = p + kn;
            while (*q == ' ' || *q == '\t') q++;
            if (*q == '=' && q[1] != '=') return line;
        }
        p++;
    }
    return 0;
}

static void where(char *out, size_t cap, const char *path, const char *text, const char *block, const char *key) {
    int line = text ? line_of(text, block, key) : 0;
    if (line > 0) snprintf(out, cap, "%s:%d: %s%s%s", path, line, block ? block : "", block ? "." : "", key);
    else snprintf(out, cap, "%s: %s%s%s", path, block ? block : "", block ? "." : "", key);
}

/* A block of action = name | {names}: each name through `lookup` into codes[action][...]. */
static bool read_block(lua_State *L, const char *path, const char *text, const char *block,
                       int (*lookup)(const char *), const char *known, int codes[SB_DO_COUNT][SB_BIND_MAX],
                       char *err, size_t cap) {
    char at[SB_PATH_MAX + 96];
    lua_getfield(L, -1, block);
    if (lua_isnil(L, -1)) { lua_pop(L, 1); return true; }
    if (!lua_istable(L, -1)) {
        snprintf(err, cap, "%s: %s must be a table of action = name", path, block);
        lua_pop(L, 1);
        return false;
    }
    for (int a = 0; a < SB_DO_COUNT; a++) for (int i = 0; i < SB_BIND_MAX; i++) codes[a][i] = -1;
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        int action = -1;
        for (int a = 0; a < SB_DO_COUNT; a++)
            if (strcmp(key, action_names[a]) == 0) action = a;
        bool settings = strcmp(block, "gamepad") == 0 &&
                        (!strcmp(key, "move_stick") || !strcmp(key, "look_stick") || !strcmp(key, "look_speed") ||
                         !strcmp(key, "invert_y") || !strcmp(key, "deadzone"));
        if (settings) { lua_pop(L, 1); continue; }
        where(at, sizeof at, path, text, block, key);
        if (action < 0) {
            snprintf(err, cap, "%s: not an action (forward back left right jump sprint walk drop "
                     "attack skill burst crouch party1-4 debug panel reload screenshot help free_cursor)", at);
            lua_pop(L, 3);
            return false;
        }
        int n = lua_istable(L, -1) ? (int)lua_objlen(L, -1) : 1;
        if (n > SB_BIND_MAX) {
            snprintf(err, cap, "%s: at most %d names", at, SB_BIND_MAX);
            lua_pop(L, 3);
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (lua_istable(L, -1)) lua_rawgeti(L, -1, i + 1);
            else lua_pushvalue(L, -1);
            const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
            int code = name ? lookup(name) : -1;
            if (code < 0) {
                snprintf(err, cap, "%s: '%s' is not %s", at, name ? name : luaL_typename(L, -1), known);
                lua_pop(L, 4);
                return false;
            }
            codes[action][i] = code;
            lua_pop(L, 1);
        }
        lua_pop(L, 1);
    }
    lua_pop(L, 1);
    return true;
}

static bool read_number(lua_State *L, const char *path, const char *text, const char *block,
                        const char *key, double lo, double hi, const char *unit, double *out,
                        char *err, size_t cap) {
    lua_getfield(L, -1, key);
    bool ok = true;
    if (!lua_isnil(L, -1)) {
        double v = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || !(v >= lo && v <= hi)) {
            char at[SB_PATH_MAX + 96];
            where(at, sizeof at, path, text, block, key);
            snprintf(err, cap, "%s: wanted a number in [%g, %g] %s", at, lo, hi, unit);
            ok = false;
        } else {
            *out = v;
        }
    }
    lua_pop(L, 1);
    return ok;
}

static bool read_flag(lua_State *L, const char *path, const char *text, const char *block,
                      const char *key, bool *out, char *err, size_t cap) {
    lua_getfield(L, -1, key);
    bool ok = true;
    if (lua_isboolean(L, -1)) *out = lua_toboolean(L, -1);
    else if (!lua_isnil(L, -1)) {
        char at[SB_PATH_MAX + 96];
        where(at, sizeof at, path, text, block, key);
        snprintf(err, cap, "%s: wanted true or false", at);
        ok = false;
    }
    lua_pop(L, 1);
    return ok;
}

static int stick_from_name(const char *s) {
    return strcmp(s, "left") == 0 ? 0 : strcmp(s, "right") == 0 ? 1 : -1;
}

bool sb_controls_load_bindings(sb_controls *c, const char *path, char *err, size_t cap) {
    err[0] = '\0';
    snprintf(c->bind_path, sizeof c->bind_path, "%s", path);
    c->bind_mtime_ns = mtime_ns(path);    /* read once per change, good or bad */
    char *text = sb_read_file(path, NULL);
    if (!text) { snprintf(err, cap, "%s: cannot read the controls file", path); return false; }
    sb_bindings b;
    default_bindings(&b);
    lua_State *L = luaL_newstate();
    bool ok = false;
    if (!L) { snprintf(err, cap, "%s: no Lua state", path); free(text); return false; }
    /* Plain data: no libraries, so the file can do nothing but return its table. */
    if (luaL_loadbuffer(L, text, strlen(text), path) != 0 || lua_pcall(L, 0, 1, 0) != 0) {
        snprintf(err, cap, "%s", lua_tostring(L, -1));
        goto done;
    }
    if (!lua_istable(L, -1)) {
        snprintf(err, cap, "%s: the controls file must return a table", path);
        goto done;
    }
    /* unknown top-level keys are mistakes too */
    lua_pushnil(L);
    while (lua_next(L, -2)) {
        const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : "?";
        lua_pop(L, 1);
        if (strcmp(k, "mouse") && strcmp(k, "keys") && strcmp(k, "mouse_buttons") && strcmp(k, "gamepad")) {
            char at[SB_PATH_MAX + 96];
            where(at, sizeof at, path, text, NULL, k);
            snprintf(err, cap, "%s: unknown (mouse, keys, mouse_buttons, gamepad)", at);
            lua_pop(L, 1);
            goto done;
        }
    }
    if (!read_block(L, path, text, "keys", key_from_name, "a key name (a-z 0-9 space lshift ... f1-f12)", b.keys, err, cap) ||
        !read_block(L, path, text, "mouse_buttons", button_from_name, "left, right or middle", b.buttons, err, cap) ||
        !read_block(L, path, text, "gamepad", pad_from_name, "a gamepad button (a b x y lb rb lt rt ls rs back start dpad_up ...)", b.pad, err, cap))
        goto done;
    lua_getfield(L, -1, "mouse");
    if (lua_istable(L, -1)) {
        if (!read_number(L, path, text, "mouse", "sensitivity", 0.00001, 0.1, "rad per pixel", &b.sensitivity, err, cap) ||
            !read_flag(L, path, text, "mouse", "invert_y", &b.invert_y, err, cap) ||
            !read_number(L, path, text, "mouse", "wheel_zoom", 0, 10, "m per notch", &b.wheel_zoom, err, cap))
            goto done;
    }
    lua_pop(L, 1);
    lua_getfield(L, -1, "gamepad");
    if (lua_istable(L, -1)) {
        if (!read_number(L, path, text, "gamepad", "look_speed", 0.01, 50, "rad/s", &b.look_speed, err, cap) ||
            !read_flag(L, path, text, "gamepad", "invert_y", &b.pad_invert_y, err, cap) ||
            !read_number(L, path, text, "gamepad", "deadzone", 0, 0.9, "of the stick's length", &b.deadzone, err, cap))
            goto done;
        const char *sticks[2] = {"move_stick", "look_stick"};
        int *dest[2] = {&b.move_stick, &b.look_stick};
        for (int i = 0; i < 2; i++) {
            lua_getfield(L, -1, sticks[i]);
            if (!lua_isnil(L, -1)) {
                int v = lua_isstring(L, -1) ? stick_from_name(lua_tostring(L, -1)) : -1;
                if (v < 0) {
                    char at[SB_PATH_MAX + 96];
                    where(at, sizeof at, path, text, "gamepad", sticks[i]);
                    snprintf(err, cap, "%s: \"left\" or \"right\"", at);
                    goto done;
                }
                *dest[i] = v;
            }
            lua_pop(L, 1);
        }
    }
    lua_pop(L, 1);
    c->bind = b;
    ok = true;
done:
    lua_close(L);
    free(text);
    return ok;
}

void sb_controls_describe(const sb_controls *c, int action, char *out, size_t cap) {
    size_t o = 0;
    out[0] = '\0';
    for (int i = 0; i < SB_BIND_MAX && o + 24 < cap; i++) {
        char name[24];
        if (c->bind.keys[action][i] >= 0) {
            key_name(c->bind.keys[action][i], name, sizeof name);
            o += (size_t)snprintf(out + o, cap - o, "%s%s", o ? " / " : "", name);
        }
    }
    for (int i = 0; i < SB_BIND_MAX && o + 24 < cap; i++) {
        int bt = c->bind.buttons[action][i];
        if (bt >= 0)
            o += (size_t)snprintf(out + o, cap - o, "%s%s mouse", o ? " / " : "",
                                  bt == GLFW_MOUSE_BUTTON_LEFT ? "left" : bt == GLFW_MOUSE_BUTTON_RIGHT ? "right" : "middle");
    }
    if (!o) snprintf(out, cap, "-");
}
