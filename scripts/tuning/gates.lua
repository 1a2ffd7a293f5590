-- Gate thresholds (docs/behaviour.md, "States and transitions") shared by every body type. Hot-reloaded; validated against the
-- schema (gait.tuning.schema()); an invalid value changes nothing.
return {
  fall_catch_seconds = 0.3,     -- s a fall lasts before it catches a wall (so a drop from a wall
                                -- is not re-caught by the move still pushing into it), provisional
  walk_stick_threshold = 0.5,   -- stick length below which a move walks, provisional
  move_epsilon = 0.01,          -- stick length below which there is no move, provisional
                                -- (the gates' movement epsilon)
  swim_exit_margin = 0.05,      -- m shallower than wading_depth where swimming ends (hysteresis
                                -- at the shore), provisional
}
