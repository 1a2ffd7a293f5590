-- gait.last_error() returns one value: the message, or nil when there is none (as lua/README.md
-- says), so `select("#", gait.last_error())` and table constructors see it.
local gait = require("gait")

test("last_error is nil when clear and a string after an error", function()
  gait.clear_error()
  expect_eq(select("#", gait.last_error()), 1, "one value when there is no error")
  expect_eq(gait.last_error(), nil, "nil when there is no error")
  local ok = gait.tuning.load({locomotion = "/nonexistent/locomotion.lua"})
  expect_eq(ok, nil, "a missing tuning file fails")
  local msg = gait.last_error()
  expect_true(type(msg) == "string" and msg:find("locomotion.lua", 1, true) ~= nil,
              "the message names the file: " .. tostring(msg))
  expect_true(gait.error_count() >= 1, "counted")
  gait.clear_error()
  expect_eq(gait.last_error(), nil, "cleared")
  expect_eq(gait.error_count(), 0, "count cleared")
end)
