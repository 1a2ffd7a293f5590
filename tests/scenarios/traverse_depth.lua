-- The scan's depth (docs/behaviour.md, "Traversal"): the obstacle's own thickness, from its front face to its own back
-- face, not to the farthest back face the reverse trace from 2 m beyond happens to meet first
-- (another fence, a room's back wall). Read right, a vault over the first of two fences lands
-- between them, and a window into a room is vaulted through.
local S = require("gait.scenario")

-- two fences 1.0 m high and 0.2 m thick (along x, 6 m long), 1.3 m apart: z 2.0-2.2 and 3.5-3.7
local function fences()
  local w = S.world(128, 2)
  S.mesh(w, {{-3, 0, 2.0, 3, 1.0, 2.2}, {-3, 0, 3.5, 3, 1.0, 3.7}})
  return w
end

test("the first of two fences 1.3 m apart reads 0.2 m deep", function()
  local s = fences():traverse_scan{position = {0, 0, 1}, forward = {0, 0, 1}, speed = 0}
  expect_true(s.ok, "the scan finds the fence: " .. s.reason)
  expect_eq(s.thick, false, "not thick")
  expect_near(s.depth, 0.2, 0.01, "depth: the fence's own (m, +-1 cm)")
end)

test("a vault over the first of two fences lands between them and stands there", function()
  local w = fences()
  local ch = w:spawn{position = {0, 0, 1}}
  S.steps(w, ch, 1, {pressed = {"jump"}})
  local t = ch:traversal()
  expect_eq(ch:state(), "traverse", "a jump press at the fence traverses")
  expect_eq(t.kind, "vault", "a 0.2 m fence 1 m high is vaulted (GASP: up to 0.6 m deep)")
  local done = S.until_(w, ch, 180, {}, function(c) return c:state() == "idle" end)
  S.steps(w, ch, 60, {}) -- and a second later, still there
  local _, y, z = ch:position()
  expect_true(done, "on foot within 3 s")
  expect_eq(ch:state(), "idle", "standing a second later")
  expect_near(y, 0, 0.01, "on the ground between the fences (m)")
  expect_true(z > 2.2 + 0.29 and z < 3.5 - 0.29, string.format("between the fences: z %.3f in " ..
    "(2.49, 3.21)", z))
end)

-- a wall 0.2 m thick (z 2.0-2.2), 4 m high, with a window 2 m wide from 1.0 m to 3.2 m, and a
-- closed room `deep` m deep behind it (back wall, side walls)
local function window(deep)
  local w = S.world(128, 2)
  S.mesh(w, {{-3, 0, 2, 3, 1.0, 2.2}, {-3, 3.2, 2, 3, 4, 2.2}, {-3, 1.0, 2, -1, 3.2, 2.2},
             {1, 1.0, 2, 3, 3.2, 2.2}, {-3, 0, 2.2 + deep, 3, 4, 2.4 + deep},
             {-3.2, 0, 2, -3, 4, 2.4 + deep}, {3, 0, 2, 3.2, 4, 2.4 + deep}})
  return w
end

test("windows into rooms 0.6 m and 1.0 m deep read the wall's 0.2 m", function()
  for _, deep in ipairs({0.6, 1.0}) do
    local s = window(deep):traverse_scan{position = {0, 0, 1}, forward = {0, 0, 1}, speed = 0}
    expect_eq(s.thick, false, deep .. " m room: not thick")
    expect_near(s.depth, 0.2, 0.01, deep .. " m room: depth, the wall's own (m, +-1 cm)")
  end
end)

test("a window into a room 1.0 m deep is vaulted through onto the room's floor", function()
  local w = window(1.0)
  local s = w:traverse_scan{position = {0, 0, 1}, forward = {0, 0, 1}, speed = 0}
  expect_true(s.ok, "the scan offers the window: " .. s.reason)
  local ch = w:spawn{position = {0, 0, 1}}
  S.steps(w, ch, 1, {pressed = {"jump"}})
  expect_eq(ch:state(), "traverse", "a jump press at the window traverses")
  S.until_state(w, ch, "idle", 180, {})
  local _, y, z = ch:position()
  expect_eq(ch:state(), "idle", "on foot within 3 s")
  expect_near(y, 0, 0.01, "on the room's floor (m)")
  expect_true(z > 2.2 + 0.29 and z < 3.2 - 0.29, string.format("inside the room: z %.3f in " ..
    "(2.49, 2.91)", z))
end)
