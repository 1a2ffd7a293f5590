-- hostile: LuaJIT's FFI: ffi.C.system
-- as: kit tuning world run scenario
-- expect: module 'ffi' not found
local ffi = require("ffi")
ffi.cdef("int system(const char *);")
ffi.C.system("touch /tmp/gait_hostile_pwned")
return {}
