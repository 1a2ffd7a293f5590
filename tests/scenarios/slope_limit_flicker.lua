-- Ground either side of the walkable limit (docs/behaviour.md, "The body"): a body already
-- standing keeps standing on ground up to walk_slope_hysteresis (3 deg) past max_walk_slope
-- (45 deg), so on ground whose triangles lie either side of the limit (a terrain-like mesh, one
-- triangle of a quad 44 deg and the other 46.5) it walks on instead of sliding off each steep
-- triangle as a fall and landing on the next (run <-> fall every few steps). What was too steep to
-- land on stays so: a fall onto a 46.5 deg slope slides down it.
local S = require("gait.scenario")

local function cross(a, b) return {a[2] * b[3] - a[3] * b[2], a[3] * b[1] - a[1] * b[3], a[1] * b[2] - a[2] * b[1]} end
local function slope_deg(t)
  local u = {t[4] - t[1], t[5] - t[2], t[6] - t[3]}
  local v = {t[7] - t[1], t[8] - t[2], t[9] - t[3]}
  local n = cross(u, v)
  return math.deg(math.acos(math.abs(n[2]) / math.sqrt(n[1] ^ 2 + n[2] ^ 2 + n[3] ^ 2)))
end

-- 1 m quads rising along +z at `base` deg, every other vertex (a checkerboard) raised by d: each
-- quad's two triangles lean either side of the base slope. Returns the world and the triangles'
-- least and greatest slopes (deg).
local function corrugated(base, d)
  local w = S.world(128, 2)
  local s = math.tan(math.rad(base))
  local function p(i, j) return {-10 + i, j * s + d * ((i + j) % 2), -6 + j} end
  local t = {}
  for i = 0, 19 do
    for j = 0, 11 do S.quad(t, p(i, j), p(i, j + 1), p(i + 1, j + 1), p(i + 1, j)) end
  end
  local lo, hi = 90, 0
  for _, tri in ipairs(t) do
    local a = slope_deg(tri)
    lo, hi = math.min(lo, a), math.max(hi, a)
  end
  assert(w:add_landmark{triangles = t})
  return w, lo, hi
end

local function across(crouched)
  local w, lo, hi = corrugated(44.9, 0.04)
  -- the mesh as built: triangles either side of 45 deg, none past 45 + 3
  expect_true(lo < 45 and hi > 45 and hi < 48, string.format("triangles %.2f .. %.2f deg", lo, hi))
  local ch = S.perch(w, -8, 6 * math.tan(math.rad(44.9)) + 0.05, 0)
  S.steps(w, ch, 60, {})
  expect_true(ch:contact().grounded, "stands on the slope after 1 s")
  if crouched then S.steps(w, ch, 2, {pressed = {"crouch"}}) end
  local x0 = ch:position()
  -- along the contour (camera yaw 0: move_x = -1 goes +x), 2.5 s: 14 m at run speed, the mesh
  -- ends at x = 10
  local r = S.watch(w, ch, 150, {move_x = -1})
  local x1 = ch:position()
  expect_true(r.changes <= 2, string.format("at most 2 state changes in 2.5 s across the slope (%d)", r.changes))
  expect_true(r.flips <= 2, string.format("at most 2 grounded flips in 2.5 s (%d)", r.flips))
  expect_true(not r.seen.fall, "never falls")
  local speed = crouched and 1.5 or 5.6
  expect_true(x1 - x0 > 0.5 * 2.5 * speed,
    string.format("%.1f m along the contour in 2.5 s (more than half of %.1f m)", x1 - x0, 2.5 * speed))
end

test("walking along a slope of 44 and 46.5 deg triangles: no walk/fall flicker", function() across(false) end)
test("crouched along a slope of 44 and 46.5 deg triangles: no crouch/fall flicker", function() across(true) end)

test("a fall onto a 46.5 deg slope slides down it: the hysteresis is the standing body's only", function()
  local w = S.world(128, 2)
  local s = math.tan(math.rad(46.5))
  local t = S.quad({}, {-10, 0, 0}, {-10, 10 * s, -10}, {10, 10 * s, -10}, {10, 0, 0})
  assert(w:add_landmark{triangles = t})
  -- feet 1 cm over the face 5 m up it
  local ch = S.perch(w, 0, 5 * s + 0.01, -5)
  local r = S.watch(w, ch, 30, {})
  local _, y = ch:position()
  expect_true(not r.seen.idle and not r.seen.walk and not r.seen.run,
    "never stands on it in 0.5 s (" .. ch:state() .. ")")
  expect_true(y < 5 * s - 0.3, string.format("slid down: feet at %.2f m, started at %.2f", y, 5 * s))
end)
