-- Traversal through the Lua API (docs/behaviour.md, "Traversal"): vault, mantle and hurdle found in plain geometry, the
-- corridor and the height latch, chaining with jump held, the jump fallback, the climb instead of
-- a mantle that is too high, and degenerate geometry. Numbers: the provisional body (radius
-- 0.3 m, height 1.7 m, run 5.6 m/s) and scripts/tuning/traversal.lua's defaults (built in).
local gait = require("gait")
local geo = gait.geometry

local S = require("gait.scenario")
local world = S.world -- flat 128 m
local mesh = S.mesh   -- boxes {x0, y0, z0, x1, y1, z1} as ONE landmark (a house is one mesh)
local step = S.step   -- one step with `input` (a fresh table each step: presses only where asked)
-- until_: steps with `input` until `pred(ch)` or max steps; presses only in the first step
local until_ = S.until_

local function state_is(s) return function(ch) return ch:state() == s end end
local function on_foot(ch)
  local s = ch:state()
  return s == "idle" or s == "run" or s == "walk" or s == "crouch"
end

-- runs +z at the obstacle, presses jump when the scan reaches it (2 m out), until on foot again
local function run_and_jump(w, ch, press_at_z)
  until_(w, ch, 240, {move_y = 1}, function(c) local _, _, z = c:position(); return z >= press_at_z end)
  step(w, ch, {move_y = 1, pressed = {"jump"}})
end

-- a flat world with the boxes as one landmark and a body at the origin that ran at them and jumped
local function jump_at(boxes)
  local w = world()
  mesh(w, boxes)
  local ch = w:spawn{position = {0, 0, 0}}
  run_and_jump(w, ch, 2)
  return w, ch
end

test("a 1 m fence is vaulted at a run and the body lands beyond it", function()
  local w, ch = jump_at({{-2, 0, 4, 2, 1, 4.3}})
  expect_eq(ch:state(), "traverse", "the jump became an action")
  local t = ch:traversal()
  expect_true(t.kind == "hurdle" or t.kind == "vault", "a vault or a hurdle, got " .. t.kind)
  expect_near(t.scan.height, 1.0, 1e-6, "ledge height (m)")
  expect_near(t.scan.depth, 0.3, 1e-6, "depth (m)")
  local ok, y, z = false, 0, 0
  for _ = 1, 240 do
    step(w, ch, {move_y = 1})
    local _
    if ch:state() ~= "traverse" then ok = true; break end
    _, y, z = ch:position()
    expect_true(z <= 4.0 + t.corridor + 1e-6, "within the corridor (4 m + " .. t.corridor .. "): z = " .. z)
  end
  expect_true(ok, "the action ends")
  expect_true(on_foot(ch), "on foot: " .. ch:state())
  expect_near(y, 0, 0.005, "on the ground behind (m, +-5 mm)")
  expect_true(z > 4.3 + 0.3, "beyond the fence: z = " .. z)
end)

test("a 1.5 m wall is mantled onto its top", function()
  local w, ch = jump_at({{-2, 0, 4, 2, 1.5, 8}})
  expect_eq(ch:state(), "traverse", "the jump became an action")
  expect_eq(ch:traversal().kind, "mantle_high", "1.5 m: a high mantle (GASP's split at 1.25 m)")
  expect_true(ch:traversal().scan.thick, "4 m deep: thick")
  local ok = until_(w, ch, 240, {}, on_foot)
  expect_true(ok, "the mantle ends on foot")
  local _, y, z = ch:position()
  expect_near(y, 1.5, 0.005, "on the top (m, +-5 mm)")
  expect_true(z > 4.0 and z <= 4.0 + 0.5 + 1e-6, "half a metre past the edge at most: z = " .. z)
end)

