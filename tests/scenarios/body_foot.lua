-- The body on foot (docs/behaviour.md, "The body"), through the Lua API. Provisional numbers: run 5.6 m/s, jump 1.2 m,
-- gravity 20 m/s^2, step 0.3 m, walkable 45 deg, capsule 0.3 x 1.7 m. Camera yaw 0: W is +z.
-- Every tolerance is stated with its check.
local gait = require("gait")
local geo = gait.geometry

local S = require("gait.scenario") -- world (flat 128 m by default), box (by corners)
local world, box = S.world, S.box
local run = S.steps -- n steps of 1/60 s with the same input (presses only in the first)

-- a jump, then n steps with no input: the highest the feet rose (m)
local function jump_apex(w, ch, n)
  local apex = 0
  run(w, ch, 1, {pressed = {"jump"}})
  for _ = 1, n do
    ch:set_input{}
    w:step()
    local _, y = ch:position()
    apex = math.max(apex, y)
  end
  return apex
end

-- 120 steps (2 s) of running +z: whether seen(ch) held after any of them
local function ever_while_running(w, ch, seen)
  local yes = false
  for _ = 1, 120 do
    ch:set_input{move_y = 1}
    w:step()
    if seen(ch) then yes = true end
  end
  return yes
end

test("flat run speed is the tuned run speed (+-1 %)", function()
  local w = world()
  local ch = w:spawn{position = {0, 0, 0}}
  run(w, ch, 60, {move_y = 1})
  local x, y, z = ch:position()
  expect_eq(ch:state(), "run", "state")
  expect_near(z, 5.6, 0.056, "distance in 1 s (m, +-1 %)")
  expect_near(ch:speed(), 5.6, 0.056, "speed (m/s, +-1 %)")
  expect_near(y, 0, 1e-9, "feet on the ground (m)")
end)

test("stairs of 0.25 m are walked up, never climbed or fallen from", function()
  local w = world()
  assert(w:add_landmark{triangles = geo.stairs(0, 0, 2, 8, 0.25, 0.3, 4)})
  box(w, -2, 0, 2 + 8 * 0.3, 2, 2.0, 12) -- the landing at the top
  local ch = w:spawn{position = {0, 0, 0}}
  local climbed, fell = false, false
  for _ = 1, 90 do
    ch:set_input{move_y = 1}
    w:step()
    if ch:state() == "climb" then climbed = true end
    if ch:state() == "fall" then fell = true end
  end
  local _, y, z = ch:position()
  expect_eq(climbed, false, "no climb on stairs")
  expect_eq(fell, false, "no fall on stairs")
  expect_near(y, 2.0, 0.005, "on the top tread (m, +-5 mm)")
  expect_true(z > 2 + 8 * 0.3 - 0.3, "past the last riser")
end)

test("a 0.6 m step stops the body; a continued push climbs it (stamina >= 5)", function()
  local w = world()
  box(w, -3, 0, 2, 3, 0.6, 30)
  local ch = w:spawn{position = {0, 0, 0}}
  ch:set_stamina_multiplier(100) -- 5 x 100: the climb is out of reach
  run(w, ch, 40, {move_y = 1})
  local _, y, z = ch:position()
  expect_near(y, 0, 1e-9, "stopped at the foot (m)")
  expect_near(z, 2 - 0.3, 0.01, "the capsule's radius from the riser (m, +-1 cm)")
  expect_true(ch:contact().wall_ahead, "faces it as a wall")
  ch:set_stamina_multiplier(1)
  local climbed = ever_while_running(w, ch, function(c) return c:state() == "climb" end)
  _, y, z = ch:position()
  expect_true(climbed, "climbed the step")
  expect_near(y, 0.6, 0.005, "stands on top (m, +-5 mm)")
  expect_true(z > 2.3, "on it")
end)

