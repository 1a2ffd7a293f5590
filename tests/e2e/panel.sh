#!/bin/sh
# The tuning panel (F2, Dear ImGui) under Xvfb.
#
#   sh tests/e2e/panel.sh BUILD_DIR
#
# Opens the panel (F2: it draws over the scene; the cursor is freed), changes the current
# body's run_speed through the panel's edit path (an input track's `panel set`, the same code a
# drag runs) while W is held: the body's speed follows at once. Then `panel write`: the number
# goes into its own block of locomotion.lua (medium_female's line), every other line of the
# file unchanged, and the hot reload that follows reports no number changed. A number the body
# inherits (provisional walk_speed) written from the panel goes to the provisional block. Two
# events due at the same time are both played (a frame holds one of each action).
# One line per check, then "N passed, N failed".
NAME=panel
. "$(dirname "$0")/common.inc"
LOCO="$TMP/root/scripts/tuning/locomotion.lua"

cat >"$TMP/track" <<'EOF2'
0.2 key f2 tap
0.4 screenshot SHOT
0.4 screenshot SHOT2
0.5 key w down
1.5 panel set run_speed 7.5
3.5 panel write run_speed
4.5 panel set walk_speed 2.25
4.6 panel write walk_speed
6.5 quit
EOF2
sed -i "s|SHOT2|$TMP/panel2.png|; s|SHOT\$|$TMP/panel.png|" "$TMP/track"
timeout 60 xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$TMP/root" --status-interval 0.1 \
    --input "$TMP/track" --screenshot "$TMP/closed.png" --shot-frame 2 >"$TMP/log" 2>&1
rc=$?
log="$TMP/log"
grep -q '^panel .*open' "$log" && [ -s "$TMP/panel.png" ]
if [ -s "$TMP/panel.png" ]; then
    # The panel is a dark window on the right half; the same spot shows sky or grass without it.
    c=$(convert "$TMP/panel.png" -crop 300x200+900+300 -colorspace gray -format '%[fx:mean]' info:)
    awk -v c="$c" 'BEGIN { exit !(c < 0.3) }'
    check "panel-drawn" $? "(mean grey $c where the panel is)"
else
    check "panel-drawn" 1 "(no screenshot; exit $rc: $(tail -n 3 "$log" | tr '\n' ' '))"
fi
# two events due in one frame (the same time): both played, in order, a frame apart
[ -s "$TMP/panel.png" ] && [ -s "$TMP/panel2.png" ]
check "same-time-events-all-played" $? "($(grep -c '^screenshot .*panel2\?\.png' "$log") of 2 screenshots)"
grep -q '^panel_set .*medium_female run_speed 5.6 -> 7.5' "$log"
check "panel-set-applies" $? "($(grep '^panel_set' "$log" | head -n 1))"
# the last status line before the panel's edit, and the last before the next edit (walk_speed,
# which a run does not read; W held all along: a slow machine's frames may put the write in the
# frame after the edit, so the write is no mark)
nset=$(grep -n '^panel_set ' "$log" | head -n 1 | cut -d: -f1)
nnext=$(grep -n '^panel_set .*walk_speed' "$log" | head -n 1 | cut -d: -f1)
before=$(head -n "${nset:-0}" "$log" | grep '^status ' | tail -n 1)
after=$(head -n "${nnext:-0}" "$log" | grep '^status ' | tail -n 1)
awk -v a="$(field "$before" speed)" -v b="$(field "$after" speed)" 'BEGIN { exit !(a > 5.4 && a < 5.8 && b > 7.3 && b < 7.7) }'
check "body-speed-follows-the-panel" $? "(speed $(field "$before" speed) before, $(field "$after" speed) after)"

w=$(grep '^panel_write .*run_speed' "$log" | head -n 1)
line=$(grep -n 'run_speed = 7.5,' "$LOCO" | cut -d: -f1)
mf=$(grep -n 'medium_female = {' "$LOCO" | cut -d: -f1)
changed=$(diff "$REPO/scripts/tuning/locomotion.lua" "$LOCO" | grep -c '^[<>]')
echo "$w" | grep -q "locomotion.lua:$line medium_female.run_speed = 7.5" && [ "$line" -gt "$mf" ] &&
    sed -n "${line}p" "$LOCO" | grep -q -- '-- m/s, provisional (to be frame-counted'
check "panel-write-keeps-the-file" $? "($w; line $line after medium_female at $mf, comment kept; $changed diff lines so far)"
rel=$(grep '^reload ' "$log" | head -n 1)
echo "$rel" | grep -q '0 numbers changed'
check "write-then-reload-changes-nothing" $? "($rel)"
w2=$(grep '^panel_write .*walk_speed' "$log" | head -n 1)
pl=$(grep -n 'walk_speed = 2.25,' "$LOCO" | cut -d: -f1)
pv=$(grep -n 'provisional = {' "$LOCO" | cut -d: -f1)
changed=$(diff "$REPO/scripts/tuning/locomotion.lua" "$LOCO" | grep -c '^>')
echo "$w2" | grep -q "provisional.walk_speed = 2.25" && [ "$pl" -gt "$pv" ] && [ "$pl" -lt "$mf" ] && [ "$changed" -eq 2 ]
check "inherited-number-goes-to-provisional" $? "($w2; line $pl; $changed lines of the file changed in all)"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
