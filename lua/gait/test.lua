-- The scenario test helper. `gait test` runs each file in a fresh Lua state through run_file.
--
--   test("a press taken by the kit is not read by the step", function()
--     expect_eq(ch:state(), "idle", "state after the take")
--     expect_near(x, 3.0, 1e-6, "x after 30 steps (m)")
--   end)
--
-- Expectations do not stop a test: every failure is reported with its values and where it was
-- made; a test passes when none failed and it raised no error. A file with no test() is one test.
local M = {}

local current -- the running test: {failures = {...}}

local function fmt(v)
  if type(v) == "number" then return string.format("%.9g", v) end
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end

local function where(level)
  local info = debug.getinfo(level + 1, "Sl")
  if not info then return "?" end
  return string.format("%s:%d", info.short_src, info.currentline or 0)
end

local function record(msg, level)
  local line = string.format("%s (%s)", msg, where(level + 1))
  if current then
    current.failures[#current.failures + 1] = line
  else
    error(line, level + 1)
  end
end

-- |actual - wanted| <= tolerance
function M.expect_near(actual, wanted, tolerance, what)
  what = what or "value"
  if type(actual) ~= "number" or type(wanted) ~= "number" then
    record(string.format("expect_near %s: got %s, wanted %s (numbers)", what, fmt(actual),
      fmt(wanted)), 2)
    return false
  end
  tolerance = tolerance or 1e-9
  local off = math.abs(actual - wanted)
  if not (off <= tolerance) then
    record(string.format("expect_near %s: got %s, wanted %s +- %s (off by %s)", what,
      fmt(actual), fmt(wanted), fmt(tolerance), fmt(off)), 2)
    return false
  end
  return true
end

function M.expect_eq(actual, wanted, what)
  if actual ~= wanted then
    record(string.format("expect_eq %s: got %s, wanted %s", what or "value", fmt(actual),
      fmt(wanted)), 2)
    return false
  end
  return true
end

function M.expect_true(cond, what)
  if not cond then
    record(string.format("expect_true %s: got %s", what or "condition", fmt(cond)), 2)
    return false
  end
  return true
end

-- fn() must raise an error whose message matches the Lua pattern (plain find when plain = true).
-- Returns the message.
function M.expect_error(fn, pattern, what, plain)
  local ok, err = pcall(fn)
  if ok then
    record(string.format("expect_error %s: no error raised", what or "call"), 2)
    return nil
  end
  err = tostring(err)
  if pattern and not err:find(pattern, 1, plain) then
    record(string.format("expect_error %s: the message %q does not match %q", what or "call", err,
      pattern), 2)
  end
  return err
end

-- Runs one test file; prints a line per test; returns passed, failed.
function M.run_file(path)
  local cases = {}
  local env = setmetatable({
    test = function(name, fn)
      assert(type(name) == "string" and type(fn) == "function", "test(name, function)")
      cases[#cases + 1] = {name = name, fn = fn}
    end,
    expect_near = M.expect_near, expect_eq = M.expect_eq, expect_true = M.expect_true,
    expect_error = M.expect_error,
    TEST_FILE = path,
  }, {__index = _G})

  local passed, failed = 0, 0
  local function report(name, ok, err, failures)
    if ok and #failures == 0 then
      passed = passed + 1
      print(string.format("ok   %s: %s", path, name))
    else
      failed = failed + 1
      print(string.format("FAIL %s: %s", path, name))
      for _, f in ipairs(failures) do print("     " .. f) end
      if not ok then print("     error: " .. tostring(err):gsub("\n", "\n     ")) end
    end
  end

  local chunk, lerr = loadfile(path)
  if not chunk then
    report("(load)", false, lerr, {})
    return passed, failed
  end
  setfenv(chunk, env)
  current = {failures = {}}
  local ok, err = xpcall(chunk, debug.traceback)
  local top = current
  current = nil
  if not ok or #top.failures > 0 or #cases == 0 then
    report(#cases == 0 and "(file)" or "(top level)", ok, err, top.failures)
    if not ok then return passed, failed end
  end
  for _, c in ipairs(cases) do
    current = {failures = {}}
    local cok, cerr = xpcall(c.fn, debug.traceback)
    local res = current
    current = nil
    report(c.name, cok, cerr, res.failures)
  end
  return passed, failed
end

return M
