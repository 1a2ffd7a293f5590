-- hostile: dofile climbing out with ..
-- as: kit tuning world run scenario
-- expect: outside the script root
dofile("../../../../../../../../etc/hostname")
return {}
