-- The follow camera in a world the script owns (docs/behaviour.md, "Camera"): w:update runs the kits and the steps, and
-- then the camera follows the blended body once a frame, as gait_world_update does for a host's
-- world. Today only a host's gait_world_update follows: a Lua-owned world's camera stays where
-- the spawn put it.
local S = require("gait.scenario")

test("w:update's camera follows the body in a Lua-owned world", function()
  local w = S.world(128, 2)
  local ch = w:spawn{position = {0, 0, 0}}
  for _ = 1, 120 do -- 2 s running along +z at 60 fps
    ch:set_input{move_y = 1}
    w:update(1 / 60)
  end
  local x, y, z = ch:position()
  local cam = ch:camera()
  expect_true(z > 10, "the body ran (z " .. z .. ")")
  -- the pivot is smoothed with a 0.08 s time constant: running steadily at 5.6 m/s it trails
  -- the body by speed x time constant, 0.45 m
  expect_near(cam.pivot[1], x, 0.01, "pivot x on the body's axis (m)")
  expect_near(cam.pivot[2], y + cam.settings.pivot_height, 0.01, "pivot height (m)")
  expect_near(cam.pivot[3], z, 0.6, "pivot z trailing the body by at most 0.6 m")
  -- the eye behind the body at the arm's length
  local dx, dy, dz = cam.eye[1] - cam.pivot[1], cam.eye[2] - cam.pivot[2], cam.eye[3] - cam.pivot[3]
  expect_near(math.sqrt(dx * dx + dy * dy + dz * dz), cam.settings.distance, 0.01,
    "the eye at the arm's length from the pivot (m)")
  expect_true(cam.eye[3] < z, "the eye behind the body")
end)
