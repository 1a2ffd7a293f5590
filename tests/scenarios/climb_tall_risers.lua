-- A flight of risers too tall to step (0.39 m, over the step height) is climbed. Where a tread is
-- too shallow for a step before the next riser (0.4 m), the climb goes on over it up the flight,
-- as over a ledge band (docs/behaviour.md, "The body", on a wall); where a tread has room (0.8 m), the body
-- tops out onto it, runs on and climbs the next. Put on each shallow tread, the body ran one step
-- into the next riser and climbed again: run <-> climb on every riser, 6 changes in under half a
-- second (the liveness fuzzer, seed 1060019).
local S = require("gait.scenario")

local RISE, COUNT = 0.39, 6

-- floor at 0 for z < 2; COUNT risers of RISE, `tread` m apart; the top floor beyond the last
local function flight(tread)
  local w = S.world(128, 1)
  local t = {}
  for i = 0, COUNT - 1 do
    local z = 2 + i * tread
    local y0, y1 = i * RISE, (i + 1) * RISE
    S.quad(t, {-20, y0, z}, {20, y0, z}, {20, y1, z}, {-20, y1, z})
    local z1 = i == COUNT - 1 and 30 or z + tread
    S.quad(t, {-20, y1, z}, {20, y1, z}, {20, y1, z1}, {-20, y1, z1})
  end
  assert(w:add_landmark{triangles = t})
  return w
end

for _, case in ipairs({{tread = 0.4, climbs = 1}, {tread = 0.8, climbs = COUNT}}) do
  test(string.format("a flight of %d risers of %.2f m, treads %.1f m deep, run up: %d climb(s)",
                     COUNT, RISE, case.tread, case.climbs), function()
    local w = flight(case.tread)
    local ch = w:spawn{position = {0, 0, 0}}
    local climbs, last = 0, ch:state()
    for _ = 1, 300 do -- 5 s with the stick forward: up the flight and on along the top
      S.step(w, ch, {move_x = 0, move_y = 1})
      local s = ch:state()
      if s == "climb" and last ~= "climb" then climbs = climbs + 1 end
      last = s
    end
    local _, y, z = ch:position()
    expect_eq(climbs, case.climbs, "climbs begun")
    expect_near(y, COUNT * RISE, 0.01, "on the top floor (m)")
    expect_true(z > 2 + COUNT * case.tread + 1, string.format("ran on past the flight (z %.2f)", z))
  end)
end
