-- Hot reload (docs/behaviour.md, "The numbers"): a changed tuning or kit file takes effect on the next step; a broken
-- one keeps the last good version and reports file:line; runtime state survives a reload.
local gait = require("gait")
local DT = 1 / 60

local S = require("gait.scenario")
local write = S.write

local function tuning(run_speed)
  return string.format("return {\n  provisional = {\n    run_speed = %s,\n  },\n}\n", run_speed)
end

local function world() return S.world(256, 2) end

-- A tuning file with the given run speed, loaded; a world and one body of the type on it.
local function loaded(run_speed, body_type)
  local path = os.tmpname()
  write(path, tuning(run_speed))
  local w = world()
  assert(gait.tuning.load{locomotion = path})
  return path, w, w:spawn{body_type = body_type}
end

test("a changed tuning number takes effect on the next step", function()
  local path, w, ch = loaded("5.6", "medium_male")
  for _ = 1, 10 do ch:set_input{move_y = 1}; w:update(DT) end
  expect_near(ch:speed(), 5.6, 1e-9, "run speed before (m/s)")
  ch:set_stamina(50); assert(ch:spend(10)) -- state to keep: 40 stamina left
  local x0, y0, z0 = ch:position()

  write(path, tuning("7.25"))
  local n, err = gait.poll()
  expect_eq(n, 1, "one file reloaded")
  expect_eq(err, nil, "no error")
  expect_near(w:locomotion("medium_male").run_speed, 7.25, 1e-12, "the world's numbers")
  local x1, y1, z1 = ch:position()
  expect_near(z1, z0, 0, "the reload did not move the body")
  expect_near((ch:stamina()), 40, 1e-9, "the reload kept the stamina")
  ch:set_input{move_y = 1}
  w:update(DT)
  expect_near(ch:speed(), 7.25, 1e-9, "run speed on the next step (m/s)")
  expect_eq(gait.poll(), 0, "nothing changed since: nothing reloaded")
  os.remove(path)
end)

test("a broken reload keeps the last good numbers and reports file:line", function()
  local path, w, ch = loaded("6.5", "tall_female")

  local broken = {
    {text = "return {\n  provisional = {\n    run_speed = ,\n  },\n}\n", line = 3, says = "unexpected symbol"},
    {text = tuning("0/0"), line = 3, says = "run_speed is NaN; allowed %[0.1, 30%] m/s"},
    {text = tuning("'fast'"), line = 3, says = "run_speed: a string, wanted a number in %[0.1, 30%]"},
    {text = tuning("1e9"), line = 3, says = "out of range; allowed %[0.1, 30%] m/s"},
    {text = "return {\n  provisional = {\n    run_sped = 1,\n  },\n}\n", line = 3, says = "unknown key"},
    {text = "return {\n  giant = {\n    run_speed = 1,\n  },\n}\n", line = 2, says = "not a body type"},
    {text = "local t = {}\nreturn t.x.y\n", line = 2, says = "attempt to index"},
    {text = "return 42\n", line = 1, says = "must return a table"},
  }
  for i, b in ipairs(broken) do
    write(path, b.text .. string.rep(" ", i)) -- a new size, so the change is seen at once
    local n, err = gait.poll()
    expect_eq(n, 0, "case " .. i .. ": nothing reloaded")
    err = tostring(err)
    expect_true(err:find(path .. ":" .. b.line .. ":", 1, true) ~= nil,
      "case " .. i .. ": the error names file:line (" .. err:match("[^\n]*") .. ")")
    expect_true(err:find(b.says) ~= nil, "case " .. i .. ": the error says why (" .. err:match("[^\n]*") .. ")")
    expect_near(w:locomotion("tall_female").run_speed, 6.5, 0, "case " .. i .. ": the last good number")
    ch:set_input{move_y = 1}
    w:update(DT)
    expect_near(ch:speed(), 6.5, 1e-9, "case " .. i .. ": the body still runs at the last good speed")
  end
  expect_true(gait.last_error() ~= nil, "last_error holds the report")
  write(path, tuning("6.75"))
  expect_eq(gait.poll(), 1, "the fixed file is reloaded")
  expect_near(w:locomotion("tall_female").run_speed, 6.75, 0, "the fixed number")
  os.remove(path)
end)

test("the shipped tuning loads; the medium female body is measured and lends nothing", function()
  local w = world()
  assert(gait.tuning.load())
  expect_true(w:measured("medium_female"), "medium_female has its own entry")
  expect_eq(w:measured("tall_male"), false, "tall_male moves by the provisional numbers")
  expect_near(w:locomotion("medium_female").capsule_height, 1.6, 1e-12, "medium_female's own capsule")
  expect_near(w:locomotion("tall_male").capsule_height, 1.7, 1e-12, "tall_male: provisional capsule, not lent")
  expect_near(w:locomotion("tall_male").costs.dash, 18, 0, "stamina.lua costs reach every type")
  expect_near(w:locomotion("medium_female").fall_catch_seconds, 0.3, 0, "gates.lua reaches every type")
  local files = gait.tuning.files()
  expect_true(files.locomotion and files.stamina and files.gates, "the three files are the set")
end)

test("a kit file reloads; a broken kit keeps the last good kit running", function()
  local path = os.tmpname() .. "_kit.lua"
  local function kit(cost)
    return string.format("return {on_presses = function(ch, p, state)\n" ..
      "  if p.skill then ch:take_presses('skill'); ch:spend(%s) end\nend}\n", cost)
  end
  write(path, kit("10"))
  local w = world()
  local ch = w:spawn{}
  assert(ch:set_kit(path))
  ch:set_input{pressed = {"skill"}}; w:update(DT)
  expect_near((ch:stamina()), 90, 1e-9, "the first kit spends 10")

  write(path, kit("25"))
  expect_eq(gait.poll(), 1, "the kit reloaded")
  ch:set_input{pressed = {"skill"}}; w:update(DT)
  expect_near((ch:stamina()), 65, 1e-9, "the reloaded kit spends 25")

  write(path, "return {on_presses = function(ch, p)\n  if p.skill then\nend}\n")
  local n, err = gait.poll()
  expect_eq(n, 0, "the broken kit is not taken")
  expect_true(tostring(err):find(path .. ":3:", 1, true) ~= nil, "file:line of the syntax error: " .. tostring(err))
  ch:set_input{pressed = {"skill"}}; w:update(DT)
  expect_near((ch:stamina()), 40, 1e-9, "the last good kit still runs")
  os.remove(path)
end)
