-- An alternate sprint that crosses water, after Mona's "Illusory Torrent" (and Kamisato Ayaka's
-- "Kamisato Art: Senho") in Genshin Impact: the sprint (with its dash) is replaced by a faster
-- one with its own cost that runs on the water's surface.
--
--   sprint  (pressed, then held) the dash and the sprint move at `speed`, on water too; the
--           dash costs `start_cost`, the sprint drains `drain_per_s`. When the pool runs dry
--           the sprint ends as any sprint (the gates: sprint -> run) and a body over deep water
--           drops into it and swims. Other gates are left as they are.
--
-- Source: Genshin Impact Wiki, "Alternate Sprint": activation 10 stamina, then 15 per second;
-- "cannot be affected by sources of Stamina Consumption Reduction" (flat_cost); "slightly faster
-- than normal sprint" — how much is not published: speed is provisional (the provisional sprint
-- is 8 m/s).
local kit = {
  name = "water_sprint",
  speed = 9.0,           -- m/s (provisional: a little over the sprint's 8)
  start_cost = 10,       -- wiki
  drain_per_s = 15,      -- wiki
  clip = "illusory_torrent",
}

function kit.on_presses(ch, presses)
  -- the mode is the character's (snapshots carry it); set before the step reads the press
  if presses.sprint then
    ch:set_mode{
      state = "sprint", name = "illusory_torrent", clip = kit.clip,
      speed = kit.speed, start_cost = kit.start_cost, drain_per_s = kit.drain_per_s,
      flat_cost = true, walk_on_water = true,
    }
  end
end

return kit
