-- hostile: a gate hook on the host's character that loops
-- as: run
-- expect: instruction budget
local ch = require("gait").world.host():characters()[1]
ch:set_gate_hook(function() while true do pcall(error) end end)
