-- hostile: a sort comparator that loops
-- as: kit tuning world run scenario
-- expect: instruction budget
local t = {3, 2, 1}
table.sort(t, function(a, b) while true do end end)
return {}
