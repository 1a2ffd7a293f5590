-- The sandbox's controls (runtime/sandbox/controls.c reads this; saved while the sandbox runs,
-- it is reloaded; a mistake is reported with this file's line and the last good controls stay).
--
-- Each action takes a name or a list of names. Keys: a-z, 0-9, space, lshift, rshift, lctrl,
-- rctrl, lalt, ralt, tab, enter, escape, backspace, up, down, left, right, f1-f12.
-- Mouse buttons: left, right, middle. Gamepad (GLFW's standard layout, buttons named by their
-- Xbox positions: on a PlayStation pad a = cross, b = circle, x = square, y = triangle): a, b,
-- x, y, lb, rb, lt, rt, back, start, guide, ls (left stick click), rs, dpad_up, dpad_right,
-- dpad_down, dpad_left.
--
-- The keyboard and mouse follow the game's PC defaults, and the gamepad its controller layout
-- (Genshin Impact Wiki, "Controls", Default Xbox Binding column): left stick moves (a slight
-- tilt walks: there is no walk button on a pad), right stick turns the camera, A jumps, B
-- attacks, RT is the elemental skill, Y the burst, RB sprints. The game gives no pad button for
-- crouching (it has no crouch) nor for party members 1-4 (it uses a wheel) and the wiki's row
-- for "Drop (while climbing)" on a pad was not found: those marked "ours" are this sandbox's
-- choice, on buttons the game leaves to other things (X picks up, the d-pad opens menus).
return {
  mouse = {
    sensitivity = 0.0030,      -- rad of camera turn per pixel of mouse move
    invert_y = false,          -- true: mouse up looks down
    wheel_zoom = 0.8,          -- m of camera arm per wheel notch
  },

  keys = {
    forward = "w", back = "s", left = "a", right = "d",
    jump = "space",
    sprint = "lshift",         -- press: dash; hold: sprint; in water: swim dash
    walk = "lctrl",            -- the walk switch
    drop = "x",                -- let go of a wall
    skill = "e", burst = "q",
    crouch = "c",              -- ours (the game has none)
    party1 = "1", party2 = "2", party3 = "3", party4 = "4",
    debug = "f1", panel = "f2", reload = "f5", screenshot = "f12", help = "h",
    free_cursor = "escape",
  },

  mouse_buttons = {
    attack = "left",           -- in the air: a plunge
    sprint = "right",
  },

  gamepad = {
    move_stick = "left", look_stick = "right",
    look_speed = 3.0,          -- rad/s of camera turn at full tilt
    invert_y = false,          -- true: stick up looks down
    deadzone = 0.15,           -- stick length ignored (0..0.9)
    jump = "a",
    attack = "b",
    skill = "rt",
    burst = "y",
    sprint = "rb",
    drop = "x",                -- ours
    walk = "ls",               -- ours (the game walks on a slight tilt, which works here too)
    crouch = "rs",             -- ours
    party1 = "dpad_up", party2 = "dpad_right", party3 = "dpad_down", party4 = "dpad_left", -- ours
  },
}
