-- The Lua API itself: worlds, characters, enums, stale ids, expected failures.
local gait = require("gait")

local S = require("gait.scenario")

local function flat_world() return S.world(64) end

test("a character spawns standing, runs along the camera's yaw", function()
  local w = flat_world()
  local ch = w:spawn{position = {0, 3, 0}}
  local x, y, z = ch:position()
  expect_near(y, 0, 1e-9, "spawned on the ground (m)")
  expect_eq(ch:state(), "idle", "state at spawn")
  for _ = 1, 30 do
    ch:set_input{move_y = 1}
    w:update(1 / 60)
  end
  x, y, z = ch:position()
  expect_eq(ch:state(), "run", "state after 30 steps of W")
  expect_near(z, 29 * 5.6 / 60, 0.2, "z after 30 steps (m)")
  expect_near(x, 0, 1e-9, "x stays (m)")
  expect_near(ch:speed(), 5.6, 1e-6, "run speed (m/s)")
end)

test("info() holds the whole character", function()
  local w = flat_world()
  local ch = w:spawn{position = {1, 0, 2}, yaw = 0.5, body_type = "tall_male"}
  local info = ch:info()
  expect_eq(info.state, "idle", "state")
  expect_eq(info.body_type, "tall_male", "body type")
  expect_near(info.position[1], 1, 1e-9, "x")
  expect_near(info.yaw, 0.5, 1e-9, "yaw")
  expect_near(info.stamina, 100, 1e-9, "stamina")
  expect_true(info.contact.grounded, "grounded")
  expect_eq(info.measured, false, "tall_male is not measured")
end)

test("a wrong enum lists the valid names", function()
  local w = flat_world()
  local ch = w:spawn{}
  expect_error(function() ch:set_body_type("giant") end, "medium_female", "body type")
  expect_error(function() ch:set_input{pressed = {"jmup"}} end, '"jump", "sprint"', "button")
  expect_error(function() gait.locomotion.next{state = "flying"} end, "idle, walk", "state")
  expect_error(function() w:spawn{positon = {0, 0, 0}} end, "unknown key \"positon\"", "spawn key")
end)

test("a stale character id raises a clear error, never crashes", function()
  local w = flat_world()
  local ch = w:spawn{}
  local copy = w:characters()[1]
  expect_true(ch == copy, "two userdata of one character are equal")
  ch:destroy()
  expect_eq(copy:valid(), false, "valid() after destroy")
  expect_error(function() copy:state() end, "stale", "state() of a destroyed character")
  expect_true(tostring(copy):find("stale") ~= nil, "tostring says stale")
  local again = w:spawn{}
  expect_error(function() copy:position() end, "stale", "the slot reused: the old id stays stale")
  expect_true(again:valid(), "the new character is valid")
  w:destroy()
  expect_error(function() again:state() end, "world was destroyed", "world destroyed")
end)

test("expected failures return nil, message; misuse raises", function()
  local w = gait.world.new{max_characters = 1}
  assert(w:spawn{})
  local ch2, err = w:spawn{}
  expect_eq(ch2, nil, "a second character in a pool of one")
  expect_true(type(err) == "string" and err:find("slots") ~= nil, "the message says why: " .. tostring(err))
  local ch = w:characters()[1]
  ch:set_stamina(10)
  local ok, why = ch:spend(20)
  expect_eq(ok, nil, "spend 20 of 10")
  expect_true(why ~= nil, "with a message")
  expect_near((ch:stamina()), 10, 1e-9, "nothing taken")
  expect_error(function() ch:spend(-1) end, "amount", "a negative amount raises")
  expect_error(function() ch:spend(0 / 0) end, "amount", "NaN raises")
end)

test("the pure gate function takes tables", function()
  expect_eq(gait.locomotion.next{state = "idle", move = 1}, "run", "idle -> run")
  expect_eq(gait.locomotion.next{state = "run", move = 1, pressed = {"jump"}}, "jump", "run -> jump")
  expect_eq(gait.locomotion.next{state = "fall", grounded = false, height_above_ground = 10,
    pressed = {"jump"}, stamina = 50}, "glide", "fall -> glide")
  expect_eq(gait.locomotion.next{state = "fall", grounded = false, height_above_ground = 10,
    pressed = {"jump"}, stamina = 0}, "fall", "no glide with no stamina")
  expect_true(gait.locomotion.is_edge("glide", "plunge"), "glide -> plunge is an edge")
  expect_eq(gait.locomotion.is_edge("swim", "glide"), false, "swim -> glide is not")
end)
