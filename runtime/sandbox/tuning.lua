-- The sandbox's view of the tuning in force (loaded by runtime/sandbox/tuning.c into the Lua
-- layer's state): every number a body moves by, with its unit, range and where it comes from
-- (file, block, line; provisional or the body type's own measured entry), what a reload changed,
-- and writing one number back into its file without touching the rest of the text.
--
-- Numbers come from the runtime (w:locomotion, w:measured, gait.tuning.schema/files); the files
-- are only read as text to find a key's line and block, and written by replacing the number's
-- characters (or adding one line to the block when the key was inherited), so the layout and
-- the comments stay as the designer wrote them.
local gait = require("gait")

local M = {}

M.types = {"medium_female", "medium_male", "tall_female", "tall_male", "short_female"}

-- w:locomotion's table flattened: "run_speed", "costs.dash".
local function flatten(t, out, prefix)
  for k, v in pairs(t) do
    if type(v) == "table" then flatten(v, out, prefix .. k .. ".") else out[prefix .. k] = v end
  end
  return out
end

function M.snapshot(w)
  local s = {}
  for _, bt in ipairs(M.types) do
    s[bt] = {numbers = flatten(w:locomotion(bt), {}, ""), measured = w:measured(bt)}
  end
  return s
end

-- Which tuning file holds a key ("locomotion", "gates", "stamina"), from the schema's words.
local function file_of(entry)
  return entry.file:match("^(%w+)%.lua")
end

-- Every key and its schema entry, sorted by file then by the schema's own name order.
local order_cache
local function keys()
  if order_cache then return order_cache end
  local schema = gait.tuning.schema()
  local list = {}
  for name, e in pairs(schema) do
    local file = file_of(e)
    list[#list + 1] = {key = file == "stamina" and "costs." .. name or name, name = name,
                       file = file, min = e.min, max = e.max, unit = e.unit}
  end
  local rank = {locomotion = 1, gates = 2, stamina = 3}
  table.sort(list, function(a, b)
    if a.file ~= b.file then return rank[a.file] < rank[b.file] end
    return a.key < b.key
  end)
  order_cache = list
  return list
end

-- ---- the files as text --------------------------------------------------------------------

local function read(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local s = f:read("*a")
  f:close()
  return s
end

-- Every `key = number` of a tuning file: {block = "provisional", key = "run_speed", line = 17,
-- from = byte, to = byte} (block "" is the returned table itself; nested blocks join with
-- "."); also the first line of each block ({block = ..., open = line, indent = "    "}).
-- Comments are skipped ("--" to the end of the line, and --[[ ]]); strings are stepped over.
function M.scan(text)
  local found, blocks = {}, {}
  local stack = {}
  local i, n, line = 1, #text, 1
  local pending_name -- an identifier followed by "=" just before a "{"
  local function block_name()
    local parts = {}
    for k = 2, #stack do parts[#parts + 1] = stack[k] end
    return table.concat(parts, ".")
  end
  while i <= n do
    local c = text:sub(i, i)
    if c == "\n" then
      line = line + 1; i = i + 1
    elseif text:sub(i, i + 3) == "--[[" then
      local e = text:find("]]", i + 4, true) or n
      for _ in text:sub(i, e):gmatch("\n") do line = line + 1 end
      i = e + 2
    elseif text:sub(i, i + 1) == "--" then
      local e = text:find("\n", i, true) or n + 1
      i = e
    elseif c == '"' or c == "'" then
      local j = i + 1
      while j <= n and text:sub(j, j) ~= c and text:sub(j, j) ~= "\n" do
        if text:sub(j, j) == "\\" then j = j + 1 end
        j = j + 1
      end
      i = j + 1
    elseif c == "{" then
      stack[#stack + 1] = pending_name or "?"
      if pending_name then
        local ls = text:sub(1, i):match(".*\n()") or 1
        blocks[block_name()] = {open = line, indent = text:sub(ls, n):match("^([ \t]*)")}
      end
      pending_name = nil
      i = i + 1
    elseif c == "}" then
      stack[#stack] = nil; pending_name = nil; i = i + 1
    elseif c:match("[%a_]") then
      local id, after = text:match("^([%a_][%w_]*)()", i)
      local eq = text:match("^[ \t]*=()", after)
      if eq and text:sub(eq, eq) ~= "=" then
        local num_from, num, num_to = text:match("^[ \t]*()(-?[%d%.][%w%.%+%-]*)()", eq)
        if num_from and tonumber(num) and #stack >= 1 then
          found[#found + 1] = {block = block_name(), key = id, line = line,
                               from = num_from, to = num_to - 1}
          i = num_to
        else
          pending_name = (text:match("^[ \t\n]*{", eq)) and id or nil
          i = eq
        end
      else
        if id == "return" then pending_name = "" end
        i = after
      end
    else
      i = i + 1
    end
  end
  return found, blocks
end

local function locate(path, block, key)
  local text = read(path)
  if not text then return nil end
  local found, blocks = M.scan(text)
  for _, f in ipairs(found) do
    if f.block == block and f.key == key then return f, text, blocks end
  end
  return nil, text, blocks
end

-- ---- where a number comes from ------------------------------------------------------------

-- The block of its file a key of the body type `bt` is read from, and whether that block sets
-- it itself (false: inherited from provisional, or the built-in default).
local function source(w, bt, k, files)
  local path = files[k.file]
  if k.file == "locomotion" then
    local name = k.key
    if w:measured(bt) then
      local f = path and locate(path, bt, name)
      if f then return path, bt, f.line, true end
    end
    local f = path and locate(path, "provisional", name)
    return path, "provisional", f and f.line, f ~= nil
  elseif k.file == "gates" then
    local f = path and locate(path, "", k.name)
    return path, "", f and f.line, f ~= nil
  else
    local f = path and locate(path, "costs", k.name)
    return path, "costs", f and f.line, f ~= nil
  end
end

-- The numbers in force for a body type, each {key, value, min, max, unit, file (path), block,
-- line, set (the block sets it), measured (the body type has its own entry)}.
function M.view(w, bt)
  local files = gait.tuning.files()
  local numbers = flatten(w:locomotion(bt), {}, "")
  local measured = w:measured(bt)
  local rows = {}
  for _, k in ipairs(keys()) do
    local path, block, line, set = source(w, bt, k, files)
    rows[#rows + 1] = {key = k.key, value = numbers[k.key], min = k.min, max = k.max,
                       unit = k.unit, file = path or (k.file .. ".lua"), block = block,
                       line = line or 0, set = set, measured = measured and block == bt,
                       group = k.file}
  end
  return rows
end

-- ---- what a reload changed ----------------------------------------------------------------

local function fmt(v) return string.format("%.6g", v) end

-- Lines like "locomotion.lua: medium_female.run_speed 5.6 → 7.0" for every number that
-- changed between two snapshots; a provisional change the current body does not follow
-- because its own entry sets the key says which block wins.
function M.diff(before, after, current)
  local out, seen = {}, {}
  local files = gait.tuning.files()
  local byname = {}
  for _, k in ipairs(keys()) do byname[k.key] = k end
  local provisional_type
  for _, bt in ipairs(M.types) do
    if not after[bt].measured then provisional_type = provisional_type or bt end
  end
  local function base(path) return (path or ""):match("([^/]+)$") or path end
  for _, bt in ipairs(M.types) do
    for key, v in pairs(after[bt].numbers) do
      local old = before[bt] and before[bt].numbers[key]
      local k = byname[key]
      if k and old and old ~= v then
        local block
        if k.file == "locomotion" then
          block = after[bt].measured and bt or "provisional"
        elseif k.file == "gates" then
          block = nil
        else
          block = "costs"
        end
        local id = (block and block .. "." or "") .. k.name
        if not seen[id] then
          seen[id] = true
          out[#out + 1] = string.format("%s: %s %s → %s", base(files[k.file]) or k.file .. ".lua",
                                        id, fmt(old), fmt(v))
        end
      end
    end
  end
  -- A provisional number changed while the current body, measured, kept its own.
  if provisional_type and current and after[current] and after[current].measured then
    for key, v in pairs(after[provisional_type].numbers) do
      local old = before[provisional_type] and before[provisional_type].numbers[key]
      local mine = after[current].numbers[key]
      local k = byname[key]
      if k and k.file == "locomotion" and old and old ~= v and mine ~= v then
        local f = files.locomotion and locate(files.locomotion, current, key)
        out[#out + 1] = string.format(
          "  the current body (%s) has its own %s = %s%s: that block wins, the provisional edit does not move it",
          current, key, fmt(mine), f and string.format(" (%s:%d)", base(files.locomotion), f.line) or "")
      end
    end
  end
  table.sort(out, function(a, b)
    local ia, ib = a:sub(1, 2) == "  ", b:sub(1, 2) == "  "
    if ia ~= ib then return ib end
    return a < b
  end)
  return out
end

-- ---- live edits and writing back ----------------------------------------------------------

-- Applies one number to the world now (not to the file): to the body type's own entry when
-- that is where it comes from, else to the provisional numbers (and so to every type that
-- moves by them). A key of gates.lua or stamina.lua applies to every type, as the files do.
function M.apply(w, bt, key, value)
  local k
  for _, e in ipairs(keys()) do if e.key == key then k = e end end
  if not k then return nil, "unknown key " .. tostring(key) end
  local t = {}
  if k.file == "stamina" then t.costs = {[k.name] = value} else t[k.name] = value end
  -- A locomotion key the body type's own entry sets goes there alone; otherwise provisional
  -- changes, and with it every measured type that does not set the key itself (for gates.lua
  -- and stamina.lua keys: every measured type).
  local path = k.file == "locomotion" and gait.tuning.files().locomotion or nil
  local function own(other) return path ~= nil and locate(path, other, key) ~= nil end
  if k.file == "locomotion" and w:measured(bt) and own(bt) then return w:set_locomotion(bt, t) end
  local ok, err = w:set_provisional_locomotion(t)
  if not ok then return nil, err end
  for _, other in ipairs(M.types) do
    if w:measured(other) and not own(other) then
      ok, err = w:set_locomotion(other, t)
      if not ok then return nil, err end
    end
  end
  return true
end

-- Writes value for key (as row.block holds it, or would) into its file: the number's own
-- characters replaced, or a new line added at the top of the block when the block did not set
-- it. Written to a temporary file then renamed, so a reader never sees half a file.
-- Returns path, line | nil, message.
function M.write(path, block, key, value)
  local name = key:match("[^.]+$")
  local f, text, blocks = locate(path, block, name)
  if not text then return nil, path .. ": cannot read" end
  local literal = fmt(value)
  if not literal:find("[%.e]") then literal = literal .. ".0" end
  local new, line
  if f then
    new = text:sub(1, f.from - 1) .. literal .. text:sub(f.to + 1)
    line = f.line
  else
    local b = blocks[block]
    if not b then return nil, string.format("%s: no block %q to put %s in", path, block, name) end
    -- after the line that opens the block, indented one step more than it
    local pos, l = 1, 1
    while l <= b.open do pos = (text:find("\n", pos, true) or #text) + 1; l = l + 1 end
    local indent = b.indent .. "  "
    local body = text:sub(pos):match("^([ \t]+)[%a_]")
    if body then indent = body end
    new = text:sub(1, pos - 1) .. string.format("%s%s = %s,  -- set in the sandbox's tuning panel\n",
                                                 indent, name, literal) .. text:sub(pos)
    line = b.open + 1
  end
  local tmp = path .. ".tmp"
  local out, err = io.open(tmp, "wb")
  if not out then return nil, err end
  out:write(new)
  out:close()
  local ok, why = os.rename(tmp, path)
  if not ok then os.remove(tmp); return nil, why end
  return path, line
end

return M
