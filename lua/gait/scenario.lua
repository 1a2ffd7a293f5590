-- Helpers of the Lua scenario tests (tests/scenarios/*.lua): small worlds on flat terrain, boxes
-- as landmarks, step loops, temporary files. `local S = require("gait.scenario")` (boot.lua does
-- not load it). Units are metres; a step is the world's fixed step (1/60 s by default).
local gait = require("gait")
local geo = require("gait.geometry")

local M = {}

-- A world for max_characters (default 4) on `terrain`: a terrain table, or a number, the size
-- of a flat terrain at height 0 (default 128 m).
function M.world(terrain, max_characters)
  local w = gait.world.new{max_characters = max_characters or 4}
  if terrain == nil or type(terrain) == "number" then terrain = geo.flat_terrain(terrain or 128) end
  assert(w:set_terrain(terrain))
  return w
end

-- The 12 triangles of the axis-aligned box [x0, x1] x [y0, y1] x [z0, z1] (by its corners).
function M.box_triangles(x0, y0, z0, x1, y1, z1)
  return geo.box((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2,
                 (x1 - x0) / 2, (y1 - y0) / 2, (z1 - z0) / 2)
end

-- That box added to w as a landmark (raises when it is refused).
function M.box(w, x0, y0, z0, x1, y1, z1)
  return assert(w:add_landmark{triangles = M.box_triangles(x0, y0, z0, x1, y1, z1)})
end

-- boxes {{x0, y0, z0, x1, y1, z1}, ...} as ONE landmark (a house is one mesh)
function M.mesh(w, boxes)
  local t = {}
  for _, b in ipairs(boxes) do
    for _, tri in ipairs(M.box_triangles(b[1], b[2], b[3], b[4], b[5], b[6])) do t[#t + 1] = tri end
  end
  return assert(w:add_landmark{triangles = t})
end

-- Appends the two triangles of the planar quad a b c d (counter-clockwise seen from its front,
-- each corner {x, y, z}) to the list t; returns t. Pass the list as w:add_landmark{triangles = t}.
function M.quad(t, a, b, c, d)
  t[#t + 1] = {a[1], a[2], a[3], b[1], b[2], b[3], c[1], c[2], c[3]}
  t[#t + 1] = {a[1], a[2], a[3], c[1], c[2], c[3], d[1], d[2], d[3]}
  return t
end

-- A world of no terrain holding one landmark for each of `meshes`, each a flat list of
-- triangles, 9 numbers each ({x1, y1, z1, x2, y2, z2, x3, y3, z3, x1, ...}: a spot of a level
-- as a tool printed it).
function M.spot(meshes, max_characters)
  local w = gait.world.new{max_characters = max_characters or 2}
  for _, flat in ipairs(meshes) do
    local t = {}
    for i = 1, #flat, 9 do
      t[#t + 1] = {flat[i], flat[i + 1], flat[i + 2], flat[i + 3], flat[i + 4], flat[i + 5],
                   flat[i + 6], flat[i + 7], flat[i + 8]}
    end
    assert(w:add_landmark{triangles = t})
  end
  return w
end

-- A body spawned in the air with its feet at (x, y, z): stood on a 1 m plate 1 cm under the feet,
-- which is then removed, so the first step falls from there. `spawn` (may be nil) holds more
-- w:spawn fields (yaw, stamina, ...).
function M.perch(w, x, y, z, spawn)
  local plate = M.box(w, x - 0.5, y - 0.11, z - 0.5, x + 0.5, y - 0.01, z + 0.5)
  local def = {}
  for k, v in pairs(spawn or {}) do def[k] = v end
  def.position = {x, y, z}
  local ch = assert(w:spawn(def))
  plate:remove()
  return ch
end

-- n steps with `input` (its presses only in the first), watched: returns a table
--   changes   state changes (the state differing from the step before)
--   flips     grounded readings differing from the step before
--   seen      set of the states taken {run = true, ...}
--   longest   most steps a single state lasted
--   max_move  most the feet moved in one step (m)
--   path      m the feet moved in all
--   first     the step each state was first seen {climb = 12, ...}
--   stood     most steps in a row walking, running or sprinting in place (the feet moving under
--             0.1 mm across the ground a step: a body stuck with the stick held)
function M.watch(w, ch, n, input)
  local r = {changes = 0, flips = 0, seen = {}, longest = 0, max_move = 0, path = 0, first = {},
             stood = 0}
  local last, lastg = ch:state(), ch:contact().grounded
  local run, still = 0, 0
  local px, py, pz = ch:position()
  for k = 1, n do
    local i = {}
    for key, v in pairs(input or {}) do i[key] = v end
    if k > 1 then i.pressed = nil end
    M.step(w, ch, i)
    local s = ch:state()
    r.seen[s] = true
    if r.first[s] == nil then r.first[s] = k end
    if s ~= last then r.changes = r.changes + 1; run = 0 end
    run = run + 1
    if run > r.longest then r.longest = run end
    local g = ch:contact().grounded
    if g ~= lastg then r.flips = r.flips + 1 end
    last, lastg = s, g
    local x, y, z = ch:position()
    local d = math.sqrt((x - px) ^ 2 + (y - py) ^ 2 + (z - pz) ^ 2)
    if d > r.max_move then r.max_move = d end
    r.path = r.path + d
    local across = math.sqrt((x - px) ^ 2 + (z - pz) ^ 2)
    if (s == "walk" or s == "run" or s == "sprint") and across < 1e-4 then
      still = still + 1
      if still > r.stood then r.stood = still end
    else
      still = 0
    end
    px, py, pz = x, y, z
  end
  return r
end

-- one step with `input` (a fresh table each step: presses only where asked)
function M.step(w, ch, input)
  local i = {}
  for k, v in pairs(input or {}) do i[k] = v end
  ch:set_input(i)
  w:step()
end

-- steps with `input` until `pred(ch)` or max steps; presses only in the first step.
-- Returns true, the step count | false, max.
function M.until_(w, ch, max, input, pred)
  for k = 1, max do
    local i = {}
    for key, v in pairs(input or {}) do i[key] = v end
    if k > 1 then i.pressed = nil end
    M.step(w, ch, i)
    if pred(ch) then return true, k end
  end
  return false, max
end

-- steps with `input` (its presses only in the first) until `state` or max steps: true | false
function M.until_state(w, ch, state, max, input)
  return (M.until_(w, ch, max, input, function(c) return c:state() == state end))
end

-- n steps with the same input (presses only in the first)
function M.steps(w, ch, n, input)
  M.until_(w, ch, n, input, function() return false end)
end

-- the string keys of t, sorted (a table's fields in a fixed order)
function M.sorted_keys(t)
  local keys = {}
  for k in pairs(t) do if type(k) == "string" then keys[#keys + 1] = k end end
  table.sort(keys)
  return keys
end

-- writes `text` to `path` (replacing it)
function M.write(path, text)
  local f = assert(io.open(path, "w"))
  f:write(text)
  f:close()
end

-- a new temporary .lua file holding `text`; returns its path (the caller removes it)
function M.tmp_lua(text)
  local base = os.tmpname()
  os.remove(base)
  local path = base .. ".lua"
  M.write(path, text)
  return path
end

return M
