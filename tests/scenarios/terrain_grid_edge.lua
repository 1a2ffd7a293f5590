-- The edge of the terrain's grid (docs/behaviour.md, "The body", Ground): past it the height
-- function answers nothing, so the walk asks the landmarks under the feet, and the bottom sphere
-- rests on the grid's last cells as it would on a landmark box's edge. A flat 32 m terrain
-- (x, z in [-16, 16], height 0); the body runs along +z from z = 10.
local S = require("gait.scenario")

local RUN = {move_y = 1}

test("a run off the terrain's grid onto a landmark floor just below it steps down, running", function()
  local w = S.world(32)
  -- a slab whose top is 2 cm under the terrain's height, from the grid's edge on: a quay, a
  -- bridge's deck (the walk's cast along the ground's plane passes over it)
  S.box(w, -2, -1, 16, 2, -0.02, 26)
  local ch = S.perch(w, 0, 0.01, 10)
  S.until_state(w, ch, "idle", 60, {})
  local r = S.watch(w, ch, 150, RUN) -- 2.5 s at the run's 6 m/s: 15 m, 9 of them on the slab
  local _, y, z = ch:position()
  expect_true(z > 20, string.format("ran on onto the slab (z %.2f > 20)", z))
  expect_near(y, -0.02, 0.005, "feet on the slab's top (m)")
  expect_eq(ch:state(), "run", "running")
  expect_true(not r.seen.fall, "never fell at the grid's edge")
end)

test("a run off the terrain's grid with nothing past it rounds the edge, then falls", function()
  local w = S.world(32)
  local ch = S.perch(w, 0, 0.01, 10)
  S.until_state(w, ch, "idle", 60, {})
  local left, gz, gy = nil, 0, 0
  for k = 1, 90 do
    S.step(w, ch, RUN)
    local _, y, z = ch:position()
    if ch:contact().grounded and z > gz then gz, gy = z, y end
    if ch:state() == "fall" then
      left = k
      break
    end
  end
  expect_true(left ~= nil, "the run falls off the edge")
  -- the axis passes the edge at z = 16; the sphere (radius 0.3) rests on the edge while its
  -- contact is walkable (45 deg: 0.21 m past it and 0.09 m down), give or take a step of the
  -- run (0.093 m)
  expect_true(gz > 16.1 and gz < 16.3, string.format("stood on the edge 0.1-0.3 m past it " ..
    "(last grounded at z %.3f)", gz))
  expect_true(gy < -0.01 and gy > -0.1, string.format("the feet went down round the edge " ..
    "(y %.3f there; the sphere drops 0.09 m by 45 deg)", gy))
end)

test("a jump from the grid's edge, the feet past it, comes down on the edge again", function()
  local w = S.world(32)
  local ch = S.perch(w, 0, 0.01, 10)
  S.until_state(w, ch, "idle", 60, {})
  -- run to the first step whose feet are past the edge (z = 16), then let go of the stick
  local ok = S.until_(w, ch, 90, RUN, function(c) local _, _, z = c:position(); return z > 16 end)
  expect_true(ok, "ran past the grid's edge")
  S.steps(w, ch, 30, {})
  local x0, y0, z0 = ch:position()
  expect_true(z0 > 16 and ch:contact().grounded, string.format("stands with its feet past the " ..
    "edge (z %.3f)", z0))
  S.steps(w, ch, 1, {pressed = {"jump"}})
  local landed = S.until_(w, ch, 120, {}, function(c) return c:contact().grounded end)
  local x, y, z = ch:position()
  expect_true(landed, string.format("came down within 2 s (still %s at y %.2f)", ch:state(), y))
  expect_near(y, y0, 0.005, "on the edge where it stood (m)")
  expect_near(z, z0, 0.005, "no nearer the drop (m)")
  expect_near(x, x0, 0.005, "nor aside (m)")
end)

test("a crouched walk along a sloping grid's edge, the feet past it, keeps to the edge", function()
  -- the terrain rises 0.3 m a metre along x (17 deg), so its edge at z = 16 is a slope too: the
  -- walk's slide (blind to the grid's triangles, which the height function answers for) may sink
  -- the sphere a hair into the edge, and the cast down must still read it as the ground
  local geo = require("gait.geometry")
  local w = S.world(geo.terrain(32, 1, function(x) return 0.3 * x end))
  local ch = S.perch(w, 0, 0.01, 10)
  S.until_state(w, ch, "idle", 60, {})
  local ok = S.until_(w, ch, 90, RUN,
    function(c) local _, _, z = c:position(); return z > 16.05 end)
  expect_true(ok, "ran past the grid's edge")
  S.steps(w, ch, 20, {})
  expect_true(ch:contact().grounded, string.format("stands on the edge (%s)", ch:state()))
  S.steps(w, ch, 2, {pressed = {"crouch"}})
  local r = S.watch(w, ch, 120, {move_x = 1}) -- 2 s crouched, along the edge
  local x, y, z = ch:position()
  expect_eq(ch:state(), "crouch", "still crouched")
  expect_true(not r.seen.fall, string.format("never fell (%d state changes)", r.changes))
  expect_true(math.abs(x) > 2, string.format("walked along the edge (x %.2f)", x))
  expect_true(z > 16 and z < 16.3, string.format("on the edge, the feet past it (z %.3f)", z))
  -- the sphere on the edge's line: the feet within its radius (0.3 m) below the edge's height
  expect_true(y <= 0.3 * x + 0.01 and y > 0.3 * x - 0.3,
    string.format("the feet by the edge's height (y %.3f, edge %.3f)", y, 0.3 * x))
end)
