-- hostile: destroying the host's world
-- as: kit tuning run
-- expect: belongs to the host
require("gait").world.host():destroy()
return {}
