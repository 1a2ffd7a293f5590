-- hostile: a traversal hook that loops (runs only when a scan finds a ledge: set, it stays harmless)
-- as: run
-- expect: ok
local ch = require("gait").world.host():characters()[1]
ch:set_traverse_hook(function() while true do end end)
