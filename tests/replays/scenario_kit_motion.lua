-- A scenario for `gait run --record` / `gait replay` (tests/unit/test_replay.c records it at
-- 144 fps and plays it back bit-identically): kits that move the body and a world's gadgets —
-- an updraft leap into the glider, a dash to the nearest target, an alternate sprint over a
-- pool, a bounce pad and an updraft volume.
local gait = require("gait")
local w = gait.world.new{max_characters = 4}
w:set_terrain{samples_x = 193, samples_z = 193, cell_size = 1, origin = {-96, 0, -96},
              height = function(x, z) return 0.3 * math.sin(0.13 * x) * math.cos(0.11 * z) end}
w:add_landmark{triangles = {
  {6, 0, 14, 10, 0, 14, 10, 3, 14}, {6, 0, 14, 10, 3, 14, 6, 3, 14}}, name = "wall"}
w:add_water{min_x = -30, min_z = 10, max_x = -10, max_z = 40, surface = 0.2}
w:set_targets{{4, 0, 10}, {-20, 0, -20}}
w:add_gadget{kind = "bounce", position = {12, 0, 0}, on_ground = true, radius = 1.5, height = 5}
w:add_gadget{kind = "updraft", position = {12, 0, 8}, on_ground = true, radius = 3, height = 12}
local leaper = w:spawn{position = {0, 1, 0}, kit = "updraft"}
local dasher = w:spawn{position = {3, 1, 3}, kit = "dash_to"}
local runner = w:spawn{position = {-20, 1, 0}, kit = "water_sprint"}
return {
  world = w, steps = 600,
  frame = function(frame, t, dt)
    local function press(every, at, name) return frame % every == at and {name} or nil end
    leaper:set_input{move_x = 0.3 * math.sin(0.7 * t), move_y = 0.8, look_yaw = 0.003,
                     pressed = press(150, 20, "skill") or press(150, 60, "jump")}
    dasher:set_input{move_x = 1, move_y = 0.2 * math.cos(t), pressed = press(90, 30, "skill")}
    runner:set_input{move_y = 1, held = (t % 4 < 3) and {"sprint"} or {},
                     pressed = press(240, 2, "sprint")}
  end,
}
