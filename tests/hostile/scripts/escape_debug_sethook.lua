-- hostile: removing the budget's hook with debug.sethook
-- as: kit tuning world run scenario
-- expect: debug
debug.sethook()
while true do end
