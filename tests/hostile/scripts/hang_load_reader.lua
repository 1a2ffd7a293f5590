-- hostile: a load reader that never ends
-- as: kit tuning world run scenario
-- expect: instruction budget
load(function() return "x" end)
return {}
