-- The default world's tower (scripts/worlds/default.lua: a 6 m shaft 30 m high with a ledge band
-- sticking out 0.25 m, 0.3 m thick, every 8 m) climbed from its foot to its roof with W held, then
-- a glide off the roof. In the game a climber gets over small overhangs and ledge bands: it climbs
-- onto the band and on up (or a climb jump clears it); it never hangs under one for good.
local gait = require("gait")
local S = require("gait.scenario")
local worldfile = require("gait.worldfile")

-- the tower's anchor in the default world (at = {0, 0, 45}, on the ground), its size and roof
local TX, TZ, SIZE, HEIGHT = 0, 45, 6, 30

test("the tower is climbed past every ledge band to its roof, and the body glides off", function()
  local w = worldfile.load(gait.root() .. "/scripts/worlds/default.lua", {max_characters = 2})
  local ground = w:terrain_height(TX, TZ)
  -- a full stamina wheel (the game's 240) so the 30 m climb is about the bands, not the pool
  local ch = assert(w:spawn{position = {TX, ground + 0.05, TZ - SIZE / 2 - 1.2}, yaw = 0,
                            stamina = {max = 240, start = 240}})
  expect_true(S.until_state(w, ch, "climb", 60, {move_y = 1}), "a run into the tower climbs")
  -- 30 m at 1.6 m/s is 19 s; bands and the mantle over the roof's edge: 40 s is ample
  local top = S.until_(w, ch, 60 * 40, {move_y = 1}, function(c)
    local _, y = c:position()
    local s = c:state()
    return y >= ground + HEIGHT - 0.01 and (s == "run" or s == "idle" or s == "walk")
  end)
  local _, y = ch:position()
  expect_true(top, string.format("on the roof within 40 s (feet %.2f m above the ground, state %s)",
    y - ground, ch:state()))
  if not top then return end -- the rest reads the roof
  expect_near(y, ground + HEIGHT, 0.01, "feet on the roof (m, +-1 cm)")
  -- then off the far edge and the glider opens (the roof is 30 m above the plaza)
  expect_true(S.until_state(w, ch, "fall", 240, {move_y = 1}), "runs off the roof")
  S.steps(w, ch, 3, {move_y = 1})
  S.steps(w, ch, 1, {move_y = 1, pressed = {"jump"}})
  expect_eq(ch:state(), "glide", "the glider opens off the roof")
  local _, y0 = ch:position()
  S.steps(w, ch, 60, {move_y = 1})
  local _, y1 = ch:position()
  expect_eq(ch:state(), "glide", "still gliding a second later")
  expect_near(y1 - y0, -1.8, 0.02, "sinks at the glide's 1.8 m/s (m in 1 s)")
end)

test("a single ledge band 0.25 m out, met head first while climbing, is got over", function()
  -- the band alone on a plain wall: 6 m face, band at 4.0-4.3 m sticking out 0.25 m, 8 m tall
  local w = S.world(128, 2)
  S.mesh(w, {{-3, 0, 2, 3, 8, 8}, {-3.25, 4.0, 1.75, 3.25, 4.3, 8.25}})
  local ch = w:spawn{position = {0, 0, 0}}
  expect_true(S.until_state(w, ch, "climb", 120, {move_y = 1}), "climbs the wall")
  -- 8 m at 1.6 m/s is 5 s; 12 s is ample for the band too
  local over = S.until_(w, ch, 60 * 12, {move_y = 1}, function(c)
    local _, y = c:position()
    return y > 4.3 + 0.5
  end)
  local _, y = ch:position()
  expect_true(over, string.format("the feet pass 0.5 m above the band (feet at %.3f m, band top 4.3 m, state %s)",
    y, ch:state()))
end)
