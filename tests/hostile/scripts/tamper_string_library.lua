-- hostile: changing the shared string library
-- as: kit tuning world run scenario
-- expect: is read-only
string.format = nil
return {}
