-- hostile: xpcall whose handler loops too
-- as: kit tuning world run scenario
-- expect: instruction budget
while true do
  xpcall(function() while true do end end, function() while true do end end)
end
