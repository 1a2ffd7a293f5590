#!/bin/sh
# The party's slots carry the kits that move the body (under Xvfb): key 1 gives the updraft leap
# (E rises, the glider opens at the top), key 3 the dash to a target (E lunges), key 4 the
# alternate sprint (Shift: a dash with its own cost, 10 stamina, not 18). One line per check, then
# "N passed, N failed". The alternate sprint goes first, on a full pool: no refill can run between
# the run's start and the dash's (a slow frame under load would let one add to the reading).
#
#   sh tests/e2e/party_kits.sh BUILD_DIR
NAME=party_kits
. "$(dirname "$0")/common.inc"
cat >"$TMP/track" <<'EOF2'
0.3 key 4 tap
0.6 key w down
0.8 key lshift tap
1.4 key w up
2.0 key 3 tap
2.3 key e tap
3.2 key 1 tap
3.5 key e tap
5.5 quit
EOF2
timeout 40 xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$TMP/root" --size 640x360 \
    --status-interval 0.1 --input "$TMP/track" >"$TMP/log" 2>&1
log="$TMP/log"
first_action=$(grep -n '^status .*action=updraft' "$log" | head -n 1 | cut -d: -f1)
glide=$(grep -n '^state .*from=action to=glide' "$log" | head -n 1 | cut -d: -f1)
[ -n "$first_action" ] && [ -n "$glide" ]
check "slot1-updraft-rises-then-glides" $? "(lines $first_action, $glide)"
grep -q '^status .*action=updraft' "$log"
check "slot1-action-named" $? "(status action=updraft)"
grep -q '^status .*action=lunge' "$log"
check "slot3-dash-lunges" $? "(status action=lunge)"
before=$(field "$(grep '^state .*to=run' "$log" | head -n 1)" stamina)
after=$(field "$(grep '^state .*to=dash' "$log" | head -n 1)" stamina)
# 10 at the press, then 15/s for the steps the frame that started it ran (a frame runs at most 8
# steps: up to 2 more); the run's own dash would take 18
awk -v a="$before" -v b="$after" 'BEGIN { exit !(a != "" && b != "" && a - b >= 10 && a - b <= 12) }'
check "slot4-alternate-sprint-costs-its-own" $? "(stamina $before -> $after as the dash starts: 10 + 15/s, not 18)"
grep -q '^script_error' "$log"
[ $? -ne 0 ]
check "no-script-error" $? "$(grep -m1 '^script_error' "$log" | cut -c1-160)"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
