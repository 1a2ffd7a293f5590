-- The headless frame loop behind `gait run FILE.lua`.
--
-- A scenario file builds a world and returns a table (or nothing, and then it has simply run):
--   world   the world to run (gait.world.new())                                    required
--   steps   fixed steps to run (default 600; --steps overrides)
--   fps     frames per second the input is fed at (default 60; --fps overrides)
--   frame   function(frame, t, dt): set input for this frame (t = s since the start);
--           return false to stop early
--   step    function(step): after each fixed step
--   finish  function(): after the last step (checks, prints)
--   trace   list of characters to trace (default: every character of the world)
-- Each frame: frame() -> gait.poll() (hot reload) -> kits read the held presses -> the whole
-- fixed steps due, one trace row per character per step.
--
-- The scenario is untrusted unless the caller says otherwise (opts.trusted, `gait run
-- --trusted`): it is loaded sandboxed (gait.sandbox), its chunk and each of its callbacks run
-- under the file budget, and the runner reads its table raw (no metamethod of it runs here).
local gait = require("gait")
local sandbox = require("gait.sandbox")
local M = {}

local TRACE_HEADER = "step,time,character,x,y,z,vx,vy,vz,yaw,state,state_seconds,stamina," ..
  "grounded,rising,wall,wall_ahead,height_above_ground,water_depth,action\n"

local function b(v) return v and 1 or 0 end

local function trace_row(out, step, t, ch)
  local info = ch:info()
  local p, v, c = info.position, info.velocity, info.contact
  out:write(string.format("%d,%.6f,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%s,%.6f,%.6f,%d,%d,%d,%d,%.6f,%.6f,%s\n",
    step, t, info.id, p[1], p[2], p[3], v[1], v[2], v[3], info.yaw, info.state,
    info.state_seconds, info.stamina, b(c.grounded), b(c.rising), b(c.wall), b(c.wall_ahead),
    c.height_above_ground, c.water_depth, info.action or ""))
end

-- The scenario's callbacks: called as they are when trusted, else through sandbox.call.
local function caller(trusted)
  if trusted then return function(fn, ...) return fn(...) end end
  return function(fn, ...)
    local res = {sandbox.call(fn, ...)}
    if not res[1] then error(res[2], 0) end
    return unpack(res, 2, table.maxn(res))
  end
end

-- Runs a scenario; opts = {steps, fps, trace (path), trusted}. Returns the exit code (0).
function M.run(path, opts)
  opts = opts or {}
  local call = caller(opts.trusted)
  local chunk, err
  if opts.trusted then chunk, err = loadfile(path) else chunk, err = sandbox.loadfile(path) end
  if not chunk then error(err, 0) end
  local scenario = call(chunk, path)
  if scenario == nil then return 0 end
  if type(scenario) ~= "table" then
    error(string.format("%s: a scenario returns a table (or nothing), not a %s", path,
      type(scenario)), 0)
  end
  local function field(name, kind)
    local v = rawget(scenario, name)
    if v ~= nil and type(v) ~= kind then
      error(string.format("%s: the scenario's %s is a %s, not a %s", path, name, type(v), kind), 0)
    end
    return v
  end
  local w = field("world", "userdata")
  if not w then
    error(path .. ": the scenario table needs world = gait.world.new()", 0)
  end
  local on_frame, on_step, on_finish = field("frame", "function"), field("step", "function"),
    field("finish", "function")
  local steps = opts.steps or field("steps", "number") or 600
  local fps = opts.fps or field("fps", "number") or 60
  if not (steps >= 1 and fps > 0 and fps <= 100000) then
    error(path .. ": steps must be >= 1 and fps in (0, 100000]", 0)
  end
  local dt = 1 / fps
  local traced = field("trace", "table")
  if traced then
    local list = {}
    for i, ch in ipairs(traced) do
      if type(ch) ~= "userdata" then error(string.format("%s: trace[%d] is not a character", path, i), 0) end
      list[i] = ch
    end
    traced = list
  end
  local out
  if opts.trace then
    out = assert(io.open(opts.trace, "w"))
    out:write(TRACE_HEADER)
  end
  local traced = scenario.trace
  local step_seconds = w:step_seconds()
  -- the runner keeps its own clock (same step and cap as the world's) so it can stop after
  -- exactly `steps` steps; headless, nothing is drawn, so the world's blend alpha is unused
  local clock = gait.clock.new{step_seconds = step_seconds,
    max_steps_per_frame = w:max_steps_per_frame()}
  local done, frame = 0, 0
  while done < steps do
    frame = frame + 1
    if on_frame and call(on_frame, frame, (frame - 1) * dt, dt) == false then break end
    gait.poll()
    w:run_kits(dt)
    local n = clock:advance(dt)
    for _ = 1, math.min(n, steps - done) do
      w:step()
      done = done + 1
      if on_step then call(on_step, done) end
      if out then
        local t = w:step_count() * step_seconds
        for _, ch in ipairs(traced or w:characters()) do
          if ch:valid() then trace_row(out, done, t, ch) end
        end
      end
    end
  end
  if out then out:close() end
  if on_finish then call(on_finish) end
  return 0
end

-- The CLI's door: string arguments from argv ("1" in trusted: the host's own scenario).
function M.run_cli(path, steps, fps, trace, trusted)
  return M.run(path, {steps = tonumber(steps), fps = tonumber(fps), trace = trace,
    trusted = trusted == "1"})
end

return M
