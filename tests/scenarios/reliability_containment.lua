-- Scripts cannot take the host down (beyond tests/scenarios/bad_input.lua): runaway memory in a
-- kit, a gate hook or plain code stops at the script's memory limit with "not enough memory"
-- and the host goes on; tuning files that loop forever, raise, or do not parse are refused with
-- file:line and nothing is applied.
local gait = require("gait")
local DT = 1 / 60
local MiB = 1048576

local S = require("gait.scenario")
local tmp_lua = S.tmp_lua

local function world() return S.world(64) end

-- a lower limit for these tests (restored after each); what Lua holds now plus 48 MiB. The
-- instruction budget is raised meanwhile: allocating is work the budget counts too, and these
-- tests are about the memory limit, which must hold on its own
local function with_limit(fn)
  collectgarbage()
  local old, used = gait.memory_limit()
  local old_budget = gait.instruction_budget(1e9)
  gait.memory_limit(used + 48 * MiB)
  local ok, err = pcall(fn)
  collectgarbage()
  gait.memory_limit(old)
  gait.instruction_budget(old_budget)
  if not ok then error(err, 0) end
end

-- fn(w, ch) under the limit, given a world with one default body.
local function with_limited_body(fn)
  with_limit(function()
    local w = world()
    fn(w, w:spawn{})
  end)
end

test("the memory limit is there by default and can be read", function()
  local limit, used = gait.memory_limit()
  expect_true(limit >= 64 * MiB, "a limit is set (" .. limit .. " bytes)")
  expect_true(used > 0 and used < limit, "what Lua holds is counted (" .. used .. " bytes)")
  expect_error(function() gait.memory_limit(1000) end, "1 MiB", "a limit below 1 MiB is refused")
  expect_error(function() gait.memory_limit(0 / 0) end, "1 MiB", "NaN is refused")
  expect_error(function() gait.memory_limit("lots") end, "number expected", "a string is refused")
end)

test("runaway memory in plain code fails with 'not enough memory', the state goes on", function()
  with_limit(function()
    local ok, err = pcall(function()
      local t = {}
      while true do t[#t + 1] = string.rep("m", 65536) .. #t end
    end)
    expect_eq(ok, false, "stopped")
    expect_true(tostring(err):find("not enough memory", 1, true) ~= nil, "says why: " .. tostring(err))
    ok, err = pcall(string.rep, "x", 2 ^ 30) -- one 1 GiB string
    expect_eq(ok, false, "a single huge allocation is refused too")
    collectgarbage()
    local _, used = gait.memory_limit()
    expect_true(used < 40 * MiB, "the garbage went back (" .. used .. " bytes held)")
  end)
end)

test("runaway memory in a kit is contained; the world steps on", function()
  with_limited_body(function(w, ch)
    assert(ch:set_kit{on_presses = function()
      local t = {}
      for i = 1, 1e9 do t[i] = string.rep("k", 65536) .. i end
    end})
    gait.clear_error()
    for _ = 1, 3 do
      ch:set_input{move_y = 1}
      w:update(DT)
    end
    local err = tostring(gait.last_error())
    expect_true(err:find("out of memory", 1, true) ~= nil or err:find("not enough memory", 1, true) ~= nil,
      "reported: " .. err:match("[^\n]*"))
    expect_eq(gait.error_count(), 1, "once: the failed kit is skipped until reloaded")
    expect_eq(ch:state(), "run", "the world still steps")
  end)
end)

test("runaway memory in a gate hook is contained; the proposed state is taken", function()
  with_limited_body(function(w, ch)
    ch:set_gate_hook(function()
      local t = {}
      while true do t[#t + 1] = string.rep("g", 65536) .. #t end
    end)
    gait.clear_error()
    ch:set_input{move_y = 1}
    w:update(DT)
    local err = tostring(gait.last_error())
    expect_true(err:find("memory", 1, true) ~= nil, "reported: " .. err:match("[^\n]*"))
    expect_eq(ch:state(), "run", "the proposed state was taken")
  end)
end)

test("tuning files that loop, raise or do not parse are refused; nothing applied", function()
  local w = world()
  local before = w:locomotion("medium_female").run_speed
  local old = gait.instruction_budget(200000)
  local cases = {
    {"return {\n  provisional = {\n    run_speed = (function() while true do end end)(),\n  },\n}\n",
     "instruction budget", ":3:"},
    {"local x = nil\nreturn {provisional = {run_speed = x.y}}\n", "attempt to index", ":2:"},
    {"return {\n  provisional = {run_speed = 6\n", "expected", ":3:"},
    {"error(setmetatable({}, {__tostring = function() error('again') end}))\n", "", ""},
    {"local t = {} while true do t[#t + 1] = string.rep('t', 65536) .. #t end\n", "memory_limit", ""},
  }
  for i, c in ipairs(cases) do
    local path = tmp_lua(c[1])
    local ok, err
    if i == 5 then -- the memory limit, not the budget (with_limit raises the budget)
      with_limit(function() ok, err = gait.tuning.load{locomotion = path} end)
    else
      ok, err = gait.tuning.load{locomotion = path}
    end
    expect_eq(ok, nil, "case " .. i .. " refused")
    if i < 5 then -- out of memory has no traceback to take the file from
      expect_true(tostring(err):find(path, 1, true) ~= nil, "case " .. i .. " names the file: " .. tostring(err))
    end
    expect_true(tostring(err):find(c[2], 1, true) ~= nil, "case " .. i .. " says why: " .. tostring(err))
    expect_true(tostring(err):find(c[3], 1, true) ~= nil, "case " .. i .. " names the line: " .. tostring(err))
    expect_eq(w:locomotion("medium_female").run_speed, before, "case " .. i .. ": nothing applied")
    os.remove(path)
  end
  gait.instruction_budget(old)
  w:update(DT)
end)
