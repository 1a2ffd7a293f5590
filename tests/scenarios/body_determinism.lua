-- The same scripted input gives bit-identical states at 30, 60, 144 and 240 fps, and two runs
-- give identical traces (docs/behaviour.md, "The frame and the step": whole fixed steps; the body is deterministic doubles).
-- Events fall on 1/6 s boundaries: a whole number of frames at each of those rates.
local gait = require("gait")
local geo = gait.geometry

local function course()
  local t30 = math.tan(math.rad(30))
  local w = gait.world.new{max_characters = 2}
  assert(w:set_terrain(geo.terrain(96, 0.5, function(_, z) return z > 2 and (z - 2) * t30 or 0 end)))
  assert(w:add_landmark{triangles = geo.stairs(0, 0, -6, 4, 0.2, 0.3, 12)})
  assert(w:add_landmark{triangles = geo.box(3, 1.5, 4, 1, 1.5, 1)})
  local ch = w:spawn{position = {0, 0, -10}}
  return w, ch
end

-- plays 4 s at fps; returns the final state as a string of exact numbers, and the trace
local function play(fps)
  local w, ch = course()
  local per_sixth = math.floor(fps / 6 + 0.5)
  local trace = {}
  for f = 0, math.floor(fps * 4 + 0.5) - 1 do
    local sixth = math.floor(f / per_sixth)
    local edge = f % per_sixth == 0
    local pressed = {}
    if edge and (sixth == 9 or sixth == 17) then pressed[#pressed + 1] = "jump" end
    if edge and sixth == 5 then pressed[#pressed + 1] = "sprint" end
    ch:set_input{
      move_x = (sixth >= 12 and sixth < 16) and 0.7 or 0,
      move_y = sixth < 20 and 1 or 0,
      held = (sixth >= 5 and sixth < 8) and {"sprint"} or {},
      pressed = pressed,
      look_yaw = (edge and sixth == 14) and 0.5 or 0,
    }
    local before = w:step_count()
    w:update(1 / fps)
    if w:step_count() ~= before then
      local x, y, z = ch:position()
      trace[#trace + 1] = string.format("%.17g %.17g %.17g", x, y, z)
    end
  end
  local x, y, z = ch:position()
  local vx, vy, vz = ch:velocity()
  local final = string.format("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %s %d", x, y, z, vx, vy,
    vz, ch:stamina(), ch:state(), w:step_count())
  return final, table.concat(trace, "\n")
end

test("the same input at 30, 60, 144 and 240 fps ends bit-identical", function()
  local ref = play(60)
  for _, fps in ipairs{30, 144, 240} do
    local got = play(fps)
    expect_eq(got, ref, fps .. " fps final state (exact)")
  end
end)

test("two runs give identical traces", function()
  local _, a = play(60)
  local _, b = play(60)
  expect_true(#a > 0, "a trace was written")
  expect_eq(a == b, true, "traces identical")
end)
