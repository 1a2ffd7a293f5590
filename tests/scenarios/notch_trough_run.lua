-- A run along a V narrower than the body (docs/behaviour.md, "The body": two steep faces leaning
-- towards each other whose crease rises no more steeply than a walkable slope are ground
-- together, and the body walks along the crease). Where the V stands in walkable ground that
-- falls away along it, the body touches the ground and both faces at once; a walk along the
-- ground's plane goes down into the V and both faces refuse it. It runs on along their crease
-- instead, held up by the faces. Found by the walkers' survey (build/fuzz/walkers, mesh scene,
-- seed 2: walkers 102 and 533 stood still for good with the stick held, in the level's troughs).
local S = require("gait.scenario")
local gait = require("gait")

-- ground falling 0.1 m per m along +z (5.7 deg), and a V along z: two faces rising at `face` deg
-- from a level crease 0.3 m under the ground at z = 0 (a sphere of 0.3 m standing on the ground
-- there touches both faces of a 60 deg V), no terrain
local function trough(face)
  local w = gait.world.new{max_characters = 2}
  local t = {}
  S.quad(t, {-5, 1, -10}, {-5, -1, 10}, {5, -1, 10}, {5, 1, -10})
  local yc, top = -0.3, 2.0
  local half = (top - yc) / math.tan(math.rad(face))
  S.quad(t, {0, yc, -6}, {0, yc, 6}, {-half, top, 6}, {-half, top, -6})
  S.quad(t, {0, yc, -6}, {half, top, -6}, {half, top, 6}, {0, yc, 6})
  assert(w:add_landmark{triangles = t})
  return w
end

for _, face in ipairs({55, 60, 70}) do
  test(string.format("a run down a slope along a %d deg V narrower than the body runs on along " ..
    "its crease", face), function()
    local w = trough(face)
    -- on the ground 2 m before the V narrows to the body's width; the camera's yaw 0: the
    -- stick's forward is +z
    local ch = assert(w:spawn{position = {0, 0.2, -2}, yaw = 0})
    ch:set_camera_yaw(0)
    local r = S.watch(w, ch, 60, {move_y = 1})
    local x, y, z = ch:position()
    expect_eq(r.stood, 0, string.format("never run in place (%d steps; now at %.3f %.3f %.3f)",
      r.stood, x, y, z))
    expect_true(z > 3, string.format("ran over 5 m along the V in 1 s: at z = %.2f (> 3)", z))
    expect_true(not r.seen.fall and r.flips == 0, string.format("on its feet all the way (%d " ..
      "grounded flips)", r.flips))
    expect_true(y > -0.1, string.format("held up by the faces, not sunk into the V: feet %.3f m " ..
      "up (> -0.1; the ground there at %.2f)", y, -0.1 * z))
  end)
end
