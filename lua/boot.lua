-- Runs once when a gait_script starts (after the C modules are registered): adds the Lua half
-- of the API. Keep it small and free of side effects on the worlds: a host may never use it.
local gait = require("gait")

gait.geometry = require("gait.geometry")

local world_methods = gait.world.methods
local character_methods = gait.character.methods

-- world:nearest_target(x, z) -> target {x, y, z}, distance (m, over the ground) | nil
function world_methods.nearest_target(w, x, z)
  local best, best_d
  for _, t in ipairs(w:targets()) do
    local dx, dz = t[1] - x, t[3] - z
    local d = math.sqrt(dx * dx + dz * dz)
    if not best_d or d < best_d then best, best_d = t, d end
  end
  return best, best_d
end

-- ch:yaw_to(x, z) -> the yaw (rad) that faces the point: direction (sin yaw, 0, cos yaw)
function character_methods.yaw_to(ch, x, z)
  local px, _, pz = ch:position()
  return math.atan2(x - px, z - pz)
end

-- ch:speed() -> horizontal speed (m/s) over the last step
function character_methods.speed(ch)
  local vx, _, vz = ch:velocity()
  return math.sqrt(vx * vx + vz * vz)
end

-- ch:can_act() -> whether a kit's skill may start now: on foot or in the air, not climbing,
-- swimming, drowning, in a traversal or already in a moving action
local free_states = {idle = true, walk = true, run = true, dash = true, sprint = true,
                     crouch = true, jump = true, fall = true, glide = true, plunge = true}
function character_methods.can_act(ch)
  return free_states[(ch:state())] == true
end
