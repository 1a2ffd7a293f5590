-- hostile: raising the file budget
-- as: kit tuning world run scenario
-- expect: is for trusted scripts
require("gait").file_budget(1e12)
return {}
