-- A dash to the nearest target, after Xiao's Elemental Skill "Lemniscatic Wind Cycling" in
-- Genshin Impact: a lunge along the ground that ends at the foe.
--
--   skill   dashes along the ground toward the nearest target (world:set_targets) within
--           `range`, stopping `reach` m short of it, or at a wall; with no target in range it
--           lunges `range` / 2 m ahead. It costs a dash's stamina and needs it to start. Two
--           charges: the cooldown of each is its own.
--   jump    pressed during the dash: cancels it (the jump is then the gates').
--
-- Numbers: the dash's stamina is the game's dash (wiki "Stamina": 18 as it starts); the lunge's
-- speed, range and the charges' cooldown were not found by the search tool: provisional.
local kit = {
  name = "dash_to",
  speed = 25,            -- m/s (provisional)
  range = 12,            -- m a target may be away (provisional)
  reach = 1.2,           -- m short of the target the dash stops (provisional)
  cost = 18,             -- stamina, wiki (a dash)
  charges = 2,           -- (provisional)
  cooldown = 10,         -- s a charge takes to come back (provisional)
  clip = "lunge",
}

-- The charges live in one cooldown (the character's, so snapshots carry them): it holds the
-- seconds until every charge is back; a dash needs it at most (charges - 1) x cooldown, and adds
-- a cooldown to it.
function kit.on_presses(ch, presses)
  if not presses.skill then return end
  ch:take_presses("skill")
  if not ch:can_act() then return end -- on foot or in the air, free
  local recharge = ch:cooldown("skill")
  if recharge > (kit.charges - 1) * kit.cooldown or not ch:can_spend(kit.cost) then return end
  local x, y, z = ch:position()
  local target, d = ch:world():nearest_target(x, z)
  local move = {
    name = "lunge", clip = kit.clip, speed = kit.speed, start_cost = kit.cost,
    horizontal = true, gravity_scale = 1, arrive_distance = kit.reach,
    end_on = {"wall"}, cancel_buttons = {"jump"}, ["then"] = "stop",
  }
  local ok
  if target and d <= kit.range then
    move.seconds = kit.range / kit.speed + 0.2
    ok = ch:move_to({target[1], target[2], target[3]}, move)
  else
    local yaw = ch:yaw()
    local ahead = kit.range / 2
    move.seconds = ahead / kit.speed + 0.2
    move.arrive_distance = 0
    ok = ch:move_to({x + math.sin(yaw) * ahead, y, z + math.cos(yaw) * ahead}, move)
  end
  if ok then ch:set_cooldown("skill", recharge + kit.cooldown) end
end

return kit
