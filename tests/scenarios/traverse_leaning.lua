-- Faces that lean back (docs/behaviour.md, "Traversal": obstacles found in plain geometry): a block whose front face
-- leans back by 10, 15 or 30 deg is vaulted or mantled as a vertical one is. Its ledge is the
-- block's flat top; the down trace that reads it must not stop on the leaning face itself (the
-- face's normal, a few degrees off horizontal, is "ledge too steep"). 2 and 5 deg work today.
local S = require("gait.scenario")

-- a block 6 m wide (x), `h` m high, whose front face rises from z = 2 at the ground leaning back
-- by `deg` (its top edge at z = 2 + h tan deg), with a flat top `depth` m deep
local function leaning(deg, h, depth)
  local w = S.world(128, 2)
  local z0, z1 = 2, 2 + h * math.tan(math.rad(deg))
  local back = z1 + depth
  local A, B, C, D = {-3, 0, z0}, {3, 0, z0}, {3, h, z1}, {-3, h, z1}
  local E, F, G, H = {3, h, back}, {-3, h, back}, {3, 0, back}, {-3, 0, back}
  local t = {}
  S.quad(t, A, D, C, B) -- the leaning front
  S.quad(t, D, F, E, C) -- top
  S.quad(t, H, G, E, F) -- back
  S.quad(t, A, B, G, H) -- bottom
  S.quad(t, A, H, F, D) -- sides
  S.quad(t, B, C, E, G)
  assert(w:add_landmark{triangles = t})
  return w
end

-- from 0.1 m short of the face's foot (the reach at rest is 0.75 m): the scan, then a jump press
-- and up to 3 s for the action; expects `kind` at a ledge `height` m up. Returns the character and
-- whether it is on foot (idle) by then.
local function traverse(w, kind, height)
  local s = w:traverse_scan{position = {0, 0, 1.6}, forward = {0, 0, 1}, speed = 0}
  expect_true(s.ok, "the scan offers the block: " .. s.reason)
  expect_near(s.height, height, 0.01, "ledge height (m)")
  local ch = w:spawn{position = {0, 0, 1.6}}
  S.steps(w, ch, 1, {pressed = {"jump"}})
  expect_eq(ch:state(), "traverse", "a jump press traverses")
  expect_eq(ch:traversal().kind, kind, "the action")
  local done = S.until_state(w, ch, "idle", 180, {})
  expect_true(done, "on foot within 3 s")
  return ch, s
end

for _, deg in ipairs({10, 15, 30}) do
  test(string.format("a 1.0 m block 0.4 m deep leaning back %d deg is vaulted", deg), function()
    local ch, s = traverse(leaning(deg, 1.0, 0.4), "vault", 1.0) -- 1 m high, 0.4 m deep
    expect_near(s.depth, 0.4, 0.02, "depth along the top (m)")
    local _, y, z = ch:position()
    expect_near(y, 0, 0.01, "on the ground beyond (m)")
    expect_true(z > 2 + math.tan(math.rad(deg)) + 0.4, string.format("beyond the block: z %.3f", z))
  end)

  test(string.format("a 1.6 m block leaning back %d deg is mantled onto", deg), function()
    -- 1.6 m: above the 1.25 m low/high split
    local ch = traverse(leaning(deg, 1.6, 3), "mantle_high", 1.6)
    local _, y = ch:position()
    expect_near(y, 1.6, 0.01, "on the block's top (m)")
  end)
end
