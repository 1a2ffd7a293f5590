-- hostile: a shell command through os.execute
-- as: kit tuning world run scenario
-- expect: execute
os.execute("touch /tmp/gait_hostile_pwned")
return {}
