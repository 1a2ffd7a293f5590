#!/bin/sh
# make pending: runs the tests of known bugs (tests/pending/README.md) and prints each one's result.
# They fail until their fix lands; a test that passes is ready to move to tests/scenarios/,
# tests/unit/ or tests/replays/. Exits 0 either way (these are not part of make test); logs in
# $BUILD/test-logs/pending-*.log.
BUILD=${BUILD:-build}
LOGS="$BUILD/test-logs"
mkdir -p "$LOGS"
passed=0
failed=0

tally() { # log file: adds its closing "N passed, N failed" line
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -n 1)
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-1}))
}

# Lua scenarios, through the headless runner as tests/scenarios/ are run
"$BUILD/gait" test tests/pending >"$LOGS/pending-scenarios.log" 2>&1
grep -E '^(ok|FAIL) ' "$LOGS/pending-scenarios.log"
tally "$LOGS/pending-scenarios.log"

# C tests, built like tests/unit/
for t in "$BUILD"/pending/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    CHECK_VERBOSE=1 "$t" >"$LOGS/pending-$name.log" 2>&1
    grep -E '^(ok|FAIL) ' "$LOGS/pending-$name.log" | sed -E "s#^(ok|FAIL) +#\1 $name: #"
    tally "$LOGS/pending-$name.log"
done

# fuzzer replays: each names the liveness invariant it breaks (its meta turns the checks on)
if ls tests/pending/replays/*.replay >/dev/null 2>&1; then
    "$BUILD/tests/test_fuzz_body" --replay tests/pending/replays/*.replay \
        >"$LOGS/pending-replays.log" 2>&1
    grep -E '^(ok|FAIL) ' "$LOGS/pending-replays.log"
    tally "$LOGS/pending-replays.log"
fi

echo "pending: $passed passed (ready to move), $failed failed (still pending)"
exit 0
