-- Loads a world file (scripts/worlds/*.lua) into a gait world: the headless runner's side of
-- the format the sandbox reads too (see scripts/worlds/default.lua's header for the contract).
--
--   local worldfile = require("gait.worldfile")
--   local w, player, data = worldfile.load("scripts/worlds/default.lua"[, {max_characters = 8}])
--   local player, data = worldfile.load_into(gait.world.host(), path)   -- a host's own world
--
-- Errors name the file: a world file that does not load, a missing heightmap, a landmark the
-- collider refuses.
local gait = require("gait")
local M = {}

local function dir_of(path)
  return path:match("^(.*)/[^/]*$") or "."
end

-- Runs the world file (untrusted content: sandboxed, under the file budget; `require "shapes"`
-- finds scripts/worlds/shapes.lua beside it) and returns a plain copy of the data table it
-- returns (tables, strings, numbers, booleans: no function or metatable of the file's).
function M.read(path)
  local dir = dir_of(path)
  local data, err = gait.read_data_file(path, dir)
  if data == nil then error(err, 0) end
  if type(data) ~= "table" then
    error(string.format("%s: a world file returns a table, not a %s", path, type(data)), 0)
  end
  return data, dir
end

-- A file the world file names beside it: a plain relative name, no "..", no absolute path.
local function beside(path, dir, name, what)
  if type(name) ~= "string" or name == "" or name:sub(1, 1) == "/" or name:find("..", 1, true) then
    error(string.format("%s: %s must name a file beside the world file (no \"..\", no absolute "
      .. "path), not %q", path, what, tostring(name)), 0)
  end
  return dir .. "/" .. name
end

-- A landmark's `motion` (see scripts/worlds/default.lua's header): a path of offsets from where
-- it was placed, {dx, dy, dz[, yaw]} (m, rad), looped over `period` s; or a velocity (m/s) and an
-- angular velocity (rad/s about world axes through its anchor).
local motion_keys = { path = true, period = true, velocity = true, angular_velocity = true }
local function set_motion(path, i, landmark, motion, at)
  local where = string.format("%s: landmark %d: motion", path, i)
  if type(motion) ~= "table" then error(where .. " must be a table", 0) end
  for k in pairs(motion) do
    if not motion_keys[k] then
      error(string.format("%s: unknown key %q (path, period, velocity, angular_velocity)", where,
        tostring(k)), 0)
    end
  end
  local ok, err
  if motion.path ~= nil then
    if motion.velocity ~= nil or motion.angular_velocity ~= nil then
      error(where .. ": a path or a velocity, not both", 0)
    end
    if type(motion.path) ~= "table" or type(motion.period) ~= "number" then
      error(where .. ": path = {{dx, dy, dz[, yaw]}, ...} and period = s", 0)
    end
    local poses = {}
    for k, p in ipairs(motion.path) do
      if type(p) ~= "table" or type(p[1]) ~= "number" or type(p[2]) ~= "number"
          or type(p[3]) ~= "number" or (p[4] ~= nil and type(p[4]) ~= "number") then
        error(string.format("%s: path[%d] must be {dx, dy, dz[, yaw]} (numbers)", where, k), 0)
      end
      poses[k] = { position = { at[1] + p[1], at[2] + p[2], at[3] + p[3] }, yaw = p[4] or 0 }
    end
    ok, err = pcall(landmark.set_path, landmark, { poses = poses, period = motion.period })
  else
    ok, err = pcall(landmark.set_velocity, landmark, { velocity = motion.velocity,
      angular_velocity = motion.angular_velocity })
  end
  if not ok then error(where .. ": " .. tostring(err), 0) end
end

-- Fills an existing world (terrain, water, landmarks, gadgets) and spawns the player in it.
function M.load_into(w, path)
  local data, dir = M.read(path)
  local level_start -- the level's first player start, where no spawn is given
  -- A level file (glTF, OBJ, FBX, ...) through the host's importer, first, as the sandbox adds
  -- it (landmark order decides ties between equal hits).
  if data.level ~= nil then
    if not w.load_level then
      error(path .. ": level needs a host that imports level files (gait run, gait replay, the sandbox)", 0)
    end
    local n, starts = w:load_level(beside(path, dir, data.level, "level"), data.level_scale or 1,
      data.level_up or "y")
    if not n then error(path .. ": level: " .. tostring(starts), 0) end
    level_start = starts and starts[1]
  end
  local t = data.terrain
  if t then
    if not t.heightmap then error(path .. ": terrain needs a heightmap (a PNG beside the file)", 0) end
    local ok, err = w:load_heightmap(beside(path, dir, t.heightmap, "terrain.heightmap"),
      t.cell_size, t.height_scale, t.origin)
    if not ok then error(path .. ": " .. tostring(err), 0) end
  end
  for _, region in ipairs(data.water or {}) do w:add_water(region) end
  if data.sea_level then w:set_sea_level(data.sea_level) end
  for i, lm in ipairs(data.landmarks or {}) do
    local at, mesh = lm.at or {0, 0, 0}, lm.mesh
    if type(mesh) ~= "table" then error(string.format("%s: landmark %d has no mesh", path, i), 0) end
    local y = at[2]
    if lm.on_ground then
      local h = w:terrain_height(at[1], at[3])
      if h then y = y + h end
    end
    local landmark, err = w:add_landmark{positions = mesh.positions, indices = mesh.indices,
      offset = {at[1], y, at[3]}, name = mesh.name}
    if not landmark then
      error(string.format("%s: landmark %d (%s): %s", path, i, tostring(mesh.name), tostring(err)), 0)
    end
    if lm.motion ~= nil then set_motion(path, i, landmark, lm.motion, {at[1], y, at[3]}) end
  end
  -- Traversal gadgets (updraft, wind, grapple, bounce: lua/README.md), after the terrain so
  -- on_ground heights read it; w:add_gadget checks every key.
  if data.gadgets ~= nil and type(data.gadgets) ~= "table" then
    error(path .. ": gadgets: expected a list of gadget tables", 0)
  end
  for i, g in ipairs(data.gadgets or {}) do
    local ok, index, err = pcall(w.add_gadget, w, g)
    if not ok or not index then
      error(string.format("%s: gadget %d (%s): %s", path, i, tostring(type(g) == "table" and g.name or g),
        tostring(ok and err or index)), 0)
    end
  end
  local spawn = data.spawn or level_start or {}
  local player, err = w:spawn{position = spawn.position or {0, 0, 0}, yaw = spawn.yaw or 0}
  if not player then error(path .. ": spawn: " .. tostring(err), 0) end
  return player, data
end

-- A new world (options as gait.world.new takes them) filled from the file.
function M.load(path, world_options)
  local w = gait.world.new(world_options)
  local player, data = M.load_into(w, path)
  return w, player, data
end

return M
