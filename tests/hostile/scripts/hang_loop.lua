-- hostile: an endless loop
-- as: kit tuning world run scenario
-- expect: instruction budget
while true do end
