-- hostile: hiding errors from the host
-- as: kit tuning world run scenario
-- expect: is for trusted scripts
require("gait").clear_error()
return {}
