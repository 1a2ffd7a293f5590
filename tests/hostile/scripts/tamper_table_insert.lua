-- hostile: table.insert into a gait list
-- as: kit tuning world run scenario
-- expect: read-only
table.insert(require("gait").character.states, "flying")
return {}
