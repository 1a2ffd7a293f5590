-- hostile: a kit whose on_presses loops every frame
-- as: kit
-- expect: instruction budget
return {on_presses = function() while true do end end}
