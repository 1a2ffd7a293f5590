-- hostile: a small PNG that claims 16384 x 16383 16-bit pixels (a decompression bomb)
-- as: run scenario
-- expect: 16384 x 16383
local w = require("gait").world.new()
local ok, err = w:load_heightmap("tests/hostile/files/bomb_16384x16383.png", 1, 1)
if not ok then error(err, 0) end
