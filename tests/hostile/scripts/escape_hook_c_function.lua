-- hostile: a privileged C function installed as a gate hook
-- as: run
-- expect: is for trusted scripts
local gait = require("gait")
local w = gait.world.new()
assert(w:set_terrain(gait.geometry.flat_terrain(64)))
local ch = w:spawn{}
ch:set_gate_hook(gait.clear_error)
ch:set_input{move_y = 1}
w:step()
error(gait.last_error(), 0)
