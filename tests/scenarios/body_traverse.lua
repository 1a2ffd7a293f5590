-- The body off its feet (SPEC §3): climbing, the glider, the plunge, swimming and drowning,
-- through the Lua API. Provisional numbers: climb 1.6 m/s, glide 7.5 m/s sinking 1.8 m/s,
-- glider height 2.5 m, plunge 30 m/s, wading depth 1.2 m, swim 2.3 m/s, swim dash 4.6 m/s.
local gait = require("gait")
local geo = gait.geometry

local function world(terrain)
  local w = gait.world.new{max_characters = 4}
  assert(w:set_terrain(terrain or geo.flat_terrain(128)))
  return w
end

local function box(w, x0, y0, z0, x1, y1, z1)
  return assert(w:add_landmark{triangles = geo.box((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2,
    (x1 - x0) / 2, (y1 - y0) / 2, (z1 - z0) / 2)})
end

-- steps with one input (its presses only in the first) until `state` or `max` steps
local function until_state(w, ch, state, max, input)
  for k = 1, max do
    local i = {}
    for key, v in pairs(input or {}) do i[key] = v end
    if k > 1 then i.pressed = nil end
    ch:set_input(i)
    w:step()
    if ch:state() == state then return true end
  end
  return false
end

local function steps(w, ch, n, input)
  until_state(w, ch, "never", n, input)
end

test("a landmark wall is climbed at climb speed, over the top onto walkable ground", function()
  local w = world()
  box(w, -3, 0, 2, 3, 4, 6)
  local ch = w:spawn{position = {0, 0, 0}}
  expect_true(until_state(w, ch, "climb", 60, {move_y = 1}), "a move into the wall climbs")
  steps(w, ch, 30, {move_y = 1})
  local _, y0, z0 = ch:position()
  steps(w, ch, 30, {move_y = 1})
  local _, y1, z1 = ch:position()
  expect_near((y1 - y0) / 0.5, 1.6, 0.016, "climb speed (m/s, +-1 %)")
  expect_near(z1, z0, 1e-6, "held to the wall (m)")
  expect_true(until_state(w, ch, "run", 240, {move_y = 1}), "over the top")
  steps(w, ch, 10, {move_y = 1})
  local _, y, z = ch:position()
  expect_near(y, 4, 0.005, "on the top (m, +-5 mm)")
  expect_true(z > 2.3, "over the edge")
end)

test("a terrain cliff is climbed along its surface and over its top", function()
  local w = world(geo.terrain(64, 0.25, function(_, z)
    if z < 2 then return 0 elseif z > 3.5 then return 6 else return (z - 2) * 4 end
  end))
  local ch = w:spawn{position = {0, 0, 0}}
  expect_true(until_state(w, ch, "climb", 60, {move_y = 1}), "a move into the cliff climbs")
  steps(w, ch, 30, {move_y = 1})
  local _, y0, z0 = ch:position()
  steps(w, ch, 30, {move_y = 1})
  local _, y1, z1 = ch:position()
  expect_near(math.sqrt((y1 - y0) ^ 2 + (z1 - z0) ^ 2) / 0.5, 1.6, 0.016,
    "climb speed along the cliff (m/s, +-1 %)")
  expect_true(until_state(w, ch, "run", 300, {move_y = 1}), "over the top")
  steps(w, ch, 10, {move_y = 1})
  local _, y = ch:position()
  expect_near(y, 6, 1e-6, "on the plateau (m)")
end)

test("standing still on a wall costs no stamina; stamina out on a wall falls", function()
  local w = world()
  box(w, -3, 0, 2, 3, 20, 6)
  local ch = w:spawn{position = {0, 0, 0}}
  expect_true(until_state(w, ch, "climb", 60, {move_y = 1}), "climbs")
  steps(w, ch, 30, {move_y = 1})
  steps(w, ch, 2, {})
  local s0 = ch:stamina()
  local _, y0 = ch:position()
  steps(w, ch, 60, {})
  local _, y1 = ch:position()
  expect_eq(ch:state(), "climb", "still on the wall")
  expect_near(ch:stamina(), s0, 0, "no cost standing still")
  expect_near(y1, y0, 1e-9, "holds where it is (m)")
  ch:set_stamina(3)
  expect_true(until_state(w, ch, "fall", 60, {move_y = 1}), "stamina out lets go")
  expect_true(until_state(w, ch, "idle", 120, {}), "lands")
  local _, y = ch:position()
  expect_near(y, 0, 1e-9, "on the ground (m)")
end)

local function tower()
  local w = world()
  box(w, -3, 0, -3, 3, 20, 3)
  local ch = w:spawn{position = {0, 21, 0}}
  return w, ch
end

test("the glider: refused low, opened high, sinks at the tuned rate, closes", function()
  local w = world()
  local ch = w:spawn{position = {0, 0, 0}}
  steps(w, ch, 20, {pressed = {"jump"}})
  steps(w, ch, 1, {pressed = {"jump"}})
  expect_true(ch:state() ~= "glide", "no glider 1.2 m up (glider height 2.5 m)")

  w, ch = tower()
  expect_true(until_state(w, ch, "fall", 120, {move_y = 1}), "runs off the tower")
  steps(w, ch, 3, {move_y = 1})
  steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:state(), "glide", "opened high enough")
  steps(w, ch, 5, {move_y = 1})
  local _, y0, z0 = ch:position()
  local s0 = ch:stamina()
  steps(w, ch, 60, {move_y = 1})
  local _, y1, z1 = ch:position()
  expect_near(y1 - y0, -1.8, 0.018, "sink in 1 s (m, +-1 %)")
  expect_near(z1 - z0, 7.5, 0.075, "glide in 1 s (m, +-1 %)")
  expect_true(ch:stamina() < s0, "the glider costs")
  steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:state(), "fall", "jump closes it")
  steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:state(), "glide", "reopened")
  ch:set_stamina(0.2)
  expect_true(until_state(w, ch, "fall", 30, {move_y = 1}), "stamina out closes it")
