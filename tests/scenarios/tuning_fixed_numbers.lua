-- Every tuning number lives in the tuning tables (docs/behaviour.md, "The numbers": "every tuning number is exposed to
-- Lua"), validated by the schema, with its unit. Three are still fixed in code:
--   the low/high mantle split a climb over a top uses (1.25 m, traverse.c's plan()),
--   the auto crouch's stand-up delay (1.0 s, traverse.c's gait__traverse_pre_gates),
--   the swim's float speed (2 m/s, body.c's FLOAT_SPEED).
-- The names below are the ones proposed for them (traversal.lua: climb_mantle_split,
-- auto_crouch_stand_seconds; locomotion.lua: swim_float_speed); the fix may choose others and
-- rename them here.
local gait = require("gait")
local S = require("gait.scenario")

local function read(path)
  local f = assert(io.open(gait.root() .. "/" .. path))
  local text = f:read("*a")
  f:close()
  return text
end

test("the three numbers are in the schemas with their units and today's values", function()
  local ts = gait.traverse.schema()
  local tt = gait.traverse.table()
  expect_true(ts.climb_mantle_split ~= nil, "traversal schema: climb_mantle_split")
  expect_eq(ts.climb_mantle_split and ts.climb_mantle_split.unit, "m", "its unit")
  expect_near(tt.climb_mantle_split, 1.25, 0, "the built-in table's split (m, GASP's 125 cm)")
  expect_true(ts.auto_crouch_stand_seconds ~= nil, "traversal schema: auto_crouch_stand_seconds")
  expect_eq(ts.auto_crouch_stand_seconds and ts.auto_crouch_stand_seconds.unit, "s", "its unit")
  expect_near(tt.auto_crouch_stand_seconds, 1.0, 0, "the built-in table's delay (s)")
  local ls = gait.tuning.schema()
  expect_true(ls.swim_float_speed ~= nil, "locomotion schema: swim_float_speed")
  expect_eq(ls.swim_float_speed and ls.swim_float_speed.unit, "m/s", "its unit")
  expect_near(gait.locomotion.defaults().swim_float_speed, 2.0, 0, "the provisional float speed")
end)

test("the shipped tuning files spell them", function()
  local trav, loco = read("scripts/tuning/traversal.lua"), read("scripts/tuning/locomotion.lua")
  expect_true(trav:find("climb_mantle_split%s*=") ~= nil, "traversal.lua: climb_mantle_split")
  expect_true(trav:find("auto_crouch_stand_seconds%s*=") ~= nil,
    "traversal.lua: auto_crouch_stand_seconds")
  expect_true(loco:find("swim_float_speed%s*=") ~= nil, "locomotion.lua: swim_float_speed")
end)

test("the swim's float speed is the tuned one", function()
  -- deep water (5 m) under a 10 m drop: a plunge (30 m/s) takes the body well under its float
  -- line (feet 1.2 m under the surface), from where it rises to it at the float speed
  local w = S.world(gait.geometry.terrain(64, 1, function() return -5 end))
  assert(w:add_water{min_x = -32, min_z = -32, max_x = 32, max_z = 32, surface = 0})
  local ok, err = pcall(function() return w:set_provisional_locomotion{swim_float_speed = 1.0} end)
  expect_true(ok, "swim_float_speed is a locomotion number: " .. tostring(err))
  local ch = S.perch(w, 0, 10, 0)
  S.steps(w, ch, 5, {})
  S.steps(w, ch, 1, {pressed = {"attack"}})
  expect_eq(ch:state(), "plunge", "plunging into the water")
  expect_true(S.until_state(w, ch, "swim", 120, {}), "swims")
  S.steps(w, ch, 1, {})
  local _, y0 = ch:position()
  S.steps(w, ch, 3, {})
  local _, y1 = ch:position()
  expect_true(y1 < -1.2, string.format("still under the float line after 3 steps (feet %.3f m)", y1))
  expect_near((y1 - y0) / 0.05, 1.0, 1e-6, "rises at the tuned 1 m/s (m/s over 0.05 s)")
end)
