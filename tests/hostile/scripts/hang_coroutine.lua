-- hostile: a loop in a coroutine, resumed again after each error
-- as: kit tuning world run scenario
-- expect: instruction budget
while true do
  local co = coroutine.create(function() while true do end end)
  coroutine.resume(co)
end
