-- A riser within the step height is never a wall to climb (docs/behaviour.md, "The body"), on
-- the terrain as on a landmark. Here the walkers' terrain scene (tests/fuzz/walkers.c, seed 1):
-- a terrace on 1 m cells, a cell of its riser split into a 52 deg triangle and a 43 deg
-- (walkable) one. A run crossing the steep triangle's corner meets up to 0.29 m of face with the
-- walkable triangle on top of it a little more than a capsule's radius uphill; the walk took the
-- face for a wall and the body climbed it (run -> climb -> run: the walkers' riser_climb, 39 of
-- 1000 walkers on that scene in 20 s). It is stepped up, as a riser is; the terrace's whole
-- rise (a metre and more) stays a wall.
local S = require("gait.scenario")

-- heights of x = 22..31, z = 65..74 (1 m cells), the level's around (26.4, 69.1)
local H = {
  {-3.930, -4.027, -4.111, -4.183, -4.241, -4.286, -4.316, -4.357, -4.372, -4.334},
  {-3.907, -3.984, -4.047, -4.099, -4.137, -4.162, -4.174, -4.173, -4.159, -4.134},
  {-3.868, -3.923, -3.966, -3.996, -4.014, -4.020, -4.014, -3.995, -3.966, -3.926},
  {-3.812, -3.846, -3.867, -3.877, -3.875, -3.862, -3.838, -3.803, -3.758, -3.705},
  {-3.740, -3.752, -3.752, -3.742, -3.721, -3.689, -3.648, -3.401, -2.784, -2.210},
  {-3.651, -3.641, -3.571, -3.348, -2.930, -2.419, -2.150, -2.086, -2.014, -1.936},
  {-2.878, -2.550, -2.232, -2.133, -2.075, -2.010, -1.938, -1.860, -1.777, -1.689},
  {-2.134, -2.083, -2.024, -1.957, -1.883, -1.802, -1.717, -1.627, -1.534, -1.240},
  {-2.002, -1.932, -1.855, -1.771, -1.682, -1.587, -1.490, -0.734, 0.007, 0.109},
  {-1.859, -1.771, -1.676, -1.577, -1.459, -0.486, 0.036, 0.145, 0.254, 0.360},
}

local function world()
  local heights = {}
  for _, row in ipairs(H) do
    for _, h in ipairs(row) do heights[#heights + 1] = h end
  end
  return S.world({samples_x = 10, samples_z = 10, cell_size = 1, origin = {22, 0, 65},
                  heights = heights}, 1)
end

-- the level's runner: at (26.92, 69.02), heading (-0.72, 0.69) (camera yaw 0: move_x = -1 goes
-- +x), first along the terrace's foot, then across the steep triangle's corner onto the walkable
-- one (its top edge 0.29 m over the feet there); a third of a second, before the next cell up,
-- where the terrace's riser rises 1.2 m (a wall)
for _, turn in ipairs({-10, -5, 0, 5}) do
  test(string.format("a run across a terrace cell's steep corner (%d deg off the level's runner) " ..
                     "steps up it, never climbs", turn), function()
    local w = world()
    local ch = w:spawn{position = {26.9173, -3.6677, 69.0191}}
    local a = math.atan2(-0.7236, 0.6904) + math.rad(turn)
    local r = S.watch(w, ch, 22, {move_x = -math.sin(a), move_y = math.cos(a)})
    local _, y, z = ch:position()
    expect_true(not r.seen.climb, string.format("never climbs (states seen: %s)",
      table.concat(S.sorted_keys(r.seen), " ")))
    expect_eq(ch:state(), "run", "still running")
    expect_true(ch:contact().grounded, "on the ground")
    -- the corner's top edge lies at y -3.32 on the walkable triangle, z 69.3
    expect_true(z > 69.6 and y > -3.33, string.format("up past the corner (z %.3f, y %.3f)", z, y))
  end)
end
