-- hostile: landmarks added until the memory is gone (charged also on the host's world)
-- as: kit tuning world run scenario
-- expect: memory
local gait = require("gait")
local w = gait.world.host() or gait.world.new{max_characters = 1}
local tris = {}
for i = 1, 20000 do local x = i * 0.01 tris[i] = {x, 0, 0, x + 1, 0, 0, x, 0, 1} end
local keep = {}
while true do
  local lm, err = w:add_landmark{triangles = tris}
  if not lm then error(err, 0) end
  keep[#keep + 1] = lm
end
