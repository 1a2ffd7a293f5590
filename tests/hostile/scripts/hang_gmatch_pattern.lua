-- hostile: gmatch with a backtracking pattern
-- as: kit tuning world run scenario
-- expect: instruction budget
for w in string.rep("a", 50000):gmatch("a-a-a-b") do end
return {}
