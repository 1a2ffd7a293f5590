-- hostile: an endless loop that catches the budget error with pcall
-- as: kit tuning world run scenario
-- expect: instruction budget
while true do pcall(function() while true do end end) end
