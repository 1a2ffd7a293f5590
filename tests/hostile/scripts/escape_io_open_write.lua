-- hostile: writing a file with io.open
-- as: kit tuning world run scenario
-- expect: io
local f = io.open("/tmp/gait_hostile_pwned", "w")
f:write("x")
return {}
