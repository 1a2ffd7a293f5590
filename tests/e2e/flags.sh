#!/bin/sh
# The sandbox's flags say what is wrong with them, and screenshots neither overwrite nor fail
# quietly (under Xvfb).
#
#   sh tests/e2e/flags.sh BUILD_DIR
#
# A bad number (--frames abc, --fps 6O, --render-scale 2, --place 1,2) is an error naming the
# flag, exit 2, before any window; a --screenshot that cannot be written makes the run exit 1;
# F12 numbers its files past the ones already there. One line per check, then
# "N passed, N failed".
NAME=flags
. "$(dirname "$0")/common.inc"

for bad in "--frames abc" "--frames 0" "--fps 6O" "--render-scale 2" "--status-interval 0" \
           "--place 1,2" "--size 12x" "--shot-frame -3"; do
    flag=${bad%% *}
    out=$(env -u DISPLAY "$SANDBOX" --root "$TMP/root" $bad 2>&1)
    rc=$?
    [ $rc -eq 2 ] && echo "$out" | grep -q -- "$flag"
    check "rejects $bad" $? "(exit $rc: $(echo "$out" | head -n 1))"
done

cd "$TMP" || exit 1
out=$(timeout 30 xvfb-run -a -s '-screen 0 640x360x24' "$SANDBOX" --root "$TMP/root" --size 320x200 --frames 3 \
      --screenshot "$TMP/no/such/dir/shot.png" 2>&1)
rc=$?
[ $rc -eq 1 ] && echo "$out" | grep -q 'no/such/dir/shot.png'
check "unwritable-screenshot-exits-1" $? "(exit $rc: $(echo "$out" | grep shot.png | head -n 1))"

: >"$TMP/gait-shot-001.png"
: >"$TMP/gait-shot-002.png"
printf '0.2 key f12 tap\n0.6 key f12 tap\n1.0 quit\n' >"$TMP/track"
timeout 30 xvfb-run -a -s '-screen 0 640x360x24' "$SANDBOX" --root "$TMP/root" --size 320x200 \
    --input "$TMP/track" >"$TMP/log" 2>&1
[ ! -s "$TMP/gait-shot-001.png" ] && [ ! -s "$TMP/gait-shot-002.png" ] && [ -s "$TMP/gait-shot-003.png" ] &&
    [ -s "$TMP/gait-shot-004.png" ]
check "f12-numbers-past-existing-shots" $? "($(grep '^screenshot' "$TMP/log" | sed 's/.* //' | tr '\n' ' '))"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
