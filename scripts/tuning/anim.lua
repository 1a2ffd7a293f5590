-- The animation-state signal (docs/behaviour.md, "Animation signal"), after gg-engine's CharacterAnimationController: numbers
-- and the clip map, hot-reloaded. A state missing from `clips` (or naming a clip the host says
-- its model lacks) is never switched into: the last clip keeps playing. Clip names are the
-- host's (its model's animation names); these are placeholders a host renames.
return {
  crossfade_seconds = 0.2,           -- s each switch fades over (gg-engine's default)   [0, 10]
  movement_epsilon = 0.01,           -- m/s below which the body is idle (gg-engine's)   [0, 10]
  grounded_transition_delay = 0.15,  -- s a new grounded reading must hold; 0 disables   [0, 10]
  land_seconds = 0.2,                -- s the land state plays after touching down, provisional
  clips = {
    idle = "Idle", walk = "Walk", run = "Run", dash = "Dash", sprint = "Sprint",
    crouch = "Crouch", crouch_walk = "CrouchWalk", jump = "Jump", fall = "Fall", land = "Land",
    glide = "Glide", plunge = "Plunge", climb = "Climb", climb_idle = "ClimbIdle",
    climb_jump = "ClimbJump", swim = "Swim", swim_idle = "SwimIdle", swim_dash = "SwimDash",
    drown = "Drown", traverse = "Vault",
    action = "Action",               -- a kit's moving action that names no clip of its own
  },
}
