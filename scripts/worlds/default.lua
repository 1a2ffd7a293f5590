-- The default world: the sandbox's and the headless runner's playground.
--
-- A world file is Lua that returns a plain data table (no side effects), so any loader can read
-- it: the GLFW sandbox (runtime/sandbox/scene.c), the headless runner and Lua scenarios
-- (lua/gait/worldfile.lua). A loader:
--   * put this file's directory first on package.path (so `require "shapes"` finds
--     scripts/worlds/shapes.lua) and call the file with that directory as its first argument;
--   * load terrain.heightmap (relative to this file) through gait_collider_load_heightmap with
--     cell_size, height_scale and origin;
--   * add every water region and the sea level (nil: none);
--   * add every landmark (a shapes.lua mesh: positions, 1-based indices, colours) at `at`: with
--     on_ground = true, at[2] is added to the terrain's height at (at[1], at[3]);
--   * add every gadget (gait_script_gadget_from_table reads one; with on_ground = true its
--     heights are above the terrain there);
--   * start a landmark's `motion`, when it has one (a moving landmark; it turns about `at`):
--       motion = { path = { {dx, dy, dz[, yaw]}, ... }, period = s }   -- offsets from where it
--         was placed (m, rad), looped over `period` at an even pace (a point twice in a row is
--         a pause);
--       motion = { velocity = {x, y, z}, angular_velocity = {x, y, z} } -- m/s, rad/s;
--   * create the player at spawn.position (feet; stood on the ground) facing spawn.yaw.
--
-- Layout (see scripts/gen_heightmap.py): a flat plaza at 12 m around the origin with the
-- landmarks, hills around it, a terrain cliff to the north (z > 120), a lake to the east around
-- (150, -30) whose surface is 11 m. Facing +z from the spawn (the runtime is right-handed with
-- y up, so +x is on the LEFT): the tower ahead, the stairs, ramps, vent and platforms to the
-- right (-x), the fences, the house and the lake to the left (+x).

local shapes = require("shapes")

