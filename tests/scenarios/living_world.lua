-- A living world, through the Lua API: moving landmarks ridden, jumped off and pushed
-- by, characters that block each other, world files that move their landmarks. Provisional
-- numbers: run 5.6 m/s, capsule 0.3 x 1.7 m, gravity 20 m/s^2. Camera yaw 0: W is +z.
-- Every tolerance is stated with its check.
local gait = require("gait")
local S = require("gait.scenario")

-- A box in its own frame placed at `at` (it turns about `at`): a landmark.
local function frame_box(w, at, x0, y0, z0, x1, y1, z1)
  return assert(w:add_landmark{triangles = S.box_triangles(x0, y0, z0, x1, y1, z1), offset = at})
end

local function pos(ch)
  local x, y, z = ch:position()
  return x, y, z
end

-- A 4 x 4 m lift, its floor's top at y = 0.3, going up 8 m and down at 4 m/s, again and again.
local function lift(w)
  local lm = frame_box(w, {0, 0, 0}, -2, 0, -2, 2, 0.3, 2)
  lm:set_path{poses = {{position = {0, 0, 0}}, {position = {0, 8, 0}}}, period = 4}
  return lm
end

test("a lift at 4 m/s carries the feet within 1 cm of its floor every step, up and down", function()
  local w = S.world()
  local lm = lift(w)
  local ch = assert(w:spawn{position = {0.5, 1, 0.5}})
  local worst, top, rise = 0, 0, nil
  for k = 1, 8 * 60 do
    ch:set_input{}
    w:step()
    local _, y = pos(ch)
    local floor = lm:transform().position[2] + 0.3
    worst = math.max(worst, math.abs(y - floor))
    top = math.max(top, y)
    if k == 60 then rise = ch:info().carrier_velocity[2] end
    if ch:state() ~= "idle" or not ch:contact().grounded then
      expect_true(false, "step " .. k .. ": " .. ch:state() .. ", never leaves the floor")
      break
    end
  end
  expect_true(worst <= 0.01, string.format("the feet kept within 1 cm of the floor (worst %.4f m)", worst))
  expect_near(top, 8.3, 0.02, "rode to the top (m, +-2 cm)")
  expect_near(rise, 4, 1e-6, "the lift's velocity under the feet going up (m/s)")
end)

test("a body on a platform turning 90 deg/s for 10 s drifts less than 1 cm on it, and turns with it", function()
  local w = S.world()
  local c = {10, 1, -5}
  local lm = frame_box(w, c, -6, -0.5, -6, 6, 0, 6)
  lm:set_velocity{angular_velocity = {0, math.pi / 2, 0}}
  local ch = assert(w:spawn{position = {c[1] + 3, 2, c[3] + 1}})
  local x0, y0, z0 = pos(ch)
  local yaw0 = ch:yaw()
  local worst = 0
  for _ = 1, 600 do
    ch:set_input{}
    w:step()
    local a = lm:transform().yaw
    local x, y, z = pos(ch)
    local dx, dz = x - c[1], z - c[3]
    local lx, lz = dx * math.cos(a) - dz * math.sin(a), dx * math.sin(a) + dz * math.cos(a)
    worst = math.max(worst, math.sqrt((lx - (x0 - c[1])) ^ 2 + (lz - (z0 - c[3])) ^ 2))
    expect_near(y, y0, 1e-9, "the feet stay on the deck (m)")
  end
  expect_true(worst <= 0.01, string.format("drift on the platform under 1 cm (worst %.5f m)", worst))
  -- 900 deg turned: facing the other way
  local turned = math.abs((ch:yaw() - yaw0 + math.pi) % (2 * math.pi) - math.pi)
  expect_near(turned, math.pi, 1e-6, "turned with it (rad)")
end)

