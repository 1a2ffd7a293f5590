#!/bin/sh
# Controls as data, and the gamepad path (under Xvfb).
#
#   sh tests/e2e/controls.sh BUILD_DIR
#
# 1. A virtual gamepad driven by an input track (pad events go through the same code as a real
#    pad: scripts/controls.lua's gamepad map, dead zone, stick to move): the left stick pushed
#    up runs the body forward, A jumps, RB dashes (stamina spent), RT is the kit's skill.
# 2. scripts/controls.lua rebinds: jump on J instead of Space, the mouse twice as sensitive
#    (the camera turns twice as far for the same move); saved while running, it is reloaded
#    (Space jumps again); a broken file names its line and keeps the last good controls.
# One line per check, then "N passed, N failed".
NAME=controls
. "$(dirname "$0")/common.inc"
run() { # log, track, extra args...
    log=$1; track=$2; shift 2
    timeout 40 xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$TMP/root" --size 640x360 \
        --status-interval 0.1 --input "$track" "$@" >"$log" 2>&1
}

# 1. The gamepad path.
cat >"$TMP/pad" <<'EOF2'
0.3 pad left_y -1.0
1.0 pad a tap
2.2 pad rb tap
3.0 pad left_y 0
3.4 pad rt tap
4.2 quit
EOF2
run "$TMP/pad.log" "$TMP/pad"
log="$TMP/pad.log"
z0=$(field "$(grep '^status ' "$log" | head -n 1)" pos | cut -d, -f3)
z1=$(field "$(grep '^status ' "$log" | awk -F'[ =]' '{ for (i = 1; i < NF; i++) if ($i == "t" && $(i + 1) + 0 <= 0.95) l = $0 } END { print l }')" pos | cut -d, -f3)
awk -v a="$z0" -v b="$z1" 'BEGIN { exit !(b - a > 1.5) }'
check "pad-stick-runs-forward" $? "(z $z0 -> $z1 in the first second)"
grep -q '^state .*to=jump' "$log"
check "pad-a-jumps" $? "($(grep -c '^state .*to=jump' "$log") jumps)"
smin=$(grep -E '^(status|state) ' "$log" | while read -r l; do field "$l" stamina; done | sort -g | head -n 1)
grep -q '^state .*to=dash' "$log" && awk -v s="$smin" 'BEGIN { exit !(s < 99) }'
check "pad-rb-dashes" $? "($(grep -c '^state .*to=dash' "$log") dashes, min stamina $smin)"
grep -q '^status .*action=skill' "$log"
check "pad-rt-skill" $? "(the kit's skill action after RT)"

# 2. Rebound controls: jump on J, mouse twice as sensitive.
sed -e 's/jump = "space",/jump = "j",/' -e 's/sensitivity = 0.0030,/sensitivity = 0.0060,/' \
    "$REPO/scripts/controls.lua" >"$TMP/root/scripts/controls.lua"
cat >"$TMP/keys" <<'EOF2'
0.4 mouse 100 0
0.9 key space tap
1.5 key j tap
5.0 key space tap
6.0 quit
EOF2
(
    # saved while the sandbox runs: Space back on jump, and later a mistake on line 10 or so
    sleep 3.2
    cp "$REPO/scripts/controls.lua" "$TMP/root/scripts/controls.lua"
) &
run "$TMP/keys.log" "$TMP/keys"
wait
log="$TMP/keys.log"
grep -q '^controls .*sensitivity 0.0060' "$log"
check "controls-file-read" $? "($(grep '^controls ' "$log" | head -n 1 | cut -c1-100))"
y0=$(field "$(grep '^status ' "$log" | head -n 1)" cam_yaw)
y1=$(field "$(grep '^status ' "$log" | awk -F'[ =]' '{ for (i = 1; i < NF; i++) if ($i == "t" && $(i + 1) + 0 <= 0.85) l = $0 } END { print l }')" cam_yaw)
awk -v a="$y0" -v b="$y1" 'BEGIN { d = a - b; exit !(d > 0.55 && d < 0.65) }'
check "sensitivity-from-file" $? "(100 px turned the camera $y0 -> $y1: 0.6 rad at 0.006 rad/px)"
jumps_at() { grep '^state .*to=jump' "$log" | sed 's/^state t=\([0-9.]*\).*/\1/' | tr '\n' ' '; }
j=$(jumps_at)
echo "$j" | awk '{ n = 0; for (i = 1; i <= NF; i++) { if ($i > 0.8 && $i < 1.4) bad = 1; if ($i > 1.4 && $i < 2.5) n++ } exit !(n == 1 && !bad) }'
check "rebound-jump-key" $? "(jumps at: $j; Space at 0.9 s must not, J at 1.5 s must)"
grep -q '^controls .*reloaded' "$log" &&
    echo "$j" | awk '{ for (i = 1; i <= NF; i++) if ($i > 4.9) ok = 1; exit !ok }'
check "controls-hot-reload" $? "($(grep -c '^controls .*reloaded' "$log") reloads; jumps at $j)"

# A broken controls file: its line and key named, the last good controls kept.
sed 's/jump = "a",/jump = "triangle",/' "$REPO/scripts/controls.lua" >"$TMP/root/scripts/controls.lua"
printf '0.5 key space tap\n1.5 quit\n' >"$TMP/bad"
run "$TMP/bad.log" "$TMP/bad"
err=$(grep '^controls_error' "$TMP/bad.log" | head -n 1)
line=$(grep -n 'jump = "triangle"' "$TMP/root/scripts/controls.lua" | cut -d: -f1)
echo "$err" | grep -q "controls.lua:$line: gamepad.jump: 'triangle' is not a gamepad button" &&
    grep -q '^state .*to=jump' "$TMP/bad.log"
check "broken-controls-file" $? "(${err:-no controls_error}; wanted line $line; Space still jumps)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
