-- hostile: dofile of a file outside the script root
-- as: kit tuning world run scenario
-- expect: outside the script root
dofile("/etc/hostname")
return {}
