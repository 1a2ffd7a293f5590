-- hostile: the real globals through getfenv(0)
-- as: kit tuning world run scenario
-- expect: getfenv
local g = getfenv(0)
g.io.open("/tmp/gait_hostile_pwned", "w")
return {}
