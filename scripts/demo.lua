-- The headless demo: a scripted tour of the default world, played by `make run` where there is
-- no display (gait run scripts/demo.lua --trace build/demo-trace.csv). It walks, runs, dashes
-- and sprints across the plaza, jumps, climbs the tower, drops, opens the glider, lands, runs to
-- the lake and swims. Every second it prints a status line; at the end, run trusted (gait run
-- --trusted), it writes a top-down picture of the path coloured by state (GAIT_DEMO_PICTURE,
-- default build/demo-path.png).
local gait = require("gait")
local worldfile = require("gait.worldfile")

local root = gait.root()
local w, player = worldfile.load(root .. "/scripts/worlds/default.lua")

-- The tour: from each time (s) on, the camera's yaw (rad; 0 faces +z), the stick, held buttons
-- and the presses made at that moment.
local TOWER, LAKE = 0.0, 1.87   -- yaw towards the tower (+z), towards the lake's middle
local tour = {
  {t = 0.0,  yaw = TOWER, say = "stands on the plaza"},
  {t = 1.5,  yaw = TOWER, move = 1, press = {"walk"}, say = "walks (the walk switch)"},
  {t = 4.0,  yaw = TOWER, move = 1, press = {"walk"}, say = "runs"},
  {t = 7.0,  yaw = TOWER, move = 1, press = {"sprint"}, held = {"sprint"}, say = "dashes, then sprints"},
  {t = 8.5,  yaw = TOWER, move = 1, say = "runs"},
  {t = 9.5,  yaw = TOWER, move = 1, press = {"jump"}, say = "jumps"},
  {t = 10.5, yaw = TOWER, move = 1, say = "runs into the tower and climbs it"},
  {t = 15.5, yaw = TOWER, move = 0, press = {"drop"}, say = "drops from the wall"},
  {t = 15.9, yaw = TOWER + math.pi, move = 1, press = {"jump"}, say = "opens the glider"},
  {t = 21.0, yaw = LAKE, move = 1, say = "runs to the lake"},
  {t = 23.0, yaw = LAKE, move = 1, press = {"sprint"}, held = {"sprint"}, say = "sprints"},
  {t = 27.0, yaw = LAKE, move = 1, say = "runs"},
  {t = 42.0, yaw = LAKE, move = 1, press = {"sprint"}, held = {"sprint"}, say = "swim-dashes"},
  {t = 44.0, yaw = LAKE, move = 1, say = "swims"},
  {t = 50.0, yaw = LAKE + math.pi, move = 1, say = "swims back"},
  {t = 60.0, stop = true},
}

local seg, fired = 1, 0
local visited, order = {}, {}
local path = {}             -- x, z, state per step
local next_status = 0

local function status(t)
  local x, y, z = player:position()
  local state = player:state()
  local stamina = player:stamina()
  print(string.format("status t=%5.1f pos=%.2f,%.2f,%.2f state=%s stamina=%.1f", t, x, y, z,
    state, stamina))
end

local function frame(_, t)
  while tour[seg + 1] and t >= tour[seg + 1].t do seg = seg + 1 end
  local s = tour[seg]
  if s.stop then return false end
  local input = {move_y = s.move or 0, held = s.held or {}}
  if fired < seg then
    fired = seg
    input.pressed = s.press or {}
    if s.say then print(string.format("tour  t=%5.1f %s", t, s.say)) end
  end
  player:set_camera_yaw(s.yaw)
  player:set_input(input)
  if t >= next_status then
    status(t)
    next_status = next_status + 1
  end
end

