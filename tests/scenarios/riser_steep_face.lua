-- A riser within the step height is never a wall to climb (docs/behaviour.md, "The body"), whatever
-- its face's slope: a shelf 0.15 m or 0.25 m high whose face leans back (a face of 50-55 deg,
-- steeper than walkable, as the level's shelves and terrain-like meshes have) is stepped up like a
-- vertical riser. Today a face of 46-60 deg turns the riser into a climb for a step or more
-- (run -> climb -> run, the climb's stamina and animation): the walkers' survey counts about 1
-- walker in 10 doing it within 20 s on the level (`make walkers`, riser_climb).
local S = require("gait.scenario")

-- floor at 0 for z < 2; a face rising `h` over h / tan(deg) m; a floor at h beyond it
local function shelf(deg, h)
  local w = S.world(128, 1)
  local run = h / math.tan(math.rad(deg))
  local t = {}
  S.quad(t, {-20, h, 2 + run}, {20, h, 2 + run}, {20, h, 14}, {-20, h, 14})
  S.quad(t, {-20, 0, 2}, {20, 0, 2}, {20, h, 2 + run}, {-20, h, 2 + run})
  assert(w:add_landmark{triangles = t})
  return w
end

for _, deg in ipairs({46, 50, 55, 60, 90}) do
  for _, h in ipairs({0.15, 0.25}) do
    for _, turn in ipairs({0, 30}) do
      test(string.format("a %.2f m riser with a %d deg face, run into at %d deg, is stepped up",
                         h, deg, turn), function()
        local w = shelf(deg, h)
        local ch = w:spawn{position = {0, 0, 0}}
        local a = math.rad(turn)
        local seen = {}
        for _ = 1, 120 do -- 2 s: 1.7 m to the face at 5.6 m/s, then on along the top
          S.step(w, ch, {move_x = math.sin(a), move_y = math.cos(a)})
          seen[ch:state()] = true
        end
        local _, y, z = ch:position()
        expect_true(not seen.climb, "never climbs it")
        expect_near(y, h, 0.01, "on the top (m)")
        expect_true(z > 2 + 4, string.format("ran on past it (z %.2f)", z))
      end)
    end
  end
end
