-- Stamina (docs/behaviour.md, "Stamina"): the refill and the cost of every action, for every body type.
-- Source: Genshin Impact Wiki, "Stamina", unless marked provisional. Each cost is multiplied by
-- the pool's consumption multiplier at the moment it is spent. Hot-reloaded; validated against
-- the schema (gait.tuning.schema()); an invalid value changes nothing.
return {
  refill_rate = 25,             -- stamina/s once the refill starts, wiki
  refill_delay = 1.5,           -- s with no cost before the refill starts, wiki
  costs = {
    dash = 18,                  -- stamina as a dash starts, wiki
    sprint_per_s = 18,          -- stamina/s while sprinting, wiki
    climb_per_s = 6,            -- stamina/s while moving on a wall, provisional (wiki: unknown)
    climb_start_min = 5,        -- stamina needed to start a climb, wiki
    climb_jump = 25,            -- stamina as a climb jump starts, wiki
    glide_per_s = 3,            -- stamina/s under the glider, wiki (an approximation)
    swim_stroke = 4,            -- stamina a stroke (one as a swim starts), wiki
    swim_stroke_seconds = 1.0,  -- s between strokes, provisional (wiki: unknown)
    swim_dash_start = 2,        -- stamina as a swim dash starts, wiki
    swim_dash_per_s = 10.2,     -- stamina/s while a swim dash moves, wiki
  },
}
