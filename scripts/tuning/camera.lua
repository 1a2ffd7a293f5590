-- The follow camera (docs/behaviour.md, "Camera"): hot-reloaded like every tuning file. Each key is checked against
-- the schema (unit, range); an unknown key, a wrong type or a number out of range is an error
-- naming this file and the key, and nothing is applied. Every value is provisional: chosen to
-- frame a 1.7 m body the way the game's default camera roughly does, not measured.
return {
  distance = 4.5,          -- m, the arm's length at start (zoom)             [0.1, 1000]
  min_distance = 1.0,      -- m, closest zoom; must exceed probe_radius       [0.1, 1000]
  max_distance = 12.0,     -- m, farthest zoom                                [0.1, 1000]
  pitch = -0.25,           -- rad at start, + looks up                        [-1.55, 1.55]
  min_pitch = -1.30,       -- rad, looking down at most                       [-1.55, 1.55]
  max_pitch = 1.0,         -- rad, looking up at most                         [-1.55, 1.55]
  pivot_height = 1.5,      -- m above the feet the arm hangs from             [-10, 10]
  probe_radius = 0.2,      -- m, the sphere cast along the arm                [0.01, 5]
  follow_seconds = 0.08,   -- s, the pivot's smoothing time constant (0 rigid) [0, 10]
  ease_out_seconds = 0.4,  -- s to ease back to full length once clear         [0, 10]
}