test("a 3.5 m wall is not mantled: the jump falls back to a jump, the body climbs it and over", function()
  local w, ch = jump_at({{-3, 0, 4, 3, 3.5, 8}})
  expect_eq(ch:state(), "jump", "no action fits: a jump instead")
  expect_true(ch:traversal().scan.reason ~= "ok", "the scan refused: " .. ch:traversal().scan.reason)
  local ok = until_(w, ch, 120, {move_y = 1}, state_is("climb"))
  expect_true(ok, "climbs the wall")
  local over = until_(w, ch, 600, {move_y = 1}, state_is("traverse"))
  expect_true(over, "the top of the climb: the same ledge scan climbs over")
  expect_true(until_(w, ch, 240, {}, on_foot), "stands on the top")
  local _, y = ch:position()
  expect_near(y, 3.5, 0.005, "on the top (m, +-5 mm)")
end)

test("a fence with 0.5 m of room under a roof is not offered: a jump instead", function()
  local w, ch = jump_at({{-2, 0, 4, 2, 1, 4.3}, {-2, 1.5, 4.15, 2, 1.7, 6}})
  expect_true(ch:state() ~= "traverse", "no action: " .. ch:state())
  local s = ch:traversal().scan
  expect_true(s.ledge, "the ledge was found")
  expect_true(not s.room, "but the body has no room: " .. s.reason)
end)

test("scan: angled approaches at +30 and -30 deg grab mirrored points; a corner keeps the margin", function()
  local w = world()
  mesh(w, {{-1.5, 0, 2, 1.5, 1, 2.3}})
  local function scan(x, deg)
    local r = math.rad(deg)
    return w:traverse_scan{position = {x, 0, 0.5}, forward = {math.sin(r), 0, math.cos(r)}, speed = 5}
  end
  local p, m = scan(0.25, 30), scan(-0.25, -30)
  expect_true(p.ok and m.ok, p.reason .. " / " .. m.reason)
  expect_near(p.grab[1], -m.grab[1], 1e-9, "mirrored grab x (m)")
  expect_near(p.grab[1], 0.25, 1e-6, "the body's projection (m)")
  expect_near(math.min(p.ledge_a[1], p.ledge_b[1]), -1.5, 0.015, "+30: left end (m, +-1.5 cm)")
  expect_near(math.max(m.ledge_a[1], m.ledge_b[1]), 1.5, 0.015, "-30: right end (m, +-1.5 cm)")
  local c = scan(1.3, 0) -- 0.2 m from the ledge's end
  expect_near(c.grab[1], 1.5 - gait.traverse.table().grab_margin, 0.015, "grab at the margin (m)")
end)

test("scan: a 0.4 m deep box and a 3 m deep block give depth 0.4 and thick", function()
  local w = world()
  mesh(w, {{-2, 0, 2, 2, 1, 2.4}})
  mesh(w, {{8, 0, 2, 12, 1, 5}})
  local a = w:traverse_scan{position = {0, 0, 0}, forward = {0, 0, 1}, speed = 3}
  local b = w:traverse_scan{position = {10, 0, 0}, forward = {0, 0, 1}, speed = 3}
  expect_near(a.depth, 0.4, 1e-6, "box depth (m)")
  expect_true(not a.thick, "the box is not thick")
  expect_true(b.thick, "the block is thick")
  expect_eq(gait.traverse.choose(nil, a, 2), "vault", "the box is vaulted at 2 m/s")
  expect_eq(gait.traverse.choose(nil, b, 2), "mantle_low", "the block is mantled")
end)

-- The house: one mesh. Front wall z 4..4.2 with a window x -1..1, y 1..3; room to z 8.
local function house(w)
  return mesh(w, {
    {-3.2, 0, 4, 3.2, 1, 4.2},     -- front wall below the window (the sill at 1 m)
    {-3.2, 3, 4, 3.2, 3.6, 4.2},   -- above the window
    {-3.2, 1, 4, -1, 3, 4.2},      -- left of it
    {1, 1, 4, 3.2, 3, 4.2},        -- right of it
    {-3.2, 0, 8, 3.2, 3.6, 8.2},   -- back wall
    {-3.2, 0, 4.2, -3, 3.6, 8},    -- side walls
    {3, 0, 4.2, 3.2, 3.6, 8},
    {-3.2, 3.6, 4, 3.2, 3.8, 8.2}, -- roof
  })
end

