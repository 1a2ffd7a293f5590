-- The body-type map (docs/behaviour.md, "The numbers"): each body type's locomotion numbers.
--
-- `provisional` is what every body type moves by until it is measured. A body type with an
-- entry of its own is measured: it moves by that entry (its missing keys keep the provisional
-- values) and never lends it to another type. Types without an entry (medium_male, tall_female,
-- tall_male, short_female today) move by the provisional numbers.
--
-- Validated against the schema (gait_locomotion_schema() in runtime/src/character/locomotion.c;
-- gait.tuning.schema() and docs/behaviour.md list every key with its range, unit, default and
-- source): an unknown key, a non-number, NaN or a value out of range is an error naming this
-- file, the line and the allowed range, and nothing is applied. Saved while the sandbox runs,
-- this file is hot-reloaded.
--
-- Sources: "provisional" = chosen to feel right, awaiting a measurement; "wiki" = Genshin
-- Impact Wiki; "measured" = frame-counted in the game (none yet: see medium_female).
return {
  provisional = {
    walk_speed = 1.9,           -- m/s, provisional
    run_speed = 5.6,            -- m/s, provisional
    sprint_speed = 8.0,         -- m/s, provisional
    dash_speed = 11.0,          -- m/s, provisional
    dash_seconds = 0.35,        -- s a dash lasts, provisional
    jump_height = 1.2,          -- m the feet rise at the apex, provisional
    gravity = 20.0,             -- m/s^2, provisional (the game falls faster than 9.81)
    air_control = 8.0,          -- m/s^2 of steering in the air, provisional
    glide_speed = 7.5,          -- m/s horizontal under the glider, provisional
    glide_sink = 1.8,           -- m/s downward under the glider, provisional
    plunge_speed = 30.0,        -- m/s downward in a plunge, provisional
    max_fall_speed = 50.0,      -- m/s terminal falling speed, provisional
    climb_speed = 1.6,          -- m/s on a wall, provisional
    climb_jump_height = 2.0,    -- m a climb jump rises, provisional
    climb_jump_seconds = 0.45,  -- s a climb jump lasts, provisional
    swim_speed = 2.3,           -- m/s, provisional
    swim_dash_speed = 4.6,      -- m/s, provisional
    drown_seconds = 2.0,        -- s of drowning before the return, provisional
    step_height = 0.3,          -- m the feet follow up or down, provisional
    max_walk_slope = 0.7854,    -- rad (45 deg), steepest walkable slope, provisional
    walk_slope_hysteresis = 0.05236, -- rad (3 deg) past it a body already standing keeps standing
    wading_depth = 1.2,         -- m of water stood in before swimming, provisional
    swim_float_speed = 2.0,     -- m/s a swimmer rises or sinks towards that float line, provisional
    glider_min_height = 2.5,    -- m above the ground to open the glider or plunge, provisional
    capsule_radius = 0.3,       -- m, provisional
    capsule_height = 1.7,       -- m feet to top, provisional
    crouch_height = 0.8,        -- m crouched (about half standing; fits a 0.9 m vent), provisional
    crouch_speed = 1.5,         -- m/s crouched, provisional
  },

  -- The medium female body (the Traveler's, "girl"): the first type with its own entry, so it
  -- never moves by another type's numbers. Its frame-counted measurement is still to come;
  -- until then each value below says what it rests on. Keys not given keep the provisional
  -- values above.
  medium_female = {
    run_speed = 5.6,            -- m/s, provisional (to be frame-counted on flat ground)
    jump_height = 1.2,          -- m, provisional (to be measured against a 1 m fence)
    capsule_radius = 0.3,       -- m, provisional (the model's shoulder width / 2, rounded)
    capsule_height = 1.6,       -- m, provisional: the model stands about 1.6 m tall
  },
}
