-- hostile: a level file that crashes the importer (the runner's w:load_level)
-- as: scenario
-- expect: crashed
local gait = require("gait")
local w = gait.world.new()
local n, err = w:load_level("tests/hostile/levels/importer_segv.off")
if not n then error(err, 0) end
