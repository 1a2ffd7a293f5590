-- Forged snapshots through world:restore(s): a string that lies, its checksum computed again (the
-- checksum is FNV-1a, which anyone can compute, here in Lua), is refused with a message naming the
-- lie; the world is unchanged (its own snapshot is the same string) and steps on as a twin that
-- never saw the forgery. A member is found without knowing the build's layout: two snapshots that
-- differ by one setter differ first at that member's bytes. The header is the format's own
-- (runtime/src/character/snapshot.c): magic, then u32 header_size, world_size, character_size,
-- capacity, count, reserved, then u64 layout, payload_size, checksum; 56 bytes.
local gait = require("gait")
local DT = 1 / 60
local HEADER = 56

-- ---- bytes ----------------------------------------------------------------------------------

local XOR = {}
for a = 0, 255 do
  XOR[a] = {}
  for b = 0, 255 do
    local r, p, x, y = 0, 1, a, b
    for _ = 1, 8 do
      if x % 2 ~= y % 2 then r = r + p end
      x, y, p = math.floor(x / 2), math.floor(y / 2), p * 2
    end
    XOR[a][b] = r
  end
end

-- FNV-1a 64 over string s from hash h, in four 16-bit limbs (doubles hold every product exactly):
-- h = (h xor byte) * (2^40 + 435) mod 2^64.
local function fnv1a(s, h)
  local l0, l1, l2, l3 = h[1], h[2], h[3], h[4]
  for i = 1, #s do
    local lo = l0 % 256
    l0 = l0 - lo + XOR[lo][s:byte(i)]
    local t0 = l0 * 435
    local t1 = l1 * 435
    local t2 = l2 * 435 + (l0 % 256) * 256
    local t3 = l3 * 435 + math.floor(l0 / 256) + (l1 % 256) * 256
    local c = math.floor(t0 / 65536); l0 = t0 - c * 65536; t1 = t1 + c
    c = math.floor(t1 / 65536); l1 = t1 - c * 65536; t2 = t2 + c
    c = math.floor(t2 / 65536); l2 = t2 - c * 65536; t3 = t3 + c
    l3 = t3 % 65536
  end
  return {l0, l1, l2, l3}
end
local BASIS = {0x2325, 0x8422, 0x9ce4, 0xcbf2} -- 14695981039346656037

local function u(s, at, n) -- little-endian unsigned at 1-based index `at`
  local v = 0
  for i = n, 1, -1 do v = v * 256 + s:byte(at + i - 1) end
  return v
end
local function le(v, n)
  local b = {}
  for i = 1, n do b[i] = v % 256; v = math.floor(v / 256) end
  return string.char(unpack(b))
