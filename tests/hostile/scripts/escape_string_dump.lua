-- hostile: bytecode through string.dump
-- as: kit tuning world run scenario
-- expect: dump
local code = string.dump(function() return 1 end)
return {}
