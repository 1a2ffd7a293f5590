-- A sword kit (docs/behaviour.md, "Hooks and kits"): what a character with a one-handed sword does with the presses
-- before the step spends them.
--
--   attack (on foot)   a normal attack: the kit takes the press (the step never sees it).
--                      In the air the press is left alone: it is the controller's plunge.
--   attack held        a charged attack once attack has been held CHARGE_SECONDS on foot:
--                      spends CHARGED_COST x the consumption multiplier and holds the body for
--                      CHARGED_SECONDS; refused (no stamina taken, no action) when the pool
--                      cannot pay: ch:can_spend gates at the same multiplied cost.
--   skill              faces the nearest target (world:set_targets) and holds the body for
--                      SKILL_SECONDS.
--   burst              holds the body for BURST_SECONDS.
-- While an action holds the body, the step still receives the other presses (jump, sprint...).
--
-- The kit keeps per-character state in `state` (it survives a hot reload of this file).
-- Counters there (normal_attacks, charged_attacks, refused, skills, bursts) are for tests/HUD.
local gait = require("gait")

local kit = {
  name = "sword",
  charge_seconds = 0.4,   -- s attack must be held: our threshold (the game's hold is about
                          -- this long; provisional), long enough that a tap stays a tap
  charged_cost = 20,      -- stamina, wiki ("Stamina": sword charged attack 20)
  charged_seconds = 0.6,  -- s the charged attack holds the body, provisional
  skill_seconds = 0.5,    -- s the skill holds the body, provisional
  burst_seconds = 1.2,    -- s the burst holds the body, provisional
}

local function count(state, key) state[key] = (state[key] or 0) + 1 end

function kit.on_presses(ch, presses, state)
  local on_foot = gait.locomotion.kind((ch:state())) == "on_foot"

  if on_foot and presses.attack then
    ch:take_presses("attack")
    count(state, "normal_attacks")
  end

  -- the hold is timed in frame seconds; a hold that leaves the ground starts over
  if on_foot and presses.attack_held then
    state.held = (state.held or 0) + presses.dt
    if state.held >= kit.charge_seconds and not state.charged_this_hold then
      state.charged_this_hold = true -- one charged attack per hold, paid or refused
      if ch:can_spend(kit.charged_cost) then
        ch:spend(kit.charged_cost)
        ch:start_action(kit.charged_seconds, "charged_attack")
        count(state, "charged_attacks")
      else
        count(state, "refused")
      end
    end
  else
    state.held = 0
    state.charged_this_hold = false
  end

  if presses.skill then
    ch:take_presses("skill")
    local x, _, z = ch:position()
    local target = ch:world():nearest_target(x, z)
    if target then ch:face(ch:yaw_to(target[1], target[3])) end
    ch:start_action(kit.skill_seconds, "skill")
    count(state, "skills")
  end

  if presses.burst then
    ch:take_presses("burst")
    ch:start_action(kit.burst_seconds, "burst")
    count(state, "bursts")
  end
end

return kit
