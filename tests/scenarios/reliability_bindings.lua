-- Bad input through the Lua bindings: every method of a world, a character and a landmark, and
-- every function of the gait modules, is called with wrong types, NaN, +-Inf, negative and huge
-- numbers, unknown enum strings, empty and bogus tables and stale objects. None may crash the
-- host; each failure is an error with a message (or nil, message); and the calls that fail
-- change nothing: the world's snapshot string is the same before and after.
local gait = require("gait")
local DT = 1 / 60
local NAN, INF = 0 / 0, math.huge

local function world()
  local w = gait.world.new{max_characters = 4}
  assert(w:set_terrain(gait.geometry.flat_terrain(64)))
  assert(w:add_water{min_x = -20, min_z = -20, max_x = -10, max_z = -10, surface = 0.5})
  local lm = assert(w:add_landmark{triangles = {{2, 0, 2, 4, 0, 2, 4, 2, 2}}})
  local a = assert(w:spawn{position = {0, 1, 0}})
  local b = assert(w:spawn{position = {3, 1, -3}, body_type = "tall_male"})
  for k = 1, 20 do
    a:set_input{move_y = 1, pressed = (k == 3) and {"jump"} or nil}
    w:update(DT)
  end
  return w, a, b, lm
end

local junk = {
  {}, {nil}, {NAN}, {INF}, {-INF}, {-1}, {1e308}, {-1e308}, {2 ^ 53}, {0}, {""}, {"nonsense"},
  {true}, {{}}, {{NAN, NAN, NAN}}, {{x = 1}}, {{1, 2}}, {function() end}, {coroutine.create(function() end)},
  {NAN, NAN, NAN}, {INF, 0, 0, INF}, {"run", NAN}, {{move_x = NAN}}, {{pressed = {"fly"}}},
  {{held = 12}}, {{position = {NAN, 0, 0}}}, {{body_type = "giant"}}, {{max_characters = -1}},
  {{samples_x = 1e9, samples_z = 1e9}}, {{triangles = {{NAN, 0, 0, 1, 0, 0, 0, 0, 1}}}},
  {{triangles = {}}}, {{positions = {0, 0, 0}, indices = {1, 2, 99}}}, {string.rep("x", 100000)},
}

-- methods that end the object or run time on purpose are called on their own below
local skip = {destroy = true, remove = true, step = true, update = true, run_kits = true,
              set_kit = true, restore = true}

local sorted_keys = require("gait.scenario").sorted_keys

