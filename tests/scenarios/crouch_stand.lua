-- Crouch (docs/behaviour.md, "Crouch"): a crouched body is shorter (crouch_height), walks at crouch_speed, stands up
-- only where the stand-up check finds room, and enters a low opening (a vent) crouched by itself.
-- Numbers: the provisional body (radius 0.3 m, height 1.7 m, crouch 1.0 m at 1.5 m/s).
local S = require("gait.scenario")
local world, mesh, steps = S.world, S.mesh, S.steps -- flat 128 m; boxes as one landmark

test("stand-up refused under a 1.2 m ceiling, allowed once clear; crouched speed", function()
  local w = world()
  mesh(w, {{-3, 1.2, 2, 3, 1.5, 8}}) -- a ceiling at 1.2 m over z 2..8
  local ch = w:spawn{position = {0, 0, 0}}
  steps(w, ch, 2, {pressed = {"crouch"}})
  expect_eq(ch:state(), "crouch", "the crouch switch")
  steps(w, ch, 30, {move_y = 1})
  local _, _, z0 = ch:position()
  steps(w, ch, 60, {move_y = 1})
  local _, _, z1 = ch:position()
  expect_near(z1 - z0, 1.5, 0.015, "crouched: 1.5 m in 1 s (+-1 %)")
  steps(w, ch, 150, {move_y = 1})          -- well under the ceiling
  local _, _, z = ch:position()
  expect_true(z > 3 and z < 7, "under the ceiling: z = " .. z)
  steps(w, ch, 1, {pressed = {"crouch"}})  -- the switch off: no room
  expect_eq(ch:state(), "crouch", "no room to stand: still crouched")
  expect_true(ch:traversal().stand_blocked, "the stand-up check refused")
  steps(w, ch, 30, {})
  expect_eq(ch:state(), "crouch", "still crouched a half second later")
  local _, y = ch:position()
  expect_near(y, 0, 1e-6, "on the floor (m)")
  -- walk out: it stands as soon as there is room
  local stood_at
  for _ = 1, 400 do
    steps(w, ch, 1, {move_y = 1})
    if ch:state() ~= "crouch" then stood_at = select(3, ch:position()); break end
  end
  expect_true(stood_at ~= nil, "stands once clear")
  expect_true(stood_at and stood_at > 8 + 0.3 - 0.05, "only past the ceiling's end: z = " .. tostring(stood_at))
  expect_eq(ch:state(), "run", "runs on")
end)

test("a 0.9 m vent is crossed crouched; the body cannot stand inside it", function()
  local w = world()
  expect_near(w:locomotion("medium_male").crouch_height, 0.8, 1e-12, "provisional crouch height (m)")
  mesh(w, {
    {-3, 0.9, 4, 3, 3, 6},    -- the wall above the vent (z 4..6: a 2 m long duct)
    {-3, 0, 4, -0.5, 0.9, 6}, -- the duct's sides
    {0.5, 0, 4, 3, 0.9, 6},
  })
  local ch = w:spawn{position = {0, 0, 0}}
  local crouched_inside, stood_inside, max_z = 0, 0, 0
  for _ = 1, 600 do
    steps(w, ch, 1, {move_y = 1})
    local _, y, z = ch:position()
    max_z = math.max(max_z, z)
    if z > 4 and z < 6 then
      if ch:state() == "crouch" then crouched_inside = crouched_inside + 1 else stood_inside = stood_inside + 1 end
      expect_true(y < 0.01, "on the duct's floor")
    end
    if z > 7 then break end
  end
  expect_true(max_z > 7, "through the vent: z = " .. max_z)
  expect_true(crouched_inside > 0, "crouched inside")
  expect_eq(stood_inside, 0, "steps standing inside the vent")
  expect_eq(ch:state(), "run", "stands and runs once out")
  -- inside, the crouch switch cannot stand it up either
  local w2 = world()
  mesh(w2, {{-3, 0.9, 4, 3, 3, 6}, {-3, 0, 4, -0.5, 0.9, 6}, {0.5, 0, 4, 3, 0.9, 6}})
  local c2 = w2:spawn{position = {0, 0, 0}}
  for _ = 1, 400 do
    steps(w2, c2, 1, {move_y = 1})
    if select(3, c2:position()) > 5 then break end
  end
  steps(w2, c2, 1, {pressed = {"crouch"}})
  steps(w2, c2, 1, {pressed = {"crouch"}})
  steps(w2, c2, 20, {})
  expect_eq(c2:state(), "crouch", "no standing up in the vent")
end)