test("a jump off a ferry at 3 m/s keeps its velocity in the air and lands back on it", function()
  local w = S.world()
  local lm = frame_box(w, {-20, 0, 0}, -3, 0, -3, 3, 1, 3)
  lm:set_velocity{velocity = {3, 0, 0}}
  local ch = assert(w:spawn{position = {-20, 2, 0}})
  S.steps(w, ch, 60, {})
  local local0 = pos(ch) - lm:transform().position[1]
  S.step(w, ch, {pressed = {"jump"}})
  local airborne, landed = 0, false
  for _ = 1, 120 do
    local st = ch:state()
    if st == "jump" or st == "fall" then
      airborne = airborne + 1
      local vx = ch:velocity()
      expect_near(vx, 3, 1e-6, "in the air at the ferry's speed (m/s)")
    elseif airborne > 0 then
      landed = true
      break
    end
    S.step(w, ch, {})
  end
  expect_true(airborne > 20 and landed, "a whole jump, landed")
  expect_near(pos(ch) - lm:transform().position[1], local0, 0.01, "back where it jumped from on the deck (m, +-1 cm)")
  local _, y = pos(ch)
  expect_near(y, 1, 0.005, "standing on the deck (m)")
end)

test("a wall sweeping a ledge pushes a standing body off it, never more than 1 cm inside", function()
  local w = S.world()
  S.box(w, -4, 0, -2, 4, 2, 2) -- a ledge 2 m up
  local lm = frame_box(w, {0, 2, -4}, -3, 0, -0.5, 3, 2.5, 0.5)
  lm:set_velocity{velocity = {0, 0, 2}}
  local ch = assert(w:spawn{position = {0, 3, 0.5}})
  local worst = -1
  for _ = 1, 240 do
    ch:set_input{}
    w:step()
    local _, y, z = pos(ch)
    -- the wall's face towards the body is at its position's z + 0.5; the capsule's back at z - 0.3
    local wz = lm:transform().position[3] + 0.5
    if y + 1.7 > 2 then worst = math.max(worst, wz - (z - 0.3)) end -- beside it, not under it
    expect_true(not ch:info().crushed, "never held inside (crushed)")
  end
  local _, y, z = pos(ch)
  expect_true(worst <= 0.011, string.format("the wall reached %.4f m into the body (at most 1 cm + 1 mm)", worst))
  expect_true(z > 2.2, "pushed past the ledge's edge")
  expect_near(y, 0, 0.005, "down on the ground below (m)")
end)

-- a runs +z and b runs -z for `steps` steps; each(gap) after every step, the gap between their
-- axes in the ground plane (m)
local function head_on(w, a, b, steps, each)
  for _ = 1, steps do
    a:set_input{move_y = 1}
    b:set_input{move_y = -1}
    w:step()
    local ax, _, az = pos(a)
    local bx, _, bz = pos(b)
    each(math.sqrt((ax - bx) ^ 2 + (az - bz) ^ 2))
  end
end

test("two characters walking head-on on one line slide past each other", function()
  local w = S.world()
  local a = assert(w:spawn{position = {0, 0, -6}})
  local b = assert(w:spawn{position = {0, 0, 6}})
  local worst, fastest = -1, 0
  head_on(w, a, b, 300, function(gap)
    worst = math.max(worst, 0.6 - gap)
    fastest = math.max(fastest, a:speed(), b:speed())
  end)
  local _, _, az = pos(a)
  local _, _, bz = pos(b)
  expect_true(az > 3 and bz < -3, string.format("passed each other (a at z %.2f, b at z %.2f)", az, bz))
  expect_true(worst <= 0.01, string.format("never more than 1 cm inside each other (worst %.4f m)", worst))
  expect_true(fastest <= 5.6 * 1.05, string.format("no one launched (fastest %.2f m/s)", fastest))
end)

-- The gap between two upright capsules of radius 0.3 (m; < 0 inside each other): a's axis
-- from its feet ya + 0.3 to ya + ha - 0.3, b's likewise.
local function capsule_gap(ax, ay, az, ha, bx, by, bz, hb)
  local dy = math.max(0, (ay + 0.3) - (by + hb - 0.3), (by + 0.3) - (ay + ha - 0.3))
  return math.sqrt((ax - bx) ^ 2 + (az - bz) ^ 2 + dy ^ 2) - 0.6
end

