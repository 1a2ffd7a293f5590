-- A fall on a steep bank against a thin wedge's knife edge (docs/behaviour.md, "The body"). A
-- wedge of two plates meeting at 19 deg juts out over a 48 deg terrain bank, its knife edge
-- level and across the bank, 0.45-1 m over the feet of a body that slides down the bank into it.
-- The bank and the edge's level push hold the body up together, so it stands there. The fuzzer's
-- wedge winds both plates facing into the wedge; the collider took an edge's crease from the side
-- its faces' normals face, so the knife edge was a concave corner there, met with the two faces'
-- own normals (straight up, and up the slope), two floors beside the bottom sphere that hold
-- nothing: the body hung in `fall` against the edge (liveness seed 706655). Surfaces are
-- two-sided: wound either way the edge is the same corner, and the body ends the same way.
local gait = require("gait")
local S = require("gait.scenario")

local T48 = math.tan(math.rad(48))
local function bank(_, z) return -T48 * z end -- rising towards -z

-- the wedge: its knife edge along x (-1..1) at z = 0, `up` m over the bank where a body resting
-- against it (0.3 m uphill) stands; its underside level, its slope rising at 19 deg towards +z.
-- into: both plates facing into the wedge (the fuzzer's), else facing out
local function world(up, into)
  local w = S.world(gait.geometry.terrain(24, 0.5, bank))
  local h, len, a = bank(0, -0.3) + up, 3, math.rad(19)
  local s, c = math.sin(a), math.cos(a)
  local q0, q1, q2, q3 = {-1, h, 0}, {1, h, 0}, {1, h, len}, {-1, h, len}
  local q4, q5 = {1, h + len * s, len * c}, {-1, h + len * s, len * c}
  local t = {}
  if into then
    S.quad(t, q0, q3, q2, q1)
    S.quad(t, q0, q1, q4, q5)
  else
    S.quad(t, q0, q1, q2, q3)
    S.quad(t, q0, q5, q4, q1)
  end
  assert(w:add_landmark{triangles = t})
  return w
end

-- a body set on the bank 1.2 m uphill of the edge, no stick, no stamina (it cannot climb), for
-- 4 s: its feet at the end, its state, and the longest it spent in `fall` without going 5 cm down
local function slide(up, into)
  local w = world(up, into)
  local ch = w:spawn{position = {0.2, bank(0, -1.2) + 0.02, -1.2},
                     stamina = {max = 100, start = 0, refill_rate = 0}}
  local held, since = 0, nil
  for _ = 1, 240 do
    S.step(w, ch, {})
    local _, y = ch:position()
    if ch:state() ~= "fall" then
      since = nil
    elseif since == nil or y < since.y - 0.05 then
      since = {y = y, steps = 0}
    else
      since.steps = since.steps + 1
      if since.steps > held then held = since.steps end
    end
  end
  local x, y, z = ch:position()
  return {x, y, z}, ch:state(), held
end

for _, up in ipairs({0.45, 0.64, 1.0}) do
  test(string.format("a fall on a 48 deg bank into a knife edge %.2f m over the feet is held up by " ..
                     "it, whichever way the wedge is wound", up), function()
    local out, out_state, out_held = slide(up, false)
    local feet, state, held = slide(up, true)
    expect_true(held < 60, string.format("never a second in fall without going 5 cm down, plates " ..
      "facing into the wedge (%d steps; %s at the end)", held, state))
    expect_true(out_held < 60, string.format("nor facing out (%d steps; %s at the end)", out_held,
      out_state))
    expect_eq(state, out_state, "the same state at the end, wound either way")
    for k = 1, 3 do
      expect_near(feet[k], out[k], 0.001, "the feet where the wedge wound facing out holds them (m)")
    end
    expect_true(state ~= "fall", string.format("on foot against the edge (%s)", state))
  end)
end
