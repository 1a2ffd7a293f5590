-- Creases (docs/behaviour.md, "The body" and "watch what players notice: state flicker, bodies hung in an air state").
-- Where walkable ground meets a face too steep to walk, a body pushing into the face stands,
-- slides along it or climbs it; it never flips between on foot and falling every few steps
-- (grounded holds while the feet are within the snap distance of walkable ground). Where several
-- too-steep faces meet, the faces that together hold the body up are ground (as Jolt treats
-- several steep contacts whose combined support is walkable): the body stands, can jump, and
-- walks out.
local S = require("gait.scenario")

-- a terrain-like mesh of 1 m x 0.75 m quads: ground rising 20 deg along +z and tilting 0.2 m per
-- m down towards -x (11 deg), meeting at z = 6 a face that rises at `face` deg
local function crease(face)
  local w = S.world(128, 2)
  local t20, tf = math.tan(math.rad(20)), math.tan(math.rad(face))
  local function p(i, j)
    local x, z = -8 + i, -2 + j * 0.75
    local y = z * t20 + 0.2 * x
    if z > 6 then y = 6 * t20 + 0.2 * x + (z - 6) * tf end
    return {x, y, z}
  end
  local t = {}
  for i = 0, 15 do
    for j = 0, 15 do S.quad(t, p(i, j), p(i, j + 1), p(i + 1, j + 1), p(i + 1, j)) end
  end
  assert(w:add_landmark{triangles = t})
  return w
end

for _, face in ipairs({55, 60, 65}) do
  test(string.format("pushing into a %d deg face from a 20 deg slope: no run/fall flicker", face),
    function()
      local w = crease(face)
      -- no stamina: it cannot climb, so it stands or slides along the face's foot
      local ch = w:spawn{position = {0, 1.5, 2}, stamina = {max = 100, start = 0, refill_rate = 0}}
      S.steps(w, ch, 60, {move_y = 1}) -- up the slope and into the crease
      local r = S.watch(w, ch, 600, {move_y = 1})
      expect_true(r.changes <= 2, string.format("at most 2 state changes in 10 s pushing into " ..
        "the face (%d)", r.changes))
      expect_true(r.flips <= 2, string.format("at most 2 grounded flips in 10 s (%d)", r.flips))
      -- and a jump pressed there jumps at once
      S.steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
      expect_eq(ch:state(), "jump", "a jump press in the crease jumps")
    end)
end

-- a trough: two faces too steep to walk (a1 and a2 deg) meeting in a horizontal crease along x at
-- y = 3, z = 0, 20 m long, nothing under it but the faces
local function trough(a1, a2)
  local w = S.world(128, 2)
  local H, y0 = 4, 3
  local zA, zB = -H / math.tan(math.rad(a1)), H / math.tan(math.rad(a2))
  local t = {}
  S.quad(t, {-10, y0, 0}, {10, y0, 0}, {10, y0 + H, zA}, {-10, y0 + H, zA})
  S.quad(t, {-10, y0, 0}, {-10, y0 + H, zB}, {10, y0 + H, zB}, {10, y0, 0})
  assert(w:add_landmark{triangles = t})
  return w
end

for _, pair in ipairs({{50, 78}, {60, 70}}) do
  test(string.format("a body in a trough of %d and %d deg faces stands, jumps and walks out",
    pair[1], pair[2]), function()
    local w = trough(pair[1], pair[2])
    -- dropped onto the first face 3 m above the crease; no stamina, so no climbing
    local ch = S.perch(w, 0, 6, -0.6, {stamina = {max = 100, start = 0, refill_rate = 0}})
    S.steps(w, ch, 120, {})
    local _, y = ch:position()
    expect_eq(ch:state(), "idle", string.format("standing in the crease after 2 s (feet %.3f m, " ..
      "the crease at 3)", y))
    expect_true(ch:contact().grounded, "grounded")
    S.steps(w, ch, 1, {pressed = {"jump"}})
    expect_eq(ch:state(), "jump", "a jump press jumps")
    S.steps(w, ch, 120, {})
    local x0 = ch:position()
    -- along the crease (camera yaw 0: move_x = -1 goes +x)
    S.steps(w, ch, 60, {move_x = -1})
    local x1 = ch:position()
    expect_true(x1 - x0 > 3, string.format("walks along the crease: %.2f m in 1 s (> 3)", x1 - x0))
  end)
end

-- walkable terrain falling `fall` m per m along +x and rising `tilt` m per m towards the face,
-- and a landmark face rising from it at `face` deg towards -z along the line z = 0 (its foot 0.2 m into the terrain, as a wedge set on a
-- slope); the walk along the crease, pressed into the face, met the face a hair above the
-- terrain with the cast down and read no ground: run <-> fall every other step (walkers, terrain)
local CASES = {}
for _, fall in ipairs({0.1, 0.3, 0.5}) do
  for _, tilt in ipairs({0, 0.2, 0.5}) do
    for _, face in ipairs({61, 70}) do CASES[#CASES + 1] = {fall, face, tilt} end
  end
end
for _, c in ipairs(CASES) do
  local fall, face, tilt = c[1], c[2], c[3]
  test(string.format("a run along a %d deg landmark face standing on terrain falling %.2f m per m " ..
    "(rising %.2f towards the face): no run/fall flicker", face, fall, tilt), function()
    local geo = require("gait.geometry")
    -- the height samples bumped 5 cm in a checkerboard: the cells' triangles lean apart
    local w = S.world(geo.terrain(96, 1, function(x, z)
      return -fall * x - tilt * z + 0.05 * ((math.floor(x + 0.5) + math.floor(z + 0.5)) % 2)
    end), 2)
    local t = math.tan(math.rad(face))
    local function at(x, z) return {x, -fall * x - z * t, z} end
    assert(w:add_landmark{triangles = S.quad({}, at(-30, 0.2), at(30, 0.2), at(30, -3), at(-30, -3))})
    local ch = w:spawn{position = {-20, 2, 1}, stamina = {max = 100, start = 0, refill_rate = 0}}
    S.steps(w, ch, 30, {})
    -- camera yaw 0: move_x = -1 goes +x, move_y = 1 goes +z... into the face is -z
    local r = S.watch(w, ch, 240, {move_x = -0.9, move_y = -0.3})
    local x = ch:position()
    -- (one case, 61 deg, falling 0.3 and rising 0.5, leaves the ground once at the end of the 4 s:
    -- run -> fall, 2 changes; not traced, tests/pending/README.md)
    expect_true(r.changes <= 2, string.format("at most 2 state changes in 4 s, run <-> fall " ..
      "flipped every few steps before (%d; the first fall at step %s)", r.changes, tostring(r.first.fall)))
    expect_true(x > -5, string.format("went along the crease: x %.1f (from -20)", x))
  end)
end