-- A body dropped `off` m off the axis of another (standing, or crouched: 0.8 m tall)
test("a body dropped on another's head slides off it and lands beside it", function()
  -- from 3 m, or set down on the head (from = nil: 2 cm over it, at rest)
  for _, case in ipairs{{off = 0.12, crouch = false, from = 3}, {off = 0.21, crouch = true, from = 3},
                        {off = 0.05, crouch = true, from = 3}, {off = 0.21, crouch = true},
                        {off = 0.1, crouch = false}} do
    local w = S.world()
    local under = assert(w:spawn{position = {0, 0, 0}})
    local hb = 1.7
    if case.crouch then
      under:set_input{pressed = {"crouch"}}
      w:step()
      expect_eq(under:state(), "crouch", "the one below crouches")
      hb = 0.8
    end
    local ch = S.perch(w, case.off, case.from or hb + 0.02, 0)
    local deepest, top = 0, 0
    local landed, steps = S.until_(w, ch, 120, {}, function(c)
      local x, y, z = pos(c)
      local ux, uy, uz = pos(under)
      if math.abs(y - (uy + hb)) < 0.05 then top = top + 1 end
      deepest = math.max(deepest, -capsule_gap(x, y, z, 1.7, ux, uy, uz, hb))
      return c:state() == "idle" and y < 0.01
    end)
    local _, y = pos(ch)
    local what = string.format("%.2f m off a %s one, %s", case.off, case.crouch and "crouched" or "standing",
      case.from and "dropped" or "set down")
    expect_true(landed, string.format("%s: on its feet on the ground within 2 s (still %s at %.3f m)",
      what, ch:state(), y))
    expect_true(top < 30, string.format("%s: off the head within half a second (%d steps on it)", what, top))
    expect_true(deepest <= 0.01, string.format("%s: never more than 1 cm inside the other (%.4f m)",
      what, deepest))
    print(string.format("  %s: landed after %d steps, %d on the head, deepest %.4f m", what, steps, top, deepest))
  end
end)

test("collision layers: a body out of the other's mask walks through it", function()
  local w = S.world()
  local a = assert(w:spawn{position = {0, 0, -3}, layer = 2})
  local b = assert(w:spawn{position = {0.05, 0, 3}, mask = 1})
  expect_eq(select(2, a:collision()), 2, "a's layer")
  S.steps(w, a, 1, {})
  local closest = 1e9
  head_on(w, a, b, 90, function(gap) closest = math.min(closest, gap) end)
  expect_true(closest < 0.2, "they passed through each other")
  b:set_collision{mask = 0xffffffff}
  expect_eq(select(3, b:collision()), 0xffffffff, "b's mask, changed")
  expect_error(function() b:set_collision{mask = -1} end, "mask must be a whole number", "a bad mask raises")
  expect_error(function() b:set_collision{colide = true} end, "colide", "an unknown key raises")
end)

