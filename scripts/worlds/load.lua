-- Builds a world file (see default.lua for the contract) into a gait world through the Lua
-- layer's API, for the headless runner and Lua scenarios; the GLFW sandbox reads the same
-- files in C (runtime/sandbox/scene.c) and so builds the same world.
--
--   local worlds = dofile(gait.root() .. "/scripts/worlds/load.lua")
--   local w = gait.world.new()
--   local def = assert(worlds.load(w, gait.root() .. "/scripts/worlds/default.lua"))
--   local ch = w:spawn{position = def.spawn.position, yaw = def.spawn.yaw}
--
-- Returns the world file's table (with landmarks[i].id set to the landmark made), or
-- nil, "file:line: message".
local M = {}

local function dir_of(path)
    return path:match("^(.*)/[^/]*$") or "."
end

-- Runs the world file with its directory first on package.path (for `require "shapes"`).
function M.read(path)
    local dir = dir_of(path)
    local chunk, err = loadfile(path)
    if not chunk then return nil, err end
    local saved_path, saved_shapes = package.path, package.loaded.shapes
    package.path = dir .. "/?.lua;" .. package.path
    package.loaded.shapes = nil
    local ok, def = pcall(chunk, dir)
    package.path, package.loaded.shapes = saved_path, saved_shapes
    if not ok then return nil, def end
    if type(def) ~= "table" then
        return nil, path .. ": the world file must return a table, it returned " .. type(def)
    end
    return def, dir
end

function M.load(world, path)
    local def, dir = M.read(path)
    if not def then return nil, dir end
    local t = def.terrain
    if t then
        local png = t.heightmap:sub(1, 1) == "/" and t.heightmap or (dir .. "/" .. t.heightmap)
        local ok, err = world:load_heightmap(png, t.cell_size or 1, t.height_scale or 50, t.origin)
        if not ok then return nil, path .. ": terrain: " .. tostring(err) end
    end
    if def.sea_level then world:set_sea_level(def.sea_level) end
    for _, r in ipairs(def.water or {}) do
        local ok, err = world:add_water(r)
        if not ok then return nil, path .. ": water: " .. tostring(err) end
    end
    for i, l in ipairs(def.landmarks or {}) do
        local x, y, z = l.at[1], l.at[2], l.at[3]
        if l.on_ground ~= false then
            local h = world:terrain_height(x, z)
            if h then y = y + h end
        end
        local m = l.mesh
        local id, err = world:add_landmark{ positions = m.positions, indices = m.indices,
                                            offset = { x, y, z }, name = m.name }
        if not id then return nil, string.format("%s: landmarks[%d] (%s): %s", path, i, m.name, tostring(err)) end
        l.id = id
    end
    return def
end

return M
