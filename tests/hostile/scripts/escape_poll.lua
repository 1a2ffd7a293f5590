-- hostile: hot reload from a script
-- as: kit tuning world run scenario
-- expect: is for trusted scripts
require("gait").poll()
return {}
