-- hostile: raising its own instruction budget
-- as: kit tuning world run scenario
-- expect: is for trusted scripts
require("gait").instruction_budget(2e9)
while true do end
