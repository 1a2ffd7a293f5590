-- hostile: returned data whose metamethods loop (the host reads a plain copy: none runs)
-- as: tuning world
-- expect: ok
return setmetatable({}, {__index = function() while true do end end, __pairs = function() while true do end end})