test("a 30 deg slope is walked, a 60 deg slope stops the body", function()
  local t30 = math.tan(math.rad(30))
  local w = world(geo.terrain(64, 0.5, function(_, z) return z > 2 and (z - 2) * t30 or 0 end))
  local ch = w:spawn{position = {0, 0, 0}}
  local left = ever_while_running(w, ch, function(c) return not c:contact().grounded end)
  local _, y, z = ch:position()
  expect_eq(left, false, "grounded all the way up")
  expect_near(y, (z - 2) * t30, 1e-6, "feet on the slope (m)")
  expect_true(y > 3, "went up it")

  local t60 = math.tan(math.rad(60))
  w = world(geo.terrain(64, 0.5, function(_, zz) return zz > 2 and (zz - 2) * t60 or 0 end))
  ch = w:spawn{position = {0, 0, 0}}
  ch:set_stamina_multiplier(100)
  run(w, ch, 60, {move_y = 1})
  _, y, z = ch:position()
  expect_true(y < 0.1 and z < 2.1, "stopped at its foot")
  expect_true(ch:contact().wall_ahead, "faces it as a wall")
end)

test("running off a ledge falls, then lands", function()
  local w = world()
  box(w, -5, 0, -5, 5, 2, 5)
  local ch = w:spawn{position = {0, 3, 0}}
  local _, y0 = ch:position()
  expect_near(y0, 2, 0.005, "stood on the box (m)")
  local fell = ever_while_running(w, ch, function(c) return c:state() == "fall" end)
  local _, y = ch:position()
  expect_true(fell, "fell")
  expect_eq(ch:state(), "run", "landed running")
  expect_near(y, 0, 1e-9, "on the ground (m)")
end)

test("the jump's apex is the tuned height (+-1 %)", function()
  local w = world()
  local ch = w:spawn{position = {0, 0, 0}}
  local apex = jump_apex(w, ch, 90)
  expect_near(apex, 1.2, 0.012, "apex (m, +-1 %)")
  expect_eq(ch:state(), "idle", "landed")
end)

test("a steep landing slides down", function()
  local t60 = math.tan(math.rad(60))
  local w = world(geo.terrain(64, 0.5, function(x) return -x * t60 end))
  box(w, -3, 5.8, -1, -1.8, 6, 1)
  local ch = w:spawn{position = {-2.4, 7, 0}}
  ch:set_camera_yaw(math.pi / 2) -- W along +x
  run(w, ch, 12, {move_y = 1})
  run(w, ch, 60, {})
  local x, y = ch:position()
  expect_true(x > 0.5, "slid down the slope")
  expect_near(y, -x * t60, 1e-6, "on its surface (m)")
  expect_true(ch:state() == "fall", "not standing on it")
end)

test("a ceiling stops a jump", function()
  local w = world()
  box(w, -3, 2.2, -3, 3, 3, 3)
  local ch = w:spawn{position = {0, 0, 0}}
  local apex = jump_apex(w, ch, 60)
  expect_true(apex <= 2.2 - 1.7 + 1e-6, "the head stays under the ceiling")
  expect_true(apex > 0.45, "rose until it")
  expect_eq(ch:state(), "idle", "back on the ground")
end)

test("a floor of 10,000 tiny triangles never lifts the feet by more than 1 mm", function()
  local w = gait.world.new{max_characters = 1}
  local tris = {}
  local s = 0.05
  for iz = 0, 49 do
    for ix = 0, 99 do
      local x0, x1, z0, z1 = ix * s - 2.5, (ix + 1) * s - 2.5, iz * s - 1.25, (iz + 1) * s - 1.25
      tris[#tris + 1] = {x0, 1, z0, x0, 1, z1, x1, 1, z1}
      tris[#tris + 1] = {x0, 1, z0, x1, 1, z1, x1, 1, z0}
    end
  end
  assert(w:add_landmark{triangles = tris})
  local ch = w:spawn{position = {-2, 1.5, 0.013}}
  local _, y0 = ch:position()
  ch:set_camera_yaw(math.pi / 2 - 0.1)
  local lo, hi = y0, y0
  for _ = 1, 40 do
    ch:set_input{move_y = 1}
    w:step()
    local _, y = ch:position()
    lo, hi = math.min(lo, y), math.max(hi, y)
  end
  expect_near(hi, y0, 0.001, "highest feet vs standing (m, 1 mm)")
  expect_near(lo, y0, 0.001, "lowest feet vs standing (m, 1 mm)")
end)
