-- Kit hooks before the step (docs/behaviour.md, "The frame and the step"): presses taken by a kit, kit actions, the sword kit.
local gait = require("gait")
local DT = 1 / 60

local function flat_world()
  local w = gait.world.new{max_characters = 4}
  assert(w:set_terrain(gait.geometry.flat_terrain(128)))
  return w
end

-- one frame of input, then the frame (kits first, then the steps)
local function frame(w, ch, input)
  ch:set_input(input or {})
  w:update(DT)
end

test("a press taken by the kit is not also read by the step", function()
  local w = flat_world()
  local plain = w:spawn{position = {-5, 0, 0}}
  local kitted = w:spawn{position = {5, 0, 0}}
  local seen
  assert(kitted:set_kit{on_presses = function(ch, presses)
    seen = presses.jump
    if presses.jump then ch:take_presses("jump") end
  end})
  plain:set_input{pressed = {"jump"}}
  kitted:set_input{pressed = {"jump"}}
  w:update(DT)
  expect_eq(seen, true, "the kit saw the held jump press")
  expect_eq(plain:state(), "jump", "without a kit the step reads the jump")
  expect_eq(kitted:state(), "idle", "the taken jump never reaches the step")
  expect_eq(kitted:info().presses_read.jump, nil, "presses_read of the kitted character")
  expect_eq(plain:info().presses_read.jump, true, "presses_read of the plain character")
end)

test("a press in a frame that runs no step is held for the kit and the next step", function()
  local w = flat_world()
  local ch = w:spawn{}
  local frames_seen = 0
  assert(ch:set_kit{on_presses = function(_, presses) if presses.walk then frames_seen = frames_seen + 1 end end})
  ch:set_input{pressed = {"walk"}}
  local steps = w:update(DT / 3) -- 144+ Hz: no step this frame
  expect_eq(steps, 0, "no step in a third of a step")
  ch:set_input{}
  w:update(DT)
  expect_eq(frames_seen, 2, "the kit saw the held press in both frames")
  expect_eq(ch:info().walking, true, "the step then read it (walk switch on)")
end)

test("a kit action holds the body still; the presses still reach the controller", function()
  local w = flat_world()
  local ch = w:spawn{}
  assert(ch:set_kit{on_presses = function(c, presses)
    if presses.skill then
      c:take_presses("skill")
      c:start_action(0.5, "hold")
    end
  end})
  for _ = 1, 10 do frame(w, ch, {move_y = 1}) end
  expect_eq(ch:state(), "run", "running before the action")
  frame(w, ch, {move_y = 1, pressed = {"skill", "walk"}})
  local x0, _, z0 = ch:position()
  for _ = 1, 20 do frame(w, ch, {move_y = 1}) end
  local x1, _, z1 = ch:position()
  expect_near(z1 - z0, 0, 1e-9, "no move along z while the action plays (m)")
  expect_near(x1 - x0, 0, 1e-9, "no move along x (m)")
  expect_eq(ch:info().walking, true, "the walk press reached the controller during the action")
  expect_eq((ch:action()), "hold", "the action is still playing")
  frame(w, ch, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:state(), "jump", "a jump pressed during the action reaches the gates")
  -- the jump lands after about 0.7 s, then the body walks (the walk switch is on)
  for _ = 1, 90 do frame(w, ch, {move_y = 1}) end
  expect_eq(ch:action(), nil, "the action is over after its seconds")
  local _, _, z2 = ch:position()
  expect_true(z2 > z1 + 0.3, string.format("the body moves again after the action (moved %.3f m)", z2 - z1))
end)

local function hold_attack(w, ch, seconds)
  local n = math.floor(seconds / DT + 0.5)
  frame(w, ch, {pressed = {"attack"}, held = {"attack"}})
  for _ = 2, n do frame(w, ch, {held = {"attack"}}) end
  frame(w, ch, {}) -- let go
end

test("sword: a tap is a normal attack taken by the kit", function()
  local w = flat_world()
  local ch = w:spawn{kit = "sword"}
  frame(w, ch, {pressed = {"attack"}, held = {"attack"}})
  local _, state = ch:kit()
  expect_eq(state.normal_attacks, 1, "normal attacks")
  expect_eq(ch:info().presses_read.attack, nil, "the step did not read the attack")
  expect_near((ch:stamina()), 100, 1e-9, "a tap costs nothing")
end)

