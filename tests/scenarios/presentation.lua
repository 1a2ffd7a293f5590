-- Camera settings and clip maps are tuning data (scripts/tuning/camera.lua, anim.lua): validated
-- against the schema, applied to every character (and to those spawned later), hot-reloaded.
local gait = require("gait")
local S = require("gait.scenario")
local DT = 1 / 60

local root = gait.root()

local function copy_tuning(dir)
  for _, name in ipairs({"locomotion", "stamina", "gates", "camera", "anim"}) do
    local f = assert(io.open(root .. "/scripts/tuning/" .. name .. ".lua"))
    local text = f:read("*a")
    f:close()
    S.write(dir .. "/" .. name .. ".lua", text)
  end
end

local function tmpdir()
  local d = os.tmpname()
  os.remove(d)
  assert(os.execute("mkdir -p " .. d) == 0 or true)
  return d
end

test("the shipped camera.lua and anim.lua load and reach every character", function()
  local w = S.world(128, 2)
  local early = w:spawn{position = {0, 0, 0}}
  assert(gait.tuning.load())
  local files = gait.tuning.files()
  expect_true(files.camera ~= nil and files.anim ~= nil, "camera.lua and anim.lua are in the set")
  local late = w:spawn{position = {2, 0, 0}}
  for _, ch in ipairs({early, late}) do
    local cam = ch:camera()
    expect_near(cam.settings.distance, 4.5, 1e-12, "camera distance (m)")
    expect_near(cam.settings.probe_radius, 0.2, 1e-12, "probe radius (m)")
  end
  for _ = 1, 20 do late:set_input{move_y = 1}; w:update(DT) end
  local a = late:anim()
  expect_eq(a.state, "run", "the animation state")
  expect_eq(a.clip, "Run", "the clip from anim.lua's map")
  expect_near(a.fade_seconds, 0.2, 1e-12, "crossfade (s)")
end)

test("a changed camera.lua and clip map take effect on reload; a broken one keeps the last", function()
  local dir = tmpdir()
  copy_tuning(dir)
  local w = S.world(128, 2)
  assert(gait.tuning.load(dir))
  local ch = w:spawn{position = {0, 0, 0}}
  ch:camera()
  S.write(dir .. "/camera.lua", "return { distance = 7.0, max_distance = 20 }\n  ")
  S.write(dir .. "/anim.lua", "return { clips = { idle = 'Breathe', run = 'Jog' } }\n  ")
  local n, err = gait.poll()
  expect_eq(err, nil, "no error")
  expect_true(n >= 1, "reloaded")
  expect_near(ch:camera().settings.distance, 7.0, 1e-12, "new distance (m)")
  expect_near(ch:camera().distance, 4.5, 1e-12, "the zoom a player chose is kept")
  for _ = 1, 10 do ch:set_input{move_y = 1}; w:update(DT) end
  expect_eq(ch:anim().clip, "Jog", "the new clip map")
  local broken = {
    {"return { distance = 0/0 }", "distance is NaN"},
    {"return { distanse = 3 }", "distanse: unknown key"},
    {"return { distance = 'far' }", "a string, wanted a number"},
    {"return { min_distance = 5, distance = 3 }", "disagree"},
  }
  for i, b in ipairs(broken) do
    S.write(dir .. "/camera.lua", b[1] .. string.rep(" ", i + 3) .. "\n")
    local _, e = gait.poll()
    expect_true(e and e:find(b[2], 1, true) and e:find("camera.lua", 1, true),
      "error names the file and the key: " .. tostring(e))
    expect_near(ch:camera().settings.distance, 7.0, 1e-12, "the last good distance stays")
  end
  S.write(dir .. "/camera.lua", "return { distance = 7.0, max_distance = 20 }\n") -- good again
  S.write(dir .. "/anim.lua", "return { clips = { flying = 'Fly' } }    \n")
  local _, e = gait.poll()
  expect_true(e and e:find("not an animation state", 1, true), "unknown state: " .. tostring(e))
  expect_eq(ch:anim().clip, "Jog", "the last good clip map stays")
  os.execute("rm -rf " .. dir)
end)

test("ch:set_camera, ch:set_clip and ch:set_model_lacks", function()
  local w = S.world(128, 2)
  local ch = w:spawn{position = {0, 0, 0}}
  expect_true(ch:set_camera{distance = 6}, "set_camera")
  expect_near(ch:camera().settings.distance, 6, 1e-12, "distance (m)")
  expect_error(function() ch:set_camera{min_distance = 8, distance = 6} end, "disagree",
    "inconsistent settings refused, saying why")
  expect_near(ch:camera().settings.distance, 6, 1e-12, "nothing changed (m)")
  expect_error(function() ch:set_camera{pitch = 0/0} end, "NaN", "NaN refused")
  ch:set_clip("idle", "Stand")
  ch:set_clip("run", "Sprint01")
  ch:set_model_lacks("run", true)
  for _ = 1, 5 do w:update(DT) end
  expect_eq(ch:anim().clip, "Stand", "idle clip")
  for _ = 1, 10 do ch:set_input{move_y = 1}; w:update(DT) end
  expect_eq(ch:anim().wanted, "run", "wants run")
  expect_eq(ch:anim().clip, "Stand", "the model lacks run: the last clip keeps playing")
  expect_error(function() ch:set_clip("flying", "x") end, "not an animation state", "bad state")
end)
