-- Bad scripts never take the host down: syntax errors, runtime errors, an error inside an
-- error handler, a kit that never returns, bad tuning values. Each gives a clear message, the
-- host keeps stepping on the last good scripts. Gate hooks: veto, redirect, none = no Lua.
local gait = require("gait")
local DT = 1 / 60

local S = require("gait.scenario")
local write, tmp_lua = S.write, S.tmp_lua

local function world() return S.world(128) end

test("a kit with a syntax error is refused with file:line", function()
  local path = tmp_lua("return {on_presses = function(ch)\n  local = 1\nend}\n")
  local w = world()
  local ch = w:spawn{}
  local ok, err = ch:set_kit(path)
  expect_eq(ok, nil, "set_kit fails")
  expect_true(tostring(err):find(path .. ":2:", 1, true) ~= nil, "file:line: " .. tostring(err))
  w:update(DT)
  expect_eq(ch:state(), "idle", "the world still steps")
  os.remove(path)
end)

test("a kit's runtime error is contained; the other kits and the steps go on", function()
  local path = tmp_lua("return {on_presses = function(ch, p, state)\n" ..
    "  state.calls = (state.calls or 0) + 1\n  local t = nil\n  return t.field\nend}\n")
  local w = world()
  local bad = w:spawn{position = {-3, 0, 0}}
  local good = w:spawn{position = {3, 0, 0}}
  assert(bad:set_kit(path))
  local good_calls = 0
  assert(good:set_kit{on_presses = function() good_calls = good_calls + 1 end})
  gait.clear_error()
  for _ = 1, 5 do
    bad:set_input{move_y = 1}
    good:set_input{move_y = 1}
    w:update(DT)
  end
  local err = gait.last_error()
  expect_true(err ~= nil and err:find(path .. ":4:", 1, true) ~= nil, "file:line of the error: " .. tostring(err))
  expect_true(err ~= nil and err:find("stack traceback", 1, true) ~= nil, "with a traceback")
  expect_eq(gait.error_count(), 1, "reported once: a failed kit is skipped until it is reloaded")
  local _, state = bad:kit()
  expect_eq(state.calls, 1, "the failed kit was not called again")
  expect_eq(good_calls, 5, "the good kit ran every frame")
  expect_eq(bad:state(), "run", "the failing kit's character still steps")
  os.remove(path)
end)

test("an error inside an error handler is reported, not a crash", function()
  local w = world()
  local ch = w:spawn{}
  -- the error object's __tostring fails inside the traceback handler
  assert(ch:set_kit{on_presses = function()
    error(setmetatable({}, {__tostring = function() error("and again") end}))
  end})
  gait.clear_error()
  w:update(DT)
  local err = tostring(gait.last_error())
  expect_true(err:find("__tostring failed", 1, true) ~= nil, "says the error object could not be shown: " .. err)
  -- a kit whose own xpcall handler fails
  local other = w:spawn{position = {4, 0, 0}}
  local seen
  assert(other:set_kit{on_presses = function()
    seen = {xpcall(function() error("first") end, function() error("in the handler") end)}
  end})
  w:update(DT)
  expect_eq(seen and seen[1], false, "xpcall inside the kit reports failure")
  expect_eq(ch:state(), "idle", "the world still steps")
end)

test("a kit that never returns is stopped by the instruction budget", function()
  local old = gait.instruction_budget(200000)
  local path = tmp_lua("return {on_presses = function(ch)\n  local i = 0\n  while true do i = i + 1 end\nend}\n")
  local w = world()
  local ch = w:spawn{}
  assert(ch:set_kit(path))
  gait.clear_error()
  local t0 = os.clock()
  for _ = 1, 3 do
    ch:set_input{move_y = 1}
    w:update(DT)
  end
  local err = tostring(gait.last_error())
  expect_true(err:find("instruction budget", 1, true) ~= nil, "the budget stopped it: " .. err)
  expect_true(err:find(path .. ":3:", 1, true) ~= nil, "at file:line: " .. err:match("[^\n]*"))
  expect_true(os.clock() - t0 < 2, "stopped quickly (s)")
  expect_eq(ch:state(), "run", "the world still steps")
  gait.instruction_budget(old)
  os.remove(path)
end)