test("every method with junk arguments: an error with a message or an answer, never a crash", function()
  local w, a, b, lm = world()
  local calls, errors = 0, 0
  for _, set in ipairs({{gait.world.methods, w}, {gait.character.methods, a},
                        {debug.getmetatable(lm).__index, lm}}) do
    local methods, self = set[1], set[2]
    for _, name in ipairs(sorted_keys(methods)) do
      if not skip[name] then
        for _, args in ipairs(junk) do
          local ok, err = pcall(methods[name], self, unpack(args, 1, table.maxn(args)))
          calls = calls + 1
          if not ok then
            errors = errors + 1
            expect_true(type(err) == "string" and #err > 0, name .. ": the error says something")
          end
        end
        -- called on the wrong kind of object: a C binding says what it expected (the few
        -- methods boot.lua writes in Lua fail on the first binding they call)
        local ok, err = pcall(methods[name], {}, 1)
        expect_eq(ok, false, name .. " on a table is refused")
        if debug.getinfo(methods[name], "S").what == "C" then
          expect_true(tostring(err):find("expected", 1, true) ~= nil, name .. ": says what it expected: " .. tostring(err))
        end
      end
    end
  end
  expect_true(calls > 1500, "calls made: " .. calls)
  expect_true(errors > calls / 3, "most junk refused: " .. errors .. " of " .. calls)
  w:update(DT) -- still steps
  expect_true(b:valid(), "characters still valid")
end)

test("every module function with junk arguments never crashes", function()
  local n = 0
  for _, mod in ipairs({"locomotion", "stamina", "clock", "input", "tuning", "kit", "world"}) do
    local m = gait[mod]
    for _, name in ipairs(sorted_keys(m)) do
      if type(m[name]) == "function" and name ~= "host" then
        for _, args in ipairs(junk) do
          local ok, err = pcall(m[name], unpack(args, 1, table.maxn(args)))
          n = n + 1
          if not ok then expect_true(type(err) == "string", mod .. "." .. name .. " error is a string") end
        end
      end
    end
  end
  expect_true(n > 300, "module calls: " .. n)
end)

-- specific rows: the call, the error it must raise (or the nil, message it must return)
test("refused calls name the problem and change nothing", function()
  local w, a, b, lm = world()
  local rows = {
    {"spawn NaN position", function() return w:spawn{position = {NAN, 0, 0}} end, "finite"},
    {"spawn unknown body type", function() return w:spawn{body_type = "giant"} end, "medium_female"},
    {"spawn unknown key", function() return w:spawn{postion = {0, 0, 0}} end, "postion"},
    {"spawn stamina start > max", function() return w:spawn{stamina = {max = 10, start = 50}} end, "stamina"},
    {"set_input NaN move", function() a:set_input{move_x = NAN} end, "finite"},
    {"set_input Inf look", function() a:set_input{look_yaw = INF} end, "finite"},
    {"set_input unknown button", function() a:set_input{pressed = {"fly"}} end, "jump"},
    {"set_input wrong type", function() a:set_input("run") end, "table expected"},
    {"set_input unknown key", function() a:set_input{move_z = 1} end, "move_z"},
    {"face NaN", function() a:face(NAN) end, "finite"},
    {"place Inf", function() a:place(INF, 0, 0) end, "finite"},
    {"place string", function() a:place("here") end, "number expected"},
    {"spend negative", function() return a:spend(-5) end, ">= 0"},
    {"spend NaN", function() return a:spend(NAN) end, ""},
    {"spend too much", function() return a:spend(1e9) end, "stamina"},
    {"start_action NaN", function() a:start_action(NAN) end, ""},
    {"start_action negative", function() a:start_action(-1) end, ""},
    {"set_body_type unknown", function() a:set_body_type("giant") end, "medium_female"},
    {"set_camera_yaw NaN", function() a:set_camera_yaw(NAN) end, ""},
    {"set_stamina NaN", function() a:set_stamina(NAN) end, ""},
    {"set_stamina_multiplier negative", function() a:set_stamina_multiplier(-1) end, ""},
    {"take_presses unknown", function() a:take_presses("fly") end, "jump"},
    {"set_gate_hook number", function() a:set_gate_hook(42) end, "function"},
    {"set_terrain NaN height", function() return w:set_terrain{samples_x = 4, samples_z = 4, heights = {NAN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}} end, "finite"},
    {"set_terrain too few heights", function() return w:set_terrain{samples_x = 4, samples_z = 4, heights = {0}} end, "16"},
    {"set_terrain huge", function() return w:set_terrain{samples_x = 1e6, samples_z = 1e6, height = function() return 0 end} end, "8193"},
    {"set_terrain height returns NaN", function() return w:set_terrain{samples_x = 4, samples_z = 4, height = function() return NAN end} end, "finite"},
    {"set_terrain height raises", function() return w:set_terrain{samples_x = 4, samples_z = 4, height = function() error("mine") end} end, "mine"},
    {"load_heightmap missing", function() return w:load_heightmap("/nonexistent/h.png", 1, 10) end, "/nonexistent/h.png"},
    {"load_heightmap not a png", function() return w:load_heightmap("tests/scenarios/reliability_bindings.lua", 1, 10) end, "reliability_bindings.lua"},
    {"load_heightmap NaN cell", function() return w:load_heightmap("scripts/worlds/default_height.png", NAN, 10) end, ""},
    {"add_water inverted", function() return w:add_water{min_x = 5, min_z = 5, max_x = 0, max_z = 0, surface = 1} end, ""},
    {"add_water NaN", function() return w:add_water{min_x = NAN, min_z = 0, max_x = 1, max_z = 1, surface = 1} end, ""},
    {"set_sea_level NaN", function() w:set_sea_level(NAN) end, "NaN"},
    {"add_landmark degenerate", function() return w:add_landmark{triangles = {{0, 0, 0, 1, 1, 1, 2, 2, 2}}} end, ""},
    {"add_landmark empty", function() return w:add_landmark{triangles = {}} end, ""},
    {"add_landmark index out of range", function() return w:add_landmark{positions = {0, 0, 0, 1, 0, 0, 0, 0, 1}, indices = {1, 2, 9}} end, ""},
    {"add_landmark short triangle", function() return w:add_landmark{triangles = {{0, 0, 0, 1}}} end, ""},
    {"ray_cast NaN", function() return w:ray_cast({NAN, 0, 0}, {0, -1, 0}) end, ""},
    {"set_locomotion NaN", function() return w:set_locomotion("medium_female", {walk_speed = NAN}) end, "walk_speed"},
    {"set_locomotion unknown key", function() return w:set_locomotion("medium_female", {walk_sped = 2}) end, "walk_sped"},
    {"set_locomotion unknown type", function() return w:set_locomotion("giant", {}) end, "medium_female"},
    {"set_locomotion radius > height", function() return w:set_locomotion("medium_female", {capsule_radius = 5}) end, ""},
    {"set_targets NaN", function() w:set_targets{{NAN, 0, 0}} end, ""},
    {"update NaN", function() w:update(NAN) end, "finite"},
    {"update negative", function() w:update(-1) end, "finite"},
    {"restore junk", function() return w:restore("junk") end, "snapshot"},
    {"set_kit missing file", function() return a:set_kit("/nonexistent/kit.lua") end, "/nonexistent/kit.lua"},
    {"set_kit unknown name", function() return a:set_kit("no_such_kit") end, "no_such_kit"},
    {"set_kit number", function() return a:set_kit(42) end, ""},
    {"tuning.load missing dir", function() return gait.tuning.load("/nonexistent/tuning") end, "/nonexistent/tuning"},
    {"locomotion.next unknown state", function() return gait.locomotion.next{state = "flying"} end, "idle"},
    {"locomotion.next NaN stamina", function() return gait.locomotion.next{state = "idle", stamina = NAN} end, ""},
    {"locomotion.is_edge unknown", function() return gait.locomotion.is_edge("idle", "flying") end, "idle"},
    {"stamina.new NaN", function() return gait.stamina.new{max = NAN} end, ""},
    {"clock.new zero step", function() return gait.clock.new{step_seconds = 0} end, ""},
    {"clock advance NaN", function() return gait.clock.new{}:advance(NAN) end, ""},
    {"input.mask unknown", function() return gait.input.mask{"fly"} end, "jump"},
    {"input.names too big", function() return gait.input.names(1e9) end, "0..255"},
    {"instruction_budget 0", function() return gait.instruction_budget(0) end, "1000"},
    {"world.new bad def", function() return gait.world.new{max_characters = 0} end, "max_characters"},
    {"world.new unknown key", function() return gait.world.new{max_chars = 3} end, "max_chars"},
    {"log unknown level", function() gait.log("loud", "x") end, "warn"},
  }
  local refused = 0
  for _, row in ipairs(rows) do
    local before = w:snapshot()
    local terrain = w:terrain_height(1.5, 1.5)
    local landmarks = w:landmark_count()
    local ok, r1, r2 = pcall(row[2])
    local msg
    if not ok then msg = r1
    elseif r1 == nil or r1 == false then msg = r2 end
    if msg ~= nil or not ok then refused = refused + 1 end
    expect_true(msg ~= nil, row[1] .. ": refused (got " .. tostring(r1) .. ")")
    expect_true(type(msg) == "string" and #msg > 0, row[1] .. ": a message")
    if msg then
      expect_true(msg:find(row[3], 1, true) ~= nil, row[1] .. ": says '" .. row[3] .. "': " .. tostring(msg):match("[^\n]*"))
    end
    expect_true(w:snapshot() == before, row[1] .. ": the world's state is unchanged")
    expect_eq(w:terrain_height(1.5, 1.5), terrain, row[1] .. ": the terrain is unchanged")
    expect_eq(w:landmark_count(), landmarks, row[1] .. ": the landmarks are unchanged")
  end
  expect_eq(refused, #rows, "every row refused")
end)

test("stale objects raise 'stale' or 'destroyed', never touch freed memory", function()
  local w, a, b, lm = world()
  a:destroy()
  expect_eq(a:valid(), false, "destroyed character is not valid")
  for _, name in ipairs(sorted_keys(gait.character.methods)) do
    if name ~= "valid" and name ~= "id" and name ~= "world" and name ~= "destroy" then
      local ok, err = pcall(gait.character.methods[name], a, 1)
      expect_eq(ok, false, "stale " .. name .. " raises")
      expect_true(tostring(err):find("stale", 1, true) ~= nil or tostring(err):find("destroyed", 1, true) ~= nil,
        "stale " .. name .. ": " .. tostring(err):match("[^\n]*"))
    end
  end
  lm:remove()
  local ok = pcall(lm.info, lm)
  local ok2, err2 = pcall(lm.remove, lm)
  expect_true(not ok or not ok2 or err2 ~= nil, "a removed landmark is refused")
  w:destroy()
  for _, name in ipairs(sorted_keys(gait.world.methods)) do
    if name ~= "destroy" then
      local okw, errw = pcall(gait.world.methods[name], w, 1)
      expect_eq(okw, false, "destroyed world " .. name .. " raises")
      expect_true(tostring(errw):find("destroyed", 1, true) ~= nil, "destroyed world " .. name .. ": " .. tostring(errw):match("[^\n]*"))
    end
  end
  local okb, errb = pcall(b.state, b)
  expect_eq(okb, false, "a character of a destroyed world raises")
  expect_true(tostring(errb):find("destroyed", 1, true) ~= nil or tostring(errb):find("stale", 1, true) ~= nil, tostring(errb))
  collectgarbage()
  collectgarbage()
end)

-- Malformed level meshes (world:load_level, the runner's assimp importer): a clear error naming
-- the file, nothing added, never a crash.
test("malformed level files are refused with their name; nothing is added", function()
  local w = gait.world.new()
  if not w.load_level then return end -- a host without the importer
  assert(w:set_terrain(gait.geometry.flat_terrain(32)))
  local cases = {
    {".obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n"},                       -- an index past the vertices
    {".obj", "v nan nan nan\nv inf 0 0\nv 0 0 -inf\nf 1 2 3\n"},   -- non-finite vertices
    {".obj", "v 0 0 0\nv 1 1 1\nv 2 2 2\nf 1 2 3\n"},              -- one degenerate triangle
    {".obj", "this is not a mesh \0\1\2\3"},                       -- garbage
    {".obj", ""},                                                  -- empty
    {".gltf", "{\"asset\": {\"version\": \"2.0\"}, \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 99}}]}]}"},
    {".glb", "glTF\2\0\0\0\255\255\255\127"},                      -- a header that lies
    {".ply", "ply\nformat ascii 1.0\nelement vertex 1000000\nend_header\n0 0 0\n"},
  }
  for i, c in ipairs(cases) do
    local base = os.tmpname()
    os.remove(base)
    local path = base .. c[1]
    local f = assert(io.open(path, "wb"))
    f:write(c[2])
    f:close()
    local before = w:landmark_count()
    local ok, n, err = pcall(w.load_level, w, path)
    expect_true(ok, "case " .. i .. " (" .. c[1] .. ") did not raise: " .. tostring(n))
    if ok and n == nil then
      expect_true(type(err) == "string" and err:find(path, 1, true) ~= nil,
        "case " .. i .. " names the file: " .. tostring(err))
      expect_eq(w:landmark_count(), before, "case " .. i .. ": nothing added")
    elseif ok then
      -- assimp may read something; whatever it added must be finite, valid landmarks
      expect_true(type(n) == "number" and n >= 0, "case " .. i .. ": a count")
    end
    os.remove(path)
  end
  w:update(1 / 60)
end)
