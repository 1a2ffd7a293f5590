-- hostile: writing a file with gait.image.write_png
-- as: kit tuning world run scenario
-- expect: is for trusted scripts
require("gait").image.write_png("/tmp/gait_hostile_pwned.png", 1, 1, 1, "x")
return {}