-- The same world at a frame rate: the feet of a lift's rider, a turning deck's rider and a
-- walker blocked by another, after `steps` steps.
local function play(fps, steps)
  local w = S.world(128, 8)
  lift(w)
  local deck = frame_box(w, {12, 1, 0}, -4, -0.5, -4, 4, 0, 4)
  deck:set_velocity{angular_velocity = {0, 1.2, 0}}
  local riders = {assert(w:spawn{position = {0.5, 1, 0}}), assert(w:spawn{position = {13, 2, 1}}),
                  assert(w:spawn{position = {-20, 0, -5}}), assert(w:spawn{position = {-20, 0, 5}})}
  while w:step_count() < steps do
    riders[2]:set_input{move_x = 0.3}
    riders[3]:set_input{move_y = 1}
    riders[4]:set_input{move_y = -1}
    w:update(1 / fps)
  end
  local out = {}
  for _, ch in ipairs(riders) do
    local x, y, z = pos(ch)
    out[#out + 1] = {x, y, z}
  end
  return out, w
end

test("the same bits at 30, 60, 144 and 240 fps, and through a snapshot", function()
  local want = play(60, 600)
  for _, fps in ipairs{30, 144, 240} do
    local got = play(fps, 600)
    for i = 1, #want do
      for k = 1, 3 do
        expect_true(got[i][k] == want[i][k], string.format("%d fps: rider %d coordinate %d is the same bits", fps, i, k))
      end
    end
  end
  -- snapshot at step 300, on to 600, back, on again
  local _, w = play(60, 300)
  local snap = w:snapshot_save()
  local riders = {}
  for _, ch in ipairs(w:characters()) do riders[#riders + 1] = ch end
  local function on(n)
    while w:step_count() < n do
      riders[2]:set_input{move_x = 0.3}
      riders[3]:set_input{move_y = 1}
      riders[4]:set_input{move_y = -1}
      w:update(1 / 60)
    end
  end
  on(600)
  local first = {}
  for i, ch in ipairs(riders) do first[i] = {pos(ch)} end
  assert(w:snapshot_restore(snap))
  expect_eq(w:step_count(), 300, "restored to step 300")
  on(600)
  for i, ch in ipairs(riders) do
    local p = {pos(ch)}
    for k = 1, 3 do expect_true(p[k] == first[i][k], string.format("rider %d coordinate %d the same after the restore", i, k)) end
  end
  for i = 1, 3 do expect_true(want[1][i] == first[1][i], "the lift's rider as in the straight run") end
end)

test("world files move landmarks by a path or a velocity, and name a bad motion", function()
  local worldfile = require("gait.worldfile")
  local probe = S.tmp_lua("return 1")
  local dir = probe:match("^(.*)/")
  os.remove(probe)
  local made = {}
  local function world_file(motion)
    local path = dir .. "/living_world_" .. tostring(math.random(1e9)) .. ".lua"
    made[#made + 1] = path
    S.write(path, [[
local function box(x0, y0, z0, x1, y1, z1)
  local p = {x0, y0, z0, x1, y0, z0, x1, y0, z1, x0, y0, z1, x0, y1, z0, x1, y1, z0, x1, y1, z1, x0, y1, z1}
  local f = {{1, 3, 2}, {1, 4, 3}, {5, 6, 7}, {5, 7, 8}, {1, 2, 6}, {1, 6, 5}, {2, 3, 7}, {2, 7, 6},
             {3, 4, 8}, {3, 8, 7}, {4, 1, 5}, {4, 5, 8}}
  local idx = {}
  for _, t in ipairs(f) do idx[#idx + 1], idx[#idx + 2], idx[#idx + 3] = t[1], t[2], t[3] end
  return {name = "slab", positions = p, indices = idx}
end
return { spawn = {position = {0, 1.5, 0}},
         landmarks = {{at = {0, 0.5, 0}, mesh = box(-2, -0.3, -2, 2, 0, 2), motion = ]] .. motion .. [[}} }
]])
    return path
  end
  local w = S.world(128, 4)
  local player = worldfile.load_into(w, world_file("{path = {{0, 0, 0}, {0, 5, 0, 1.0}}, period = 2}"))
  S.steps(w, player, 61, {}) -- the first step puts it at the path's start
  local _, y = pos(player)
  expect_near(y, 5.5, 0.005, "the path took the slab and its rider 5 m up in 1 s (m, +-5 mm: stood 2 mm over it)")
  local w2 = S.world(128, 4)
  local p2 = worldfile.load_into(w2, world_file("{velocity = {1, 0, 0}}"))
  S.steps(w2, p2, 60, {})
  expect_near(pos(p2), 1, 1e-9, "the velocity carried the rider 1 m in 1 s (m)")
  local bad = world_file("{path = {{0, 0, 0}}, period = 2}")
  expect_error(function() worldfile.load_into(S.world(), bad) end, "landmark 1: motion", "one point: refused, named")
  expect_error(function() worldfile.load_into(S.world(), world_file("{speed = 3}")) end, "unknown key", "a typo: refused")
  for _, p in ipairs(made) do os.remove(p) end
end)

test("the default world's lift takes a body up to the tower's roof", function()
  local worldfile = require("gait.worldfile")
  local w, player = worldfile.load(gait.root() .. "/scripts/worlds/default.lua")
  player:place(5.5, 13, 45, 0)
  local top = 0
  for _ = 1, 60 * 20 do
    player:set_input{}
    w:step()
    local _, y = pos(player)
    top = math.max(top, y)
  end
  expect_near(top, 12 + 30.3, 0.05, "up to the roof's height (m, +-5 cm)")
  expect_eq(player:state(), "idle", "standing on it")
end)
