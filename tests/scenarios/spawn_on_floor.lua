-- Spawns and places (docs/behaviour.md, "The frame and the step"): a body created or placed with its feet exactly on a landmark floor
-- stands on that floor (authored spawn points sit exactly on floors), as one 1e-7 m higher does
-- today; a body created inside closed geometry is moved out to the nearest free space, or
-- refused with a clear error; it is never left inside, climbing the inner walls.
local S = require("gait.scenario")

-- three floors whose top is at y = 3.0 under (0, 0): a box, a 0.2 m slab on nothing, a single quad
local floors = {
  box = function(w) S.box(w, -3, 0, -3, 3, 3.0, 3) end,
  slab = function(w) S.box(w, -3, 2.8, -3, 3, 3.0, 3) end,
  quad = function(w)
    assert(w:add_landmark{triangles = S.quad({}, {-3, 3, -3}, {-3, 3, 3}, {3, 3, 3}, {3, 3, -3})})
  end,
}

for _, name in ipairs({"box", "slab", "quad"}) do
  test(string.format("a body created and placed exactly on a %s's top at 3.0 m stands on it", name),
    function()
      local w = S.world(128, 2)
      floors[name](w)
      local ch = w:spawn{position = {0, 3.0, 0}}
      local _, y = ch:position()
      expect_near(y, 3.0, 0.005, "created: feet on the floor (m, +-5 mm: the sweep's skin)")
      local other = w:spawn{position = {5, 0, 5}} -- on the ground beside the floor, then placed on it
      other:place(0.5, 3.0, 0.5)
      local _, y2 = other:position()
      expect_near(y2, 3.0, 0.005, "placed: feet on the floor (m)")
      S.steps(w, ch, 30, {})
      local _, y3 = ch:position()
      expect_near(y3, 3.0, 0.005, "half a second later, still on it (m)")
    end)
end

test("a body created inside a closed box is moved out of it or refused", function()
  local w = S.world(128, 2)
  S.box(w, -2, 0, -2, 2, 4, 2)
  local ch, err = w:spawn{position = {0, 1, 0}}
  if not ch then
    expect_true(tostring(err):find("inside") ~= nil, "refused with a message saying why: " ..
      tostring(err))
    return
  end
  local function outside(c)
    local x, y, z = c:position()
    -- the capsule (radius 0.3) clear of the box [-2, 2] x [0, 4] x [-2, 2]
    return y >= 4 - 0.005 or math.abs(x) >= 2.3 - 0.005 or math.abs(z) >= 2.3 - 0.005
  end
  local x, y, z = ch:position()
  expect_true(outside(ch), string.format("created outside the box (feet %.2f %.2f %.2f)", x, y, z))
  local r = S.watch(w, ch, 120, {move_y = 1})
  expect_true(not r.seen.climb, "never climbing its walls")
  expect_true(outside(ch), "and outside it 2 s later")
end)
