-- hostile: rawset on the gait table
-- as: kit tuning world run scenario
-- expect: read-only
rawset(require("gait"), "world", 1)
return {}