local L = {}
local function add(at, mesh, on_ground, motion)
    L[#L + 1] = { at = at, mesh = mesh, on_ground = on_ground ~= false, motion = motion }  -- on the ground by default
end

-- Stairs: ten 0.25 m steps (a step height of 0.3 m walks them) to a 2.5 m landing.
add({ -8, 0, 6 }, shapes.stairs { name = "stairs", count = 10, rise = 0.25, tread = 0.35 })
-- Ramps: 30 deg walks up, 60 deg is a wall to climb.
add({ -14, 0, 6 }, shapes.ramp { name = "ramp30", angle = 30, rise = 4 })
add({ -20, 0, 6 }, shapes.ramp { name = "ramp60", angle = 60, rise = 4 })
-- The tower: 30 m to climb and glide from (the glider opens 2.5 m above the ground).
add({ 0, 0, 45 }, shapes.tower { name = "tower", size = 6, height = 30 })
-- Fences to vault (1 m), hurdle (0.7 m) and mantle-then-drop (1.4 m).
add({ 10, 0, 2 }, shapes.fence { name = "fence_1m", length = 6, height = 1.0 })
add({ 10, 0, 8 }, shapes.fence { name = "fence_low", length = 6, height = 0.7 })
add({ 10, 0, 14 }, shapes.fence { name = "fence_high", length = 6, height = 1.4 })
-- The house: one mesh whose windowsills, walls, floor and roof belong together.
add({ 22, 0, -14 }, shapes.house { name = "house", width = 10, depth = 8, height = 4 })
-- A vent to crawl through: 1.2 m high, standing (1.7 m) does not fit.
add({ -22, 0, -16 }, shapes.vent { name = "vent", opening = 1.2, span = 1.4 })
-- Thin platforms rising 1 m each, 3.2 m apart: a chain of jumps.
add({ -30, 0, 22 }, shapes.platforms { name = "platforms", count = 6, step = 1.0, gap = 3.2 })
-- Traversal gadgets (lua/README.md, "Gadgets"): the kits' verbs for any body, no kit needed.
-- Their markers are landmarks; the gadgets themselves are in `gadgets` below.
add({ -4, 0, 0 }, shapes.pad { name = "bounce_pad", size = 3, height = 0.15 })
add({ -30, 9, 42 }, shapes.sigil { name = "grapple_sigil", lift = 0.6 })
local G = {
    -- a pad left of the spawn path: stepping on it launches the body 8 m up
    { kind = "bounce", name = "bounce_pad", position = { -4, 0.15, 0 }, on_ground = true,
      radius = 1.5, height = 8 },
    -- rising air beside the tower: jump in and the glider opens and rises to its roof's height
    { kind = "updraft", name = "updraft", position = { 10, 0, 32 }, on_ground = true,
      radius = 3, height = 38, speed = 8 },
    -- a current from the tower's top towards the lake: glide off the tower's near side into it
    { kind = "wind", name = "wind_current", radius = 3, speed = 14,
      points = { { 0, 41, 40 }, { 15, 40, 27 }, { 35, 37, 8 }, { 60, 33, -10 } } },
    -- a point over the end of the platforms: press drop (X) within 12 m and the body is pulled
    -- up to hang from it; jump to glide away, drop to let go
    { kind = "grapple", name = "grapple_point", position = { -30, 9, 42 }, on_ground = true,
      radius = 12, speed = 22, button = "drop" },
}

-- Moving landmarks. A lift beside the tower: a wait at the bottom, up to the roof (30 m at
-- 3.75 m/s), a wait there, down again.
add({ 5.5, 0.3, 45 }, shapes.slab { name = "lift", width = 4, depth = 4 }, true,
    { path = { { 0, 0, 0 }, { 0, 0, 0 }, { 0, 30, 0 }, { 0, 30, 0 } }, period = 32 })
-- A turning bridge: a deck 16 m long spinning about its middle (0.25 rad/s), joining two
-- platforms 2 m up twice a turn.
add({ -39, 0, -2 }, shapes.tower { name = "bridge_west", size = 3, height = 2 })
add({ -21, 0, -2 }, shapes.tower { name = "bridge_east", size = 3, height = 2 })
add({ -30, 0, -2 }, shapes.tower { name = "bridge_pillar", size = 1, height = 1.55 })
add({ -30, 2, -2 }, shapes.slab { name = "bridge", width = 16, depth = 2.5, thickness = 0.4 }, true,
    { velocity = { 0, 0, 0 }, angular_velocity = { 0, 0.25, 0 } })
-- A ferry across the lake: it waits at the west shore, crosses 65 m, waits, comes back.
add({ 117, 11.2, -30 }, shapes.slab { name = "ferry", width = 6, depth = 6, thickness = 0.5 }, false,
    { path = { { 0, 0, 0 }, { 0, 0, 0 }, { 65, 0, 0 }, { 65, 0, 0 } }, period = 60 })
-- Trees whose crowns collide.
local trees = { { 30, 24 }, { 36, 30 }, { 28, 36 }, { -40, -30 }, { -46, -24 }, { 44, -40 },
                { -52, 40 }, { 50, 50 } }
for k, p in ipairs(trees) do
    add({ p[1], 0, p[2] }, shapes.tree { name = "tree" .. k, height = 4 + (k % 3) * 0.7 })
end

return {
    name = "default",
    terrain = {
        heightmap = "default_height.png",   -- made by scripts/gen_heightmap.py
        cell_size = 2.0,                     -- m
        height_scale = 80.0,                 -- m at the brightest value
        origin = { -256, 0, -256 },          -- m, world position of pixel (0, 0)
    },
    water = {
        { min_x = 100, min_z = -80, max_x = 200, max_z = 20, surface = 11.0 },  -- the lake
    },
    sea_level = nil,
    spawn = { position = { 0, 12, -12 }, yaw = 0 },   -- on the plaza, facing +z (the tower)
    landmarks = L,
    gadgets = G,
}
