/* Keys, mouse, gamepad and scripted input tracks.
 *
 * Key state is tracked, not events counted: a press is a key going from up to down. X servers
 * auto-repeat held keys (xdotool's keydown too, after ~0.66 s); GLFW reports repeats as
 * GLFW_REPEAT or, without detectable auto-repeat, as another PRESS while the key is down —
 * neither is a new press here.
 *
 * Bindings (the help overlay lists the same):
 *   W A S D        move (camera-relative)           Space         jump / glider / climb jump
 *   Left Shift, right mouse   dash, hold to sprint  Left Control  walk switch
 *   X              let go of a wall                 left mouse    attack (plunge in the air)
 *   E / Q          skill / burst                    C             crouch switch
 *   1-4            party member (body type)         mouse / wheel look / zoom
 *   Esc            release the cursor (click recaptures)
 *   F1 debug view, F5 reload the world now, F12 screenshot, H help
 * Gamepad (GLFW's mappings): left stick moves (part push walks), right stick looks, A jump,
 * B / right trigger dash-sprint, X attack, Y drop, LB skill, RB burst, left stick click walk,
 * right stick click crouch, dpad party 1-4.
 *
 * Input track (--input FILE): one event a line, '#' starts a comment, times in seconds since
 * the sandbox started (events fire at the first frame at or after their time):
 *   TIME key NAME down|up|tap     NAME: w a s d space lshift rshift lctrl rctrl x e q c h
 *                                 1 2 3 4 f1 f5 f12 escape  (a tap is down now, up next frame)
 *   TIME button left|right|middle down|up|tap
 *   TIME mouse DX DY              a relative mouse move in pixels
 *   TIME wheel N                  wheel notches (+ towards the screen: zoom in)
 *   TIME screenshot FILE.png
 *   TIME quit
 */
#include "sandbox.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *name; int key; } key_names[] = {
    {"w", GLFW_KEY_W}, {"a", GLFW_KEY_A}, {"s", GLFW_KEY_S}, {"d", GLFW_KEY_D},
    {"space", GLFW_KEY_SPACE}, {"lshift", GLFW_KEY_LEFT_SHIFT}, {"rshift", GLFW_KEY_RIGHT_SHIFT},
    {"lctrl", GLFW_KEY_LEFT_CONTROL}, {"rctrl", GLFW_KEY_RIGHT_CONTROL}, {"x", GLFW_KEY_X},
    {"e", GLFW_KEY_E}, {"q", GLFW_KEY_Q}, {"c", GLFW_KEY_C}, {"h", GLFW_KEY_H},
    {"1", GLFW_KEY_1}, {"2", GLFW_KEY_2}, {"3", GLFW_KEY_3}, {"4", GLFW_KEY_4},
    {"f1", GLFW_KEY_F1}, {"f5", GLFW_KEY_F5}, {"f12", GLFW_KEY_F12}, {"escape", GLFW_KEY_ESCAPE},
};

