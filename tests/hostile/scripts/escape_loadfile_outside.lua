-- hostile: loadfile of a file outside the script root
-- as: kit tuning world run scenario
-- expect: outside the script root
local chunk, err = loadfile("/etc/passwd")
if not chunk then error(err, 0) end
return {}
