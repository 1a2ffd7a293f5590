-- Water and the ground under it (docs/behaviour.md: "The body", "Stamina"): drowning brings the body back where its stamina was
-- last full *on foot on dry or wading ground*, and a landmark floor under the surface is ground
-- as the terrain is (a swimmer wades onto a submerged platform, as onto a shelving shore).
local gait = require("gait")
local S = require("gait.scenario")

-- body_traverse.lua's lake: the ground falls 0.25 m per m from +0.5 at z = 0 to -5 m, the water's
-- surface at 0 beyond z = 0; the water is deeper than the wading depth (1.2 m) past z = 6.8
local function lake()
  local w = S.world(gait.geometry.terrain(128, 0.5, function(_, z)
    return math.max(-5, math.min(0.5, 0.5 - 0.25 * z))
  end))
  assert(w:add_water{min_x = -64, min_z = 0, max_x = 64, max_z = 64, surface = 0})
  return w
end

test("a drowned body comes back on ground that is not deep water, and stays on foot", function()
  local w = lake()
  local ch = w:spawn{position = {0, 1, -2}}
  -- a run into the lake costs nothing: stamina is full all the way in
  expect_true(S.until_state(w, ch, "swim", 600, {move_y = 1}), "runs in until it swims")
  ch:set_stamina(0)
  S.steps(w, ch, 1, {})
  expect_eq(ch:state(), "drown", "out of stamina drowns")
  expect_true(S.until_(w, ch, 180, {}, function(c) return c:state() ~= "drown" end), "comes back")
  local c = ch:contact()
  local n = w:locomotion("medium_female")
  expect_true(c.water_depth <= n.wading_depth - n.swim_exit_margin, string.format(
    "on wading ground: water %.4f m deep (at most %.2f)", c.water_depth,
    n.wading_depth - n.swim_exit_margin))
  local r = S.watch(w, ch, 60, {})
  expect_true(not r.seen.swim and not r.seen.drown, "a second later still on foot, not swimming")
  expect_eq(ch:state(), "idle", "standing")
end)

test("a swimmer wades onto a landmark platform 0.5 m under the surface", function()
  -- deep water (5 m) and a platform 6 m wide whose top is 0.5 m under the surface at z 4-12
  local w = S.world(gait.geometry.terrain(64, 1, function() return -5 end))
  assert(w:add_water{min_x = -32, min_z = -32, max_x = 32, max_z = 32, surface = 0})
  S.box(w, -3, -5, 4, 3, -0.5, 12)
  local ch = S.perch(w, 0, 1, 0)
  expect_true(S.until_state(w, ch, "swim", 120, {}), "falls in and swims")
  -- towards the platform at swim speed (2.3 m/s): 4 m in 2 s; 5 s is ample
  local on = S.until_(w, ch, 300, {move_y = 1}, function(c)
    return c:state() == "run" and c:contact().grounded
  end)
  local _, y, z = ch:position()
  expect_true(on, string.format("on foot on the platform within 5 s (still %s at y %.3f, z %.3f)",
    ch:state(), y, z))
  expect_near(y, -0.5, 0.01, "feet on the platform's top (m)")
  local c = ch:contact()
  expect_near(c.water_depth, 0.5, 0.01, "the water over the platform reads 0.5 m deep")
end)

-- A water region whose side stands over dry ground (a volume that ends in a vertical face of
-- water, not a bank: z < 0 is dry flat ground, z >= 0 is 2 m of water over the same ground)
local function water_box()
  local w = S.world(gait.geometry.terrain(64, 1, function() return 0 end))
  assert(w:add_water{min_x = -32, min_z = 0, max_x = 32, max_z = 32, surface = 2})
  return w
end

test("a swimmer leaves a water region's side with its whole footprint, once", function()
  local w = water_box()
  local r = w:locomotion("medium_female").capsule_radius
  local ch = S.perch(w, 0, 2.5, 4)
  expect_true(S.until_state(w, ch, "swim", 120, {}), "falls in and swims")
  -- out through the side at swim speed: 4 m in under 2 s, then the fall of 2 m
  local out = S.until_(w, ch, 300, {move_y = -1}, function(c) return c:state() ~= "swim" end)
  local _, _, z = ch:position()
  expect_true(out, "leaves the water within 5 s")
  -- in the water while any of the footprint is (sense.c water_over): the feet a radius past the
  -- side, and the gates' next step on (the swim's speed carried a few steps: 0.15 m)
  expect_true(z < -r and z > -r - 0.15, string.format(
    "left the water with the feet %.3f m past the side (radius %.2f)", -z, r))
  local seen = S.watch(w, ch, 180, {move_y = -1})
  expect_true(not seen.seen.swim, "lands on the dry ground and runs on, never swimming again")
  expect_true(ch:contact().grounded and ch:state() == "run", "runs on the dry ground")
end)
