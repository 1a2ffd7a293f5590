-- hostile: turning the JIT back on (compiled code runs no hook)
-- as: kit tuning world run scenario
-- expect: jit
jit.on()
return {}