void sb_controls_init(sb_controls *c) {
    memset(c, 0, sizeof *c);
    c->sensitivity = 0.0030;
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

static void on_button(GLFWwindow *w, int button, int action, int mods) {
    (void)mods;
    sb_controls *c = controls_of(w);
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

static int key_from_name(const char *s) {
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
        if (strcmp(s, key_names[i].name) == 0) return key_names[i].key;
    return -1;
}

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
            snprintf(err, cap, "%s:%d: unknown event '%s' (key, button, mouse, wheel, screenshot, quit)",
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

void sb_controls_play_track(sb_controls *c, double t, sb_actions *act) {
    /* Taps pressed last frame are released now, so the press and the release fall in
     * different frames like a real tap. */
    for (int k = 0; k <= GLFW_KEY_LAST; k++)
        if (c->tap_release_pending[k]) { sb_controls_key(c, k, false); c->tap_release_pending[k] = false; }
    for (int b = 0; b < SB_MOUSE_BUTTONS; b++)
        if (c->tap_button_pending[b]) { sb_controls_button(c, b, false); c->tap_button_pending[b] = false; }
    while (c->track_next < c->track_count && c->track[c->track_next].time <= t) {
        const sb_track_event *e = &c->track[c->track_next++];
        switch (e->kind) {
        case SB_EV_KEY_DOWN: sb_controls_key(c, e->code, true); break;
        case SB_EV_KEY_UP: sb_controls_key(c, e->code, false); break;
        case SB_EV_KEY_TAP: sb_controls_key(c, e->code, true); c->tap_release_pending[e->code] = true; break;
        case SB_EV_BUTTON_DOWN: sb_controls_button(c, e->code, true); break;
        case SB_EV_BUTTON_UP: sb_controls_button(c, e->code, false); break;
        case SB_EV_BUTTON_TAP: sb_controls_button(c, e->code, true); c->tap_button_pending[e->code] = true; break;
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

void sb_controls_gather(sb_controls *c, GLFWwindow *window, gait_input *in, sb_actions *act) {
    memset(in, 0, sizeof *in);
    const bool *down = c->key_down, *pressed = c->key_pressed;
    const bool *bdown = c->button_down, *bpressed = c->button_pressed;

    /* Move: W forward along the camera's yaw, D to the right. */
    in->move_y = (down[GLFW_KEY_W] ? 1 : 0) - (down[GLFW_KEY_S] ? 1 : 0);
    in->move_x = (down[GLFW_KEY_D] ? 1 : 0) - (down[GLFW_KEY_A] ? 1 : 0);
    double len = hypot(in->move_x, in->move_y);
    if (len > 1) in->move_x /= len, in->move_y /= len;

    /* Mouse right turns the camera right (clockwise seen from above: a negative yaw delta);
     * mouse up (negative dy) looks up. The wheel towards the screen zooms in. */
    in->look_yaw = -c->mouse_dx * c->sensitivity;
    in->look_pitch = -c->mouse_dy * c->sensitivity;
    in->look_zoom = -c->wheel * 0.8;

    if (down[GLFW_KEY_SPACE]) in->held |= GAIT_BUTTON_JUMP;
    if (down[GLFW_KEY_LEFT_SHIFT] || bdown[GLFW_MOUSE_BUTTON_RIGHT]) in->held |= GAIT_BUTTON_SPRINT;
    if (down[GLFW_KEY_X]) in->held |= GAIT_BUTTON_DROP;
    if (bdown[GLFW_MOUSE_BUTTON_LEFT]) in->held |= GAIT_BUTTON_ATTACK;
    if (down[GLFW_KEY_E]) in->held |= GAIT_BUTTON_SKILL;
    if (down[GLFW_KEY_Q]) in->held |= GAIT_BUTTON_BURST;
    if (down[GLFW_KEY_LEFT_CONTROL]) in->held |= GAIT_BUTTON_WALK;
    if (down[GLFW_KEY_C]) in->held |= GAIT_BUTTON_CROUCH;

    if (pressed[GLFW_KEY_SPACE]) in->pressed |= GAIT_BUTTON_JUMP;
    if (pressed[GLFW_KEY_LEFT_SHIFT] || bpressed[GLFW_MOUSE_BUTTON_RIGHT]) in->pressed |= GAIT_BUTTON_SPRINT;
    if (pressed[GLFW_KEY_X]) in->pressed |= GAIT_BUTTON_DROP;
    if (bpressed[GLFW_MOUSE_BUTTON_LEFT]) in->pressed |= GAIT_BUTTON_ATTACK;
    if (pressed[GLFW_KEY_E]) in->pressed |= GAIT_BUTTON_SKILL;
    if (pressed[GLFW_KEY_Q]) in->pressed |= GAIT_BUTTON_BURST;
    if (pressed[GLFW_KEY_LEFT_CONTROL]) in->pressed |= GAIT_BUTTON_WALK;
    if (pressed[GLFW_KEY_C]) in->pressed |= GAIT_BUTTON_CROUCH;

    for (int k = 0; k < 4; k++)
        if (pressed[GLFW_KEY_1 + k]) act->party = k + 1;
    if (pressed[GLFW_KEY_F1]) act->debug_toggle = true;
    if (pressed[GLFW_KEY_F5]) act->reload = true;
    if (pressed[GLFW_KEY_F12]) act->screenshot = true;
    if (pressed[GLFW_KEY_H]) act->help_toggle = true;
    if (pressed[GLFW_KEY_ESCAPE] && window && c->captured) set_captured(window, c, false);

    /* Gamepad: the first joystick with a GLFW gamepad mapping. */
    for (int j = GLFW_JOYSTICK_1; window && j <= GLFW_JOYSTICK_LAST; j++) {
        GLFWgamepadstate gp;
        if (!glfwJoystickIsGamepad(j) || !glfwGetGamepadState(j, &gp)) continue;
        double lx = deadzone(gp.axes[GLFW_GAMEPAD_AXIS_LEFT_X], 0.15);
        double ly = deadzone(gp.axes[GLFW_GAMEPAD_AXIS_LEFT_Y], 0.15);
        if (lx != 0 || ly != 0) {
            /* Stick up is -1; a part push stays below 1 so the runtime walks it. */
            in->move_x = lx, in->move_y = -ly;
            double l = hypot(in->move_x, in->move_y);
            if (l > 1) in->move_x /= l, in->move_y /= l;
        }
        double rx = deadzone(gp.axes[GLFW_GAMEPAD_AXIS_RIGHT_X], 0.12);
        double ry = deadzone(gp.axes[GLFW_GAMEPAD_AXIS_RIGHT_Y], 0.12);
        const double look_rate = 3.0 / 60.0;   /* rad per frame at full tilt (~3 rad/s at 60 fps) */
        in->look_yaw += -rx * look_rate;
        in->look_pitch += -ry * look_rate;
        bool rt = gp.axes[GLFW_GAMEPAD_AXIS_RIGHT_TRIGGER] > 0.3;
        const struct { int button; uint32_t bit; } map[] = {
            {GLFW_GAMEPAD_BUTTON_A, GAIT_BUTTON_JUMP}, {GLFW_GAMEPAD_BUTTON_B, GAIT_BUTTON_SPRINT},
            {GLFW_GAMEPAD_BUTTON_X, GAIT_BUTTON_ATTACK}, {GLFW_GAMEPAD_BUTTON_Y, GAIT_BUTTON_DROP},
            {GLFW_GAMEPAD_BUTTON_LEFT_BUMPER, GAIT_BUTTON_SKILL},
            {GLFW_GAMEPAD_BUTTON_RIGHT_BUMPER, GAIT_BUTTON_BURST},
            {GLFW_GAMEPAD_BUTTON_LEFT_THUMB, GAIT_BUTTON_WALK},
            {GLFW_GAMEPAD_BUTTON_RIGHT_THUMB, GAIT_BUTTON_CROUCH},
        };
        for (size_t m = 0; m < sizeof map / sizeof map[0]; m++) {
            bool now = gp.buttons[map[m].button] == GLFW_PRESS;
            if (now) in->held |= map[m].bit;
            if (now && !c->pad_prev[map[m].button]) in->pressed |= map[m].bit;
            c->pad_prev[map[m].button] = now;
        }
        if (rt) in->held |= GAIT_BUTTON_SPRINT;
        const int dpad[4] = {GLFW_GAMEPAD_BUTTON_DPAD_UP, GLFW_GAMEPAD_BUTTON_DPAD_RIGHT,
                             GLFW_GAMEPAD_BUTTON_DPAD_DOWN, GLFW_GAMEPAD_BUTTON_DPAD_LEFT};
        for (int k = 0; k < 4; k++) {
            bool now = gp.buttons[dpad[k]] == GLFW_PRESS;
            if (now && !c->pad_prev[dpad[k]]) act->party = k + 1;
            c->pad_prev[dpad[k]] = now;
        }
        break;
    }

    memset(c->key_pressed, 0, sizeof c->key_pressed);
    memset(c->button_pressed, 0, sizeof c->button_pressed);
    c->mouse_dx = c->mouse_dy = 0;
    c->wheel = 0;
}
