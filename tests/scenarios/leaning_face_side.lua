-- Running beside a face that leans back (docs/behaviour.md, "The body"). On a walkable slope of
-- 42 deg a steeper face (50 deg, turned 16 deg from the slope) rises at the body's side, their
-- crease running across the slope. The walk takes the face as a vertical plane; along that plane
-- the slope carries the move down, and lower down a face leaning back lies further out: the move
-- went into the face, every cast met it at once and the runner stood still for good with open
-- ground ahead (52 of 1000 walkers on the walkers' level scene). It goes on along the crease the
-- face makes with the slope: on the slope, along the face, never up it. The normals are a level
-- scene's, where a walker stuck so.
local S = require("gait.scenario")

local G = {0.060, 0.746, 0.664} -- the slope's normal (42 deg)
local F = {0.215, 0.643, 0.735} -- the face's (50 deg)
local function plane(n, x, z) return -(n[1] * x + n[3] * z) / n[2] end
local function height(x, z) return math.max(plane(G, x, z), plane(F, x, z)) end

-- the two planes through the origin, whichever is higher, as a mesh of `cell` m quads, 20 m across
local function world(cell)
  local w = S.world(128, 2)
  local function p(i, j)
    local x, z = -10 + i * cell, -10 + j * cell
    return {x, height(x, z), z}
  end
  local t = {}
  local n = math.floor(20 / cell)
  for i = 0, n - 1 do
    for j = 0, n - 1 do S.quad(t, p(i, j), p(i, j + 1), p(i + 1, j + 1), p(i + 1, j)) end
  end
  assert(w:add_landmark{triangles = t})
  return w
end

-- their crease: a x + b z = 0
local A, B = G[1] / G[2] - F[1] / F[2], G[3] / G[2] - F[3] / F[2]

for _, cell in ipairs({2, 1, 0.5}) do
  for _, off in ipairs({0.2, 0.3}) do
    test(string.format("a run along the foot of a 50 deg face leaning back over a 42 deg slope goes on " ..
                       "(%.1f m cells, %.1f m from the crease)", cell, off), function()
      local w = world(cell)
      -- on the slope, `off` m across the crease from its point at x = 2
      local x, z = 2, -A * 2 / B + off
      expect_true(plane(G, x, z) > plane(F, x, z), "the start is on the slope")
      -- no stamina: it cannot climb the face
      local ch = w:spawn{position = {x, height(x, z) + 0.02, z},
                         stamina = {max = 100, start = 0, refill_rate = 0}}
      S.steps(w, ch, 5, {})
      local x0, _, z0 = ch:position()
      -- along the face's foot (its contour, the face on the left), slightly down the slope
      local r = S.watch(w, ch, 60, {move_x = -0.96, move_y = -0.28})
      local x1, y1, z1 = ch:position()
      local went = math.sqrt((x1 - x0) ^ 2 + (z1 - z0) ^ 2)
      expect_true(went > 4.5, string.format("1 s of running goes at least 4.5 m (went %.3f m, %s)",
        went, ch:state()))
      expect_eq(ch:state(), "run", "still running")
      expect_true(r.changes <= 1, string.format("no state change on the way but the start " ..
        "(idle -> run) (%d)", r.changes))
      -- in the crease the bottom sphere rests on both: the feet stand 0.10 m over the slope's
      -- plane there; up the face they would stand on the face, which rises 1.6 m over it here
      local over = y1 - plane(G, x1, z1)
      expect_true(over > -0.01 and over < 0.15, string.format("on the slope or in the crease, not up " ..
        "the face (the feet %.3f m over the slope's plane; the face there %.3f m)", over,
        plane(F, x1, z1) - plane(G, x1, z1)))
    end)
  end
end
