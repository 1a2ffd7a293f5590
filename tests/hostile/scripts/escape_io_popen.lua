-- hostile: a shell command through io.popen
-- as: kit tuning world run scenario
-- expect: io
local p = io.popen("touch /tmp/gait_hostile_pwned")
return {}
