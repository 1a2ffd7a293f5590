-- A hover, after the Wanderer's Elemental Skill "Hanega: Song of the Wind" (the Windfavored
-- state) in Genshin Impact: the body rises a little and floats, sinking slowly, while a gauge
-- lasts.
--
--   skill   hops up (`hop` m/s) and, for `gauge` / `drain` seconds, a fall is a hover: it sinks at
--           `sink` m/s and the stick steers it at `speed` m/s; the glider and plunge work as ever.
--           Pressed again while it holds: the hover ends (a plain fall).
--
-- Source: Genshin Impact Wiki, "Hanega: Song of the Wind": the Kuugoryoku gauge drains 10 points
-- per second at base. The gauge's size (100), the sink, speed and hop are provisional.
local kit = {
  name = "hover",
  hop = 8.0,             -- m/s up: 1.6 m (provisional)
  sink = 1.0,            -- m/s (provisional)
  speed = 6.5,           -- m/s steered (provisional)
  gauge = 100,           -- points (provisional)
  drain = 10,            -- points per second, wiki (base consumption)
  cooldown = 6,          -- s (provisional)
  clip = "windfavored",
}

function kit.on_presses(ch, presses)
  if not presses.skill then return end
  ch:take_presses("skill")
  for _, m in ipairs(ch:motion().modes) do
    if m.name == "windfavored" then ch:clear_mode("fall"); return end
  end
  if not ch:can_act() or ch:cooldown("skill") > 0 then return end
  if ch:launch{up = kit.hop} then
    ch:set_mode{state = "fall", name = "windfavored", clip = kit.clip, sink = kit.sink,
                speed = kit.speed, seconds = kit.gauge / kit.drain}
    ch:set_cooldown("skill", kit.cooldown)
  end
end

return kit
