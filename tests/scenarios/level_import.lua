-- world:load_level (the runner's binding of runtime/cli/level.c): an OBJ becomes landmarks the
-- character stands on.
local gait = require("gait")

local OBJ = [[
o floor
v -5 1 -5
v 5 1 -5
v 5 1 5
v -5 1 5
f 1 3 2
f 1 4 3
]]

test("an OBJ floor becomes a landmark the body stands on", function()
  local base = os.tmpname()
  os.remove(base)
  local path = base .. ".obj"
  local f = assert(io.open(path, "w"))
  f:write(OBJ)
  f:close()
  local w = gait.world.new()
  assert(w:set_terrain(gait.geometry.flat_terrain(64)))
  local n, err = w:load_level(path)
  expect_eq(n, 1, "one mesh, one landmark (" .. tostring(err) .. ")")
  expect_eq(w:landmark_count(), 1, "landmark count")
  local hit = w:ray_cast({0, 5, 0}, {0, -10, 0})
  expect_true(hit ~= nil and not hit.terrain, "a ray down hits the floor, not the terrain")
  if hit then expect_near(hit.point[2], 1, 1e-4, "floor height (m)") end
  local bad, why = w:load_level("/nonexistent/level.obj")
  expect_eq(bad, nil, "a missing file is an expected failure")
  expect_true(type(why) == "string", "with a message")
  expect_error(function() w:load_level(path, -1) end, "scale", "a bad scale raises")
  os.remove(path)
end)
