-- hostile: changing another kit's definition
-- as: run scenario
-- expect: read-only
local gait = require("gait")
assert(gait.kit.load("sword"))
gait.kit.get("sword").on_presses = function() end
