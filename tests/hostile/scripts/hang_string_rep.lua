-- hostile: a loop of cheap calls into dear C (string.rep)
-- as: kit tuning world run scenario
-- expect: instruction budget
for i = 1, 1e9 do local s = string.rep("x", 1000000) end
return {}
