-- A plunging leap, after Kaedehara Kazuha's Elemental Skill "Chihayaburu" in Genshin Impact: a
-- gust lifts the body high, and the fall from it is a plunge ("Midare Ranzan").
--
--   skill   leaps `height` m straight up (a moving action under the body's own gravity) and,
--           at the top, plunges. Usable on the ground or in mid-air (as the game's).
--   attack  pressed during the leap: plunges at once, at any height — the game's Midare Ranzan
--           "does not have a minimum height requirement" (cancel by press).
--
-- Source: Genshin Impact Wiki, "Kaedehara Kazuha" (the skill's press cooldown 6 s; can be used
-- in mid-air; the plunge has no minimum height). The height and the stamina cost are not
-- published: provisional.
local kit = {
  name = "plunge_leap",
  height = 6.0,          -- m the leap rises (provisional)
  cost = 25,             -- stamina (provisional: a climb jump's 25, wiki "Stamina", the other
                         -- leap that draws on the pool)
  cooldown = 6,          -- s, wiki (press)
  clip = "chihayaburu",
}

function kit.on_presses(ch, presses)
  if not presses.skill then return end
  ch:take_presses("skill")
  if not ch:can_act() then return end -- on foot or in the air, free
  if ch:cooldown("skill") > 0 then return end
  local g = ch:world():locomotion(ch:body_type()).gravity
  local v0 = math.sqrt(2 * g * kit.height) -- v = sqrt(2 g h) reaches the height
  local ok = ch:start_move{
    name = "chihayaburu", clip = kit.clip,
    up = v0, gravity_scale = 1,
    seconds = v0 / g,                     -- the top: then it plunges
    start_cost = kit.cost,
    end_on = {"ceiling", "land"}, cancel_buttons = {"attack"},
    ["then"] = "plunge",
  }
  if ok then ch:set_cooldown("skill", kit.cooldown) end
end

return kit
