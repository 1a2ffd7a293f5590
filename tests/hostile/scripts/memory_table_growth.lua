-- hostile: tables grown until the host's memory is gone
-- as: kit tuning world run scenario
-- expect: memory
local t = {}
while true do t[#t + 1] = string.rep("m", 65536) .. #t end
