-- hostile: a heightmap outside the script root
-- as: run scenario
-- expect: outside the script root
local w = require("gait").world.new()
local ok, err = w:load_heightmap("/etc/hostname", 1, 1)
if not ok then error(err, 0) end