test("a vault through a window lands inside the room; the body never leaves the house's walls", function()
  local w = world()
  house(w)
  local ch = w:spawn{position = {0, 0, 0}}
  run_and_jump(w, ch, 2)
  expect_eq(ch:state(), "traverse", "the window is vaulted")
  local t = ch:traversal()
  expect_near(t.scan.height, 1.0, 1e-6, "sill height (m)")
  expect_near(t.scan.depth, 0.2, 1e-6, "wall thickness (m)")
  expect_true(t.scan.back_floor, "the room's floor behind")
  local leaks = 0
  local function check()
    local x, y, z = ch:position()
    if z > 4.2 and (z > 8 - 0.3 + 0.01 or math.abs(x) > 3 - 0.3 + 0.01 or y > 3.6) then
      leaks = leaks + 1
    end
  end
  expect_true(until_(w, ch, 240, {move_y = 1, held = {"jump"}}, function(c) check(); return on_foot(c) end),
    "the vault ends on foot")
  local x, y, z = ch:position()
  expect_true(z > 4.2 + 0.3 and z < 8 - 0.3 + 0.01, "inside the room: z = " .. z)
  expect_near(y, 0, 0.005, "on the room's floor (m)")
  expect_true(math.abs(x) < 3, "between the side walls")
  -- on into the back wall for 5 s, jump held (it climbs it, up to the roof): never out
  for _ = 1, 300 do
    step(w, ch, {move_y = 1, held = {"jump"}})
    check()
  end
  expect_eq(leaks, 0, "steps outside the house's walls")
end)

