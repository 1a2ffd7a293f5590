-- Geometry helpers for worlds built in Lua: terrains and landmark triangles.
-- Units are metres; y is up; triangles are counter-clockwise seen from outside.
local M = {}

-- A flat square terrain of `size` m centred on (cx, cz) at height y, 1 m cells:
-- w:set_terrain(M.flat_terrain(64)).
function M.flat_terrain(size, y, cx, cz)
  size = size or 64
  local n = math.floor(size) + 1
  y, cx, cz = y or 0, cx or 0, cz or 0
  return {
    samples_x = n, samples_z = n, cell_size = 1,
    origin = {cx - size / 2, y, cz - size / 2},
    height = function() return 0 end,
  }
end

-- A terrain from a height function f(x, z) -> m above origin.y, `size` m square, `cell` m cells.
function M.terrain(size, cell, f, cx, cz)
  cell = cell or 1
  local n = math.floor(size / cell) + 1
  cx, cz = cx or 0, cz or 0
  return {
    samples_x = n, samples_z = n, cell_size = cell,
    origin = {cx - size / 2, 0, cz - size / 2},
    height = f,
  }
end

local function quad(t, a, b, c, d)
  -- a b c d counter-clockwise seen from outside
  t[#t + 1] = {a[1], a[2], a[3], b[1], b[2], b[3], c[1], c[2], c[3]}
  t[#t + 1] = {a[1], a[2], a[3], c[1], c[2], c[3], d[1], d[2], d[3]}
end

-- The 12 triangles of an axis-aligned box: centre (cx, cy, cz), half sizes (hx, hy, hz).
-- Pass the result as w:add_landmark{triangles = M.box(...)}.
function M.box(cx, cy, cz, hx, hy, hz)
  local x0, x1, y0, y1, z0, z1 = cx - hx, cx + hx, cy - hy, cy + hy, cz - hz, cz + hz
  local t = {}
  quad(t, {x0, y1, z0}, {x0, y1, z1}, {x1, y1, z1}, {x1, y1, z0}) -- top (+y)
  quad(t, {x0, y0, z0}, {x1, y0, z0}, {x1, y0, z1}, {x0, y0, z1}) -- bottom (-y)
  quad(t, {x1, y0, z0}, {x1, y1, z0}, {x1, y1, z1}, {x1, y0, z1}) -- +x
  quad(t, {x0, y0, z0}, {x0, y0, z1}, {x0, y1, z1}, {x0, y1, z0}) -- -x
  quad(t, {x0, y0, z1}, {x1, y0, z1}, {x1, y1, z1}, {x0, y1, z1}) -- +z
  quad(t, {x0, y0, z0}, {x0, y1, z0}, {x1, y1, z0}, {x1, y0, z0}) -- -z
  return t
end

-- Stairs along +z: `count` steps of `rise` m up and `run` m deep, `width` m wide, starting at
-- (x, y, z). Returns triangles (one box per step, each reaching down to y).
function M.stairs(x, y, z, count, rise, run, width)
  local t = {}
  for i = 1, count do
    local h = i * rise
    for _, tri in ipairs(M.box(x, y + h / 2, z + (i - 0.5) * run, width / 2, h / 2, run / 2)) do
      t[#t + 1] = tri
    end
  end
  return t
end

return M
