-- The verbs kits move the body with (lua/README.md, "Kits that move the body"), one by one, and
-- every misuse: an unknown key, a wrong type, a number out of range, a call on another character
-- than the kit's — each a clear error naming the file and line, and the steps go on. Also: the
-- gate hook, ch:state() and the world's gadgets through a world file. (The camera's follow of a
-- dash is tests/unit/test_motion.c's: Lua worlds step without the frame's camera follow.)
local gait = require("gait")
local S = require("gait.scenario")
local DT = 1 / 60
local THIS = "kit_motion_verbs.lua"

local function frame(w, ch, input)
  ch:set_input(input or {})
  w:update(DT)
end

local function frames(w, ch, n, input)
  for _ = 1, n do frame(w, ch, input) end
end

-- ---- each verb --------------------------------------------------------------------------------

test("launch: set or add, up/forward/right in the body frame or a world velocity", function()
  local w = S.world()
  local ch = w:spawn{yaw = math.pi / 2}
  expect_eq(ch:launch{up = 10, forward = 2}, true, "accepted")
  expect_eq(ch:motion().requested, true, "requested until the step")
  frame(w, ch)
  expect_eq((ch:state()), "jump", "airborne as after a jump")
  local vx, vy = ch:velocity()
  expect_true(vx > 1.5 and vy > 9, string.format("forward is +x for yaw pi/2 (vx %.3f vy %.3f)", vx, vy))
  ch:launch{velocity = {0, 0, 5}, add = true}
  frame(w, ch)
  local _, _, vz = ch:velocity()
  expect_true(vz > 4.5, "added a world velocity")
  -- a launch down is a fall
  local w2 = S.world()
  local c2 = w2:spawn{}
  c2:launch{up = 12}
  frames(w2, c2, 10)
  c2:launch{up = -3, frame = "body"}
  frame(w2, c2)
  expect_eq((c2:state()), "fall", "a launch that does not rise is a fall")
end)

test("start_move: a Lua function of time is asked once a step; nil ends it", function()
  local w = S.world()
  local ch = w:spawn{}
  local calls, last_t = 0, -1
  ch:start_move{name = "weave", seconds = 2, fn = function(c, t)
    calls = calls + 1
    expect_true(t > last_t, "time goes on")
    last_t = t
    if t > 0.5 then return nil end
    return math.sin(8 * t) * 3, 0, 6
  end}
  local steps = 0
  repeat frame(w, ch); steps = steps + 1 until (ch:state()) ~= "action" or steps > 200
  expect_eq(calls, steps - 1, "one call a step while it plays")
  local _, _, z = ch:position()
  expect_near(z, 6 * 31 * DT, 6 * DT, "forward 6 m/s for ~0.5 s")
end)

test("start_move: an error in the function ends the action, is reported, and the steps go on", function()
  local w = S.world()
  local ch = w:spawn{}
  gait.clear_error()
  ch:start_move{seconds = 2, fn = function(c, t) if t > 0.1 then error("boom") end return 0, 0, 5 end}
  frames(w, ch, 20)
  expect_true((ch:state()) ~= "action", "ended")
  local err = gait.last_error() or ""
  expect_true(err:find("boom", 1, true) and err:find(THIS, 1, true), "reported with the file: " .. err)
  frame(w, ch, {move_y = 1})
  frames(w, ch, 10, {move_y = 1})
  local _, _, z = ch:position()
  expect_true(z > 1, "the body moves on")
end)

test("move_to: a character, followed, hanging on arrival until a press", function()
  local w = S.world()
  local a = w:spawn{}
  local b = w:spawn{position = {0, 0, 12}}
  assert(a:move_to(b, {speed = 15, arrive_distance = 1.5, horizontal = true, arrive = "hang",
    seconds = 5, cancel_buttons = {"jump"}}))
  frames(w, a, 80)
  local m = a:motion()
  expect_eq(m.hanging, true, "hanging at the target")
  expect_eq(m.kind, "target", "kind")
  local _, _, z = a:position()
  expect_near(z, 12 - 1.5, 15 * DT, "arrival distance short of it")
  frame(w, a, {pressed = {"jump"}})
  expect_eq((a:state()), "jump", "the press ends it (then the gates: a jump)")
end)

