-- hostile: recursion until the stack runs out
-- as: kit tuning world run scenario
-- expect: stack overflow
local function f(n) return 1 + f(n + 1) end
f(1)
return {}
