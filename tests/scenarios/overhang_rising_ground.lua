-- A run under a face that leans out over the way, on ground that rises a little (docs/behaviour.md,
-- "The body"). A rock tilted 35 deg stands half buried in a shallow bowl; its side leans out over
-- the ground, so a runner heading for it meets it with the head first. Each step the walk goes
-- along the plane the feet stood on and the terrain then lifts the feet onto the bowl's rise;
-- that lift is cast too, and where the head has come up under the leaning face it meets it at
-- once. The walk refused the whole move there, and the runner stood still for good with the
-- stick held and open ground beside (the walkers' terrain scene, seeds 1-9: stuck walkers 346
-- before the fix, 125 after). It goes on along the face, as along a wall.
local S = require("gait.scenario")
local geo = require("gait.geometry")

local TILT = math.rad(35)

-- the bowl: flat at z >= 6, rising as z falls (0.04 z'^2, z' = 6 - z), 0.5 m cells
local function ground(_, z)
  local d = 6 - z
  return d > 0 and 0.04 * d * d or 0
end

-- a 4 x 3 x 2 m box turned TILT about the x axis (its +z side leaning out over +z), centred at
-- (0, cy, 0): that side's normal is (0, -sin TILT, cos TILT)
local function rock(cy)
  local t = geo.box(0, 0, 0, 2, 1.5, 1)
  local c, s = math.cos(TILT), math.sin(TILT)
  for _, tri in ipairs(t) do
    for k = 0, 2 do
      local y, z = tri[3 * k + 2], tri[3 * k + 3]
      tri[3 * k + 2] = y * c - z * s + cy
      tri[3 * k + 3] = y * s + z * c
    end
  end
  return t
end

local function world()
  local w = S.world(geo.terrain(40, 0.5, ground), 2)
  assert(w:add_landmark{triangles = rock(ground(0, 0) + 1.5)})
  return w
end

-- headings from straight at the leaning side (0 deg: -z) to 60 deg off it, towards -x
for _, off in ipairs({20, 30, 45, 60}) do
  test(string.format("a run %d deg into a face leaning out over rising ground goes on along it",
                     off), function()
    local w = world()
    local x0, z0 = 1.5, 4.5
    local ch = w:spawn{position = {x0, ground(x0, z0) + 0.02, z0},
                       stamina = {max = 100, start = 0, refill_rate = 0}} -- no climbing
    S.steps(w, ch, 5, {})
    local a = math.rad(off)
    local dx, dz = -math.sin(a), -math.cos(a) -- the way, on the ground
    local input = {move_x = -dx, move_y = dz}
    local r = S.watch(w, ch, 150, input) -- 2.5 s
    local stood, went = r.stood, r.path
    local x, _, z = ch:position()
    expect_true(stood < 30, string.format("never stood still running for 0.5 s (%d steps at " ..
      "most; at %.2f %.2f, %s)", stood, x, z, ch:state()))
    expect_true(went > 5, string.format("2.5 s of running went at least 5 m (went %.2f m)", went))
  end)
end

-- The same rock over a crease where level ground turns up at 15 deg: crossing it in one step the
-- terrain lifts the feet 2-3 cm where no cast went, and that lift, cast, meets the leaning face
-- where the head has come up under it. Rock heights 1 cm apart put the head's meeting at every
-- point of a step.
local function crease(_, z) return z < 3 and (3 - z) * math.tan(math.rad(15)) or 0 end

test("a run into a face leaning out over a crease where the ground turns up goes on along it",
     function()
  local stuck = {}
  for i = 0, 24 do
    local cy = 1.30 + 0.01 * i
    local w = S.world(geo.terrain(40, 1, crease), 2)
    assert(w:add_landmark{triangles = rock(cy)})
    local x0, z0 = 1.5, 5
    local ch = w:spawn{position = {x0, 0.02, z0}, stamina = {max = 100, start = 0, refill_rate = 0}}
    S.steps(w, ch, 5, {})
    local a = math.rad(20)
    local input = {move_x = math.sin(a), move_y = -math.cos(a)}
    local stood = S.watch(w, ch, 120, input).stood
    local x, _, z = ch:position()
    if stood >= 30 then stuck[#stuck + 1] = string.format("%.2f (at %.2f %.2f)", cy, x, z) end
  end
  expect_eq(#stuck, 0, "rock heights where the run stood still for 0.5 s: " ..
    table.concat(stuck, ", "))
end)
