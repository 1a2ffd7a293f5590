-- hostile: restoring garbage as a snapshot
-- as: kit tuning world run scenario
-- expect: snapshot
local gait = require("gait")
local w = gait.world.new()
local ok, err = w:restore(string.rep("\0", 100000))
if not ok then error(err, 0) end
return {}
