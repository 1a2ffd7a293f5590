-- The traversal's action table (docs/behaviour.md, "Traversal"): what the scan found (the
-- ledge's height above the feet, the obstacle's depth, the body's speed, a floor behind) chooses
-- vault, hurdle, mantle or nothing. The first row whose bands all hold is taken; none -> a jump
-- press jumps instead.
-- Hot-reloaded and validated against gait.traverse.schema(): an unknown key, a non-number, NaN or
-- a value out of range names this file and the key, and nothing is applied.
--
-- Units: m, s, m/s, rad. Bands are inclusive. max_depth = math.huge takes "thick" obstacles (the
-- reverse trace found no back face within 2 m). back_floor: "required" | "none" | "either".
-- rise_speed / cross_speed are the speeds of the action's own path (up the face / over the
-- ledge): the runtime never scales an animation's play rate; the host animates the state.
--
-- Sources: "GASP" = Epic Games' Game Animation Sample Project (UE 5.4), its traversal chooser's
-- published bands, converted from cm to m (vault / hurdle up to 125 cm high and 60 cm deep,
-- mantles up to 275 cm, split low/high at 125 cm; the forward trace 75 cm at rest to 350 cm at
-- 500 cm/s). "provisional" = chosen to feel right, awaiting a measurement against the game.
return {
  cooldown = 0.15,               -- s between chained actions with jump held (provisional)
  reach_min = 0.75,              -- m the forward sweep reaches at rest (GASP: 75 cm)
  reach_max = 3.5,               -- m it reaches at reach_speed (GASP: 350 cm)
  reach_speed = 5.0,             -- m/s of the greatest reach (GASP: 500 cm/s)
  grab_margin = 0.35,            -- m the grab point keeps from the ledge's ends: the body's half
                                 -- width (radius 0.3 + 5 cm), provisional
  max_ledge_slope = 0.5236,      -- rad (30 deg): a steeper top is no ledge, provisional
  max_drop = 3.0,                -- m below the feet a floor behind may lie, provisional
  corridor_floor_margin = 0.5,   -- m past the floor behind's read point a vault may land
                                 -- ("up to the floor plus a little"), provisional
  corridor_flight_margin = 1.5,  -- m past the back face a vault into the air may fly, provisional
  corridor_mantle = 0.5,         -- m past the front face a mantle may go ("half a metre and stop"), provisional
  climb_over_height = 1.2,       -- m: a climbing body mantles over a ledge this close above its
                                 -- feet ("over the top"), provisional
  climb_mantle_split = 1.25,     -- m: over the top, a ledge higher above the feet is a high
                                 -- mantle, else a low one (GASP: its split at 125 cm)
  auto_crouch_stand_seconds = 1.0, -- s an auto crouch whose low opening is never entered lasts
                                 -- before the body stands, provisional

  actions = {
    -- over a low, thin obstacle at a run, onto a floor behind: keeps going
    { kind = "hurdle",
      min_height = 0.5,  max_height = 1.25,   -- m; 1.25 GASP, 0.5 provisional
      min_depth = 0.0,   max_depth = 0.6,     -- m; 0.6 GASP
      min_speed = 3.5,                        -- m/s: a run (provisional)
      back_floor = "required",
      rise_speed = 5.0,  cross_speed = 6.0 }, -- m/s, provisional
    -- hands on a low, thin obstacle and over, at any speed, onto a floor or into the air
    { kind = "vault",
      min_height = 0.5,  max_height = 1.25,   -- m; 1.25 GASP
      min_depth = 0.0,   max_depth = 0.6,     -- m; 0.6 GASP
      back_floor = "either",
      rise_speed = 3.5,  cross_speed = 4.0 }, -- m/s, provisional
    -- up onto something waist high and deeper than a vault takes
    { kind = "mantle_low",
      min_height = 0.5,  max_height = 1.25,   -- m; the GASP low/high split
      min_depth = 0.0,   max_depth = math.huge,
      rise_speed = 2.5,  cross_speed = 2.0 }, -- m/s, provisional
    -- up onto something above the waist, hands first
    { kind = "mantle_high",
      min_height = 1.25, max_height = 2.75,   -- m; 2.75 GASP
      min_depth = 0.0,   max_depth = math.huge,
      rise_speed = 2.2,  cross_speed = 1.6 }, -- m/s, provisional
  },
}
