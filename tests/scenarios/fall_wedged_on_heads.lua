-- A body come down on two others' heads under an overhanging wall, which presses it back onto
-- them: the three leave it no way down. It hung there in the fall, motionless, for as long as the
-- two stood still (the walkers' survey on a Quake III map, delta: 1.16 m up for over a second).
-- It stands on them now, as it stands in a funnel of three faces, and walks off when they go.
-- The shapes are that map's, its ground made flat: the wall a sheet bent out at 1.8 m and over
-- the heads from 2.8 m (its top 30 deg past vertical, facing down). Provisional numbers: capsule
-- 0.3 x 1.7 m, run 5.6 m/s, gravity 20 m/s^2. Camera yaw 0: W is +z.
local gait = require("gait")
local S = require("gait.scenario")

-- A quad (a, b, c, d in order round it) as two triangles.
local function quad(t, a, b, c, d)
  t[#t + 1] = {a[1], a[2], a[3], b[1], b[2], b[3], c[1], c[2], c[3]}
  t[#t + 1] = {a[1], a[2], a[3], c[1], c[2], c[3], d[1], d[2], d[3]}
end

-- The world: a landmark floor (top at y = 0, no terrain, as on a game's map) and the wall, a
-- sheet along x from (y, z) = (0.78, -0.33) out to (1.78, -0.47), back to (2.79, -0.33) and over
-- to (3.51, 0.09), its face towards +z.
local function wedge_world()
  local w = gait.world.new{max_characters = 4}
  assert(w:add_landmark{triangles = S.box_triangles(-10, -1, -10, 10, 0, 10)})
  local rows = {{0.776, -0.331}, {1.784, -0.469}, {2.791, -0.331}, {3.510, 0.085}}
  local t = {}
  for i = 1, #rows - 1 do
    local y0, z0, y1, z1 = rows[i][1], rows[i][2], rows[i + 1][1], rows[i + 1][2]
    quad(t, {8, y0, z0}, {8, y1, z1}, {-8, y1, z1}, {-8, y0, z0})
  end
  assert(w:add_landmark{triangles = t})
  return w
end

-- Two standing still behind the wall's foot, their sides touching, and the third set down on
-- their heads against the wall (as the map had them). Returns the world and the three.
local function wedged()
  local w = wedge_world()
  local a = assert(w:spawn{position = {-0.456, 0, 0.291}})
  local b = assert(w:spawn{position = {0.127, 0, 0.450}})
  local top = S.perch(w, 0, 1.36, 0)
  return w, a, b, top
end

test("a body held on two heads by an overhanging wall stands on them, not hung in the fall",
  function()
    local w, a, b, top = wedged()
    local fall_still, longest, grounded = 0, 0, 0
    local _, py = top:position()
    for _ = 1, 120 do
      a:set_input{}
      b:set_input{}
      top:set_input{}
      w:step()
      local _, y = top:position()
      if top:state() == "fall" and math.abs(y - py) < 1e-4 then
        fall_still = fall_still + 1
        longest = math.max(longest, fall_still)
      else
        fall_still = 0
      end
      if top:contact().grounded then grounded = grounded + 1 end
      py = y
    end
    local x, y, z = top:position()
    print(string.format("  on the heads: %s at (%.3f, %.3f, %.3f), grounded %d of 120 steps, " ..
      "longest still in the fall %d steps", top:state(), x, y, z, grounded, longest))
    expect_true(longest < 30, string.format("never half a second motionless in the fall (%d steps)",
      longest))
    expect_true(top:state() ~= "fall", "not in the fall after 2 s (" .. top:state() .. ")")
    -- standing or gone down: if it still rests up there, the two hold it (within 5 cm of the
    -- heads' tops, 1.7 m), else it is on the floor
    expect_true(y > 1.25 or y < 0.01,
      string.format("on the heads or on the floor (feet at %.3f m)", y))
  end)

test("the two walk away and the body on their heads comes down onto the floor", function()
  local w, a, b, top = wedged()
  for _ = 1, 30 do w:step() end
  local landed = false
  for k = 1, 180 do
    a:set_input{move_x = -1}
    b:set_input{move_x = 1}
    top:set_input{}
    w:step()
    local _, y = top:position()
    if top:contact().grounded and y < 0.01 then
      landed = true
      print(string.format("  down on the floor after %d steps, %s", k, top:state()))
      break
    end
  end
  expect_true(landed, "on the floor within 3 s of the two walking away (" .. top:state() .. ")")
end)
