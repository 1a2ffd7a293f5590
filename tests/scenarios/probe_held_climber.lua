-- The height above the ground of a body held still in the air (a climber pushing up into a band
-- over it) is read every step by the same ray down; the runtime keeps the last answer and gives it
-- again while nothing the ray reads has changed. These check the reading against a fresh ray from
-- the feet each step, bit for bit, and that a moving landmark passing under the held body is seen.
-- Landmarks only (no terrain): the probe looks 1000 m down. Provisional numbers: capsule
-- 0.3 x 1.7 m, climb 1 m/s. Camera yaw 0: W is +z.
local gait = require("gait")
local S = require("gait.scenario")

local PROBE_LIFT = 0.01 -- m: the probe's ray starts this far above the feet (sense.c)

-- The floor (top at y = 0), a 6 m wall face at z = 2 with a band out 0.3 m at 3 m up, and the
-- climber stalled under the band, the stick held up.
local function held_climber()
  local w = gait.world.new{max_characters = 2}
  assert(w:add_landmark{triangles = S.box_triangles(-10, -1, -10, 10, 0, 10)})
  S.mesh(w, {{-3, 0, 2, 3, 6, 6}, {-3.3, 3, 1.7, 3.3, 3.3, 6.3}})
  local ch = assert(w:spawn{position = {0, 0, 0}})
  expect_true(S.until_state(w, ch, "climb", 120, {move_y = 1}), "climbs the wall")
  local stalled = S.until_(w, ch, 600, {move_y = 1}, function(c)
    local _, vy = c:velocity()
    return c:state() == "climb" and math.abs(vy) < 1e-9
  end)
  expect_true(stalled, "the band stops the climb")
  return w, ch
end

-- What a fresh ray from the feet reads: the distance down to what it meets, less the lift.
local function fresh_height(w, ch)
  local x, y, z = ch:position()
  local hit = w:ray_cast({x, y + PROBE_LIFT, z}, {0, -1000, 0})
  return hit and hit.distance - PROBE_LIFT or math.huge
end

test("a climber held under a band reads its height as a fresh ray does, every step", function()
  local w, ch = held_climber()
  local x0, y0, z0 = ch:position()
  local differ = 0
  for _ = 1, 120 do
    ch:set_input{move_y = 1}
    w:step()
    if ch:contact().height_above_ground ~= fresh_height(w, ch) then differ = differ + 1 end
  end
  local x, y, z = ch:position()
  expect_true(x == x0 and y == y0 and z == z0, "held where it was, bit for bit")
  expect_true(y0 > 1, string.format("held up in the air (feet %.2f m over the floor)", y0))
  expect_eq(differ, 0, "steps whose reading differs from a fresh ray's")
end)

test("a platform slid under a held climber is read as soon as it is there, and when it goes",
  function()
    local w, ch = held_climber()
    local _, y = ch:position()
    -- a 1 m square plate 0.2 m thick, its top 0.5 m over the floor, coming in from -x at 2 m/s
    local plate = assert(w:add_landmark{triangles = S.box_triangles(-0.5, 0.3, -0.5, 0.5, 0.5, 0.5),
                                        offset = {-4, 0, 1.55}})
    plate:set_velocity{velocity = {2, 0, 0}}
    local under, gone, differ = 0, 0, 0
    local was_under = false
    for _ = 1, 240 do
      ch:set_input{move_y = 1}
      w:step()
      local h = ch:contact().height_above_ground
      if h ~= fresh_height(w, ch) then differ = differ + 1 end
      if math.abs(h - (y - 0.5)) < 1e-9 then
        under = under + 1
        was_under = true
      elseif was_under and math.abs(h - y) < 1e-9 then
        gone = gone + 1
      end
    end
    print(string.format("  over the plate %d steps, over the floor again %d steps", under, gone))
    expect_true(under > 10, string.format("the plate read under the feet (%d steps)", under))
    expect_true(gone > 10, string.format("the floor read again once it passed (%d steps)", gone))
    expect_eq(differ, 0, "steps whose reading differs from a fresh ray's")
  end)

test("a box set down under a held climber, and taken away, is read at once", function()
  local w, ch = held_climber()
  local _, y = ch:position()
  for _ = 1, 30 do
    ch:set_input{move_y = 1}
    w:step()
  end
  expect_near(ch:contact().height_above_ground, y, 1e-9, "the floor under it first")
  local box = assert(w:add_landmark{triangles = S.box_triangles(-0.5, 0, 1, 0.5, 0.8, 2)})
  ch:set_input{move_y = 1}
  w:step()
  expect_near(ch:contact().height_above_ground, y - 0.8, 1e-6,
              "the box's top the next step (its corners stored as floats)")
  expect_true(ch:contact().height_above_ground == fresh_height(w, ch), "as a fresh ray reads it")
  box:remove()
  ch:set_input{move_y = 1}
  w:step()
  expect_near(ch:contact().height_above_ground, y, 1e-9, "the floor again once it is gone")
end)
