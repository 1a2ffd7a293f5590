-- hostile: replacing a character method for every script
-- as: kit tuning world run scenario
-- expect: is read-only
require("gait").character.methods.position = function() return 0, 0, 0 end
return {}
