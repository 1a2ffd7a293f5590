-- hostile: using a destroyed character
-- as: kit tuning world run scenario
-- expect: stale
local gait = require("gait")
local w = gait.world.new()
local ch = w:spawn{}
ch:destroy()
ch:position()
return {}
