-- hostile: a module that requires itself
-- as: kit tuning world run scenario
-- expect: a loop
require("hang_require_self")
return {}
