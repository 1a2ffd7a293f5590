-- The ledge segment's ends (docs/behaviour.md, "Traversal"): side probes every 0.25 m, then the last interval halved
-- five times (to 8 mm). Whitebox levels use round sizes, so an end often falls exactly on the
-- probe grid; it must read where it is, within the bisection's 8 mm, on both sides.
local S = require("gait.scenario")

-- a fence 1 m high, 0.2 m thick, from x = -half to +half; the body faces it from z = 1 at x = bx
local function ends(half, bx)
  local w = S.world(128, 2)
  S.box(w, -half, 0, 2, half, 1.0, 2.2)
  local s = w:traverse_scan{position = {bx, 0, 1}, forward = {0, 0, 1}, speed = 0}
  return s
end

test("fence ends on the probe grid read where they are (+-1.0, +-1.5, +-2.0 m)", function()
  for _, half in ipairs({1.0, 1.5, 2.0}) do
    for _, bx in ipairs({0, 0.1}) do
      local s = ends(half, bx)
      local tag = string.format("+-%.1f m fence, body at x = %.1f", half, bx)
      expect_true(s.ok, tag .. ": the scan finds it: " .. s.reason)
      -- facing +z, ledge_a lies to the left (+x), ledge_b to the right (-x)
      expect_near(s.ledge_a[1], half, 0.01, tag .. ": the +x end (m, +-1 cm)")
      expect_near(s.ledge_b[1], -half, 0.01, tag .. ": the -x end (m, +-1 cm)")
    end
  end
end)