test("holding jump across three fences chains three actions", function()
  local w = world()
  for i = 0, 2 do mesh(w, {{-2, 0, 4 + 5 * i, 2, 1, 4.3 + 5 * i}}) end
  local ch = w:spawn{position = {0, 0, 0}}
  local kinds = {}
  local last = 0
  for k = 1, 600 do
    step(w, ch, {move_y = 1, held = {"jump"}, pressed = k == 1 and {"jump"} or nil})
    local t = ch:traversal()
    if t.actions > last then
      last = t.actions
      kinds[#kinds + 1] = t.kind
    end
  end
  local _, y, z = ch:position()
  expect_eq(last, 3, "three actions: " .. table.concat(kinds, ", "))
  expect_true(z > 14.3 + 0.3, "beyond the third fence: z = " .. z)
  expect_near(y, 0, 0.005, "on the ground (m)")
end)

test("degenerate geometry: a zero-thickness wall, a 40 deg ledge, the world's edge", function()
  local w = world()
  -- a zero-thickness wall: two triangles, both faces
  w:add_landmark{triangles = {{-2, 0, 4, -2, 1, 4, 2, 1, 4}, {-2, 0, 4, 2, 1, 4, 2, 0, 4}}}
  local ch = w:spawn{position = {0, 0, 0}}
  run_and_jump(w, ch, 2)
  expect_true(ch:state() ~= "traverse", "no ledge on a plane: " .. ch:state())
  local _, _, zp = ch:position()
  for _ = 1, 120 do
    step(w, ch, {move_y = 1})
    local _, y, z = ch:position()
    if zp < 4 and z >= 4 then expect_true(y >= 1.0 - 0.01, "over the plane, not through it: y = " .. y) end
    zp = z
  end

  -- a ledge whose top slopes 40 deg: refused
  local w2 = world()
  local r = math.tan(math.rad(40))
  local t = {}
  local function q(a, b, c, d) t[#t + 1] = {a[1], a[2], a[3], b[1], b[2], b[3], c[1], c[2], c[3]}
    t[#t + 1] = {a[1], a[2], a[3], c[1], c[2], c[3], d[1], d[2], d[3]} end
  local p0, p1, p2, p3 = {-2, 0, 4}, {2, 0, 4}, {2, 1, 4}, {-2, 1, 4}
  local p4, p5, p6, p7 = {-2, 1 + r, 5}, {2, 1 + r, 5}, {2, 0, 5}, {-2, 0, 5}
  q(p0, p3, p2, p1); q(p3, p4, p5, p2); q(p7, p6, p5, p4); q(p0, p7, p4, p3); q(p1, p2, p5, p6)
  w2:add_landmark{triangles = t}
  local c2 = w2:spawn{position = {0, 0, 0}}
  run_and_jump(w2, c2, 2)
  expect_true(c2:state() ~= "traverse", "a 40 deg top is no ledge")
  expect_eq(c2:traversal().scan.reason, "ledge too steep", "why")

  -- a fence at the edge of the world (terrain ends at z = 64): a vault into nothing ends cleanly
  local w3 = world()
  mesh(w3, {{-2, 0, 62, 2, 1, 62.3}})
  local c3 = w3:spawn{position = {0, 0, 58}}
  run_and_jump(w3, c3, 60)
  expect_eq(c3:state(), "traverse", "vaulted into the air")
  expect_true(not c3:traversal().scan.back_floor or c3:traversal().scan.back_floor_height > -3.01,
    "no floor behind beyond the edge")
  local ended = until_(w3, c3, 400, {}, function(c) return c:state() ~= "traverse" end)
  expect_true(ended, "the action ends")
  local x, y, z = c3:position()
  expect_true(x == x and y == y and z == z, "a finite position")
  expect_true(z <= 62 + c3:traversal().corridor + 1e-6, "within the corridor: z = " .. z)
end)

test("a hook vetoes or adds actions; the action table reloads from traversal.lua", function()
  local w = world()
  mesh(w, {{-2, 0, 4, 2, 1, 4.3}})
  local ch = w:spawn{position = {0, 0, 0}}
  local seen
  ch:set_traverse_hook(function(_, scan, proposed) seen = proposed .. " " .. scan.reason; return false end)
  run_and_jump(w, ch, 2)
  expect_eq(ch:state(), "jump", "vetoed: a jump instead")
  expect_true(seen ~= nil and seen:find(" ok") ~= nil, "the hook saw the scan: " .. tostring(seen))
  ch:set_traverse_hook(function() return "mantle_low" end)
  ch:place(0, 0, 0, 0)
  run_and_jump(w, ch, 2)
  expect_eq(ch:traversal().kind, "mantle_low", "the hook's action")
  ch:set_traverse_hook(nil)
  local tab = gait.traverse.table(w)
  expect_eq(tab.actions[1].kind, "hurdle", "the built-in table's first row")
  expect_near(tab.cooldown, 0.15, 0, "cooldown (s)")
  expect_true(gait.tuning.load(), "the shipped tuning (with traversal.lua) loads")
  expect_eq(gait.traverse.table(w).actions[4].max_height, 2.75, "mantle_high up to 2.75 m")
  expect_error(function() gait.traverse.choose({actions = {{kind = "cartwheel"}}}, {height = 1}, 1) end,
    "kind must be one of", "an unknown action is refused")
end)

test("a vault off a quay into deep water ends in a swim", function()
  local w = gait.world.new{max_characters = 4}
  assert(w:set_terrain(geo.terrain(64, 0.25, function(_, z) return z > 4.3 and -3 or 0 end)))
  w:add_water{min_x = -30, min_z = 4.3, max_x = 30, max_z = 30, surface = -0.5}
  mesh(w, {{-2, 0, 4, 2, 1, 4.3}})
  local ch = w:spawn{position = {0, 0, 0}}
  run_and_jump(w, ch, 2)
  expect_eq(ch:state(), "traverse", "the quay's rail is vaulted")
  local ok = until_(w, ch, 300, {move_y = 1}, state_is("swim"))
  expect_true(ok, "swims once in deep water: " .. ch:state())
  local _, _, z = ch:position()
  expect_true(z > 4.3, "beyond the rail: z = " .. z)
end)

test("traversal.lua hot-reloads; a broken one names the file and key and changes nothing", function()
  local function write(path, text)
    local f = assert(io.open(path, "w"))
    f:write(text)
    f:close()
  end
  local function file(cooldown, extra)
    return "return {\n  cooldown = " .. cooldown .. ",\n" .. (extra or "") ..
      "  actions = {\n    {kind = 'mantle_low', min_height = 0.5, max_height = 2.0},\n  },\n}\n"
  end
  local w = world()
  local path = os.tmpname()
  write(path, file("0.3"))
  assert(gait.tuning.load{traversal = path})
  local t = gait.traverse.table(w)
  expect_near(t.cooldown, 0.3, 0, "cooldown (s)")
  expect_eq(#t.actions, 1, "one row")
  expect_eq(t.actions[1].back_floor, "either", "a row's default back_floor")
  -- a 1 m fence is now mantled (the only row)
  mesh(w, {{-2, 0, 4, 2, 1, 4.3}})
  local ch = w:spawn{position = {0, 0, 0}}
  run_and_jump(w, ch, 2)
  expect_eq(ch:traversal().kind, "mantle_low", "the file's table chooses")
  write(path, file("0.3", "  reach_maxx = 3,\n"))
  local n, err = gait.poll()
  expect_eq(n, 0, "nothing reloaded")
  expect_true(tostring(err):find(path, 1, true) ~= nil and tostring(err):find("reach_maxx", 1, true) ~= nil,
    "names the file and the key: " .. tostring(err))
  expect_near(gait.traverse.table(w).cooldown, 0.3, 0, "the last good table stays")
  write(path, file("0.2", "  max_drop = 50,\n"))
  n, err = gait.poll()
  expect_eq(n, 1, "reloaded: " .. tostring(err))
  expect_near(gait.traverse.table(w).cooldown, 0.2, 0, "the new cooldown (s)")
  write(path, file("0.2", "  cooldown_x = 1,\n"):gsub("max_height = 2.0", "max_height = 'high'"))
  n, err = gait.poll()
  expect_true(err ~= nil, "a string for a number is refused")
  os.remove(path)
  assert(gait.tuning.load()) -- the shipped set again
end)

test("from a standstill at a fence a press vaults (not a hurdle); a held jump beats the climb", function()
  local w = world()
  mesh(w, {{-2, 0, 4, 2, 1, 4.3}})
  local ch = w:spawn{position = {0, 0, 3.2}}
  step(w, ch, {pressed = {"jump"}})
  expect_eq(ch:state(), "traverse", "pressed standing 0.5 m away")
  expect_eq(ch:traversal().kind, "vault", "slow: a vault (a hurdle needs 3.5 m/s)")
  expect_true(until_(w, ch, 240, {}, on_foot), "lands")
  local _, _, z = ch:position()
  expect_true(z > 4.6, "over: z = " .. z)
  -- walking into a fence with jump held: no climb, an action
  local w2 = world()
  mesh(w2, {{-2, 0, 4, 2, 1, 4.3}})
  local c2 = w2:spawn{position = {0, 0, 3.68}}
  step(w2, c2, {move_y = 0.3})        -- walks into the fence: the gates would climb next
  expect_true(c2:contact().wall_ahead, "touching the fence")
  step(w2, c2, {move_y = 0.3, held = {"jump"}})
  expect_eq(c2:state(), "traverse", "the held jump's action, not a climb")
  local w3 = world()
  mesh(w3, {{-2, 0, 4, 2, 1, 4.3}})
  local c3 = w3:spawn{position = {0, 0, 3.68}}
  step(w3, c3, {move_y = 0.3})
  step(w3, c3, {move_y = 0.3})
  expect_eq(c3:state(), "climb", "without the jump: a climb, as before")
end)

test("bad input to the scan is refused, never half-applied", function()
  local w = world()
  expect_error(function() w:traverse_scan{position = {0 / 0, 0, 0}} end, "finite", "NaN position")
  expect_error(function() w:traverse_scan{} end, "position", "no position")
  expect_error(function() w:traverse_scan{position = {0, 0, 0}, body_type = "giant"} end, "body_type",
    "an unknown body type")
  local s = w:traverse_scan{position = {0, 0, 0}, forward = {0, 0, 0}}
  expect_eq(s.ok, false, "no direction: no scan")
  expect_eq(s.reason, "invalid query", "says why")
  s = w:traverse_scan{position = {0, 0, 0}, speed = 1 / 0}
  expect_eq(s.reason, "invalid query", "infinite speed")
  expect_error(function() gait.traverse.choose({cooldown = -1}, {height = 1}, 1) end, "cooldown",
    "a table out of range")
end)
