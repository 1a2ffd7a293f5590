-- World files (scripts/worlds/*.lua) load headless through gait.worldfile, as the sandbox loads
-- them: terrain from the shipped heightmap, the lake, every landmark, the player at the spawn.
local gait = require("gait")
local worldfile = require("gait.worldfile")

local root = gait.root()

test("the default world loads headless", function()
  local data = worldfile.read(root .. "/scripts/worlds/default.lua")
  local w, player = worldfile.load(root .. "/scripts/worlds/default.lua")
  expect_eq(w:landmark_count(), #data.landmarks, "every landmark added")
  expect_true(#data.landmarks >= 10, "the world has its landmarks")
  local x, y, z = player:position()
  local h = w:terrain_height(x, z)
  expect_near(y, h, 0.05, "the player stands on the ground at the spawn (m)")
  expect_near(x, data.spawn.position[1], 1e-9, "spawn x (m)")
  expect_near(z, data.spawn.position[3], 1e-9, "spawn z (m)")
  local r = data.water[1]
  local surface = w:water_at((r.min_x + r.max_x) / 2, (r.min_z + r.max_z) / 2)
  expect_near(surface, r.surface, 1e-9, "the lake's surface (m)")
end)

test("a broken world file is an error naming the file", function()
  local dir = os.getenv("TMPDIR") or "/tmp"
  local path = dir .. "/gait_broken_world_" .. tostring(os.time()) .. ".lua"
  local f = assert(io.open(path, "w"))
  f:write("return { terrain = { heightmap = 'missing.png', cell_size = 1, height_scale = 1 } }\n")
  f:close()
  expect_error(function() worldfile.load(path) end, "missing.png", "missing heightmap")
  f = assert(io.open(path, "w"))
  f:write("return {{{\n")
  f:close()
  expect_error(function() worldfile.load(path) end, "gait_broken_world", "syntax error names the file")
  os.remove(path)
end)

test("the headless demo tours the default world", function()
  local chunk = assert(loadfile(root .. "/scripts/demo.lua"))
  local scenario = chunk()
  expect_true(scenario.world ~= nil and scenario.frame ~= nil, "the demo is a scenario")
  -- play it at 60 fps the way the runner does, counting states
  local seen = {}
  local dt = 1 / 60
  for frame = 1, 60 * 60 do
    if scenario.frame(frame, (frame - 1) * dt, dt) == false then break end
    scenario.world:update(dt)
    scenario.step(frame)
    seen[scenario.trace[1]:state()] = true
  end
  for _, s in ipairs({"walk", "run", "dash", "sprint", "jump", "climb", "glide", "swim", "swim_dash"}) do
    expect_true(seen[s], "the tour reaches " .. s)
  end
end)
