-- hostile: package.loadlib
-- as: kit tuning world run scenario
-- expect: package
package.loadlib("libc.so.6", "system")
return {}
