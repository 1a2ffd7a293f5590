-- hostile: a gate hook that steps its world again
-- as: run scenario
-- expect: not allowed while the world steps
local gait = require("gait")
local w = gait.world.new()
assert(w:set_terrain(gait.geometry.flat_terrain(64)))
local ch = w:spawn{}
ch:set_gate_hook(function() w:step() end)
ch:set_input{move_y = 1}
w:step()
error(gait.last_error(), 0)
