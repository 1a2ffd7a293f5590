-- The plunge and the glider on terrain steeper than walkable (docs/behaviour.md, "The body"): a heightfield slope of
-- 60 deg and a sheer terrain drop into water. A body that meets such terrain in the air slides
-- down it, lands at its foot, or swims, as a plain fall does; it never hangs on it in `plunge`
-- or `glide` (mesh slopes already behave: the terrain is read through its height function,
-- and the plunge and glide set their velocity anew every step).
local gait = require("gait")
local S = require("gait.scenario")

local T60 = math.tan(math.rad(60))
-- a 60 deg slope rising along +z from the flat at z = 0 to a 30 m plateau; 0.5 m cells
local function slope()
  return S.world(gait.geometry.terrain(96, 0.5, function(_, z)
    return math.max(0, math.min(30, z * T60))
  end))
end

-- a body dropped 26 m over the slope (whose height at z = 8 is 13.86 m); attack pressed after
-- `plunge_after` steps (nil: a plain fall). Returns the character and whether it is on foot (idle)
-- within 5 s, its feet then
local function drop(plunge_after)
  local w = slope()
  local ch = S.perch(w, 0, 40, 8)
  S.until_state(w, ch, "fall", 10, {})
  if plunge_after then
    S.steps(w, ch, plunge_after, {})
    S.steps(w, ch, 1, {pressed = {"attack"}})
    expect_eq(ch:state(), "plunge", "plunging 26 m over the slope")
  end
  local landed = S.until_state(w, ch, "idle", 300, {})
  return ch, landed
end

test("a plunge onto the 60 deg terrain slope slides down and lands where a plain fall does", function()
  local plain, plain_landed = drop(nil)
  local _, py, pz = plain:position()
  expect_true(plain_landed and math.abs(py) < 0.01, "the plain fall lands at the slope's foot " ..
    "(the reference)")
  local ch, landed = drop(10)
  local _, y, z = ch:position()
  expect_true(landed, string.format("the plunge ends on foot within 5 s (still %s at %.3f m; " ..
    "the slope is 13.856 m there)", ch:state(), y))
  expect_near(y, 0, 0.01, "at the slope's foot, as the plain fall (m)")
  expect_near(z, pz, 0.5, "where the plain fall came to rest (m along the slope, +-0.5)")
end)

test("a glide with no stick onto the 60 deg terrain slope leaves the glider and slides down", function()
  local w = slope()
  -- facing away from the slope (yaw pi faces -z): no wall ahead to catch and climb
  local ch = S.perch(w, 0, 30, 8, {yaw = math.pi})
  S.steps(w, ch, 10, {})
  S.steps(w, ch, 1, {pressed = {"jump"}})
  expect_eq(ch:state(), "glide", "gliding 16 m over the slope")
  -- it sinks 1.8 m/s: the slope is met after about 9 s
  local met = S.until_(w, ch, 60 * 12, {}, function(c)
    return c:contact().wall or c:contact().height_above_ground < 0.05
  end)
  expect_true(met, "the glide reaches the slope")
  local s0 = ch:stamina()
  S.steps(w, ch, 120, {})
  local _, y = ch:position()
  expect_true(ch:state() ~= "glide", string.format("2 s on the slope, no longer gliding (still %s " ..
    "at %.3f m)", ch:state(), y))
  expect_true(s0 - ch:stamina() < 1, string.format("the glider is not paid for while held by the " ..
    "slope (spent %.2f in 2 s)", s0 - ch:stamina()))
  S.until_state(w, ch, "idle", 300, {})
  local _, y2 = ch:position()
  expect_near(y2, 0, 0.01, "on foot at the slope's foot (m)")
end)

test("a plunge along a sheer terrain drop into water swims", function()
  -- a 20 m plateau ending in a drop to -10 m over one 1 m cell (88 deg), water at 0 beyond it
  local w = S.world(gait.geometry.terrain(96, 1, function(_, z) return z < 0 and 20 or -10 end))
  assert(w:add_water{min_x = -48, min_z = 0, max_x = 48, max_z = 48, surface = 0})
  local ch = w:spawn{position = {0, 20, -3}}
  expect_true(S.until_state(w, ch, "fall", 120, {move_y = 1}), "runs off the plateau")
  S.steps(w, ch, 2, {})
  S.steps(w, ch, 1, {pressed = {"attack"}})
  expect_eq(ch:state(), "plunge", "plunging down the drop")
  -- 20 m at 30 m/s is 0.7 s; 3 s is ample to reach the water and float up
  local swam = S.until_state(w, ch, "swim", 180, {})
  local _, y = ch:position()
  expect_true(swam, string.format("swims within 3 s (still %s at %.3f m)", ch:state(), y))
end)
