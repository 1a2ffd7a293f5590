-- hostile: an error object whose __tostring loops
-- as: kit tuning world run scenario
-- expect: instruction budget
error(setmetatable({}, {__tostring = function() while true do end end}))
