-- The headless runner (gait run): a scenario table, scripted input per frame, a per-step CSV
-- trace, and the same path at 30, 60, 144 and 240 frames per second.
local runner = require("gait.runner")

local SCENARIO = [[
local gait = require("gait")
local w = gait.world.new()
assert(w:set_terrain(gait.geometry.terrain(128, 1, function(x, z) return 0.02 * x end)))
local ch = assert(w:spawn{position = {0, 0, 0}, kit = "sword"})
return {
  world = w,
  steps = 120,
  frame = function(frame, t, dt)
    -- W for the first second, a jump pressed at t = 1/3 s, D after 1 s: times every frame rate
    -- tested lands on (multiples of 1/6 s), so every rate feeds the steps the same input
    local eps = 1e-9
    local input = {move_y = t < 1 - eps and 1 or 0, move_x = t >= 1 - eps and 1 or 0}
    if t >= 1 / 3 - eps and t < 1 / 3 + dt - eps then input.pressed = {"jump"} end
    ch:set_input(input)
  end,
}
]]

local function tmp(ext)
  local base = os.tmpname()
  os.remove(base)
  return base .. ext
end

local function read_rows(path)
  local rows = {}
  local f = assert(io.open(path))
  local header = f:read("*l")
  for line in f:lines() do rows[#rows + 1] = line end
  f:close()
  return header, rows
end

test("a scenario runs its steps and writes one trace row per step", function()
  local scenario, trace = tmp(".lua"), tmp(".csv")
  local f = assert(io.open(scenario, "w")); f:write(SCENARIO); f:close()
  expect_eq(runner.run(scenario, {trace = trace}), 0, "exit code")
  local header, rows = read_rows(trace)
  expect_true(header:find("^step,time,character,x,y,z,vx,vy,vz,yaw,state") ~= nil, "header: " .. header)
  expect_eq(#rows, 120, "rows (one character, 120 steps)")
  local last = {}
  for v in (rows[#rows] .. ","):gmatch("([^,]*),") do last[#last + 1] = v end
  expect_eq(tonumber(last[1]), 120, "last step")
  expect_near(tonumber(last[2]), 2.0, 1e-9, "time of the last step (s)")
  os.remove(scenario); os.remove(trace)
end)

test("30, 60, 144 and 240 fps give the same path", function()
  local scenario = tmp(".lua")
  local f = assert(io.open(scenario, "w")); f:write(SCENARIO); f:close()
  local paths = {}
  for _, fps in ipairs({30, 60, 144, 240}) do
    local trace = tmp(".csv")
    runner.run(scenario, {trace = trace, fps = fps})
    local _, rows = read_rows(trace)
    paths[fps] = rows
    os.remove(trace)
  end
  for _, fps in ipairs({30, 144, 240}) do
    expect_eq(#paths[fps], #paths[60], fps .. " fps: rows")
    local same = true
    for i = 1, #paths[60] do
      if paths[fps][i] ~= paths[60][i] then
        same = false
        expect_eq(paths[fps][i], paths[60][i], fps .. " fps: row " .. i)
        break
      end
    end
    expect_true(same, fps .. " fps: the same trace as 60 fps, row for row")
  end
  os.remove(scenario)
end)
