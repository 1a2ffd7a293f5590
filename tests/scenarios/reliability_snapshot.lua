-- world:snapshot() / world:restore(s): stepping on from a restore is bit-identical; anything
-- that is not this world's snapshot is refused with a message and changes nothing.
local gait = require("gait")
local DT = 1 / 60

local function world(n)
  local w = gait.world.new{max_characters = n or 4}
  assert(w:set_terrain{samples_x = 65, samples_z = 65, cell_size = 1, origin = {-32, 0, -32},
    height = function(x, z) return 0.6 * math.sin(0.3 * x) * math.cos(0.2 * z) end})
  assert(w:add_landmark{triangles = {{2, 0, 2, 4, 0, 2, 4, 2, 2}, {2, 0, 2, 4, 2, 2, 2, 2, 2}}})
  return w
end

local function drive(w, chars, from, to)
  for k = from, to - 1 do
    for i, ch in ipairs(chars) do
      local t = k * DT
      ch:set_input{move_x = math.sin(0.7 * t + i), move_y = math.cos(0.5 * t),
                   look_yaw = 0.01 * math.sin(t),
                   pressed = (k % 47 == i) and {"jump"} or nil,
                   held = ((k % 90) < 30) and {"sprint"} or nil}
    end
    w:update(DT)
  end
end

-- A world with one body at (0, 3, 0) driven for `steps` steps, and its snapshot then.
local function one_driven(steps)
  local w = world()
  local ch = w:spawn{position = {0, 3, 0}}
  drive(w, {ch}, 0, steps)
  return w, ch, w:snapshot()
end

local function state_of(chars)
  local out = {}
  for i, ch in ipairs(chars) do
    local x, y, z = ch:position()
    local s, sec = ch:state()
    local st = ch:stamina()
    out[i] = {x, y, z, s, sec, st}
  end
  return out
end

local function same(a, b, what)
  for i = 1, #a do
    for j = 1, #a[i] do
      expect_eq(a[i][j], b[i][j], what .. ": character " .. i .. " field " .. j)
    end
  end
end

test("restore and step on: the same bits as the first time", function()
  local w = world()
  local chars = {w:spawn{position = {0, 3, 0}}, w:spawn{position = {-4, 3, 2}, body_type = "tall_male"}}
  drive(w, chars, 0, 90)
  local snap = w:snapshot()
  expect_eq(type(snap), "string", "a snapshot is a string")
  local steps = w:step_count()
  drive(w, chars, 90, 300)
  local first = state_of(chars)
  expect_eq(w:restore(snap), true, "restored")
  expect_eq(w:step_count(), steps, "the clock came back")
  drive(w, chars, 90, 300)
  same(first, state_of(chars), "after restore")
  -- into a second world built the same way
  local w2 = world()
  local c2 = {w2:spawn{position = {0, 3, 0}}, w2:spawn{position = {-4, 3, 2}, body_type = "tall_male"}}
  expect_eq(w2:restore(snap), true, "restored into a twin world")
  drive(w2, c2, 90, 300)
  same(first, state_of(c2), "twin world")
end)

test("a destroyed character comes back with a restore; a new one goes", function()
  local w, a, snap = one_driven(10)
  a:destroy()
  expect_eq(a:valid(), false, "destroyed")
  local b = w:spawn{position = {5, 3, 5}}
  expect_eq(w:character_count(), 1, "one alive")
  assert(w:restore(snap))
  expect_eq(a:valid(), true, "back after the restore")
  expect_eq(b:valid(), false, "the one made after the snapshot is gone")
  expect_eq(w:character_count(), 1, "one alive")
end)

test("what is not this world's snapshot is refused, nothing changes", function()
  local w, ch, snap = one_driven(30)
  drive(w, {ch}, 30, 40)
  local before = state_of({ch})
  local bad = {
    {"", "too short"},
    {"garbage", "too short"},
    {string.rep("x", #snap), "not a gait snapshot"},
    {snap:sub(1, #snap - 1), "truncated"},
    {snap:sub(1, 200) .. string.char((snap:byte(201) + 1) % 256) .. snap:sub(202), "checksum"},
    {world(5):snapshot(), "another size"},
  }
  for i, case in ipairs(bad) do
    local ok, err = w:restore(case[1])
    expect_eq(ok, nil, "case " .. i .. " refused")
    expect_true(tostring(err):find(case[2], 1, true) ~= nil, "case " .. i .. " says why: " .. tostring(err))
    same(before, state_of({ch}), "case " .. i .. " changed nothing")
  end
  expect_error(function() w:restore() end, "string expected", "no argument")
  expect_error(function() w:restore(42) end, "string expected", "a number")
  expect_error(function() w:restore({}) end, "string expected", "a table")
  expect_error(function() w.restore(nil, snap) end, "gait.world expected", "not a world")
  local gone = world()
  gone:destroy()
  expect_error(function() gone:snapshot() end, "destroyed", "a destroyed world")
  expect_error(function() gone:restore(snap) end, "destroyed", "a destroyed world")
end)
