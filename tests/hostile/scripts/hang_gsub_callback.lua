-- hostile: a gsub callback that loops
-- as: kit tuning world run scenario
-- expect: instruction budget
string.gsub("abc", ".", function() while true do end end)
return {}
