-- hostile: loadstring of bytecode
-- as: kit tuning world run scenario
-- expect: bytecode chunk: refused
assert(loadstring(string.char(27) .. "LJ" .. string.rep("\255", 64)))()
return {}
