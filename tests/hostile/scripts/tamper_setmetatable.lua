-- hostile: setmetatable on the gait table
-- as: kit tuning world run scenario
-- expect: protected metatable
setmetatable(require("gait"), {})
return {}
