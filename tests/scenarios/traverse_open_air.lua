-- A traversal whose landing is not where the action planned it (docs/behaviour.md, "Traversal"): a vault over a railing
-- at the edge of a drop, a hurdle down onto lower ground. The action hands over to a fall,
-- keeping its momentum, as soon as the body is past what the scan saw: in the air the body falls
-- as any fall does (air control, the glider, a plunge), and nothing stops it dead mid-air.
local S = require("gait.scenario")

-- a block `high` m high, 10 m wide, from z = -20 to its edge at z = 2, a railing `rail` m high and
-- `thick` m thick along that edge, the flat ground beyond; a body on the block at z
local function edge(high, rail, thick, z)
  local w = S.world(128, 2)
  S.mesh(w, {{-5, 0, -20, 5, high, 2}})
  S.mesh(w, {{-5, high, 2 - thick, 5, high + rail, 2}})
  return w, w:spawn{position = {0, high + 0.01, z}}
end

test("a vault over a railing at the edge of a 20 m drop hands over to a fall; the glider opens", function()
  -- a 20 m block ending at z = 2 with a 1 m railing 0.2 m thick on its edge; the ground beyond
  local w, ch = edge(20, 1, 0.2, -2)
  S.steps(w, ch, 20, {move_y = 1})
  S.steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:state(), "traverse", "a jump press at the railing traverses")
  expect_eq(ch:traversal().kind, "vault", "the railing is vaulted (no floor within 3 m behind)")
  -- the path up and over the railing takes about 1 s (approach, rise at 3.5 m/s, across at
  -- 4 m/s); beyond it there is no floor the scan saw: a fall by 1.5 s after the press
  local fell = S.until_(w, ch, 90, {move_y = 1}, function(c) return c:state() == "fall" end)
  local _, y, z = ch:position()
  expect_true(fell, string.format("a fall within 1.5 s of the press (state %s at %.2f m, z %.2f)",
    ch:state(), y, z))
  if not fell then return end
  expect_true(y > 18, string.format("the fall starts by the railing: feet %.2f m (> 18)", y))
  local _, _, vz = ch:velocity()
  expect_true(vz > 1, string.format("carrying the vault's forward speed: %.2f m/s", vz))
  S.steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:state(), "glide", "the glider opens high over the drop")
end)

test("a hurdle down onto ground 2.5 m lower keeps its speed to the landing", function()
  -- a 2.5 m platform ending at z = 2, a 0.7 m railing 0.1 m thick on its edge, the ground beyond
  local w, ch = edge(2.5, 0.7, 0.1, -8)
  S.steps(w, ch, 69, {move_y = 1})
  S.steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:traversal().kind, "hurdle", "a run at the railing hurdles (floor 2.5 m below)")
  -- past the railing the body falls from 3.25 m at 6 m/s (the hurdle's cross speed): a
  -- ballistic arc lands about 3.4 m past the rail (t = sqrt(2 * 3.25 / 20) = 0.57 s)
  local slowest = math.huge
  local landed = S.until_(w, ch, 180, {move_y = 1}, function(c)
    local _, y, z = c:position()
    local vx, _, vz = c:velocity()
    if z > 2.1 and y > 0.05 then slowest = math.min(slowest, math.sqrt(vx * vx + vz * vz)) end
    return y < 0.01 and c:contact().grounded
  end)
  local _, _, z = ch:position()
  expect_true(landed, "lands within 3 s")
  expect_true(slowest >= 4.0, string.format("no stop in the air past the railing: slowest %.2f m/s " ..
    "(>= 4)", slowest))
  expect_true(z > 4.0, string.format("lands well past the railing: z %.2f (> 4.0)", z))
end)