end)

test("a glide catches a wall ahead; a plunge from a glide lands", function()
  local w, ch = tower()
  box(w, -5, 0, 9, 5, 30, 12)
  expect_true(until_state(w, ch, "fall", 120, {move_y = 1}), "off the tower")
  steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_true(until_state(w, ch, "climb", 120, {move_y = 1}), "caught the wall")

  w, ch = tower()
  expect_true(until_state(w, ch, "fall", 120, {move_y = 1}), "off the tower")
  steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  steps(w, ch, 10, {move_y = 1})
  steps(w, ch, 1, {pressed = {"attack"}})
  expect_eq(ch:state(), "plunge", "plunging")
  steps(w, ch, 2, {})
  local _, vy = ch:velocity()
  expect_near(vy, -30, 1e-6, "plunge speed (m/s)")
  expect_true(until_state(w, ch, "idle", 120, {}), "landed")
  local _, y = ch:position()
  expect_near(y, 0, 1e-9, "on the ground (m)")
end)

test("a plunge from 100 m lands on a platform 1 cm thick", function()
  local w = world()
  box(w, -1, 0, -1, 1, 100, 1)
  box(w, -2, 49.99, 1, 2, 50, 4)
  local ch = w:spawn{position = {0, 101, 0}}
  expect_true(until_state(w, ch, "fall", 60, {move_y = 1}), "off the pillar")
  steps(w, ch, 1, {pressed = {"attack"}})
  expect_eq(ch:state(), "plunge", "plunging")
  expect_true(until_state(w, ch, "idle", 150, {}), "landed")
  local _, y = ch:position()
  expect_near(y, 50, 0.005, "on the platform (m, +-5 mm)")
end)

local function lake()
  local w = world(geo.terrain(128, 0.5, function(_, z) return math.max(-5, math.min(0.5, 0.5 - 0.25 * z)) end))
  assert(w:add_water{min_x = -64, min_z = 0, max_x = 64, max_z = 64, surface = 0})
  local ch = w:spawn{position = {0, 1, -2}}
  return w, ch
end

test("deep water swims with the feet at wading depth; the body wades out", function()
  local w, ch = lake()
  expect_true(until_state(w, ch, "swim", 240, {move_y = 1}), "deep water swims")
  steps(w, ch, 120, {move_y = 1})
  local _, y = ch:position()
  local _, _, vz = ch:velocity()
  expect_near(y, -1.2, 1e-6, "feet under the surface (m)")
  expect_near(vz, 2.3, 0.023, "swim speed (m/s, +-1 %)")
  expect_true(until_state(w, ch, "run", 600, {move_y = -1}), "walks out where the ground rises")
  steps(w, ch, 60, {move_y = -1})
  local _, y2, z2 = ch:position()
  expect_near(y2, math.max(-5, math.min(0.5, 0.5 - 0.25 * z2)), 1e-6, "on the ground (m)")
end)

test("strokes and the swim dash cost; drowning returns to the last full point, refilled", function()
  local w, ch = lake()
  expect_true(until_state(w, ch, "swim", 240, {move_y = 1}), "swims")
  local s0 = ch:stamina()
  steps(w, ch, 120, {})
  expect_near(s0 - ch:stamina(), 8, 0.01, "a stroke a second treading water (4 each)")
  local s1 = ch:stamina()
  steps(w, ch, 60, {move_y = 1, held = {"sprint"}, pressed = {"sprint"}})
  expect_eq(ch:state(), "swim_dash", "swim dash")
  expect_near(s1 - ch:stamina(), 2 + 10.2, 0.2, "2 to start, 10.2 / s")
  ch:set_stamina(0)
  steps(w, ch, 1, {})
  expect_eq(ch:state(), "drown", "out of stamina drowns")
  expect_true(until_state(w, ch, "idle", 180, {}), "comes back")
  local info = ch:info()
  expect_near(info.stamina, info.stamina_max, 1e-9, "refilled")
  expect_true(info.contact.grounded, "standing")
  expect_true(info.position[3] < 6.9, "where stamina was last full on foot (wading in)")
end)
