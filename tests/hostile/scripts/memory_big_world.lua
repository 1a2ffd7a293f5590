-- hostile: a world of 2^20 characters (gigabytes of C memory)
-- as: kit tuning world run scenario
-- expect: not enough memory
local w, err = require("gait").world.new{max_characters = 1048576}
if not w then error(err, 0) end
return {}
