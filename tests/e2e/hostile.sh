#!/bin/sh
# Hostile content in the GLFW sandbox, under Xvfb: the sandbox stays up, reports each attack as
# a script_error / world_error line and keeps the last good world, tuning and kits.
#
#   sh tests/e2e/hostile.sh BUILD_DIR
#
# From a temporary copy of lua/, scripts/ and shaders/, the sandbox starts with a kit that loops
# forever in on_presses (tests/hostile/scripts/hang_kit_on_presses.lua as scripts/kits/hostile.lua)
# while W is held. Then, one after another, each saved by rename as editors save:
#   the world file replaced by one that loops under pcall, one that runs os.execute, one whose
#   heightmap is a FIFO, one whose level crashes the importer, one that needs 2^20 characters'
#   memory; then the locomotion tuning replaced by one that loops. After each, the sandbox must
#   report it (the error names what happened), go on printing status lines, and keep the body on
#   the last good ground. Nothing may be written outside the build folder. One line per check,
#   then "N passed, N failed". Skips (0 passed, 0 failed) only without xvfb-run.
NAME=hostile-e2e
. "$(dirname "$0")/common.inc"
PWNED=/tmp/gait_hostile_pwned
if [ ! -x "$SANDBOX" ]; then
    give_up "sandbox-built" "($SANDBOX missing)"
fi
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"; rm -f "$PWNED"' EXIT INT TERM
rm -f "$PWNED"
ROOT="$TMP/root"
WORLDS="$ROOT/scripts/worlds"
cp "$REPO/tests/hostile/scripts/hang_kit_on_presses.lua" "$ROOT/scripts/kits/hostile.lua"
cp "$REPO/tests/hostile/levels/importer_segv.off" "$WORLDS/crash.off"
mkfifo "$WORLDS/fifo.png"
cp "$WORLDS/default.lua" "$TMP/good_world.lua"
cp "$ROOT/scripts/tuning/locomotion.lua" "$TMP/good_loco.lua"

# the hostile world files: each keeps the good file's requires and returns its data, changed
cat >"$TMP/w_loop.lua" <<'EOF2'
while true do pcall(function() while true do end end) end
EOF2
cat >"$TMP/w_exec.lua" <<'EOF2'
os.execute("touch /tmp/gait_hostile_pwned")
return {}
EOF2
sed 's/heightmap = "[^"]*"/heightmap = "fifo.png"/' "$TMP/good_world.lua" >"$TMP/w_fifo.lua"
sed 's/^return {$/return { level = "crash.off",/' "$TMP/good_world.lua" >"$TMP/w_level.lua"
cat >"$TMP/w_memory.lua" <<'EOF2'
local w, err = require("gait").world.new{max_characters = 1048576}
if not w then error(err, 0) end
return {}
EOF2
printf 'while true do end\n' >"$TMP/t_loop.lua"

cat >"$TMP/drive.sh" <<'EOF2'
#!/bin/sh
SANDBOX=$1; ROOT=$2; TMP=$3
LOG="$TMP/log"; WORLD="$ROOT/scripts/worlds/default.lua"; LOCO="$ROOT/scripts/tuning/locomotion.lua"
printf '0.1 key w down\n' >"$TMP/track"
"$SANDBOX" --root "$ROOT" --kit hostile --status-interval 0.2 --size 640x360 --input "$TMP/track" >"$LOG" 2>"$TMP/err" &
pid=$!
echo "pid $pid" >"$TMP/marks"
wait_for() { n=0; while ! grep -q "$1" "$LOG" 2>/dev/null; do n=$((n + 1)); [ $n -gt "$2" ] && return 1; sleep 0.1; done; }
count() { grep -c "$1" "$LOG" 2>/dev/null; }
mark() { echo "$1 $(wc -l <"$LOG")" >>"$TMP/marks"; }
# wait until one more error line than before has come, then a little more
settle() { before=$1; n=0; while [ "$(count '_error')" -le "$before" ] && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done; sleep 1.2; }
wait_for '^status' 100 || { kill $pid; exit 1; }
sleep 1.5
mark start
for w in loop exec fifo level memory; do
    mark "world_$w"
    e=$(count '_error')
    cp "$TMP/w_$w.lua" "$WORLD.new" && mv "$WORLD.new" "$WORLD"
    settle "$e"
done
mark tuning_loop
e=$(count '_error')
cp "$TMP/t_loop.lua" "$LOCO.new" && mv "$LOCO.new" "$LOCO"
settle "$e"
mark end
sleep 0.5
alive=0; kill -0 $pid 2>/dev/null && alive=1
echo "alive $alive" >>"$TMP/marks"
kill $pid; wait $pid 2>/dev/null
exit 0
EOF2
timeout 120 xvfb-run -a -s '-screen 0 1280x720x24' sh "$TMP/drive.sh" "$SANDBOX" "$ROOT" "$TMP" >"$TMP/xvfb.out" 2>&1
require_sandbox_ran

# the kit: its endless on_presses stopped by the budget, named by file and line, once
err=$(grep '^script_error' "$LOG" | grep 'hostile' | head -n 1)
echo "$err" | grep -q 'hostile.lua:[0-9]*: instruction budget'
check "kit-loop-stopped" $? "(${err:-no script_error})"

# one segment per attack: the error says what happened, the status lines go on, the body stays
# on the last good ground (its height moves by no more than a step's worth of running)
attack() { # name, segment start, segment end, text the error must hold
    s=$(seg "$2" "$3")
    err=$(echo "$s" | grep '_error' | head -n 1)
    echo "$err" | grep -qF -- "$4"
    check "$1-reported" $? "(${err:-no error line})"
    n=$(echo "$s" | grep -c '^status ')
    [ "$n" -ge 3 ]
    check "$1-sandbox-goes-on" $? "($n status lines after it)"
}
attack "world-loop" world_loop world_exec "instruction budget"
attack "world-os-execute" world_exec world_fifo "execute"
attack "world-heightmap-fifo" world_fifo world_level "FIFO"
attack "world-level-crashes-importer" world_level world_memory "crashed"
attack "world-memory" world_memory tuning_loop "not enough memory"
attack "tuning-loop" tuning_loop end "instruction budget"

first=$(sed -n "1,$(mark world_loop)p" "$LOG" | grep '^status ' | tail -n 1)
last=$(seg tuning_loop end | grep '^status ' | tail -n 1)
y0=$(field "$first" pos | cut -d, -f2); y1=$(field "$last" pos | cut -d, -f2)
st=$(field "$last" state)
awk -v a="$y0" -v b="$y1" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && d < 30) }' &&
    [ "$st" != fall ]
check "last-good-world-kept" $? "(y $y0 -> $y1, state $st)"
[ "$(awk '$1 == "alive" { print $2 }' "$TMP/marks")" = 1 ]
check "sandbox-still-running" $? ""
[ ! -e "$PWNED" ]
check "nothing-written" $? ""

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
