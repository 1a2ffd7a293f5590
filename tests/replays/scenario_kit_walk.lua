-- A scenario for `gait run --record` / `gait replay` (tests/unit/test_replay.c records it at
-- 144 fps and plays it back bit-identically): two characters, one with the sword kit, on rolling
-- terrain with a box and a pool; input that walks, turns the camera, jumps, sprints and attacks.
local gait = require("gait")
local w = gait.world.new{max_characters = 4}
w:set_terrain{samples_x = 65, samples_z = 65, cell_size = 1, origin = {-32, 0, -32},
              height = function(x, z) return 0.8 * math.sin(0.21 * x) * math.cos(0.17 * z) end}
w:add_landmark{triangles = {
  {2, 0, 4, 4, 0, 4, 4, 1.2, 4}, {2, 0, 4, 4, 1.2, 4, 2, 1.2, 4},
  {2, 1.2, 4, 4, 1.2, 4, 4, 1.2, 6}, {2, 1.2, 4, 4, 1.2, 6, 2, 1.2, 6}}, name = "step"}
w:add_water{min_x = -20, min_z = 8, max_x = -8, max_z = 20, surface = 0.5}
local hero = w:spawn{position = {0, 2, 0}, kit = "sword"}
local other = w:spawn{position = {-3, 2, 3}, body_type = "tall_male"}
return {
  world = w, steps = 480,
  frame = function(frame, t, dt)
    local pressed = {}
    if frame % 97 == 10 then pressed[#pressed + 1] = "jump" end
    if frame % 131 == 40 then pressed[#pressed + 1] = "attack" end
    if frame % 173 == 77 then pressed[#pressed + 1] = "sprint" end
    hero:set_input{move_x = 0.6 * math.sin(0.9 * t), move_y = 1, look_yaw = 0.004,
                   held = (t % 3 < 1) and {"sprint"} or {}, pressed = pressed}
    other:set_input{move_x = math.cos(0.5 * t), move_y = 0.7 * math.sin(0.3 * t),
                    pressed = (frame % 61 == 5) and {"jump"} or nil}
  end,
}