local function step()
  local state = player:state()
  if not visited[state] then visited[state] = true; order[#order + 1] = state end
  local x, _, z = player:position()
  path[#path + 1] = {x, z, state}
end

-- Top-down picture: terrain shaded by height, water blue, landmarks grey, the path by state.
local COLORS = {
  idle = {255, 255, 255}, walk = {180, 255, 180}, run = {60, 220, 60}, dash = {255, 230, 0},
  sprint = {255, 160, 0}, crouch = {150, 120, 90}, jump = {0, 200, 255}, fall = {255, 60, 60},
  glide = {200, 80, 255}, plunge = {255, 0, 120}, climb = {255, 120, 40},
  climb_jump = {255, 200, 120}, swim = {0, 90, 255}, swim_dash = {0, 40, 180},
  drown = {20, 20, 20}, traverse = {255, 0, 255},
}

-- A 3x5 pixel font for the picture's legend and axes (lowercase, digits, + - _ space).
local GLYPHS = {
  a = ".#.#.#####.##.#", b = "##.#.###.#.###.", c = ".###..#..#...##", d = "##.#.##.##.###.",
  e = "####..##.#..###", f = "####..##.#..#..", g = ".###..#.##.#.##", h = "#.##.#####.##.#",
  i = "###.#..#..#.###", j = "..#..#..##.#.#.", k = "#.##.###.#.##.#", l = "#..#..#..#..###",
  m = "#.########.##.#", n = "##.#.##.##.##.#", o = ".#.#.##.##.#.#.", p = "##.#.###.#..#..",
  q = ".#.#.##.###..##", r = "##.#.###.#.##.#", s = ".###...#...###.", t = "###.#..#..#..#.",
  u = "#.##.##.##.####", v = "#.##.##.##.#.#.", w = "#.##.########.#", x = "#.##.#.#.#.##.#",
  y = "#.##.#.#..#..#.", z = "###..#.#.#..###", ["0"] = "####.##.##.####",
  ["1"] = ".#.##..#..#.###", ["2"] = "##...#.#.#..###", ["3"] = "##...#.#...###.",
  ["4"] = "#.##.####..#..#", ["5"] = "####..##...###.", ["6"] = ".###..####.####",
  ["7"] = "###..#.#..#..#.", ["8"] = "####.#####.####", ["9"] = "####.####..###.",
  ["+"] = "....#.###.#....", ["-"] = "......###......", ["_"] = "............###",
  [" "] = "...............",
}

local function put(px, w, h, x, y, c)
  if x >= 0 and x < w and y >= 0 and y < h then
    local i = (y * w + x) * 3
    px[i + 1], px[i + 2], px[i + 3] = c[1], c[2], c[3]
  end
end

local function text(px, w, h, x, y, str, c, scale)
  scale = scale or 2
  for n = 1, #str do
    local g = GLYPHS[str:sub(n, n)] or GLYPHS[" "]
    for row = 0, 4 do
      for col = 0, 2 do
        if g:sub(row * 3 + col + 1, row * 3 + col + 1) == "#" then
          for dy = 0, scale - 1 do
            for dx = 0, scale - 1 do put(px, w, h, x + col * scale + dx, y + row * scale + dy, c) end
          end
        end
      end
    end
    x = x + 4 * scale
  end
end

local function rect(px, w, h, x0, y0, x1, y1, c)
  for y = y0, y1 do for x = x0, x1 do put(px, w, h, x, y, c) end end
end

local function picture(file)
  local minx, maxx, minz, maxz = math.huge, -math.huge, math.huge, -math.huge
  for _, p in ipairs(path) do
    minx, maxx = math.min(minx, p[1]), math.max(maxx, p[1])
    minz, maxz = math.min(minz, p[2]), math.max(maxz, p[2])
  end
  local cx, cz = (minx + maxx) / 2, (minz + maxz) / 2
  local half = math.max(maxx - minx, maxz - minz) / 2 + 15
  local size = 512
  local legend = 150                       -- px to the right of the map: the state colours
  local width = size + legend
  local scale = 2 * half / size            -- m per pixel
  local px = {}
  for row = 0, size - 1 do
    -- seen from above with +z up: the runtime is right-handed with y up, so +x lies to the left
    local z = cz + half - (row + 0.5) * scale
    for col = 0, size - 1 do
      local x = cx + half - (col + 0.5) * scale
      local r, g, b = 40, 40, 40
      local h = w:terrain_height(x, z)
      if h then
        local k = math.max(0, math.min(1, (h - 0) / 40))
        r, g, b = 70 + 90 * k, 110 + 80 * k, 60 + 60 * k
        local hit = w:ray_cast({x, 200, z}, {0, -400, 0})
        if hit and not hit.terrain and hit.point[2] > h + 0.05 then r, g, b = 150, 150, 160 end
        local surface = w:water_at(x, z)
        if surface and surface > h then r, g, b = 40, 80, 170 end
      end
      local i = (row * width + col) * 3
      px[i + 1], px[i + 2], px[i + 3] = r, g, b
    end
    for col = size, width - 1 do
      local i = (row * width + col) * 3
      px[i + 1], px[i + 2], px[i + 3] = 24, 24, 28
    end
  end
  for _, p in ipairs(path) do
    local col = math.floor((cx + half - p[1]) / scale)
    local row = math.floor((cz + half - p[2]) / scale)
    local c = COLORS[p[3]] or {255, 255, 255}
    for dr = -1, 1 do
      for dc = -1, 1 do
        local rr, cc = row + dr, col + dc
        if rr >= 0 and rr < size and cc >= 0 and cc < size then
          local i = (rr * width + cc) * 3
          px[i + 1], px[i + 2], px[i + 3] = c[1], c[2], c[3]
        end
      end
    end
  end
  -- The legend: every state the tour visited, in its colour, in the order visited.
  local white = {235, 235, 235}
  text(px, width, size, size + 10, 10, "states", white)
  for k, state in ipairs(order) do
    local y = 14 + k * 16
    local c = COLORS[state] or white
    rect(px, width, size, size + 10, y, size + 20, y + 9, c)
    text(px, width, size, size + 28, y, state, white)
  end
  -- Axes, bottom left: +z up the picture, +x to the left (seen from above, y up, right-handed),
  -- and a bar of 20 m.
  local ox, oy, len = 40, size - 40, 30
  rect(px, width, size, ox, oy - len, ox + 1, oy, white)          -- +z
  text(px, width, size, ox - 6, oy - len - 14, "+z", white)
  rect(px, width, size, ox - len, oy, ox, oy + 1, white)          -- +x (to the left)
  text(px, width, size, ox - len - 4, oy + 6, "+x", white)
  local bar = math.floor(20 / scale + 0.5)
  rect(px, width, size, ox + 20, oy, ox + 20 + bar, oy + 1, white)
  rect(px, width, size, ox + 20, oy - 3, ox + 20, oy + 4, white)
  rect(px, width, size, ox + 20 + bar, oy - 3, ox + 20 + bar, oy + 4, white)
  text(px, width, size, ox + 20, oy + 8, "20 m", white)
  local bytes = {}
  for i = 1, #px do bytes[i] = string.char(math.floor(px[i])) end
  local ok, err = gait.image.write_png(file, width, size, 3, table.concat(bytes))
  if not ok then error(err, 0) end
  print(string.format("demo: picture of the path: %s (%d x %d px, %.2f m a pixel; seen from "
    .. "above, +z up, +x to the left; a legend of the states and a 20 m bar)", file, width, size, scale))
end

local function finish()
  status(w:step_count() * w:step_seconds())
  print("demo: states visited, in order: " .. table.concat(order, ", "))
  -- the picture is a file written: for the developer's own run (gait run --trusted), not for
  -- a scenario running sandboxed
  if gait.trusted() then
    picture(os.getenv("GAIT_DEMO_PICTURE") or (root .. "/build/demo-path.png"))
  else
    print("demo: no picture of the path (sandboxed; gait run --trusted writes it)")
  end
end

return {world = w, steps = 60 * 60, fps = 60, frame = frame, step = step, finish = finish,
        trace = {player}}
