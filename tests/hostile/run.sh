#!/bin/sh
# The hostile-script corpus through the headless runner, as a user would meet it:
#   gait run FILE          every script whose header says "as: ... scenario"
#   gait run (world file)  every "as: ... world" file, loaded by a scenario through gait.worldfile
#   gait replay FILE       every tests/hostile/replays/*.replay ("meta expect" says the error)
#   files that are not files: a FIFO as the scenario and as the replay
# Each must end on its own (no timeout, no signal) with exit 1 and the expected error (exit 0
# for "expect: ok"), and nothing may be written outside the build folder. One line per check,
# then "N passed, N failed".
#
#   sh tests/hostile/run.sh BUILD_DIR
BUILD=${1:-build}
GAIT="$BUILD/gait"
CORPUS=tests/hostile
PWNED=/tmp/gait_hostile_pwned
BUDGET=30000000 # the files' budget here: short, so the corpus runs in seconds

. "$(dirname "$0")/../e2e/check.inc"

if [ ! -x "$GAIT" ]; then give_up "gait-built" "($GAIT missing)"; fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gait-hostile.XXXXXX")
trap 'rm -rf "$TMP"; rm -f "$PWNED" "$PWNED.png"' EXIT INT TERM
rm -f "$PWNED" "$PWNED.png"

header() { # file, key
    sed -n "1,6s/^-- $2: //p" "$1" | head -n 1
}

# name, expected ("ok" or text), command...: runs it with a time limit and judges the ending
judge() {
    name=$1; expect=$2; shift 2
    timeout 60 "$@" >"$TMP/out" 2>&1
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -gt 128 ]; then
        check "$name" 1 "(did not end on its own: exit $rc)"
    elif [ "$expect" = "ok" ]; then
        [ $rc -eq 0 ]; check "$name" $? "(exit $rc)"
    elif [ $rc -ne 1 ]; then
        check "$name" 1 "(exit $rc, wanted 1)"
    elif grep -qF -- "$expect" "$TMP/out"; then
        check "$name" 0
    else
        check "$name" 1 "(the error does not say \"$expect\": $(head -c 300 "$TMP/out" | tr '\n' ' '))"
    fi
    if [ -e "$PWNED" ] || [ -e "$PWNED.png" ]; then
        check "$name-wrote-nothing" 1 "(it wrote $PWNED)"
        rm -f "$PWNED" "$PWNED.png"
    fi
}

for f in "$CORPUS"/scripts/*.lua; do
    as=$(header "$f" as)
    expect=$(header "$f" expect)
    base=$(basename "$f" .lua)
    case " $as " in *" scenario "*)
        judge "run-$base" "$expect" "$GAIT" run "$f" --budget $BUDGET --steps 30 ;;
    esac
    case " $as " in *" world "*)
        scenario="$TMP/world_$base.lua"
        printf 'local w = require("gait.worldfile").load("%s/%s")\nreturn {world = w, steps = 3}\n' \
            "$(pwd)" "$f" >"$scenario"
        # a world file that returns no terrain or spawn still loads: "ok" files and the rest
        # must end with their error either way
        judge "world-$base" "$expect" "$GAIT" run "$scenario" --budget $BUDGET ;;
    esac
done

for r in "$CORPUS"/replays/*.replay; do
    expect=$(sed -n 's/^meta expect //p' "$r" | head -n 1)
    judge "replay-$(basename "$r" .replay)" "$expect" "$GAIT" replay "$r"
done

# files that are not files: a FIFO never blocks the runner
mkfifo "$TMP/fifo.lua" "$TMP/fifo.replay"
judge "run-fifo-scenario" "FIFO" "$GAIT" run "$TMP/fifo.lua"
judge "replay-fifo" "FIFO" "$GAIT" replay "$TMP/fifo.replay"
judge "run-directory" "directory" "$GAIT" run "$TMP"

# the default budget holds too (a scenario that loops, with no --budget)
judge "run-default-budget" "instruction budget" "$GAIT" run "$CORPUS/scripts/hang_pcall_loop.lua"

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
