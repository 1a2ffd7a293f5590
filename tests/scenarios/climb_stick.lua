-- The stick on a wall (docs/behaviour.md, "The frame and the step"): W climbs up whatever the camera faces, and a
-- climb begun by a stick pressed into the wall some other way (the camera looking away from the
-- wall: S; looking along it: A or D) reads that way as up until the stick is let go. Pressed into
-- the wall and read as "down" instead, the body would climb down onto the ground it stands on, be
-- put back on its feet and grab the wall again, every other step.
local S = require("gait.scenario")

local function wall()
  local w = S.world(128, 2)
  S.box(w, -4, 0, 2, 4, 8, 4) -- its face at z = 2, 8 m high
  return w
end

-- camera yaw (rad: 0 looks along +z) and the stick that points into the wall (+z) for it
local cases = {
  {"the camera looking away from the wall: S", math.pi, {move_y = -1}},
  {"the camera looking along the wall: D", math.pi / 2, {move_x = 1}},
  {"the camera looking along the wall the other way: A", -math.pi / 2, {move_x = -1}},
}

for _, c in ipairs(cases) do
  test("a stick pressed into a wall climbs it, " .. c[1], function()
    local w = wall()
    local ch = w:spawn{position = {0, 0, 1.5}}
    ch:set_camera_yaw(c[2])
    local r = S.watch(w, ch, 90, c[3])
    local _, y = ch:position()
    expect_eq(ch:state(), "climb", "on the wall after 1.5 s")
    expect_true(r.changes <= 2, "entered the climb once: " .. r.changes .. " state changes")
    expect_true(y > 1.5, string.format("climbed up: feet %.2f m (1.6 m/s for about 1.4 s)", y))
    -- let go: the stick reads as ever, so the same stick now climbs down (W is up)
    S.steps(w, ch, 2, {})
    local _, y0 = ch:position()
    S.steps(w, ch, 20, c[3])
    local _, y1 = ch:position()
    if c[3].move_y then
      expect_true(y1 < y0 - 0.3, string.format("let go, S climbs down: %.2f -> %.2f m", y0, y1))
    else
      expect_near(y1, y0, 1e-6, "let go, A or D climbs across, not up (feet height, m)")
    end
  end)
end

test("W climbs up with the camera looking at the wall, as ever", function()
  local w = wall()
  local ch = w:spawn{position = {0, 0, 1.5}}
  local r = S.watch(w, ch, 90, {move_y = 1})
  local _, y = ch:position()
  expect_eq(ch:state(), "climb", "on the wall")
  expect_true(r.changes <= 2, "one change into the climb: " .. r.changes)
  expect_true(y > 1.5, string.format("climbed up: feet %.2f m", y))
end)
