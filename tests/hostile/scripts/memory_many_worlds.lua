-- hostile: worlds made until the memory is gone
-- as: kit tuning world run scenario
-- expect: not enough memory
local keep = {}
while true do
  local w, err = require("gait").world.new{max_characters = 4096}
  if not w then error(err, 0) end
  keep[#keep + 1] = w
end
