-- hostile: stepping a world forever
-- as: run scenario
-- expect: instruction budget
local gait = require("gait")
local w = gait.world.new{max_characters = 64}
assert(w:set_terrain(gait.geometry.flat_terrain(64)))
for i = 1, 64 do w:spawn{position = {i % 8, 0, i / 8}} end
while true do w:step() end
