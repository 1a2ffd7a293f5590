#!/bin/sh
# End-to-end test of the GLFW sandbox under Xvfb, driven by xdotool like a player.
#
#   sh tests/e2e/sandbox.sh BUILD_DIR
#
# Starts BUILD_DIR/gait-sandbox on the default world (from a temporary copy of lua/, scripts/
# and shaders/, so the test can break a tuning file without touching the repo), turns the camera
# with the mouse, holds W, taps Space, holds Space (auto-repeat must not be a press), dashes
# with Left Shift, takes an F12 screenshot,
# then breaks a tuning file while the sandbox runs. Reads the sandbox's status lines:
#   status t=… pos=x,y,z state=… stamina=… fps=… frame_ms=… runtime_ms=… cam_yaw=… …
#   state t=… from=… to=… stamina=…
#   script_error t=… file:line: message
# Then a headless run: --frames, --screenshot and an --input track; then a replay recorded at
# --fps 144 and played back by `gait replay` and `gait-sandbox --replay` (equal state hashes).
# One line per check, then "N passed, N failed". Without xvfb-run it cannot run: that is a
# failure, never a quiet pass.
BUILD=${1:-build}
case "$BUILD" in /*) ;; *) BUILD="$(pwd)/$BUILD" ;; esac
SANDBOX="$BUILD/gait-sandbox"
REPO=$(cd "$(dirname "$0")/../.." && pwd)

if ! command -v xvfb-run >/dev/null 2>&1; then
    echo "FAIL xvfb-run is not installed (apt-get install xvfb xauth, or make deps): the sandbox"
    echo "     cannot be shown, so nothing of it was tested"
    echo "0 passed, 1 failed"
    exit 1
fi

. "$(dirname "$0")/check.inc"

if [ ! -x "$SANDBOX" ]; then give_up "sandbox-built" "($SANDBOX missing: is libglfw3-dev installed?)"; fi
for tool in xdotool convert; do
    if ! command -v $tool >/dev/null 2>&1; then
        give_up "tool-$tool" "($tool is not installed: make deps)"
    fi
done

TMP=$(mktemp -d "${TMPDIR:-/tmp}/gait-e2e.XXXXXX")
trap '[ -n "$KEEP" ] || rm -rf "$TMP"' EXIT INT TERM
mkdir -p "$TMP/root" "$TMP/run"
cp -R "$REPO/lua" "$REPO/scripts" "$REPO/shaders" "$TMP/root/"

# 1. No display: a plain message and a non-zero exit (scripts/run.sh then plays the demo).
out=$(env -u DISPLAY -u WAYLAND_DISPLAY "$SANDBOX" --root "$TMP/root" 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "no display"
check "no-display-says-so" $? "(exit $rc)"

# 2. The driven session, inside one Xvfb. Writes marks (line counts of the log) to $TMP/marks.
cat >"$TMP/drive.sh" <<'EOF'
#!/bin/sh
SANDBOX=$1; ROOT=$2; RUN=$3
LOG="$RUN/log"; MARKS="$RUN/marks"
cd "$RUN" || exit 1
"$SANDBOX" --root "$ROOT" --status-interval 0.2 >"$LOG" 2>"$RUN/err" &
pid=$!
echo "pid $pid" >"$MARKS"
mark() { echo "$1 $(wc -l <"$LOG")" >>"$MARKS"; }
wait_for() { # pattern, tenths of a second
    n=0
    while ! grep -q "$1" "$LOG" 2>/dev/null; do
        n=$((n + 1)); [ $n -gt "$2" ] && return 1; sleep 0.1
    done
}
if ! timeout 10 xdotool search --sync --name '^gait' >"$RUN/window" 2>/dev/null; then
    echo "window none" >>"$MARKS"; kill "$pid" 2>/dev/null; exit 1
fi
echo "window $(head -n 1 "$RUN/window")" >>"$MARKS"
wait_for '^status' 50 || { kill "$pid"; exit 1; }
sleep 0.5
mark mouse;     xdotool mousemove_relative -- 150 0; sleep 0.5
mark w_down;    xdotool keydown w; sleep 2.0
mark w_up;      xdotool keyup w; sleep 0.5
mark space;     xdotool key space; sleep 1.2
mark hold;      xdotool keydown space; sleep 1.4; xdotool keyup space; sleep 0.4
mark dash;      xdotool keydown w; sleep 0.3; xdotool keydown Shift_L; sleep 1.0
                xdotool keyup Shift_L; xdotool keyup w; sleep 0.4
mark shot;      xdotool key F12; sleep 0.8
mark break
# A syntax error in the (temporary) tuning file while the sandbox runs: hot reload must report
# it with file:line and keep the last good numbers running.
printf 'return {\n  provisional = {\n    walk_speed = = 1.9,\n' >"$ROOT/scripts/tuning/locomotion.lua"
wait_for '^script_error' 40
sleep 0.6
mark end
kill "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
exit 0
EOF
start=$(date +%s)
timeout 60 xvfb-run -a -s '-screen 0 1280x720x24' sh "$TMP/drive.sh" "$SANDBOX" "$TMP/root" "$TMP/run" \
    >"$TMP/xvfb.out" 2>&1
rc=$?
LOG="$TMP/run/log"
MARKS="$TMP/run/marks"
elapsed=$(( $(date +%s) - start ))

grep -q '^window [0-9]' "$MARKS" 2>/dev/null
check "window-found" $? "(xdotool search --name '^gait')"
grep -q '^status ' "$LOG" 2>/dev/null
check "status-lines" $? "($(grep -c '^status ' "$LOG" 2>/dev/null || echo 0) lines, session ${elapsed}s, drive exit $rc)"
if ! grep -q '^status ' "$LOG" 2>/dev/null; then
    echo "--- sandbox stderr:"; tail -n 20 "$TMP/run/err" 2>/dev/null
    echo "--- xvfb-run:"; tail -n 20 "$TMP/xvfb.out"
    echo "$pass passed, $fail failed"
    exit 1
fi

mark() { awk -v k="$1" '$1 == k { print $2 }' "$MARKS"; }
# The last status line at or before a mark (a line number of the log), as "key=value" words.
status_at() { head -n "$1" "$LOG" | grep '^status ' | tail -n 1; }
# The first status line after line N.
status_after() { tail -n +"$(( $1 + 1 ))" "$LOG" | grep '^status ' | head -n 1; }
field() { echo "$1" | tr ' ' '\n' | awk -F= -v k="$2" '$1 == k { print $2 }'; }
lines_between() { sed -n "$(( $1 + 1 )),$2p" "$LOG"; }

# 3. The mouse turns the camera (right: the yaw decreases).
y0=$(field "$(status_at "$(mark mouse)")" cam_yaw); y1=$(field "$(status_at "$(mark w_down)")" cam_yaw)
res=$(awk -v a="$y0" -v b="$y1" 'BEGIN { print (b < a - 0.1) ? 0 : 1 }')
check "mouse-turns-camera" "$res" "(cam_yaw $y0 -> $y1)"

# 4. W held two seconds, the camera turned: moved forward along the camera's yaw.
a=$(status_at "$(mark w_down)"); b=$(status_at "$(mark w_up)")
res=$(awk -v p0="$(field "$a" pos)" -v p1="$(field "$b" pos)" -v yaw="$(field "$a" cam_yaw)" 'BEGIN {
    split(p0, u, ","); split(p1, v, ",");
    dx = v[1] - u[1]; dz = v[3] - u[3];
    fx = sin(yaw); fz = cos(yaw);
    along = dx * fx + dz * fz; across = dx * fz - dz * fx; if (across < 0) across = -across;
    ok = (along > 3 && across < 0.2 * along) ? 0 : 1;  # 2 s at 5.6 m/s, slack for a loaded machine
    printf "%d along=%.2fm across=%.2fm yaw=%.3f", ok, along, across, yaw }')
check "w-moves-along-camera-yaw" "${res%% *}" "(${res#* })"

# 5. Space: a jump (state line to=jump, and the feet rose).
seg=$(lines_between "$(mark space)" "$(mark hold)")
echo "$seg" | grep -q '^state .*to=jump'
jumped=$?
y0=$(field "$(status_at "$(mark space)")" pos | cut -d, -f2)
ymax=$(echo "$seg" | grep '^status ' | while read -r l; do field "$l" pos | cut -d, -f2; done | sort -g | tail -n 1)
rose=$(awk -v a="$y0" -v b="${ymax:-$y0}" 'BEGIN { print (b - a > 0.2) ? 0 : 1 }')
[ $jumped -eq 0 ] && [ "$rose" -eq 0 ]
check "space-jumps" $? "(y $y0 -> max ${ymax:-?})"

# 5b. Space held 1.4 s (the X server auto-repeats it after ~0.66 s): one press, one jump.
jumps=$(lines_between "$(mark hold)" "$(mark dash)" | grep -c '^state .*to=jump')
[ "$jumps" -eq 1 ]
check "held-key-repeat-is-not-a-press" $? "($jumps jumps while Space was held)"

# 6. Left Shift while running: a dash that spends stamina (18 as it starts).
seg=$(lines_between "$(mark dash)" "$(mark shot)")
echo "$seg" | grep -q '^state .*to=dash'
dashed=$?
smin=$(echo "$seg" | grep -E '^(status|state) ' | while read -r l; do field "$l" stamina; done | sort -g | head -n 1)
spent=$(awk -v s="${smin:-100}" 'BEGIN { print (s < 99) ? 0 : 1 }')
[ $dashed -eq 0 ] && [ "$spent" -eq 0 ]
check "shift-dashes-and-spends-stamina" $? "(min stamina ${smin:-?})"

# 7. F12: a screenshot that is not blank: sky colours up top, terrain colours below.
shot=$(ls "$TMP"/run/gait-shot-*.png 2>/dev/null | head -n 1)
if [ -n "$shot" ]; then
    px() { convert "$shot" -format "%[pixel:p{$1,$2}]" info: 2>/dev/null; }
    rgb() { echo "$1" | sed -E 's/[^0-9,.]//g'; }
    sky=1
    for p in "640,90" "400,120" "880,120" "640,150"; do
        c=$(rgb "$(px "${p%,*}" "${p#*,}")")
        echo "$c" | awk -F, '{ exit !($3 > 150 && $3 > $1 + 30) }' && sky=0 && break
    done
    ground=1
    for p in "160,600" "1100,600" "300,680" "980,690"; do
        c=$(rgb "$(px "${p%,*}" "${p#*,}")")
        echo "$c" | awk -F, '{ exit !($2 > $3 && $2 > 60) }' && ground=0 && break
    done
    colours=$(convert "$shot" -format '%k' info: 2>/dev/null)
    [ "$sky" -eq 0 ] && [ "$ground" -eq 0 ] && [ "${colours:-0}" -gt 500 ]
    check "screenshot-not-blank" $? "($colours colours, sky $sky, terrain $ground; $(basename "$shot"))"
    cp "$shot" "$BUILD/e2e-sandbox-shot.png" 2>/dev/null
else
    check "screenshot-not-blank" 1 "(F12 wrote no gait-shot-*.png)"
fi

# 8. Timing fields on the status line.
last=$(grep '^status ' "$LOG" | tail -n 1)
fps=$(field "$last" fps); fms=$(field "$last" frame_ms); rms=$(field "$last" runtime_ms)
[ -n "$fps" ] && [ -n "$fms" ] && [ -n "$rms" ]
check "status-has-timings" $? "(fps=$fps frame_ms=$fms runtime_ms=$rms)"

# 9. A broken tuning file while running: the error with file:line, and the sandbox goes on.
seg=$(lines_between "$(mark break)" "$(mark end)")
err=$(echo "$seg" | grep '^script_error' | head -n 1)
echo "$err" | grep -Eq 'locomotion\.lua:[0-9]+'
check "script-error-reported-with-file-line" $? "(${err:-no script_error line})"
after=$(echo "$seg" | sed -n '/^script_error/,$p' | grep -c '^status ')
[ "${after:-0}" -gt 0 ]
check "keeps-running-after-script-error" $? "($after status lines after the error)"

# 10. Headless flags: --input plays a track, --frames ends the run, --screenshot writes the PNG.
printf '0.2 key space tap\n' >"$TMP/track"
timeout 30 xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$TMP/root" --frames 45 \
    --screenshot "$TMP/headless.png" --input "$TMP/track" >"$TMP/headless.log" 2>&1
rc=$?
[ $rc -eq 0 ] && [ -s "$TMP/headless.png" ] && grep -q '^state .*to=jump' "$TMP/headless.log" &&
    grep -q '^status .*frame=45 ' "$TMP/headless.log"
check "headless-frames-screenshot-input" $? "(exit $rc)"

# 11. Replays: record a run at --fps 144 driven by a track (W held, a jump, a dash), then play it
# back headless (gait replay) and in the sandbox (--replay): the same final state hash all round.
cp "$REPO/scripts/tuning/locomotion.lua" "$TMP/root/scripts/tuning/"   # broken by step 9
cat >"$TMP/replay-track" <<'EOF2'
0.1 key w down
0.5 key space tap
1.4 key lshift down
1.6 key lshift up
2.0 key w up
2.2 quit
EOF2
timeout 30 xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$TMP/root" --fps 144 \
    --size 640x360 --input "$TMP/replay-track" --record "$TMP/run.replay" >"$TMP/record.log" 2>&1
rc=$?
rec=$(grep '^record_done ' "$TMP/record.log" | tail -n 1)
h_rec=$(field "$rec" hash); n_rec=$(field "$rec" frames)
[ $rc -eq 0 ] && [ -n "$h_rec" ] && [ "${n_rec:-0}" -gt 0 ] && [ -s "$TMP/run.replay" ] &&
    grep -q '^state .*to=jump' "$TMP/record.log" && grep -q '^state .*to=dash' "$TMP/record.log"
check "record-144fps-jump-dash" $? "(exit $rc, hash=${h_rec:-?} frames=${n_rec:-?})"
h_cli=$("$BUILD/gait" replay "$TMP/run.replay" --root "$TMP/root" 2>"$TMP/gait-replay.err" |
    awk '/^state hash: / { print $3 }')
[ -n "$h_rec" ] && [ "$h_cli" = "$h_rec" ]
check "gait-replay-same-hash" $? "(gait replay ${h_cli:-none: $(head -n 1 "$TMP/gait-replay.err")}, recorded $h_rec)"
timeout 30 xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$TMP/root" --fps 0 \
    --size 640x360 --replay "$TMP/run.replay" >"$TMP/replay.log" 2>&1
rc=$?
done_line=$(grep '^replay_done ' "$TMP/replay.log" | tail -n 1)
h_sb=$(field "$done_line" hash); n_sb=$(field "$done_line" frames)
[ $rc -eq 0 ] && [ -n "$h_rec" ] && [ "$h_sb" = "$h_rec" ] && [ "$n_sb" = "$n_rec" ]
check "sandbox-replay-same-hash" $? "(exit $rc, sandbox ${h_sb:-none} frames=${n_sb:-?}, recorded $h_rec)"
# A malformed replay: a clear error naming the file, a non-zero exit (before any window opens).
head -n 5 "$TMP/run.replay" >"$TMP/bad.replay"
out=$("$SANDBOX" --root "$TMP/root" --replay "$TMP/bad.replay" 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "bad.replay:[0-9]"
check "malformed-replay-error" $? "(exit $rc: $(echo "$out" | head -n 1))"
out=$("$SANDBOX" --root "$TMP/root" --record "$TMP/no/such/dir/x.replay" 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q "no/such/dir/x.replay"
check "unwritable-record-error" $? "(exit $rc: $out)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
