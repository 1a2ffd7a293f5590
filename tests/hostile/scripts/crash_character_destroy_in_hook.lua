-- hostile: a gate hook that destroys its own character
-- as: run scenario
-- expect: not allowed while the world steps
local gait = require("gait")
local w = gait.world.new()
assert(w:set_terrain(gait.geometry.flat_terrain(64)))
local ch = w:spawn{}
ch:set_gate_hook(function(c) c:destroy() end)
ch:set_input{move_y = 1}
w:step()
error(gait.last_error(), 0)
