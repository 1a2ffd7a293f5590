-- hostile: an FFI pointer write to a wild address
-- as: kit tuning world run scenario
-- expect: module 'ffi' not found
local ffi = require("ffi")
local p = ffi.cast("int *", 16)
p[0] = 1
return {}