test("end_move ends an action; set_mode / clear_mode; cooldowns", function()
  local w = S.world()
  local ch = w:spawn{}
  ch:start_move{forward = 4, seconds = 3}
  frames(w, ch, 5)
  ch:end_move()
  frame(w, ch)
  expect_eq((ch:state()), "idle", "ended")
  assert(ch:set_mode{state = "run", speed = 9, name = "swift"})
  frames(w, ch, 30, {move_y = 1})
  expect_near(ch:speed(), 9, 1e-9, "runs at the mode's speed")
  expect_eq(ch:motion().modes[1].name, "swift", "listed")
  ch:clear_mode("run")
  frames(w, ch, 2, {move_y = 1})
  expect_near(ch:speed(), 5.6, 1e-9, "its own speed again")
  ch:set_cooldown("burst", 0.5)
  frames(w, ch, 15)
  expect_near(ch:cooldown("burst"), 0.25, 1e-9, "counts down")
end)

test("the gate hook sees an action start and end; ch:state() says action", function()
  local w = S.world()
  local ch = w:spawn{}
  local seen = {}
  ch:set_gate_hook(function(c, from, proposed)
    seen[#seen + 1] = from .. ">" .. proposed
  end)
  ch:start_move{forward = 5, seconds = 0.2}
  frame(w, ch)
  expect_eq((ch:state()), "action", "ch:state()")
  frames(w, ch, 20)
  expect_eq(seen[1], "idle>action", "the start, seen")
  expect_eq(seen[2], "action>idle", "the end, seen")
  -- a veto keeps the body where it is
  local w2 = S.world()
  local c2 = w2:spawn{}
  c2:set_gate_hook(function(c, from, proposed) if proposed == "action" then return from end end)
  c2:start_move{forward = 5, seconds = 0.2}
  frames(w2, c2, 5)
  local _, _, z = c2:position()
  expect_eq(z, 0, "vetoed: never moved")
end)

-- ---- misuse: clear errors with file and line ---------------------------------------------------

local function misuse(fn, pattern, what)
  local msg = expect_error(fn, pattern, what)
  if msg then expect_true(msg:find(THIS .. ":%d+"), what .. ": names this file and line: " .. msg) end
end

test("misuse raises an error naming the key, the file and the line", function()
  local w = S.world()
  local ch = w:spawn{}
  misuse(function() ch:launch{upp = 3} end, 'unknown key "upp"', "launch: an unknown key")
  misuse(function() ch:launch{up = "high"} end, "launch.up must be a number", "launch: a wrong type")
  misuse(function() ch:launch{up = 1e6} end, "launch.up = .* is not in", "launch: out of range")
  misuse(function() ch:launch{up = 0 / 0} end, "not in", "launch: NaN")
  misuse(function() ch:launch{} end, "give velocity", "launch: no velocity")
  misuse(function() ch:launch{up = 1, velocity = {0, 1, 0}} end, "not both", "launch: both frames")
  misuse(function() ch:start_move{forward = 1, seconds = -1} end, "seconds", "start_move: seconds < 0")
  misuse(function() ch:start_move{forward = 1, keys = {{0, 0, 1, 0}}} end, "exactly one of",
    "start_move: two velocities")
  misuse(function() ch:start_move{keys = {{0, 0, 1, 0}, {0, 0, 2, 0}}} end, "keys%[1%]%.t",
    "start_move: keys not ascending")
  misuse(function() ch:start_move{forward = 1, end_on = {"lands"}} end, "end_on", "start_move: bad end")
  misuse(function() ch:start_move{forward = 1, ["then"] = "swim"} end, 'then "swim"', "start_move: bad then")
  misuse(function() ch:start_move{forward = 1, speed = 3} end, "for a move toward", "start_move: speed w/o target")
  misuse(function() ch:move_to(ch) end, "itself", "move_to: itself")
  misuse(function() ch:move_to({1, 2}) end, "must be a number", "move_to: a bad point")
  misuse(function() ch:set_mode{state = "drown"} end, "not one a mode replaces", "set_mode: a bad state")
  misuse(function() ch:set_mode{state = "run", sink = 2} end, "sink is for fall and glide", "set_mode: sink on run")
  misuse(function() ch:set_mode{speed = 2} end, "state is missing", "set_mode: no state")
  misuse(function() ch:set_cooldown("skil", 1) end, "skil", "set_cooldown: a bad button")
  misuse(function() w:add_gadget{kind = "trampoline", position = {0, 0, 0}} end, "kind", "add_gadget: a bad kind")
  misuse(function() w:add_gadget{kind = "wind", points = {{0, 0, 0}}} end, "2..", "add_gadget: a one-point wind")
  misuse(function() w:add_gadget{kind = "bounce", position = {0, 0, 0}, radius = -1} end, "radius",
    "add_gadget: radius < 0")
  -- nothing was half-applied
  expect_eq(ch:motion().requested, false, "no request left behind")
  expect_eq(#ch:motion().modes, 0, "no mode left behind")
  expect_eq(#w:gadgets(), 0, "no gadget left behind")
end)

test("an expected refusal returns nil, message (the pool cannot pay; drowning)", function()
  local w = S.world()
  local ch = w:spawn{}
  ch:set_stamina(5)
  local ok, msg = ch:start_move{forward = 1, start_cost = 10}
  expect_eq(ok, nil, "refused")
  expect_true(type(msg) == "string" and msg:find("stamina", 1, true), "says why: " .. tostring(msg))
end)

test("inside a kit, the verbs move only the kit's own character; the steps go on", function()
  local w = S.world()
  local a = w:spawn{position = {-3, 0, 0}}
  local b = w:spawn{position = {3, 0, 0}}
  gait.clear_error()
  assert(a:set_kit{on_presses = function(ch, presses)
    if presses.skill then b:launch{up = 10} end
  end})
  local bad_line = debug.getinfo(1, "l").currentline - 2
  assert(b:set_kit{on_presses = function(ch, presses)
    if presses.skill then ch:launch{up = 10} end
  end})
  a:set_input{pressed = {"skill"}}
  b:set_input{pressed = {"skill"}}
  w:update(DT)
  local err = gait.last_error() or ""
  expect_true(err:find("only its own character", 1, true), "the error says why: " .. err)
  expect_true(err:find(THIS .. ":" .. bad_line, 1, true), "and names the kit's file and line: " .. err)
  expect_eq((b:state()), "jump", "b's own kit still launched b")
  expect_eq((a:state()), "idle", "a is untouched")
  b:set_input{move_y = 1}
  frames(w, b, 20, {move_y = 1})
  expect_true(w:step_count() > 20, "the steps went on")
  -- outside a kit (a test, a host script), any character
  expect_eq(a:launch{up = 5}, true, "outside a kit")
end)

-- ---- gadgets through a world file ----------------------------------------------------------------

local WORLD = [[
return {
  name = "gadgets",
  landmarks = {},
  spawn = {position = {0, 0, 0}},
  gadgets = {
    {kind = "bounce", name = "pad", position = {0, 0, 6}, radius = 1.5, height = 6},
    {kind = "updraft", position = {20, 0, 0}, radius = 3, height = 12, speed = 8},
    {kind = "grapple", position = {-20, 8, 0}, radius = 12, button = "drop"},
    {kind = "wind", points = {{40, 8, 0}, {40, 9, 30}}, radius = 3, speed = 12},
  },
}
]]

local function world_file(text)
  local dir = os.tmpname()
  os.remove(dir)
  assert(os.execute("mkdir -p " .. dir) == 0 or true)
  local path = dir .. "/w.lua"
  S.write(path, text)
  return path
end

test("a world file's gadgets: listed, and each acts on a body with no kit", function()
  local wf = require("gait.worldfile")
  local w, ch = wf.load(world_file(WORLD))
  assert(w:set_terrain(gait.geometry.flat_terrain(128)))
  local list = w:gadgets()
  expect_eq(#list, 4, "four gadgets")
  expect_eq(list[1].name, "pad", "named")
  expect_eq(list[3].button.drop, true, "the grapple's button")
  -- the pad: walk onto it
  ch:place(0, 0, 0, 0)
  local top = 0
  for _ = 1, 120 do
    frame(w, ch, {move_y = 1})
    local _, y = ch:position()
    top = math.max(top, y)
  end
  expect_near(top, 6, 0.1, "launched to the pad's height")
  -- the updraft: jump in, the glider opens and rises
  ch:place(20, 0, 0, 0)
  frame(w, ch, {pressed = {"jump"}})
  frames(w, ch, 3)
  expect_eq((ch:state()), "glide", "the glider opened")
  frames(w, ch, 180)
  local _, y = ch:position()
  expect_true(y > 9, string.format("risen (%.2f m)", y))
  -- the grapple: a press in range pulls the body up to hang from it
  ch:place(-20, 0, -6, 0)
  frame(w, ch, {pressed = {"drop"}})
  expect_eq((ch:state()), "action", "pulled")
  frames(w, ch, 60)
  expect_eq(ch:motion().hanging, true, "hanging")
  local _, gy = ch:position()
  expect_near(gy, 8 - 1.7, 0.31, "hands at the point")
  frame(w, ch, {pressed = {"jump"}})
  expect_eq((ch:state()), "glide", "jump from the hang opens the glider (high enough)")
  -- the wind: glide into it and be carried to its end
  ch:place(40, 0, -2, 0)
  ch:launch{up = math.sqrt(2 * 20 * 8)}
  frames(w, ch, 40)
  frame(w, ch, {pressed = {"jump"}})
  local carried = false
  for _ = 1, 240 do
    frame(w, ch)
    if (ch:state()) == "action" and ch:motion().name == "wind" then carried = true end
  end
  local _, _, z = ch:position()
  expect_true(carried, "carried by the wind")
  expect_true(z > 27, string.format("to its end (z %.2f)", z))
end)

test("a world file's bad gadget names the file and the gadget", function()
  local wf = require("gait.worldfile")
  local path = world_file([[return {gadgets = {{kind = "bounce", position = {0, 0, 0}, hieght = 3}}}]])
  local ok, err = pcall(wf.load, path)
  expect_eq(ok, false, "refused")
  expect_true(tostring(err):find(path, 1, true) and tostring(err):find("hieght", 1, true),
    "names the file and the key: " .. tostring(err))
end)

test("the default world loads with one gadget of each kind", function()
  local wf = require("gait.worldfile")
  local w = wf.load(gait.root() .. "/scripts/worlds/default.lua")
  local kinds = {}
  for _, g in ipairs(w:gadgets()) do kinds[g.kind] = (kinds[g.kind] or 0) + 1 end
  for _, k in ipairs({"bounce", "updraft", "wind", "grapple"}) do
    expect_eq(kinds[k], 1, "one " .. k)
  end
end)

test("a new kit starts fresh: the last kit's modes and cooldowns go with it", function()
  local w = S.world()
  local ch = assert(w:spawn{kit = "water_sprint"})
  frame(w, ch, {move_y = 1, pressed = {"sprint"}, held = {"sprint"}})
  expect_eq(#ch:motion().modes, 1, "the alternate sprint's mode")
  ch:set_cooldown("skill", 5)
  assert(ch:set_kit("updraft"))
  expect_eq(#ch:motion().modes, 0, "its mode is gone")
  expect_eq(ch:cooldown("skill"), 0, "its cooldowns are gone")
end)

test("inside a gate hook: the motion verbs act at the next step; gadgets cannot change", function()
  local w = S.world()
  local ch = w:spawn{}
  local err
  ch:set_gate_hook(function(c, from, proposed)
    if proposed == "jump" then
      c:launch{up = 15}                     -- allowed: the request waits for the next step
      err = select(2, pcall(w.add_gadget, w, {kind = "bounce", position = {0, 0, 0}}))
    end
  end)
  frame(w, ch, {pressed = {"jump"}})
  expect_eq(ch:motion().requested, true, "the launch waits for the next step")
  frame(w, ch)
  local _, vy = ch:velocity()
  expect_true(vy > 12, string.format("launched at the next step (vy %.2f)", vy))
  expect_true(tostring(err):find("while the world steps", 1, true), "add_gadget refused: " .. tostring(err))
  expect_eq(#w:gadgets(), 0, "no gadget added")
end)
