-- hostile: a finalizer from newproxy that loops
-- as: kit tuning world run scenario
-- expect: newproxy
local p = newproxy(true)
getmetatable(p).__gc = function() while true do end end
return {}
