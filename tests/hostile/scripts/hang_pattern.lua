-- hostile: a backtracking pattern (10^15 steps in one C call)
-- as: kit tuning world run scenario
-- expect: instruction budget
local s = string.rep("a", 100000)
local i = s:find("a*a*a*b")
return {}
