-- hostile: a loop of table.concat
-- as: kit tuning world run scenario
-- expect: instruction budget
local t = {}
for i = 1, 1000 do t[i] = string.rep("y", 1000) end
while true do local s = table.concat(t) end
