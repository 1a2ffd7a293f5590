-- A room built of tiles (docs/design.md, "The collider"): a floor of 0.5 m tiles round a pit and
-- a wall of 0.5 m tiles, as a level exported from a tile editor comes. The collider stores each
-- coplanar run of tiles as a few large triangles; the same room added with keep_triangles = true
-- is stored as given. A body run across the floor, along the pit's rim, into the wall and up it
-- goes the same way in both, step for step (to a tenth of a millimetre: the merged faces' planes
-- pass through other corners), and a script's ray names the same tile in both.
local gait = require("gait")
local S = require("gait.scenario")

local TILE = 0.5

-- the room's triangles: the floor over [-6, 6]^2 at y = 0 less the pit x in [1.5, 4.5], z in
-- [-1, 1]; the pit's bottom at y = -3, on under the floor to x = 6; the wall at x = 6, 4 m high, facing -x
local function room()
  local t = {}
  for i = -12, 11 do
    for j = -12, 11 do
      local x, z = i * TILE, j * TILE
      if not (x >= 1.5 and x < 4.5 and z >= -1 and z < 1) then
        S.quad(t, {x, 0, z}, {x, 0, z + TILE}, {x + TILE, 0, z + TILE}, {x + TILE, 0, z})
      end
    end
  end
  for i = 3, 11 do -- under the floor on to the wall's foot
    for j = -2, 1 do
      local x, z = i * TILE, j * TILE
      S.quad(t, {x, -3, z}, {x, -3, z + TILE}, {x + TILE, -3, z + TILE}, {x + TILE, -3, z})
    end
  end
  for j = -12, 11 do
    for k = 0, 7 do
      local z, y = j * TILE, k * TILE
      S.quad(t, {6, y, z}, {6, y + TILE, z}, {6, y + TILE, z + TILE}, {6, y, z + TILE})
    end
  end
  return t
end

local function world(keep)
  local w = gait.world.new{max_characters = 2}
  local lm = assert(w:add_landmark{triangles = room(), keep_triangles = keep, name = "room"})
  local info = lm:info()
  if keep then
    expect_eq(info.stored_count, info.triangle_count, "kept: every triangle stored")
  else -- convex pieces of up to 256 triangles: the floor round the pit, its bottom, the wall
    expect_true(info.stored_count <= 32, string.format("%d triangles stored as %d",
                                                       info.triangle_count, info.stored_count))
  end
  return w
end

local function run(x, z, stick, steps)
  local given, merged = world(true), world(false)
  local a = S.perch(given, x, 0.01, z)
  local b = S.perch(merged, x, 0.01, z)
  local worst, differ, seen = 0, 0, {}
  for _ = 1, steps do
    S.step(given, a, {move_x = -stick}) -- camera yaw 0: -move_x runs along +x
    S.step(merged, b, {move_x = -stick})
    local ax, ay, az = a:position()
    local bx, by, bz = b:position()
    worst = math.max(worst, math.abs(ax - bx), math.abs(ay - by), math.abs(az - bz))
    if a:state() ~= b:state() then differ = differ + 1 end
    seen[b:state()] = true
  end
  return worst, differ, seen, b
end

test("a run across a tiled floor, beside a pit and up a tiled wall: the same as the tiles", function()
  -- along the rim: the pit's side is 0.2 m off the body's axis
  local worst, differ, seen = run(-5, 1.2, 1, 240)
  expect_true(worst < 1e-4, string.format("feet apart by at most 0.1 mm (%.2g m)", worst))
  expect_eq(differ, 0, "the same state every step")
  expect_true(seen.climb, "ran into the wall and climbed it")
end)

test("a walk into the pit: the same fall, the same landing", function()
  local worst, differ, seen, ch = run(0.5, 0, 0.4, 150)
  expect_true(worst < 1e-4, string.format("feet apart by at most 0.1 mm (%.2g m)", worst))
  expect_eq(differ, 0, "the same state every step")
  expect_true(seen.fall, "fell into the pit")
  local _, y = ch:position()
  expect_true(y < -2.9 and y > -3.01, string.format("at the pit's bottom (y %.3f)", y))
end)

test("a ray names the same tile whether the room was merged or not", function()
  local given, merged = world(true), world(false)
  local checked = 0
  -- a point a tenth and three tenths into each tile: inside one of its two triangles, off the
  -- seams (on a seam either tile is the one under it, and the two meshes may name either)
  for i = -12, 11 do
    for j = -12, 11 do
      local x, z = i * TILE + 0.05, j * TILE + 0.15
      local h1 = given:ray_cast({x, 2, z}, {0, -10, 0})
      local h2 = merged:ray_cast({x, 2, z}, {0, -10, 0})
      expect_eq(h1 ~= nil, h2 ~= nil, "both meet the floor or both miss")
      if h1 and h2 then
        expect_eq(h2.triangle, h1.triangle, string.format("the tile under (%.2f, %.2f)", x, z))
        checked = checked + 1
      end
    end
  end
  expect_true(checked >= 560, string.format("%d rays met the floor", checked))
end)
