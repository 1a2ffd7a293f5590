-- hostile: setfenv on a library function
-- as: kit tuning world run scenario
-- expect: setfenv
setfenv(print, {})
return {}
