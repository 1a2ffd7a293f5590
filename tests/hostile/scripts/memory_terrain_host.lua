-- hostile: the biggest terrain on the host's world
-- as: run
-- expect: not enough memory
local w = require("gait").world.host()
w:set_terrain{samples_x = 4097, samples_z = 4097, cell_size = 1, height = function() return 0 end}
