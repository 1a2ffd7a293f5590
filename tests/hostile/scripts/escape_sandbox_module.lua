-- hostile: the host's own gait.sandbox module
-- as: kit tuning world run scenario
-- expect: not found
local sb = require("gait.sandbox")
return {}
