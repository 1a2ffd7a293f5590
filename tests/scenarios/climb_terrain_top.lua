-- Over the top of a terrain cliff (docs/behaviour.md: "States and transitions", over the top; "Traversal"): a climbing body that reaches a
-- cliff's top mantles onto the plateau along a path, as it does over a landmark wall's top
-- (traverse.c: the climbing scan offers mantle_low / mantle_high), never in one jump of the feet.
local gait = require("gait")
local S = require("gait.scenario")

-- the most the feet may move in one 1/60 s step while getting over the top: the mantle's path
-- runs at its rows' rise / cross speeds (2.5 m/s at most, 0.042 m a step) and the climb at
-- 1.6 m/s; 0.1 m leaves room for the last bit of a diagonal
local MAX_STEP = 0.1

-- climbs with W held until on foot past the top; returns the watch of the climb-over: from the
-- first climb step to 10 steps after the body is on foot
local function climb_over(w, ch)
  expect_true(S.until_state(w, ch, "climb", 120, {move_y = 1}), "a move into the cliff climbs")
  local r = {max_move = 0, seen = {}}
  local px, py, pz = ch:position()
  local after = nil
  for _ = 1, 60 * 10 do
    S.step(w, ch, {move_y = 1})
    local s = ch:state()
    r.seen[s] = true
    local x, y, z = ch:position()
    local d = math.sqrt((x - px) ^ 2 + (y - py) ^ 2 + (z - pz) ^ 2)
    if d > r.max_move then r.max_move, r.at = d, s end
    px, py, pz = x, y, z
    if after then after = after - 1; if after == 0 then break end
    elseif s == "run" then after = 10 end
  end
  r.done = after == 0
  return r
end

test("a terrain cliff's top is got over by the mantle path a landmark wall's top gets", function()
  -- the reference: a landmark wall as high, got over by a mantle today
  local wl = S.world()
  S.box(wl, -3, 0, 2, 3, 6, 8)
  local ref = climb_over(wl, wl:spawn{position = {0, 0, 0}})
  expect_true(ref.done and ref.seen.traverse and ref.max_move <= MAX_STEP,
    string.format("the landmark wall's top: a mantle, at most %.3f m a step", ref.max_move))
  -- a 76 deg cliff 6 m high between z = 2 and z = 3.5, 0.25 m cells (body_traverse.lua's)
  local w = S.world(gait.geometry.terrain(64, 0.25, function(_, z)
    if z < 2 then return 0 elseif z > 3.5 then return 6 else return (z - 2) * 4 end
  end))
  local ch = w:spawn{position = {0, 0, 0}}
  local r = climb_over(w, ch)
  expect_true(r.done, "on foot past the top")
  local _, y = ch:position()
  expect_near(y, 6, 1e-6, "on the plateau (m)")
  expect_true(r.seen.traverse, "over the top by the mantle (a traverse state)")
  expect_true(r.max_move <= MAX_STEP, string.format("no step moves the feet more than %.2f m " ..
    "(%.3f m, in %s)", MAX_STEP, r.max_move, tostring(r.at)))
end)