test("a gate hook that never returns is stopped; the proposed state is taken", function()
  local old = gait.instruction_budget(200000)
  local w = world()
  local ch = w:spawn{}
  ch:set_gate_hook(function() while true do end end)
  gait.clear_error()
  ch:set_input{move_y = 1}
  w:update(DT)
  expect_true(tostring(gait.last_error()):find("instruction budget", 1, true) ~= nil, "stopped by the budget")
  expect_eq(ch:state(), "run", "the proposed state was taken")
  gait.instruction_budget(old)
end)

test("gate hooks veto and redirect; no hook runs no Lua", function()
  local w = world()
  assert(w:set_provisional_locomotion{jump_height = 6})
  local ch = w:spawn{}
  local calls = 0
  local carrying = true
  ch:set_gate_hook(function(c, from, proposed)
    calls = calls + 1
    if carrying and proposed == "glide" then return from end -- no glide while carrying
    if from == "idle" and proposed == "run" then return "walk" end -- redirect
    return nil
  end)
  ch:set_input{move_y = 1}
  w:update(DT)
  expect_eq(ch:state(), "walk", "idle -> run redirected to walk")
  ch:set_input{pressed = {"jump"}}
  w:update(DT)
  expect_eq(ch:state(), "jump", "jumped")
  for _ = 1, 25 do w:update(DT) end -- high now
  expect_true(ch:contact().height_above_ground > 2.5, "high enough to glide")
  ch:set_input{pressed = {"jump"}}
  w:update(DT)
  local s = ch:state()
  expect_true(s ~= "glide", "no glide while carrying (state " .. s .. ")")
  carrying = false
  ch:set_input{pressed = {"jump"}}
  w:update(DT)
  expect_eq(ch:state(), "glide", "glides once it carries nothing")
  local before = calls
  ch:set_gate_hook(nil)
  ch:set_input{pressed = {"jump"}}
  for _ = 1, 200 do w:update(DT) end
  expect_eq(calls, before, "no hook: no Lua called")
  expect_true(ch:state() ~= "glide", "and the controller went on (" .. ch:state() .. ")")
end)

test("a bad value in a body type's entry is reported at its own line, not at the entry before it", function()
  local path = tmp_lua("return {\n  provisional = {\n    run_speed = 5.6,\n    jump_height = 1.2,\n  },\n" ..
    "  medium_female = {\n    jump_height = 1.2,\n    run_speed = 500,\n  },\n}\n")
  local ok, err = gait.tuning.load{locomotion = path}
  expect_eq(ok, nil, "run_speed = 500 refused")
  expect_true(tostring(err):find(path .. ":8: medium_female.run_speed", 1, true) ~= nil,
    "names line 8 (medium_female's run_speed, not provisional's at 3): " .. tostring(err))
  os.remove(path)
end)

test("a tuning value of NaN or the wrong type is refused; nothing applied", function()
  local w = world()
  local before = w:locomotion("medium_male").walk_speed
  for _, v in ipairs({"0/0", "'slow'", "{}", "true", "-1", "math.huge"}) do
    local path = tmp_lua("return {\n  provisional = {\n    walk_speed = " .. v .. ",\n  },\n}\n")
    local ok, err = gait.tuning.load{locomotion = path}
    expect_eq(ok, nil, "walk_speed = " .. v .. " refused")
    expect_true(tostring(err):find(path .. ":3: provisional.walk_speed", 1, true) ~= nil,
      "names file:line and key: " .. tostring(err))
    expect_true(tostring(err):find("[0.1, 20] m/s", 1, true) ~= nil, "names the range: " .. tostring(err))
    expect_near(w:locomotion("medium_male").walk_speed, before, 0, "nothing applied for " .. v)
    os.remove(path)
  end
  local path = tmp_lua("return {refill_rate = 25, refill_delay = 0/0}\n")
  local ok, err = gait.tuning.load{stamina = path}
  expect_eq(ok, nil, "stamina NaN refused")
  expect_true(tostring(err):find("refill_delay is NaN", 1, true) ~= nil, tostring(err))
  os.remove(path)
end)
