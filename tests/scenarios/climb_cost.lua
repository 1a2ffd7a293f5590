-- A climb costs while the body moves on the wall (docs/behaviour.md, "Stamina"): a stick pushed up against an
-- overhang that holds the body still costs nothing, as standing still on the wall does.
local S = require("gait.scenario")

test("a climb held still under an overhang costs no stamina", function()
  local w = S.world(128, 2)
  -- a 6 m wall face at z = 2 with a band sticking out 0.3 m at 3 m up (the tower's ledge bands)
  S.mesh(w, {{-3, 0, 2, 3, 6, 6}, {-3.3, 3, 1.7, 3.3, 3.3, 6.3}})
  local ch = w:spawn{position = {0, 0, 0}}
  expect_true(S.until_state(w, ch, "climb", 120, {move_y = 1}), "climbs the wall")
  local _, y0 = ch:position()
  local s0 = ch:stamina()
  S.steps(w, ch, 30, {move_y = 1})
  local _, y1 = ch:position()
  expect_true(y1 > y0 + 0.5, "climbs at first: rose " .. (y1 - y0) .. " m")
  expect_true(ch:stamina() < s0, "moving on the wall costs")
  -- until the head meets the band and the body stalls
  local stalled = S.until_(w, ch, 600, {move_y = 1}, function(c)
    local _, vy = c:velocity()
    return c:state() == "climb" and math.abs(vy) < 1e-9
  end)
  expect_true(stalled, "the band stops the climb")
  local s1 = ch:stamina()
  S.steps(w, ch, 120, {move_y = 1})
  expect_eq(ch:state(), "climb", "still on the wall")
  expect_near(ch:stamina(), s1, 1e-9, "two seconds pushing against the band cost nothing")
end)