end
local function put(s, at, bytes) return s:sub(1, at - 1) .. bytes .. s:sub(at + #bytes) end

-- An IEEE double's 8 bytes (normal numbers, zero, NaN and the infinities are all a forger needs).
local function f64(x)
  if x ~= x then return "\0\0\0\0\0\0\248\127" end
  if x == math.huge then return "\0\0\0\0\0\0\240\127" end
  if x == -math.huge then return "\0\0\0\0\0\0\240\255" end
  if x == 0 then return string.rep("\0", 8) end
  local sign = 0
  if x < 0 then sign, x = 1, -x end
  local m, e = math.frexp(x)                  -- x = m 2^e, m in [0.5, 1)
  local biased, frac = e + 1022, (m * 2 - 1) * 2 ^ 52
  local b = {}
  for i = 1, 6 do b[i] = frac % 256; frac = (frac - b[i]) / 256 end
  b[7] = frac + (biased % 16) * 16
  b[8] = math.floor(biased / 16) + sign * 128
  return string.char(unpack(b))
end

-- The checksum a forger writes: over the header (its checksum zero) and the payload it claims,
-- as much of it as the string holds.
local function reseal(s)
  local payload = math.min(u(s, 41, 8), #s - HEADER)
  local h = fnv1a(s:sub(1, 48) .. string.rep("\0", 8), BASIS)
  h = fnv1a(s:sub(HEADER + 1, HEADER + payload), h)
  return put(s, 49, le(h[1], 2) .. le(h[2], 2) .. le(h[3], 2) .. le(h[4], 2))
end

-- The first byte two snapshots differ at (after the header), back to the start of its 8 bytes:
-- the member a setter changed (records and doubles are 8-aligned).
local function member_at(a, b)
  for i = HEADER + 1, #a do
    if a:byte(i) ~= b:byte(i) then return i - (i - 1) % 8 end
  end
  error("the two snapshots are the same")
end

-- ---- the world --------------------------------------------------------------------------------

local function world(def)
  local w = gait.world.new(def or {max_characters = 3})
  assert(w:set_terrain{samples_x = 65, samples_z = 65, cell_size = 1, origin = {-32, 0, -32},
    height = function(x, z) return 0.5 * math.sin(0.3 * x) * math.cos(0.2 * z) end})
  local a = w:spawn{position = {0, 3, 0}}
  local b = w:spawn{position = {-4, 3, 2}, body_type = "tall_male"}
  return w, a, b
end

local function drive(w, a, b, from, to)
  for k = from, to - 1 do
    a:set_input{move_x = math.sin(0.05 * k), move_y = 1, pressed = (k % 50 == 10) and {"jump"} or nil}
    b:set_input{move_x = 0.5, move_y = math.cos(0.04 * k)}
    w:update(DT)
  end
end

local w, a, b = world()
drive(w, a, b, 0, 90)
local s0 = w:snapshot()
local twin, ta, tb = world()
assert(twin:restore(s0))

-- members located by a setter each (then the honest state again)
local function locate(change)
  change()
  local at = member_at(s0, w:snapshot())
  assert(w:restore(s0))
  return at
end
local AT = {
  accumulator = locate(function() w:update(0.004) end),
  position = locate(function() a:place(1, 2, 3, 0) end),
  yaw = locate(function() a:face(2) end),
  action_left = locate(function() a:start_action(2, "x") end),
  stamina = locate(function() a:spend(10) end),
  body_type = locate(function() b:set_body_type("short_female") end),
  camera_yaw = locate(function() a:set_camera_yaw(1) end),
}
do -- the clock's step and cap: two fresh worlds that differ only there
  local w1, w2 = gait.world.new{max_characters = 3}, gait.world.new{max_characters = 3, step_seconds = 1 / 50}
  AT.step_seconds = member_at(w1:snapshot(), w2:snapshot())
  local w3 = gait.world.new{max_characters = 3, max_steps_per_frame = 9}
  AT.max_steps = member_at(w1:snapshot(), w3:snapshot())
end

-- ---- the tests ----------------------------------------------------------------------------------

test("the forger's checksum is the format's: a resealed honest snapshot restores", function()
  expect_eq(reseal(s0), s0, "resealing changes nothing")
  local ok, err = w:restore(reseal(put(s0, AT.position, f64(1.5))))
  expect_eq(ok, true, "a forged position in range is taken: " .. tostring(err))
  local x = a:position()
  expect_eq(x, 1.5, "the forged x")
  assert(w:restore(s0))
end)

local cases = {
  {"a clock that never returns", function(s)
     return put(put(s, AT.step_seconds, f64(1e-300)), AT.max_steps, le(1000000000, 4)) end,
   "clock.step_seconds = 1e-300"},
  {"a clock that freezes", function(s) return put(s, AT.step_seconds, f64(0)) end, "clock.step_seconds = 0"},
  {"a NaN accumulator", function(s) return put(s, AT.accumulator, f64(0 / 0)) end, "clock.accumulator is NaN"},
  {"a NaN position", function(s) return put(s, AT.position, f64(0 / 0)) end, "character 1 (generation 0): position.x is NaN"},
  {"a far position", function(s) return put(s, AT.position, f64(1e300)) end, "position.x = 1e+300 is out of range"},
  {"an infinite yaw", function(s) return put(s, AT.yaw, f64(math.huge)) end, "yaw = inf is infinite"},
  {"an action of 31 years", function(s) return put(s, AT.action_left, f64(1e9)) end, "action_left = 1e+09"},
  {"negative stamina", function(s) return put(s, AT.stamina, f64(-1)) end, "stamina.value = -1"},
  {"stamina above its max", function(s) return put(s, AT.stamina, f64(500)) end, "above max"},
  {"a body type that is none", function(s) return put(s, AT.body_type, le(99, 4)) end, "character 2 (generation 0): body_type = 99"},
  {"a NaN camera yaw", function(s) return put(s, AT.camera_yaw, f64(0 / 0)) end, "camera_yaw is NaN"},
  {"a header count that lies", function(s) return put(s, 25, le(u(s, 25, 4) + 1, 4)) end, "live characters"},
  {"a payload of 2^62 bytes", function(s) return put(s, 41, le(2 ^ 62, 8)) end, "truncated"},
  {"a capacity that lies", function(s) return put(s, 21, le(4, 4)) end, "another size"},
  {"another build's layout", function(s) return put(s, 33, string.char((s:byte(33) + 1) % 256)) end, "another build"},
  {"the old format", function(s) return put(s, 1, "gaitsnp1") end, "older format"},
}

for _, case in ipairs(cases) do
  test("refused, nothing changed, the world steps on: " .. case[1], function()
    assert(w:restore(s0))
    local before = w:snapshot()
    local ok, err = w:restore(reseal(case[2](s0)))
    expect_eq(ok, nil, "refused")
    expect_true(tostring(err):find(case[3], 1, true) ~= nil, "says \"" .. case[3] .. "\": " .. tostring(err))
    expect_eq(w:snapshot(), before, "the world is unchanged")
    assert(twin:restore(s0))
    drive(w, a, b, 90, 120)
    drive(twin, ta, tb, 90, 120)
    expect_eq(w:snapshot(), twin:snapshot(), "steps on as its twin")
  end)
end

test("not resealed, truncated, too short: refused, nothing changed", function()
  assert(w:restore(s0))
  local bad = {
    {put(s0, 200, string.char((s0:byte(200) + 1) % 256)), "checksum mismatch"},
    {put(s0, 25, string.char((s0:byte(25) + 1) % 256)), "checksum mismatch"},
    {s0:sub(1, #s0 - 1), "truncated"},
    {s0:sub(1, HEADER), "truncated"},
    {s0:sub(1, HEADER - 1), "too short"},
  }
  for i, case in ipairs(bad) do
    local ok, err = w:restore(case[1])
    expect_eq(ok, nil, "case " .. i .. " refused")
    expect_true(tostring(err):find(case[2], 1, true) ~= nil, "case " .. i .. " says why: " .. tostring(err))
    expect_eq(w:snapshot(), s0, "case " .. i .. " changed nothing")
  end
end)
