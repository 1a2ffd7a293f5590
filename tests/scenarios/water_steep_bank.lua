-- A swimmer at a bank too steep to stand on (docs/behaviour.md, "States and transitions", in
-- water: a swim ends on foot where the water is no deeper than wading_depth - swim_exit_margin and
-- the ground under the feet can be stood on). Pushed into the bank, the water under the body grows
-- shallow while the ground there is a face it cannot stand on: it swims on. Put on foot there, it
-- slid off as a fall, back into deep water, and swam again, every few steps, paying each swim's
-- first stroke until it drowned (the walkers' terrain scene, seed 3: fall -> swim -> run -> fall,
-- 64 state changes in 10 s).
local gait = require("gait")
local S = require("gait.scenario")

-- deep water (5 m) over flat ground at z > 4, and a bank rising towards -z at `slope` deg from
-- the lake's floor up to 1 m over the surface (the surface at 0 over z >= -2)
local function bank(slope)
  local t = math.tan(math.rad(slope))
  local w = S.world(gait.geometry.terrain(64, 0.25, function(_, z)
    return math.max(-5, math.min(1, -5 + (4 - z) * t))
  end))
  assert(w:add_water{min_x = -32, min_z = -2, max_x = 32, max_z = 32, surface = 0})
  return w
end

for _, slope in ipairs({55, 65}) do
  test(string.format("a swimmer pushing into a %d deg bank swims on, never stood on it", slope),
    function()
      local w = bank(slope)
      local ch = S.perch(w, 0, 1, 8)
      expect_true(S.until_state(w, ch, "swim", 120, {}), "falls in and swims")
      local s0 = ch:stamina()
      -- towards the bank (the stick's forward is +z: move_y = -1 swims towards -z)
      local r = S.watch(w, ch, 240, {move_y = -1})
      local _, y, z = ch:position()
      expect_true(not r.seen.fall and not r.seen.walk and r.changes <= 1, string.format(
        "never put on foot on the bank to fall off it: %d state changes, fall seen: %s (now %s " ..
        "at y %.3f, z %.3f)", r.changes, tostring(r.seen.fall == true), ch:state(), y, z))
      -- the swim rides up the bank's face to its top (the terrain lifts the feet onto it), and
      -- only there, on ground it can stand on, runs
      if ch:state() == "run" then
        expect_near(y, 1, 0.01, "on foot only on the bank's top (m)")
      end
      expect_true(s0 - ch:stamina() <= 20, string.format("4 s of swimming cost %.1f stamina (at " ..
        "most 20: a stroke a second; each swim begun anew paid its first stroke too)",
        s0 - ch:stamina()))
    end)
end

test("a swimmer wades out up a bank it can stand on (40 deg)", function()
  local w = bank(40)
  local ch = S.perch(w, 0, 1, 8)
  expect_true(S.until_state(w, ch, "swim", 120, {}), "falls in and swims")
  local on = S.until_(w, ch, 600, {move_y = -1}, function(c) return c:state() == "run" end)
  expect_true(on, string.format("on foot within 10 s (still %s)", ch:state()))
end)
