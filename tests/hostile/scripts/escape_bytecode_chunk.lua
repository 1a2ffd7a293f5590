-- hostile: a corrupted bytecode chunk handed to load (crashes the VM when run)
-- as: kit tuning world run scenario
-- expect: bytecode chunk: refused
local f, err = load("\27LJ\2\10\255\255\255\255 corrupted bytecode", "=bytecode")
if not f then error(err, 0) end
f()
return {}
