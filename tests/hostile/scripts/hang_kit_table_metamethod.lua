-- hostile: a kit table whose __index loops (the kit is read raw)
-- as: kit
-- expect: ok
return setmetatable({on_presses = function() end}, {__index = function() while true do end end})
