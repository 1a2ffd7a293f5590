-- hostile: changing the string metatable
-- as: kit tuning world run scenario
-- expect: attempt to index
getmetatable("").__index.rep = function() return "" end
return {}
