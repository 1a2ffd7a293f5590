-- hostile: reaching the world's method table through getmetatable
-- as: kit tuning world run scenario
-- expect: attempt to index
local w = require("gait").world.new()
getmetatable(w).__index.step = nil
return {}
