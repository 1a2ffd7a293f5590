-- hostile: require of a C module
-- as: kit tuning world run scenario
-- expect: not found
require("socket")
return {}
