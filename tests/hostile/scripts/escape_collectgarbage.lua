-- hostile: collectgarbage to run finalizers at will
-- as: kit tuning world run scenario
-- expect: may ask only
setmetatable({}, {__gc = function() os.exit(1) end})
collectgarbage("collect")
return {}
