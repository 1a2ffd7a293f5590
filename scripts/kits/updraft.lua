-- An updraft leap, after Venti's held Elemental Skill "Skyward Sonnet" in Genshin Impact: the
-- wind lifts the body straight up and the glider opens at the top.
--
--   skill   rises `rise` m in `rise_seconds` (a moving action whose upward velocity falls off
--           linearly to 0, drifting a little forward), then hands the body to the glider. It
--           needs stamina for the glider (min_stamina), and waits out its cooldown; a ceiling
--           ends the rise where it is (the glider still opens).
--   jump    pressed during the rise: opens the glider at once (cancel by press).
--
-- Numbers: the search tool found no published height, duration or cooldown for the hold version
-- of the skill; every value below is provisional, chosen to feel like the game's leap (about
-- a two-storey rise). The kit keeps nothing in Lua: the action and the cooldown live in the
-- character (snapshots and replays carry them).
local kit = {
  name = "updraft",
  rise = 8.0,            -- m the feet rise (provisional)
  rise_seconds = 0.9,    -- s the rise lasts (provisional)
  drift = 1.5,           -- m/s forward while rising (provisional)
  min_stamina = 9,       -- stamina the glider needs for three seconds at 3/s (wiki "Stamina":
                         -- glide 3/s), so the leap never ends with a glider that cannot open
  cooldown = 15,         -- s before the next (provisional)
  clip = "updraft",
}

function kit.on_presses(ch, presses)
  if not presses.skill then return end
  ch:take_presses("skill")
  if not ch:can_act() then return end -- on foot or in the air, free
  if ch:cooldown("skill") > 0 or not ch:can_spend(kit.min_stamina) then return end
  -- v(t) falls linearly from v0 to 0: the rise is v0 * T / 2
  local v0 = 2 * kit.rise / kit.rise_seconds
  if ch:start_move{
    name = "updraft", clip = kit.clip,
    keys = {{t = 0, up = v0, forward = kit.drift}, {t = kit.rise_seconds, up = 0, forward = kit.drift}},
    seconds = kit.rise_seconds,
    end_on = {"ceiling"}, cancel_buttons = {"jump"},
    ["then"] = "glide",
  } then
    ch:set_cooldown("skill", kit.cooldown)
  end
end

return kit
