-- A run into the corner of two faces too steep to walk (docs/behaviour.md, "The body": a wall the
-- stick points into is climbed). Two blocks 1.6 m high on flat ground meet in a concave corner:
-- face A looks down -x, face B down -z, both vertical or both leaning back 23 deg. The body
-- stands in the corner touching both, the stick into A with a little of B's way (10 deg off A's
-- normal). The walk's slide meets A, slides along it into B and ends there; the wall the move
-- reported was the last one met, B, 80 deg off the stick, so no wall was ahead and the runner
-- stood in the corner of two vertical walls for good, speed 0 (w1 wa0). On the walkers' terrain
-- scene walkers stood so at the crease of two leaning block faces. The wall reported is now the
-- one the move pushed into the hardest: A, the one the stick points at, and the body climbs it.
-- (The leaning corner climbed before too, its slide ending on A; it stays as a guard.)
local S = require("gait.scenario")

local H = 1.6 -- m: the blocks' height

-- Appends the quad a b c d to t, wound so its normal points away from `inside`.
local function quad_out(t, a, b, c, d, inside)
  local ux, uy, uz = b[1] - a[1], b[2] - a[2], b[3] - a[3]
  local vx, vy, vz = c[1] - a[1], c[2] - a[2], c[3] - a[3]
  local nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
  local out = nx * (a[1] - inside[1]) + ny * (a[2] - inside[2]) + nz * (a[3] - inside[3])
  if out > 0 then S.quad(t, a, b, c, d) else S.quad(t, d, c, b, a) end
end

-- A prism from a convex section (points {u, y}) swept along the other ground axis from w0 to w1;
-- along_x: u is x (swept along z), else u is z (swept along x).
local function prism(section, w0, w1, along_x)
  local function pt(p, w) if along_x then return {p[1], p[2], w} else return {w, p[2], p[1]} end end
  local cu, cy = 0, 0
  for _, p in ipairs(section) do cu, cy = cu + p[1] / #section, cy + p[2] / #section end
  local inside = pt({cu, cy}, (w0 + w1) / 2)
  local t = {}
  for i = 1, #section do
    local p, q = section[i], section[i % #section + 1]
    quad_out(t, pt(p, w0), pt(q, w0), pt(q, w1), pt(p, w1), inside)
  end
  -- the two end caps (the sections are quads)
  quad_out(t, pt(section[1], w0), pt(section[2], w0), pt(section[3], w0), pt(section[4], w0), inside)
  quad_out(t, pt(section[1], w1), pt(section[2], w1), pt(section[3], w1), pt(section[4], w1), inside)
  return t
end

-- Face A's foot on x = 0 (for z up to 4), face B's on z = 0 (for x up to 4), each leaning back
-- by `lean` deg: the corner's foot at the origin.
local function corner(lean)
  local w = S.world(128, 2)
  local back = H * math.tan(math.rad(lean))
  assert(w:add_landmark{triangles = prism({{0, 0}, {3, 0}, {3, H}, {back, H}}, -4, 4, true)})
  assert(w:add_landmark{triangles = prism({{0, 0}, {3, 0}, {3, H}, {back, H}}, -4, 4, false)})
  return w
end

for _, lean in ipairs({0, 23}) do
  test(string.format("a run into a corner of two %d deg faces, the stick at one: it climbs that one", lean),
    function()
      local w = corner(lean)
      -- in the corner, a radius and 1 cm from each face's foot
      local ch = w:spawn{position = {-0.31, 0, -0.31}}
      S.steps(w, ch, 3, {})
      -- the world's way (cos 10, sin 10) in x, z: into A, a little towards B (camera yaw 0: the
      -- stick's right is -x)
      local a = math.rad(10)
      local _, k = S.until_(w, ch, 60, {move_x = -math.cos(a), move_y = math.sin(a)},
        function(c) return c:state() == "climb" end)
      expect_eq(ch:state(), "climb", string.format("climbing within 1 s (%d steps)", k))
      -- climbing A: the stick held into it carries the body up it (the stick is the camera's:
      -- into A is up A), facing +x, held to A and clear of B
      local x0, y0 = ch:position()
      S.steps(w, ch, 30, {move_x = -1})
      local x1, y1, z1 = ch:position()
      expect_true(y1 > y0 + 0.3, string.format("up the face: %.3f m in 0.5 s (%s)", y1 - y0, ch:state()))
      expect_near(math.deg(ch:yaw()), 90, 1, "facing A (+x), deg")
      expect_true(x1 > -0.35, string.format("on face A (feet x %.3f, its foot at 0)", x1))
      expect_true(z1 < -0.25, string.format("clear of B (feet z %.3f, its foot at 0)", z1))
    end)
end
