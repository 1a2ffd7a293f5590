-- A riser within the step height with another character standing on the tread just past it
-- (docs/behaviour.md, "The body": a riser within the step height is stepped up, never climbed;
-- another character is no wall). The step up over the riser met the other body, was refused,
-- and the riser it left in the way was read as a wall: the runner climbed the 0.24 m riser
-- (build/fuzz/walkers on the Quake III map oa_rpg3dm2: a runner turned back up a stair with
-- another walker on the next tread). The runner is held by the body now, as by any body, slides
-- round it and runs up the step. Camera yaw 0: W is +z.
local S = require("gait.scenario")

local RISE = 0.24                 -- the riser, under the 0.3 m step height
local FACE = 1.0                  -- its face, at z = 1; the tread above runs to z = 10

-- The runner at the riser's foot, the other standing still on the tread `gap` m past where its
-- capsule would touch the face (its back at FACE + gap), straight ahead of the runner.
local function blocked(gap)
  local w = S.world(64, 4)
  S.box(w, -3, 0, FACE, 3, RISE, 10)
  local runner = assert(w:spawn{position = {0, 0, 0.2}})
  local other = assert(w:spawn{position = {0, RISE, FACE + 0.3 + gap}})
  return w, runner, other
end

-- each gap had the runner climb the riser before
for _, gap in ipairs({0.005, 0.02, 0.05, 0.08}) do
  test(string.format("a runner at a riser, another on the tread %.3f m past it: run, no climb", gap),
    function()
      local w, runner, other = blocked(gap)
      local r = S.watch(w, runner, 60, {move_y = 1})
      local seen = table.concat(S.sorted_keys(r.seen), ",")
      expect_eq(seen, "run", "only running (states seen)")
      expect_near(runner:stamina(), 100, 0, "no stamina spent: no climb (a run costs nothing)")
      local _, y, z = runner:position()
      expect_near(y, RISE, 0.01, "on the tread after 1 s (m)")
      expect_true(z > FACE + 2, string.format("up the step and on: z %.2f (> %.1f)", z, FACE + 2))
      local _, oy = other:position()
      expect_near(oy, RISE, 0.01, "the other still on the tread (m)")
    end)
end
