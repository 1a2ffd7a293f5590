-- hostile: a privileged C function run as a coroutine (nothing untrusted on its stack)
-- as: run scenario
-- expect: is for trusted scripts
local gait = require("gait")
local co = coroutine.wrap(gait.clear_error)
co()
