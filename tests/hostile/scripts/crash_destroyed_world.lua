-- hostile: using a destroyed world
-- as: kit tuning world run scenario
-- expect: destroyed
local gait = require("gait")
local w = gait.world.new()
local ch = w:spawn{}
w:destroy()
w:step()
return {}
