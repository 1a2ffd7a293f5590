-- hostile: require of a path
-- as: kit tuning world run scenario
-- expect: a module name is letters
require("../../../../etc/passwd")
return {}
