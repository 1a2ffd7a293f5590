-- A body put on foot under a low ceiling crouches there (docs/behaviour.md, "The body": placing, the drowning return point):
-- spawned, placed, or brought back by a drowning to where it last stood with a full pool. Its
-- standing capsule (1.7 m) would reach 0.3 m into a ceiling 1.4 m over the ground; crouched
-- (0.8 m) it fits, and it stands again once out from under it.
local gait = require("gait")
local S = require("gait.scenario")

-- water_ground.lua's lake (ground +0.5 m for z < 0, falling 0.25 m per m to -5 m; the surface at
-- 0 beyond z = 0) with a ceiling slab whose underside is 1.4 m over the ground at z -5 .. -1.5
local function lake_with_ceiling()
  local w = S.world(gait.geometry.terrain(128, 0.5, function(_, z)
    return math.max(-5, math.min(0.5, 0.5 - 0.25 * z))
  end))
  assert(w:add_water{min_x = -64, min_z = 0, max_x = 64, max_z = 64, surface = 0})
  S.box(w, -3, 1.9, -5, 3, 2.2, -1.5)
  return w
end

test("spawned and placed under a low ceiling, the body crouches; out from under it, it stands", function()
  local w = lake_with_ceiling()
  local ch = w:spawn{position = {0, 0.5, -3}}
  expect_eq(ch:state(), "crouch", "spawned under the ceiling")
  S.steps(w, ch, 30, {})
  expect_eq(ch:state(), "crouch", "half a second later, still crouched (no room to stand)")
  local stood = S.until_(w, ch, 180, {move_y = 1}, function(c) return c:state() ~= "crouch" end)
  local _, _, z = ch:position()
  -- crouched speed 1.5 m/s: 1.8 m to the ceiling's end plus the radius in about 1.4 s
  expect_true(stood, "stands within 3 s of walking out")
  expect_true(z > -1.5 + 0.3 - 0.05, string.format("only past the ceiling's end (z %.3f)", z))
  ch:place(0, 0.5, -4, 0)
  expect_eq(ch:state(), "crouch", "placed under the ceiling")
  ch:place(0, 0.5, -1, 0) -- in the open beside it
  expect_eq(ch:state(), "idle", "placed in the open, it stands")
end)

test("a drowning brings the body back crouched where it last stood under a low ceiling", function()
  local w = lake_with_ceiling()
  local ch = w:spawn{position = {0, 0.5, -3}}
  S.steps(w, ch, 5, {}) -- full pool, crouched: the return point is here
  -- out and into the lake with the pool kept below full, so the return point stays put
  local swam = false
  for _ = 1, 600 do
    ch:set_stamina(50)
    S.step(w, ch, {move_y = 1})
    if ch:state() == "swim" then swam = true break end
  end
  expect_true(swam, "swims")
  ch:set_stamina(0)
  S.steps(w, ch, 1, {})
  expect_eq(ch:state(), "drown", "out of stamina drowns")
  expect_true(S.until_(w, ch, 180, {}, function(c) return c:state() ~= "drown" end), "comes back")
  local x, y, z = ch:position()
  expect_near(z, -3, 1e-9, "back where it last stood with a full pool (z, m)")
  expect_near(y, 0.5, 1e-9, "on the ground (y, m)")
  expect_eq(ch:state(), "crouch", "crouched under the ceiling")
  S.steps(w, ch, 10, {})
  expect_eq(ch:state(), "crouch", "and stays crouched there")
end)
