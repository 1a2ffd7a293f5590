-- A run over a small bump of the terrain is never stopped by it (docs/behaviour.md, "The body").
-- Here the walkers' terrain scene (tests/fuzz/walkers.c, seed 1; heights from `walkers --seed 1
-- --heights 32 -51 16`): a terrace's riser on 1 m cells, run along at its foot, the stick 5 deg
-- into it. Where the riser's cells meet the ground the run crosses their corners: the feet's end
-- lands over a steep triangle a few cm above the ground walked on, one that leans the way the
-- run goes, with the ground coming back down within the capsule's radius beyond it. The walk
-- took that triangle for a wall, whose normal points along the move: no wall was ahead, so no
-- climb, and its foot led nowhere, so the runner stood there at speed 0 for good (the walkers'
-- stuck_walker). It runs over the bump's crest; a climb of the riser itself, pressed into, is
-- the rules'.
local S = require("gait.scenario")

local H = {
  {-0.4313, -1.2711, -1.5280, -1.6192, -1.7153, -1.8160, -1.9205, -2.0282, -2.1384, -2.8595, -3.6584, -3.7709, -3.8822, -3.9914, -4.0972, -4.1988},
  {-0.6812, -1.4824, -1.5866, -1.6953, -1.8085, -1.9256, -2.0459, -2.1778, -3.3127, -3.7126, -3.8367, -3.9592, -4.0790, -4.1951, -4.3063, -5.0416},
  {-1.0528, -1.5344, -1.6553, -1.7809, -1.9105, -2.0432, -2.2153, -3.4979, -3.7467, -3.8827, -4.0167, -4.1478, -4.2746, -4.8709, -5.8063, -5.9133},
  {-1.4159, -1.5962, -1.7337, -1.8754, -2.0204, -2.1754, -3.5093, -3.7605, -3.9084, -4.0542, -4.1967, -4.3622, -5.6048, -5.8873, -6.0041, -6.1115},
  {-1.5189, -1.6678, -1.8211, -1.9779, -2.1371, -3.3598, -3.7538, -3.9136, -4.0712, -4.2252, -4.6484, -5.8130, -5.9487, -6.0757, -6.1929, -6.2989},
  {-1.5843, -1.7486, -1.9166, -2.0872, -2.9604, -3.7271, -3.8985, -4.0676, -4.2331, -4.8452, -5.8433, -5.9898, -6.1273, -6.2546, -6.3703, -6.4734},
  {-1.6592, -1.8377, -2.0190, -2.3710, -3.6810, -3.8635, -4.0439, -4.2206, -4.8303, -5.8529, -6.0102, -6.1584, -6.2959, -6.4217, -6.8160, -7.8169},
  {-1.7427, -1.9339, -2.1272, -3.5403, -3.8096, -4.0007, -4.1882, -4.6126, -5.8420, -6.0100, -6.1686, -6.3165, -6.4523, -7.2502, -7.9783, -8.0707},
  {-1.8336, -2.0361, -2.7402, -3.7380, -3.9390, -4.1366, -4.3424, -5.8110, -5.9893, -6.1582, -6.3162, -6.4621, -7.4661, -8.0075, -8.1093, -8.1943},
  {-1.9307, -2.1427, -3.6500, -3.8602, -4.0673, -4.2695, -5.5942, -5.9489, -6.1276, -6.2955, -6.4511, -7.4519, -8.0157, -8.1270, -8.2211, -8.2974},
  {-2.0325, -2.8811, -3.7660, -3.9815, -4.1924, -4.8848, -5.8898, -6.0777, -6.2549, -6.4198, -7.2092, -8.0031, -8.1236, -8.2269, -8.3122, -8.3785},
  {-2.1374, -3.6583, -3.8811, -4.0998, -4.3126, -5.8134, -6.0098, -6.1955, -6.3691, -6.7689, -7.9701, -8.0995, -8.2118, -8.3059, -8.3811, -8.4366},
  {-2.7858, -3.7682, -3.9935, -4.2133, -5.2036, -5.9251, -6.1186, -6.3002, -6.4686, -7.7347, -8.0554, -8.1762, -8.2789, -8.3626, -8.4267, -8.4706},
  {-3.6450, -3.8757, -4.1012, -4.3203, -5.8257, -6.0259, -6.2146, -6.3902, -6.9901, -7.9923, -8.1209, -8.2317, -8.3237, -8.3961, -8.4483, -8.4799},
  {-3.7487, -3.9788, -4.2024, -5.1155, -5.9193, -6.1139, -6.2959, -6.4637, -7.6810, -8.0473, -8.1654, -8.2650, -8.3452, -8.4054, -8.4452, -8.4642},
  {-3.8483, -4.0755, -4.2951, -5.8002, -6.0004, -6.1875, -6.3609, -6.6815, -7.9530, -8.0814, -8.1878, -8.2752, -8.3428, -8.3902, -8.4171, -8.4232},
}

local function world()
  local heights = {}
  for _, row in ipairs(H) do
    for _, h in ipairs(row) do heights[#heights + 1] = h end
  end
  return S.world({samples_x = 16, samples_z = 16, cell_size = 1, origin = {24, 0, -59},
                  heights = heights}, 1)
end

-- the walkers' runner (walker 145): feet at (35.936, -5.816, -55.154), heading yaw -0.878 (the
-- stick full that way; camera yaw 0: move_x = -1 goes +x); and its twins a few degrees either
-- side, and from the spot 0.8 s on where it stood next (a 9 cm bump)
local starts = {
  {35.936, -5.816, -55.154, 0}, {35.936, -5.816, -55.154, -3}, {35.936, -5.816, -55.154, 3},
  {31.986, -5.887, -51.577, 0},
}
for _, s in ipairs(starts) do
  test(string.format("a run along a riser's foot from (%.1f, %.1f), %d deg off, crosses the " ..
                     "bumps at its cells' corners", s[1], s[3], s[4]), function()
    local w = world()
    local ch = w:spawn{position = {s[1], s[2], s[3]}}
    local a = -0.878 + math.rad(s[4])
    local input = {move_x = -math.sin(a), move_y = math.cos(a)}
    -- 0.6 s: at a run's 5.6 m/s about 3.4 m, once up to speed
    local r = S.watch(w, ch, 36, input)
    expect_true(r.path > 1.5, string.format("moved on over the bumps: %.2f m in 0.6 s (>= 1.5)", r.path))
    -- and never stands still for long: over 1.5 s more, it runs on or climbs the riser
    local stood = S.watch(w, ch, 90, input).stood
    expect_true(stood < 30, string.format("never stood still running for 0.5 s (%d steps at most)", stood))
  end)
end