test("sword: the charged attack spends 20 x the multiplier and holds the body", function()
  local kit = assert(gait.kit.load("sword"))
  expect_eq(kit.charged_cost, 20, "the kit's charged cost")
  for _, m in ipairs({1, 0.5, 2}) do
    local w = flat_world()
    local ch = w:spawn{kit = "sword", stamina = {multiplier = m}}
    hold_attack(w, ch, kit.charge_seconds + 0.1)
    expect_near((ch:stamina()), 100 - 20 * m, 1e-9, "stamina after a charged attack, multiplier " .. m)
    expect_eq((ch:action()), "charged_attack", "the charged attack holds the body, multiplier " .. m)
    local _, state = ch:kit()
    expect_eq(state.charged_attacks, 1, "one charged attack per hold")
  end
end)

test("sword: a hold shorter than the threshold is no charged attack", function()
  local kit = assert(gait.kit.load("sword"))
  local w = flat_world()
  local ch = w:spawn{kit = "sword"}
  hold_attack(w, ch, kit.charge_seconds - 0.1)
  expect_near((ch:stamina()), 100, 1e-9, "nothing spent")
end)

test("sword: the charged attack is refused below 20 x the multiplier", function()
  local kit = assert(gait.kit.load("sword"))
  for _, case in ipairs({{m = 1, left = 19.5}, {m = 2, left = 39}, {m = 0.5, left = 9.9}}) do
    local w = flat_world()
    local ch = w:spawn{kit = "sword", stamina = {multiplier = case.m}}
    -- a spend restarts the refill's rest, so nothing refills during the 0.5 s hold
    ch:set_stamina(case.left + 10 * case.m)
    assert(ch:spend(10))
    hold_attack(w, ch, kit.charge_seconds + 0.1)
    local _, state = ch:kit()
    expect_near((ch:stamina()), case.left, 1e-9, "nothing taken, multiplier " .. case.m)
    expect_eq(state.refused, 1, "refused once, multiplier " .. case.m)
    expect_eq(ch:action(), nil, "no action, multiplier " .. case.m)
  end
  -- exactly enough is enough
  local w = flat_world()
  local ch = w:spawn{kit = "sword", stamina = {multiplier = 2}}
  ch:set_stamina(50)
  assert(ch:spend(5)) -- 40 left, rest restarted
  hold_attack(w, ch, kit.charge_seconds + 0.1)
  expect_near((ch:stamina()), 0, 1e-9, "40 left pays 20 x 2")
end)

test("sword: in the air the attack press is left for the plunge", function()
  local w = flat_world()
  local ch = w:spawn{kit = "sword"}
  frame(w, ch, {pressed = {"jump"}})
  expect_eq(ch:state(), "jump", "jumped")
  frame(w, ch, {pressed = {"attack"}})
  expect_eq(ch:info().presses_read.attack, true, "the step read the attack in the air")
end)

test("sword: the skill faces the nearest target and holds the body", function()
  local kit = assert(gait.kit.load("sword"))
  local w = flat_world()
  w:set_targets{{10, 0, 0}, {0, 0, -3}, {-20, 0, 20}}
  local ch = w:spawn{kit = "sword", yaw = 0}
  for _ = 1, 5 do frame(w, ch, {move_y = 1}) end
  local x0, _, z0 = ch:position()
  frame(w, ch, {move_y = 1, pressed = {"skill"}})
  local yaw = ch:yaw()
  -- nearest is (0, 0, -3): behind, so the body turns to face -z
  expect_near(math.sin(yaw), (0 - x0) / math.sqrt(x0 * x0 + (z0 + 3) ^ 2), 1e-6, "sin(yaw) toward the target")
  expect_near(math.cos(yaw), (-3 - z0) / math.sqrt(x0 * x0 + (z0 + 3) ^ 2), 1e-6, "cos(yaw) toward the target")
  expect_eq((ch:action()), "skill", "the skill holds the body")
  for _ = 1, math.floor(kit.skill_seconds / DT) - 2 do frame(w, ch, {move_y = 1}) end
  local x1, _, z1 = ch:position()
  expect_near(x1, x0, 1e-9, "held still along x (m)")
  expect_near(z1, z0, 1e-9, "held still along z (m)")
  expect_eq(ch:info().presses_read.skill, nil, "the step never read the skill press")
end)
