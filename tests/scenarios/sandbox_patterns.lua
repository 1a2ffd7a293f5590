-- The counted pattern functions (runtime/src/script/script_pattern.c) against LuaJIT's own on
-- generated patterns and subjects: string.find / match / gmatch / gsub must answer the same, or
-- both raise. In a test file (trusted) the global `string` is LuaJIT's library, while a string's
-- methods ("s"):find(...) go through the string metatable to the counted versions every script
-- gets.
local real = string

-- a fixed generator (no math.random: the same cases on every run)
local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end

local subjects_alphabet = {"a", "b", "c", "a", "b", " ", "1", "2", "(", ")", "[", "]", "%",
                           ".", "-", "\0", "x", "A", "Z", "_"}
local items = {"a", "b", ".", "%a", "%d", "%s", "%w", "%p", "%l", "%u", "%x", "%c", "%z",
               "%A", "%S", "[ab]", "[^ab]", "[a-c]", "[%d_]", "[]]", "[^]]", "[a-]", "%.",
               "%%", "%(", "(", ")", "()", "%1", "%2", "%bab", "%b()", "%f[%w]", "%f[%W]",
               "^", "$", "[", "%", "x"}
local quants = {"", "", "", "*", "+", "-", "?"}

local function subject()
  local t = {}
  for i = 1, rand(24) - 1 do t[i] = subjects_alphabet[rand(#subjects_alphabet)] end
  return table.concat(t)
end

local function pattern()
  local t = {}
  for i = 1, rand(6) do t[i] = items[rand(#items)] .. quants[rand(#quants)] end
  return table.concat(t)
end

local function pack(...) return {n = select("#", ...), ...} end

local function same(a, b)
  if a[1] ~= b[1] then return false end
  if not a[1] then return true end -- both raised
  if a.n ~= b.n then return false end
  for i = 2, a.n do if a[i] ~= b[i] then return false end end
  return true
end

local function show(r)
  local t = {}
  for i = 1, r.n do t[i] = type(r[i]) == "string" and string.format("%q", r[i]) or tostring(r[i]) end
  return table.concat(t, ", ")
end

local function compare(what, s, p, ours, theirs)
  local a, b = pack(pcall(ours)), pack(pcall(theirs))
  if not same(a, b) then
    expect_true(false, string.format("%s(%q, %q): ours {%s}, LuaJIT's {%s}", what, s, p, show(a), show(b)))
    return false
  end
  return true
end

test("find, match, gmatch and gsub answer as LuaJIT's on 4000 generated cases", function()
  local bad = 0
  for _ = 1, 1000 do
    local s, p = subject(), pattern()
    local init = rand(7) - 3
    if not compare("find", s, p, function() return s:find(p, init) end,
                   function() return real.find(s, p, init) end) then bad = bad + 1 end
    if not compare("match", s, p, function() return s:match(p) end,
                   function() return real.match(s, p) end) then bad = bad + 1 end
    if not compare("gmatch", s, p,
        function() local t = {} for a, b in s:gmatch(p) do t[#t + 1] = tostring(a) .. "|" .. tostring(b) end return table.concat(t, ";") end,
        function() local t = {} for a, b in real.gmatch(s, p) do t[#t + 1] = tostring(a) .. "|" .. tostring(b) end return table.concat(t, ";") end) then
      bad = bad + 1
    end
    local repl = ({"<%0>", "%1", "%%", "x", "%2"})[rand(5)]
    if not compare("gsub", s, p, function() return s:gsub(p, repl, rand(4) - 1 + 1) end,
                   function() return real.gsub(s, p, repl, rand(4) - 1 + 1) end) then bad = bad + 1 end
    if bad > 10 then break end
  end
  expect_eq(bad, 0, "cases that differ")
end)

test("gsub with a table and a function, plain find and an anchored gsub", function()
  local t = {a = "1", b = false}
  expect_eq(select(1, ("abcab"):gsub("%a", t)), select(1, real.gsub("abcab", "%a", t)), "a table")
  local f = function(c) if c == "b" then return nil end return c:upper() end
  expect_eq(select(1, ("abcab"):gsub("%a", f)), select(1, real.gsub("abcab", "%a", f)), "a function")
  expect_eq(("a.b"):find(".", 1, true), 2, "plain find")
  expect_eq(select(1, ("aaa"):gsub("^a", "b")), "baa", "anchored gsub")
  expect_error(function() ("x"):gsub("x", {x = {}}) end, "invalid replacement value")
  expect_error(function() ("x"):gsub("x", true) end, "string/function/table expected")
  expect_error(function() ("x"):find("(") end, "unfinished capture")
  expect_error(function() ("x"):find("%") end, "malformed pattern")
end)

test("a pathological pattern is stopped by the budget, not run to the end", function()
  local gait = require("gait")
  local w = gait.world.new()
  local ch = w:spawn{}
  local old = gait.instruction_budget(1000000)
  -- (10^5)^3 steps in one find: the budget stops it
  ch:set_kit{on_presses = function() return (string.rep("a", 100000)):find("a*a*a*b") end}
  gait.clear_error()
  w:update(1 / 60)
  gait.instruction_budget(old)
  expect_true(tostring(gait.last_error()):find("instruction budget", 1, true) ~= nil,
    "the kit tripped: " .. tostring(gait.last_error()))
end)
