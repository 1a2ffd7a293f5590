#!/bin/sh
# Runs every test program and sums their closing lines into one "N passed, N failed".
#   unit tests:      $BUILD/tests/test_*            (C, tests/unit)
#   scenario tests:  $BUILD/gait test tests/scenarios/*.lua   (Lua, headless runner)
#   hostile corpus:  tests/hostile/run.sh                       (the CLI; the C API: test_hostile)
#   e2e tests:       tests/e2e/*.sh                  (sandbox under Xvfb; skipped in sanitizer builds)
#   layers, docs:    tests/layers.sh, tests/docs.sh  (include rules; the docs' numbers)
# Each program's own output is kept in $BUILD/test-logs/; failures are printed.
BUILD=${BUILD:-build}
LOGS="$BUILD/test-logs"
mkdir -p "$LOGS"
total_pass=0
total_fail=0
suites_failed=""

run_suite() { # name, command...
    name=$1; shift
    log="$LOGS/$name.log"
    "$@" >"$log" 2>&1
    rc=$?
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    if [ -z "$line" ]; then
        echo "$name: no summary line (exit $rc); last lines:"; tail -n 20 "$log" | sed 's/^/  /'
        total_fail=$((total_fail + 1)); suites_failed="$suites_failed $name"; return
    fi
    p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
    f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
    # a suite that ran nothing tested nothing: it fails, it does not pass
    if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then echo "$name: ran no test"; f=1; fi
    total_pass=$((total_pass + p)); total_fail=$((total_fail + f))
    printf '%-28s %s\n' "$name" "$line"
    if [ "$f" -ne 0 ]; then
        grep -E 'FAIL|error|Error|ERROR|panic' "$log" | head -n 40 | sed 's/^/  /'
        suites_failed="$suites_failed $name"
    fi
}

for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    run_suite "$(basename "$t")" "$t"
done

if [ -x "$BUILD/gait" ] && ls tests/scenarios/*.lua >/dev/null 2>&1; then
    run_suite scenarios "$BUILD/gait" test tests/scenarios
fi

# the include rules of docs/design.md, and docs/behaviour.md's numbers against the schema
run_suite layers sh tests/layers.sh
run_suite docs sh tests/docs.sh "$BUILD"

# the hostile-script corpus through the CLI (gait run, gait replay); the C API's side is
# test_hostile above, the sandbox's tests/e2e/hostile.sh
if [ -x "$BUILD/gait" ] && [ -f tests/hostile/run.sh ]; then
    run_suite hostile-cli sh tests/hostile/run.sh "$BUILD"
fi

if [ "${SAN:-}" != "1" ]; then
    for e in tests/e2e/*.sh; do
        [ -f "$e" ] || continue
        run_suite "e2e-$(basename "$e" .sh)" sh "$e" "$BUILD"
    done
fi

[ -n "$suites_failed" ] && echo "failing:$suites_failed"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
