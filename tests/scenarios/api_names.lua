-- The names rule (lua/README.md, "Names"): every Lua method and module function is listed there
-- with the C function it leads to, and every C name listed is one the public headers declare.
-- A binding added without its row, or a row naming a C function that is gone, fails here.
local gait = require("gait")
local root = gait.root()

local function read(path)
  local f = assert(io.open(path))
  local text = f:read("*a")
  f:close()
  return text
end

local readme = read(root .. "/lua/README.md")
local names = readme:match("\n## Names\n(.-)\n## ")
assert(names, "lua/README.md has a Names section")

local function listed(form)
  return names:find(form, 1, true) ~= nil
end

local sorted_keys = require("gait.scenario").sorted_keys

test("every world, character and landmark method has its row", function()
  local w = gait.world.new()
  local lm = assert(w:add_landmark{triangles = {{0, 0, 0, 1, 0, 0, 0, 0, 1}}})
  for _, set in ipairs({{"w:", gait.world.methods}, {"ch:", gait.character.methods},
                        {"lm:", debug.getmetatable(lm).__index}}) do
    for _, name in ipairs(sorted_keys(set[2])) do
      expect_true(listed("`" .. set[1] .. name .. "(") or listed("`" .. set[1] .. name .. "{"),
        set[1] .. name .. " is in the Names table")
    end
  end
end)

test("every module function has its row", function()
  for _, name in ipairs(sorted_keys(gait)) do
    if type(gait[name]) == "function" then
      expect_true(listed("`gait." .. name .. "("), "gait." .. name .. " is in the Names table")
    elseif type(gait[name]) == "table" and name ~= "geometry" then
      for _, fn in ipairs(sorted_keys(gait[name])) do
        if type(gait[name][fn]) == "function" then
          expect_true(listed("`gait." .. name .. "." .. fn) or listed("`." .. fn),
            "gait." .. name .. "." .. fn .. " is in the Names table")
        end
      end
    end
  end
end)

test("every C name in the table is declared by a public header", function()
  local headers = {}
  local list = io.popen("ls " .. root .. "/runtime/include/gait/*.h " .. root .. "/runtime/cli/level.h")
  for path in list:lines() do headers[#headers + 1] = read(path) end
  list:close()
  local all = table.concat(headers, "\n")
  local count = 0
  for cname in names:gmatch("`(gait_[%w_]+)") do
    count = count + 1
    expect_true(all:find(cname, 1, true) ~= nil, cname .. " is declared in runtime/include/gait/")
  end
  expect_true(count >= 60, count .. " C names in the table")
end)
