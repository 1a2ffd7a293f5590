-- The shipped kits that move the body (scripts/kits/updraft, plunge_leap, dash_to, water_sprint,
-- hover): each starts only when the stamina allows, follows its path within the stated
-- tolerances (apex and distance within a step's travel, duration within a step), meets a wall and
-- a ceiling mid-action through the mover (slides, stops, never passes a 1 cm slab at full
-- speed, never ends inside geometry), ends as stated, cancels by press, gives the same states at
-- 30/60/144/240 fps, and restores bit for bit from a snapshot taken mid-action.
local gait = require("gait")
local S = require("gait.scenario")
local DT = 1 / 60
local BODY_H = 1.7 -- m, the provisional capsule's height
local R = 0.3      -- m, its radius

local function world(size) return S.world(size or 128) end

-- one frame of input then the frame (kits first, then the steps)
local function frame(w, ch, input, dt)
  ch:set_input(input or {})
  w:update(dt or DT)
end

local function frames(w, ch, n, input)
  for _ = 1, n do frame(w, ch, input) end
end

-- frames until pred(ch) (at most max): true, frames | false, max
local function frames_until(w, ch, max, input, pred)
  for k = 1, max do
    frame(w, ch, input)
    if pred(ch) then return true, k end
  end
  return false, max
end

local function state_is(s) return function(ch) return (ch:state()) == s end end

-- the capsule at the feet overlaps no landmark by more than 1 cm
local function clear_of(w, ch)
  local x, y, z = ch:position()
  for _, h in ipairs({R, BODY_H / 2, BODY_H - R}) do
    for _, d in ipairs({{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) do
      local hit = w:ray_cast({x, y + h, z}, {d[1] * (R - 0.01), 0, d[2] * (R - 0.01)})
      if hit and hit.distance < R - 0.02 then return false end
    end
  end
  return true
end

-- The same input at 30, 60, 144 and 240 fps: `events` {sixths = k, input = {...}} act in the
-- frame that starts at k/6 s (a frame boundary at every rate), `held` is the level input of
-- every frame; the body's state after every second step (a step every rate ends a frame on).
local function play(kit, build, fps, held, events, seconds)
  local w = world()
  local ch = assert(w:spawn{kit = kit})
  if build then build(w, ch) end
  local rows, last = {}, 0
  local n = math.floor(seconds * fps + 0.5)
  for f = 0, n - 1 do
    local input = {}
    for k, v in pairs(held or {}) do input[k] = v end
    for _, e in ipairs(events) do
      if f == math.floor(e.sixths * fps / 6 + 0.5) then
        for k, v in pairs(e.input) do input[k] = v end
      end
    end
    ch:set_input(input)
    w:update(1 / fps)
    local steps = w:step_count()
    if steps ~= last and steps % 2 == 0 then
      last = steps
      local x, y, z = ch:position()
      local vx, vy, vz = ch:velocity()
      rows[#rows + 1] = string.format("%d %s %.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g",
        steps, (ch:state()), x, y, z, vx, vy, vz, (ch:stamina()), ch:yaw())
    end
  end
  return rows
end

local function same_at_every_rate(kit, build, held, events, seconds, want_state)
  local base = play(kit, build, 60, held, events, seconds)
  local saw = false
  for _, r in ipairs(base) do if r:find(" " .. want_state .. " ", 1, true) then saw = true end end
  expect_true(saw, kit .. ": the course at 60 fps reached " .. want_state)
  for _, fps in ipairs({30, 144, 240}) do
    local rows = play(kit, build, fps, held, events, seconds)
    expect_eq(#rows, #base, kit .. ": rows at " .. fps .. " fps")
    local first
    for i = 1, math.min(#rows, #base) do
      if rows[i] ~= base[i] then first = i; break end
    end
    expect_eq(first, nil, string.format("%s: first differing row at %d fps (%s vs %s)", kit, fps,
      first and rows[first] or "", first and base[first] or ""))
  end
end

-- Everything the body is, to the last bit (%.17g round-trips a double).
local function body_bits(ch)
  local i, m = ch:info(), ch:motion()
  local parts = {i.state, i.previous_state, (ch:stamina())}
  for _, v in ipairs({i.position, i.velocity, m.velocity}) do
    for k = 1, 3 do parts[#parts + 1] = v[k] end
  end
  for _, v in ipairs({i.seconds, i.yaw, m.seconds, m.seconds_left, m.point, ch:cooldown("skill")}) do
    parts[#parts + 1] = v
  end
  parts[#parts + 1] = tostring(m.playing) .. tostring(m.hanging) .. tostring(m.requested)
  for _, md in ipairs(m.modes) do parts[#parts + 1] = md.seconds_left end
  for k, v in ipairs(parts) do
    if type(v) == "number" then parts[k] = string.format("%.17g", v) else parts[k] = tostring(v) end
  end
  return table.concat(parts, " ")
end

-- A snapshot taken `after` frames into the action: the frames after it, played twice (on, and
-- again from the restored snapshot), leave the body the same to the bit. (The snapshots' bytes
-- differ only in the mover's open-country cache, which a restore drops: results never read it.)
local function snapshot_mid_action(w, ch, after, rest, input)
  frames(w, ch, after, input)
  expect_eq((ch:state()), "action", "in the action when the snapshot is taken")
  local snap = w:snapshot()
  local at_snap = body_bits(ch)
  frames(w, ch, rest, input)
  local a = body_bits(ch)
  assert(w:restore(snap))
  expect_eq(body_bits(ch), at_snap, "the restore gives the body back as it was")
  frames(w, ch, rest, input)
  expect_eq(body_bits(ch), a, "the frames after a restore give the same body, bit for bit")
end

-- Frames with no input until the action ends (at most max): the highest the head rose (m).
local function head_top_in_action(w, ch, max)
  local top = -math.huge
  frames_until(w, ch, max, {}, function(c)
    local _, y = c:position()
    top = math.max(top, y + BODY_H)
    return (c:state()) ~= "action"
  end)
  return top
end

-- A world made by build (or plain) with a body carrying the kit, the skill pressed for one frame.
local function started(kit, build)
  local w = world()
  if build then build(w) end
  local ch = assert(w:spawn{kit = kit})
  frame(w, ch, {pressed = {"skill"}})
  return w, ch
end

-- The kit started under a slab from y0 to y1 (m): through the action (at most max frames) the head
-- stays under it, and the action ends in `ends_in`.
local function under_a_slab(kit, y0, y1, max, ends_in, what)
  local w, ch = started(kit, function(w) S.box(w, -5, y0, -5, 5, y1, 5) end)
  local top = head_top_in_action(w, ch, max)
  expect_true(top <= y0 + 1e-9, string.format("the head stays under the slab (top %.4f m)", top))
  expect_eq((ch:state()), ends_in, what)
  return w, ch
end

-- A kit started by the skill button: the same at every frame rate (want_state seen within
-- `seconds`), then, in a world made by build (or plain), a snapshot `after` frames into its
-- action gives the same body over the `rest` frames after it.
local function skill_kit_is_deterministic(kit, build, seconds, want_state, after, rest)
  same_at_every_rate(kit, build, {}, {{sixths = 1, input = {pressed = {"skill"}}}}, seconds, want_state)
  local w, ch = started(kit, build)
  snapshot_mid_action(w, ch, after, rest)
end

-- ---- the updraft leap ---------------------------------------------------------------------------

local updraft = assert(gait.kit.load("updraft"))

test("updraft: starts only with the stamina the glider needs, then waits out its cooldown", function()
  local w = world()
  local ch = assert(w:spawn{kit = "updraft"})
  ch:set_stamina(updraft.min_stamina - 0.5)
  frame(w, ch, {pressed = {"skill"}})
  frames(w, ch, 5)
  expect_eq((ch:state()), "idle", "refused below min_stamina")
  expect_eq(ch:cooldown("skill"), 0, "a refusal starts no cooldown")
  ch:set_stamina(updraft.min_stamina)
  frame(w, ch, {pressed = {"skill"}})
  expect_eq((ch:state()), "action", "starts at min_stamina")
  expect_eq(ch:motion().name, "updraft", "the action's name")
  expect_near(ch:cooldown("skill"), updraft.cooldown - DT, 1e-9, "the cooldown started")
  frames_until(w, ch, 600, {}, function(c) return c:info().contact.grounded end)
  frame(w, ch, {pressed = {"skill"}})
  expect_true((ch:state()) ~= "action", "refused during the cooldown")
end)

test("updraft: rises its height in its seconds, drifting ahead, and the glider opens", function()
  local w, ch = started("updraft")
  local steps, top, x0, z0 = 1, 0, 0, 0
  local ok, k = frames_until(w, ch, 200, {}, function(c)
    local _, y = c:position()
    if y > top then top = y end
    return (c:state()) ~= "action"
  end)
  steps = steps + k
  expect_true(ok, "the action ended")
  expect_eq((ch:state()), "glide", "the glider opens at the top")
  expect_near(top, updraft.rise, 1e-6, "apex (m): keyframes are integrated exactly")
  -- the action plays rise_seconds, then the glide's step
  expect_near((steps - 1) * DT, updraft.rise_seconds, DT + 1e-9, "the rise's seconds (within a step)")
  local _, _, z = ch:position()
  expect_near(z - z0, updraft.drift * updraft.rise_seconds, 7.5 * DT + 1e-6, "drift ahead (m)")
  -- (no clip is mapped for the glide here: the anim wants it, the action's clip plays on)
  expect_eq(ch:anim().wanted, "glide", "the anim wants the glide")
end)

test("updraft: its own clip plays while it rises, with the crossfade", function()
  local w = world()
  local ch = assert(w:spawn{kit = "updraft"})
  ch:set_clip("idle", "Idle")
  frames(w, ch, 3)
  frame(w, ch, {pressed = {"skill"}})
  local a = ch:anim()
  expect_eq(a.state, "action", "the anim state")
  expect_eq(a.clip, updraft.clip, "the kit's clip")
  expect_near(a.fade_seconds, 0.2, 1e-12, "the default crossfade")
end)

test("updraft: a ceiling mid-rise stops it (a 1 cm slab too) and the glider opens under it", function()
  local w, ch = under_a_slab("updraft", 5.0, 5.01, 120, "glide", "ends at the ceiling, the glider opens")
  expect_true(clear_of(w, ch), "not inside the slab")
end)

test("updraft: against a wall it slides up along it", function()
  -- a wall 0.2 m ahead of the capsule
  local w, ch = started("updraft", function(w) S.box(w, -5, 0, 0.5, 5, 20, 1.5) end)
  local top, front = 0, -1
  frames_until(w, ch, 120, {}, function(c)
    local _, y, z = c:position()
    top = math.max(top, y)
    front = math.max(front, z)
    return (c:state()) ~= "action"
  end)
  expect_near(top, updraft.rise, 1e-6, "the full rise along the wall (m)")
  expect_true(front <= 0.5 - R + 1e-6, string.format("never into the wall (z %.4f)", front))
  expect_true(ch:info().contact.wall, "the wall was met")
end)

test("updraft: jump during the rise opens the glider at once", function()
  local w, ch = started("updraft")
  frames(w, ch, 20)
  frame(w, ch, {pressed = {"jump"}})
  expect_eq((ch:state()), "glide", "cancelled into the glide")
  local _, y = ch:position()
  expect_true(y < updraft.rise - 1, "below the full rise")
end)

test("updraft: the same at every frame rate, and a snapshot mid-rise", function()
  skill_kit_is_deterministic("updraft", nil, 3, "glide", 20, 60)
end)

-- ---- the plunging leap ------------------------------------------------------------------------

local leap = assert(gait.kit.load("plunge_leap"))
local G = 20 -- m/s^2, the provisional gravity

test("plunge_leap: its cost gates the start and is paid once", function()
  local w = world()
  local ch = assert(w:spawn{kit = "plunge_leap", stamina = {refill_delay = 60}})
  ch:set_stamina(leap.cost - 1 + 10)
  assert(ch:spend(10)) -- a spend restarts the refill's rest
  frame(w, ch, {pressed = {"skill"}})
  frames(w, ch, 3)
  expect_eq((ch:state()), "idle", "refused below its cost")
  expect_near((ch:stamina()), leap.cost - 1, 1e-12, "nothing taken")
  ch:set_stamina(leap.cost + 5)
  frame(w, ch, {pressed = {"skill"}})
  expect_eq((ch:state()), "action", "starts")
  frames(w, ch, 10)
  expect_near((ch:stamina()), 5, 1e-12, "paid once")
end)

test("plunge_leap: rises to its height and plunges at the top, then lands", function()
  local w, ch = started("plunge_leap")
  local top, steps = 0, 1
  local ok, k = frames_until(w, ch, 200, {}, function(c)
    local _, y = c:position()
    top = math.max(top, y)
    return (c:state()) ~= "action"
  end)
  steps = steps + k
  expect_eq((ch:state()), "plunge", "plunges at the top")
  expect_near(top, leap.height, 0.01, "apex (m)")
  local v0 = math.sqrt(2 * G * leap.height)
  expect_near((steps - 1) * DT, v0 / G, DT + 1e-9, "the rise's seconds (within a step)")
  local landed = frames_until(w, ch, 120, {}, function(c) return c:info().contact.grounded end)
  expect_true(landed, "the plunge lands")
  frames(w, ch, 1)
  expect_eq(gait.locomotion.kind((ch:state())), "on_foot", "on foot after the plunge")
end)

test("plunge_leap: attack during the leap plunges at once, at any height", function()
  local w, ch = started("plunge_leap")
  frames(w, ch, 4)
  local _, y = ch:position()
  expect_true(y < 2.5, "below the glider's minimum height")
  frame(w, ch, {pressed = {"attack"}})
  expect_eq((ch:state()), "plunge", "plunged low (no minimum height)")
end)

test("plunge_leap: a 1 cm ceiling stops it at full speed; a leaning wall is slid along", function()
  under_a_slab("plunge_leap", 3.5, 3.51, 60, "plunge", "the ceiling ended the leap into the plunge")
  -- a wall leaning over the body (20 deg from vertical: a wall, not a ceiling, which starts at 30):
  -- the leap slides up and away along it
  local w2 = world()
  local lean = math.tan(math.rad(20))
  w2:add_landmark{triangles = {
    {-5, 0, 0.4, 5, 0, 0.4, 5, 10, 0.4 - 10 * lean},
    {-5, 0, 0.4, 5, 10, 0.4 - 10 * lean, -5, 10, 0.4 - 10 * lean},
    {-5, 0, 0.4, 5, 10, 0.4 - 10 * lean, 5, 0, 0.4},
    {-5, 0, 0.4, -5, 10, 0.4 - 10 * lean, 5, 10, 0.4 - 10 * lean},
  }}
  local c2 = assert(w2:spawn{kit = "plunge_leap", position = {0, 0, -1.2}})
  frame(w2, c2, {pressed = {"skill"}})
  local _, _, z0 = c2:position()
  local inside = false
  frames_until(w2, c2, 60, {}, function(c)
    if not clear_of(w2, c) then inside = true end
    return (c:state()) ~= "action"
  end)
  local _, y2, z2 = c2:position()
  expect_true(z2 < z0 - 0.5, string.format("slid back along the leaning wall (z %.3f from %.3f)", z2, z0))
  expect_true(y2 > 3, string.format("still rose (y %.3f)", y2))
  expect_true(not inside, "never inside the wall")
end)

test("plunge_leap: the same at every frame rate, and a snapshot mid-leap", function()
  skill_kit_is_deterministic("plunge_leap", nil, 2.5, "plunge", 20, 60)
end)

-- ---- the dash to the nearest target --------------------------------------------------------------

local dash = assert(gait.kit.load("dash_to"))

test("dash_to: a dash's stamina gates it; two charges, then the cooldown", function()
  local w = world()
  w:set_targets{{0, 0, 10}}
  local ch = assert(w:spawn{kit = "dash_to", stamina = {refill_delay = 60}})
  ch:set_stamina(dash.cost - 0.5)
  frame(w, ch, {pressed = {"skill"}})
  expect_true((ch:state()) ~= "action", "refused below a dash's cost")
  ch:set_stamina(100)
  local dashes = 0
  for _ = 1, 3 do
    frame(w, ch, {pressed = {"skill"}})
    if (ch:state()) == "action" then dashes = dashes + 1 end
    frames_until(w, ch, 120, {}, function(c) return (c:state()) ~= "action" end)
    ch:place(0, 0, 0, 0)
  end
  expect_eq(dashes, dash.charges, "two charges, the third refused")
  expect_near((ch:stamina()), 100 - dash.charges * dash.cost, 1e-9, "a dash's cost each")
end)

test("dash_to: dashes to the nearest target and stops its reach short of it", function()
  local w, ch = started("dash_to", function(w) w:set_targets{{30, 0, 30}, {4, 0, 9}} end)
  local ok, k = frames_until(w, ch, 120, {}, function(c) return (c:state()) ~= "action" end)
  expect_true(ok, "ended")
  local x, _, z = ch:position()
  local d = math.sqrt((4 - x) ^ 2 + (9 - z) ^ 2)
  expect_true(d <= dash.reach + 1e-9 and d >= dash.reach - dash.speed * DT,
    string.format("stopped %.3f m from the target (reach %g, a step %.3f)", d, dash.reach, dash.speed * DT))
  local len = math.sqrt(16 + 81) - dash.reach
  expect_near(k * DT, len / dash.speed, 2 * DT, "its seconds (within a step and the hand-back)")
  expect_near(math.sin(ch:yaw()), 4 / math.sqrt(97), 1e-6, "faces the target")
  local vx, _, vz = ch:velocity()
  frames(w, ch, 1)
  expect_eq((ch:state()), "idle", "stopped (then = stop)")
end)

test("dash_to: stops at a wall (a 1 cm slab at full speed too); a low ceiling lets it under", function()
  local w = world()
  w:set_targets{{0, 0, 10}}
  S.box(w, -5, 0, 5, 5, 4, 5.01)
  S.box(w, -5, 2.0, 1, 5, 2.01, 4) -- headroom 2 m over the path
  local ch = assert(w:spawn{kit = "dash_to"})
  frame(w, ch, {pressed = {"skill"}})
  local worst = 0
  frames_until(w, ch, 120, {}, function(c)
    local _, _, z = c:position()
    worst = math.max(worst, z)
    return (c:state()) ~= "action"
  end)
  expect_true(worst <= 5 - R + 1e-6, string.format("never through the slab (z %.4f)", worst))
  expect_near(worst, 5 - R, 0.01, "at the wall")
  expect_true(clear_of(w, ch), "not inside anything")
  -- at an angle, a wall is slid along
  local w2 = world()
  w2:set_targets{{10, 0, 10}}
  S.box(w2, 2, 0, -5, 2.01, 4, 20) -- a wall along z at x = 2
  local c2 = assert(w2:spawn{kit = "dash_to"})
  frame(w2, c2, {pressed = {"skill"}})
  frames(w2, c2, 3)
  local x, _, z = c2:position()
  expect_true(x <= 2 - R + 1e-6, "stays this side of the wall")
end)

test("dash_to: jump during the dash cancels it into a jump", function()
  local w, ch = started("dash_to", function(w) w:set_targets{{0, 0, 11}} end)
  frames(w, ch, 3)
  frame(w, ch, {pressed = {"jump"}})
  expect_eq((ch:state()), "jump", "the jump press ends it and jumps")
end)

test("dash_to: with no target in range it lunges ahead", function()
  local w = world()
  local ch = assert(w:spawn{kit = "dash_to", yaw = math.pi / 2})
  frame(w, ch, {pressed = {"skill"}})
  frames_until(w, ch, 120, {}, function(c) return (c:state()) ~= "action" end)
  local x = ch:position()
  expect_near(x, dash.range / 2, dash.speed * DT, "half its range ahead (+x)")
end)

test("dash_to: the same at every frame rate, and a snapshot mid-dash", function()
  local function build(w) w:set_targets{{3, 0, 11}} end
  skill_kit_is_deterministic("dash_to", build, 1.5, "action", 8, 30)
end)

-- ---- the water sprint --------------------------------------------------------------------------

local torrent = assert(gait.kit.load("water_sprint"))
local SURFACE = 2.0

local function lake(w) -- 3 m deep from z = 12 on, surface 2 m up
  assert(w:set_terrain(gait.geometry.terrain(160, 1, function(_, z)
    if z < 4 then return SURFACE + 0.5 end
    if z < 12 then return SURFACE + 0.5 - 3.5 * (z - 4) / 8 end -- a 24 deg beach
    return SURFACE - 3
  end)))
  w:add_water{min_x = -80, min_z = 4, max_x = 80, max_z = 80, surface = SURFACE}
end

-- The lake's world with a water_sprint body at its shore (the origin), sprint pressed and held
-- for one frame while running ahead (+z).
local function sprinting_on_lake()
  local w = world(160)
  lake(w)
  local ch = assert(w:spawn{kit = "water_sprint", position = {0, 0, 0}})
  frame(w, ch, {move_y = 1, pressed = {"sprint"}, held = {"sprint"}})
  return w, ch
end

test("water_sprint: its own costs, flat (no multiplier), and no sprint on an empty pool", function()
  local w = world()
  local ch = assert(w:spawn{kit = "water_sprint", stamina = {multiplier = 2, refill_delay = 60}})
  frame(w, ch, {move_y = 1, pressed = {"sprint"}, held = {"sprint"}})
  expect_eq((ch:state()), "dash", "the dash starts the alternate sprint")
  expect_near((ch:stamina()), 100 - torrent.start_cost - torrent.drain_per_s * DT, 1e-9,
    "10 to start and 15/s, not doubled by the multiplier")
  frames(w, ch, 59, {move_y = 1, held = {"sprint"}})
  expect_near((ch:stamina()), 100 - torrent.start_cost - torrent.drain_per_s * 1.0, 1e-9, "after 1 s")
  expect_eq((ch:state()), "sprint", "sprinting")
  local w2 = world()
  local c2 = assert(w2:spawn{kit = "water_sprint"})
  c2:set_stamina(0)
  frame(w2, c2, {move_y = 1, pressed = {"sprint"}, held = {"sprint"}})
  expect_eq((c2:state()), "run", "no stamina: no alternate sprint")
end)

test("water_sprint: runs on the water's surface at its speed, drops in and swims when dry", function()
  local w, ch = sprinting_on_lake()
  local on_water, off = 0, 0
  local z_at = {}
  local ok = frames_until(w, ch, 60 * 8, {move_y = 1, held = {"sprint"}}, function(c)
    local _, y, z = c:position()
    local s = c:state()
    if z > 11 and (s == "sprint" or s == "dash") then
      on_water = on_water + 1
      if math.abs(y - SURFACE) > 1e-9 then off = off + 1 end
      z_at[#z_at + 1] = z
    end
    return s ~= "sprint" and s ~= "dash"
  end)
  expect_true(ok and on_water > 60, "sprinted over the water (" .. on_water .. " steps)")
  expect_eq(off, 0, "the feet on the surface every step over the water")
  if #z_at > 61 then
    expect_near(z_at[61] - z_at[1], torrent.speed * 1.0, 1e-6, "its speed over the water (m in 1 s)")
  end
  expect_near((ch:stamina()), 0, 1e-9, "it ran until the pool was dry")
  local swam = frames_until(w, ch, 120, {move_y = 1, held = {"sprint"}}, state_is("swim"))
  expect_true(swam, "dropped into the water and swims")
end)

test("water_sprint: walls and a low bridge over the water stop it (a 1 cm slab too); it slides", function()
  local w = world(160)
  lake(w)
  S.box(w, -10, SURFACE - 3, 18, 10, SURFACE + 3, 18.01) -- a 1 cm slab across the water
  S.box(w, 1.5, SURFACE - 3, -5, 1.51, SURFACE + 3, 30)   -- a wall along the run, to slide on
  local ch = assert(w:spawn{kit = "water_sprint", position = {0, 0, 0}})
  ch:set_camera_yaw(0.2) -- runs toward +x a little: into the side wall, and along it
  frame(w, ch, {move_y = 1, pressed = {"sprint"}, held = {"sprint"}})
  local far_z, far_x, inside = 0, 0, false
  frames(w, ch, 1, {move_y = 1, held = {"sprint"}})
  for _ = 1, 150 do
    frame(w, ch, {move_y = 1, held = {"sprint"}})
    local x, _, z = ch:position()
    far_z, far_x = math.max(far_z, z), math.max(far_x, x)
    if not clear_of(w, ch) then inside = true end
  end
  expect_true(far_z <= 18 - R + 1e-6, string.format("never through the slab (z %.4f)", far_z))
  expect_true(far_x <= 1.5 - R + 1e-6, string.format("never through the side wall (x %.4f)", far_x))
  expect_true(far_z > 17, "slid along the side wall up to the slab")
  expect_true(not inside, "never inside geometry")
end)

test("water_sprint: letting go of sprint ends it (cancel): a run over deep water drops in", function()
  local w, ch = sprinting_on_lake()
  frames_until(w, ch, 200, {move_y = 1, held = {"sprint"}}, function(c)
    local _, _, z = c:position()
    return z > 16
  end)
  frame(w, ch, {move_y = 1})
  expect_eq((ch:state()), "run", "sprint let go")
  local swam = frames_until(w, ch, 120, {move_y = 1}, state_is("swim"))
  expect_true(swam, "into the water")
end)

test("water_sprint: the same at every frame rate, and a snapshot mid-sprint", function()
  same_at_every_rate("water_sprint", lake, {move_y = 1, held = {"sprint"}},
    {{sixths = 1, input = {pressed = {"sprint"}}}}, 3, "sprint")
  local w, ch = sprinting_on_lake()
  frames(w, ch, 60, {move_y = 1, held = {"sprint"}})
  local snap = w:snapshot()
  frames(w, ch, 40, {move_y = 1, held = {"sprint"}})
  local a = body_bits(ch)
  assert(w:restore(snap))
  frames(w, ch, 40, {move_y = 1, held = {"sprint"}})
  expect_eq(body_bits(ch), a, "restored mid-sprint, the same body after the same frames")
end)

-- ---- the hover ---------------------------------------------------------------------------------------

local hover = assert(gait.kit.load("hover"))

test("hover: hops, then falls as a slow sink for its gauge; skill again ends it", function()
  local w, ch = started("hover")
  expect_eq((ch:state()), "jump", "the hop")
  frames_until(w, ch, 120, {}, state_is("fall"))
  frames(w, ch, 10)
  local _, vy = ch:velocity()
  expect_near(vy, -hover.sink, 1e-9, "sinks at its speed (m/s)")
  expect_eq(ch:anim().clip, hover.clip, "its clip")
  local left = ch:motion().modes[1].seconds_left
  expect_true(left > 0 and left < hover.gauge / hover.drain, "its gauge's seconds count down")
  frame(w, ch, {pressed = {"skill"}})
  frames(w, ch, 3)
  _, vy = ch:velocity()
  expect_true(vy < -1.5, string.format("a plain fall after the second press (vy %.3f)", vy))
  expect_eq(#ch:motion().modes, 0, "the mode is gone")
end)
