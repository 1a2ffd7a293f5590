-- hostile: raising its own memory limit
-- as: kit tuning world run scenario
-- expect: is for trusted scripts
require("gait").memory_limit(1e15)
return {}
