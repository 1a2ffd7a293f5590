-- Mesh builders for world files: boxes, wedges (ramps), stairs, octahedra, and the landmarks
-- made of them. Pure Lua (no gait bindings), so any loader can use it: the GLFW sandbox, the
-- headless runner, a test.
--
-- A mesh is a plain table:
--   { name = "tower", positions = {x, y, z, ...}, indices = {i1, i2, i3, ...} (1-based, as
--     world:add_landmark takes them), colors = {r, g, b, ...} (one per vertex, 0..1) }
-- Positions are local metres: x, z across, y up, the landmark's anchor at (0, 0, 0) on the
-- ground. Triangles are counter-clockwise seen from outside (collide.h's convention).
-- Every vertex belongs to one face, so a face has its own colour and a flat normal.

local shapes = {}

local Mesh = {}
Mesh.__index = Mesh

function shapes.mesh(name)
    return setmetatable({ name = name, positions = {}, indices = {}, colors = {} }, Mesh)
end

-- Yaw (rad) turning local offsets about y, as the runtime's yaw: 0 faces +z, +pi/2 faces +x.
local function turn(yaw, x, z)
    if not yaw or yaw == 0 then return x, z end
    local c, s = math.cos(yaw), math.sin(yaw)
    return x * c + z * s, -x * s + z * c
end

function Mesh:vertex(x, y, z, color)
    local p, c = self.positions, self.colors
    p[#p + 1], p[#p + 2], p[#p + 3] = x, y, z
    c[#c + 1], c[#c + 2], c[#c + 3] = color[1], color[2], color[3]
    return #p / 3
end

-- A planar polygon (3 or 4 corners, counter-clockwise seen from its front).
function Mesh:face(color, a, b, c, d)
    local i0 = self:vertex(a[1], a[2], a[3], color)
    local i1 = self:vertex(b[1], b[2], b[3], color)
    local i2 = self:vertex(c[1], c[2], c[3], color)
    local idx = self.indices
    idx[#idx + 1], idx[#idx + 2], idx[#idx + 3] = i0, i1, i2
    if d then
        local i3 = self:vertex(d[1], d[2], d[3], color)
        idx[#idx + 1], idx[#idx + 2], idx[#idx + 3] = i0, i2, i3
    end
end

-- A convex solid from its 8 corners: bottom (y low) ring then top ring, each ring in the order
-- (-x,-z), (+x,-z), (+x,+z), (-x,+z) before any turn.
function Mesh:hexahedron(color, c)
    local b1, b2, b3, b4, t1, t2, t3, t4 = c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
    self:face(color, t1, t4, t3, t2)          -- top (+y)
    self:face(color, b1, b2, b3, b4)          -- bottom (-y)
    self:face(color, b1, t1, t2, b2)          -- -z side
    self:face(color, b2, t2, t3, b3)          -- +x side
    self:face(color, b3, t3, t4, b4)          -- +z side
    self:face(color, b4, t4, t1, b1)          -- -x side
end

-- An axis-aligned box (centre cx, cz; from y0 up to y1; sizes sx, sz), turned by yaw about
-- the landmark's anchor.
function Mesh:box(color, cx, y0, cz, sx, y1, sz, yaw)
    local hx, hz = sx / 2, sz / 2
    local ring = { { -hx, -hz }, { hx, -hz }, { hx, hz }, { -hx, hz } }
    local c = {}
    for k = 1, 8 do
        local r = ring[(k - 1) % 4 + 1]
        local x, z = turn(yaw, cx + r[1], cz + r[2])
        c[k] = { x, k <= 4 and y0 or y1, z }
    end
    self:hexahedron(color, c)
end

-- A wedge rising along +z from height 0 at z = z0 to `rise` at z = z0 + length; width along x.
function Mesh:wedge(color, cx, z0, width, length, rise, yaw)
    local hx = width / 2
    local function p(x, y, z) local tx, tz = turn(yaw, cx + x, z); return { tx, y, tz } end
    local a, b = p(-hx, 0, z0), p(hx, 0, z0)
    local c, d = p(hx, 0, z0 + length), p(-hx, 0, z0 + length)
    local e, f = p(hx, rise, z0 + length), p(-hx, rise, z0 + length)
    self:face(color, a, f, e, b)              -- the slope
    self:face(color, a, b, c, d)              -- bottom
    self:face(color, d, c, e, f)              -- back (+z), vertical
    self:face(color, b, e, c)                 -- +x side
    self:face(color, a, d, f)                 -- -x side
end

-- A double pyramid (a tree's crown): centre, half width, half height.
function Mesh:octahedron(color, cx, cy, cz, hw, hh)
    local top, bot = { cx, cy + hh, cz }, { cx, cy - hh, cz }
    local ring = { { cx - hw, cy, cz - hw }, { cx + hw, cy, cz - hw }, { cx + hw, cy, cz + hw },
                   { cx - hw, cy, cz + hw } }
    for k = 1, 4 do
        local a, b = ring[k], ring[k % 4 + 1]
        self:face(color, a, top, b)
        self:face(color, b, bot, a)
    end
end

-- ---- landmarks ------------------------------------------------------------------------------

local STONE = { 0.62, 0.60, 0.56 }
local WOOD = { 0.55, 0.38, 0.22 }
local PLASTER = { 0.86, 0.82, 0.72 }
local ROOF = { 0.60, 0.22, 0.18 }
local LEAVES = { 0.22, 0.50, 0.20 }
local METAL = { 0.45, 0.50, 0.56 }

-- Stairs: `count` steps of rise x tread, `width` wide, climbing towards +z, then a landing.
function shapes.stairs(o)
    local m = shapes.mesh(o.name or "stairs")
    local count, rise, tread, width = o.count or 10, o.rise or 0.25, o.tread or 0.35, o.width or 3
    for k = 1, count do
        m:box(o.color or STONE, 0, 0, (k - 0.5) * tread, width, k * rise, tread, o.yaw)
    end
    local landing = o.landing or 3
    m:box(o.color or STONE, 0, 0, count * tread + landing / 2, width, count * rise, landing, o.yaw)
    return m
end

-- A ramp at `angle` (deg) rising `rise` metres towards +z, with a block to stand on at the top.
function shapes.ramp(o)
    local m = shapes.mesh(o.name or "ramp")
    local rise, width = o.rise or 4, o.width or 4
    local length = rise / math.tan(math.rad(o.angle or 30))
    m:wedge(o.color or STONE, 0, 0, width, length, rise, o.yaw)
    local top = o.top or 4
    m:box(o.color or STONE, 0, 0, length + top / 2, width, rise, top, o.yaw)
    return m
end

-- A tall tower to climb and glide from: a square shaft with a parapet-less roof and a ledge
-- band every 8 m (rests on the way up).
function shapes.tower(o)
    local m = shapes.mesh(o.name or "tower")
    local size, height = o.size or 6, o.height or 30
    m:box(o.color or STONE, 0, 0, 0, size, height, size, o.yaw)
    for y = 8, height - 4, 8 do
        m:box(METAL, 0, y, 0, size + 0.5, y + 0.3, size + 0.5, o.yaw)
    end
    return m
end

-- A fence to vault: `posts` posts and two rails (the top rail at `height`).
function shapes.fence(o)
    local m = shapes.mesh(o.name or "fence")
    local length, height = o.length or 6, o.height or 1.0
    local posts = o.posts or 4
    for k = 0, posts - 1 do
        local x = -length / 2 + k * length / (posts - 1)
        m:box(WOOD, x, 0, 0, 0.15, height, 0.15, o.yaw)
    end
    m:box(WOOD, 0, height - 0.12, 0, length, height, 0.12, o.yaw)
    m:box(WOOD, 0, height * 0.45, 0, length, height * 0.45 + 0.1, 0.1, o.yaw)
    return m
end

-- A wall along x from x0 to x1 (thickness t, centred on z), with openings {x0, x1, y0, y1};
-- a window opening gets a sill that sticks out 0.15 m on both faces.
local function wall_x(m, color, x0, x1, z, t, height, openings, yaw)
    local cuts = {}
    for _, op in ipairs(openings) do cuts[#cuts + 1] = op end
    table.sort(cuts, function(a, b) return a[1] < b[1] end)
    local x = x0
    for _, op in ipairs(cuts) do
        if op[1] > x then m:box(color, (x + op[1]) / 2, 0, z, op[1] - x, height, t, yaw) end
        local w, cx = op[2] - op[1], (op[1] + op[2]) / 2
        if op[3] > 0 then m:box(color, cx, 0, z, w, op[3], t, yaw) end          -- under
        if op[4] < height then m:box(color, cx, op[4], z, w, height, t, yaw) end -- over
        if op[3] > 0 then m:box(STONE, cx, op[3] - 0.08, z, w + 0.2, op[3], t + 0.3, yaw) end
        x = op[2]
    end
    if x < x1 then m:box(color, (x + x1) / 2, 0, z, x1 - x, height, t, yaw) end
end

-- The same along z, by swapping the axes through a quarter turn.
local function wall_z(m, color, z0, z1, x, t, height, openings, yaw)
    local rot = (yaw or 0) + math.pi / 2
    -- A quarter turn maps local (u, 0, 0) to (0, 0, -u) and (0, 0, v) to (v, 0, 0): build the
    -- wall along u = -z at v = x.
    local flipped = {}
    for _, op in ipairs(openings) do flipped[#flipped + 1] = { -op[2], -op[1], op[3], op[4] } end
    wall_x(m, color, -z1, -z0, x, t, height, flipped, rot)
end

-- A house: four walls with windows (sills) and a door, a floor slab and a flat roof, all ONE
-- mesh, so the traversal's latch must ignore only the sill it climbs, not the house.
function shapes.house(o)
    local m = shapes.mesh(o.name or "house")
    local w, d, h, t = o.width or 10, o.depth or 8, o.height or 4, 0.3
    local hw, hd, yaw = w / 2, d / 2, o.yaw
    m:box(STONE, 0, 0, 0, w, 0.15, d, yaw)                                   -- floor
    wall_x(m, PLASTER, -hw, hw, -hd, t, h,
           { { -3.5, -1.9, 1.1, 2.4 }, { -0.6, 0.6, 0, 2.3 }, { 1.9, 3.5, 1.1, 2.4 } }, yaw)
    wall_x(m, PLASTER, -hw, hw, hd, t, h, { { -2.5, -0.9, 1.1, 2.4 }, { 0.9, 2.5, 1.1, 2.4 } }, yaw)
    wall_z(m, PLASTER, -hd + t / 2, hd - t / 2, -hw, t, h, { { -0.8, 0.8, 1.0, 2.4 } }, yaw)
    wall_z(m, PLASTER, -hd + t / 2, hd - t / 2, hw, t, h, { { -0.8, 0.8, 1.0, 2.4 } }, yaw)
    m:box(ROOF, 0, h, 0, w + 0.8, h + 0.3, d + 0.8, yaw)                     -- roof slab
    return m
end

-- A low vent to crawl through: a block wall `width` wide and `height` tall with a tunnel
-- `opening` high and `span` wide running through it along z.
function shapes.vent(o)
    local m = shapes.mesh(o.name or "vent")
    local width, height, depth = o.width or 6, o.height or 3, o.depth or 3
    local opening, span = o.opening or 1.2, o.span or 1.4
    local side = (width - span) / 2
    m:box(STONE, -(span + side) / 2, 0, 0, side, height, depth, o.yaw)
    m:box(STONE, (span + side) / 2, 0, 0, side, height, depth, o.yaw)
    m:box(METAL, 0, opening, 0, span, height, depth, o.yaw)
    return m
end

-- Thin platforms: a rising row of slabs `thickness` thick.
function shapes.platforms(o)
    local m = shapes.mesh(o.name or "platforms")
    local n, step, gap, size, th = o.count or 5, o.step or 1.0, o.gap or 3.2, o.size or 2.4,
        o.thickness or 0.12
    for k = 1, n do
        local y = k * step
        m:box(o.color or METAL, 0, y - th, (k - 1) * gap, size, y, size, o.yaw)
    end
    return m
end

-- A bounce pad (a gadget's marker): a low square slab `height` thick (0.15 m: a step the body
-- walks onto), `size` across.
function shapes.pad(o)
    local m = shapes.mesh(o.name or "pad")
    m:box(o.color or { 0.95, 0.55, 0.20 }, 0, 0, 0, o.size or 3, o.height or 0.15, o.size or 3, o.yaw)
    return m
end

-- A grapple point's marker (a gadget's): a small crystal floating `lift` m above the point, so
-- a body hanging from the point keeps its head clear of it.
function shapes.sigil(o)
    local m = shapes.mesh(o.name or "sigil")
    m:octahedron(o.color or { 0.30, 0.85, 0.55 }, 0, o.lift or 0.6, 0, 0.25, 0.35)
    return m
end

-- A slab centred on the anchor with its top at the anchor's height: a lift's floor, a bridge's
-- deck, a raft (a moving landmark turns about its anchor).
function shapes.slab(o)
    local m = shapes.mesh(o.name or "slab")
    local w, d, th = o.width or 4, o.depth or 4, o.thickness or 0.3
    m:box(o.color or METAL, 0, -th, 0, w, 0, d, o.yaw)
    return m
end

-- A tree: a trunk and a crown (a double pyramid) that collides like everything drawn.
function shapes.tree(o)
    local m = shapes.mesh(o.name or "tree")
    local h, crown = o.height or 4.5, o.crown or 2.2
    m:box(WOOD, 0, 0, 0, 0.45, h, 0.45, nil)
    m:octahedron(LEAVES, 0, h + crown * 0.4, 0, crown, crown * 1.1)
    return m
end

return shapes
