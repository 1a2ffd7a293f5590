-- Stairs along a wall (docs/behaviour.md, "The body": a riser within the step height is stepped up, never climbed).
-- Real levels put stairs against walls everywhere, and a player runs up them pressing into the
-- wall. Eight steps of 0.25 m risers and 0.75 m treads to a 2 m landing, a 10 m wall along their
-- -x side; the body runs up them from beside the wall with the stick turned into the wall by 10,
-- 24 and 45 deg (it slides along the wall as it goes). Parallel to the wall (0 deg) it runs up
-- them today; pressed into it, every riser is a wall to climb.
local S = require("gait.scenario")

local RISE, TREAD, STEPS = 0.25, 0.75, 8
local TOP = RISE * STEPS                  -- 2.0 m, the landing's height
local LANDING_Z = 2 + TREAD * STEPS       -- 8.0: the landing runs from here to z = 20

local function stairs()
  local w = S.world(128, 2)
  S.mesh(w, {{-3, 0, -2, -1.5, 10, 20}}) -- the wall: its face at x = -1.5, from z = -2 to 20
  local boxes = {}
  for i = 1, STEPS do boxes[i] = {-1.5, 0, 2 + (i - 1) * TREAD, 1.5, i * RISE, 20} end
  S.mesh(w, boxes)
  return w
end

for _, deg in ipairs({10, 24, 45}) do
  test(string.format("run up stairs along a wall pressing into it at %d deg: no climb, the top", deg),
    function()
      local w = stairs()
      local ch = w:spawn{position = {-1.15, 0, 0}} -- 5 cm from the wall
      local a = math.rad(deg)
      -- stick turned towards -x (the wall) by deg: camera yaw 0, right is -x
      local r = S.watch(w, ch, 180, {move_x = math.sin(a), move_y = math.cos(a)})
      local x, y, z = ch:position()
      local seen = {}
      for s in pairs(r.seen) do seen[#seen + 1] = s end
      table.sort(seen)
      expect_eq(table.concat(seen, ","), "run", "only running (states seen)")
      expect_near(ch:stamina(), 100, 0, "no stamina spent (a run costs nothing)")
      expect_near(y, TOP, 0.01, "on the landing after 3 s (m)")
      expect_true(z > LANDING_Z + 0.3, string.format("up onto the landing: z %.2f (> %.1f)", z,
        LANDING_Z + 0.3))
      expect_near(x, -1.2, 0.01, "along the wall (feet x, m: the radius from its face)")
    end)
end
