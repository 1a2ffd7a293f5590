#!/bin/sh
# Real game levels: Quake III Arena maps from OpenArena (Debian's openarena-081-maps), written as
# meadow-v1 scenes by build/bench/q3_level (docs/meadow-v1.md, "A game's map"), then gait's mover
# and whole step beside three.js, Jolt and Rapier on each: one table per map
# (tests/bench/peers/body_report.mjs). Levels no one here made, of 3k to 25k triangles.
#   sh scripts/bench_levels.sh                  quick: 100 characters, 1 repetition, six maps
#   FULL=1 sh scripts/bench_levels.sh           1000 characters, 3 repetitions
#   MAPS="oa_dm1 delta" sh scripts/bench_levels.sh
# The maps (40 MB) and unzip are installed with apt-get when missing and this runs as root;
# otherwise the section says what is missing and stops (exit 0: the rest of make bench goes on).
# GAIT_BENCH_NO_PEERS=1 runs gait's side only.
BUILD=${BUILD:-build}
OUT="$BUILD/bench/levels"
PEERS="$BUILD/peers/body"
PK3=/usr/share/games/openarena/baseoa/pak1-maps.pk3
MAPS=${MAPS:-"aggressor oa_dm4 oa_dm1 oa_rpg3dm2 kaos2 delta"}
if [ -n "${FULL:-}" ]; then CHARS=1000; REPS=3; else CHARS=100; REPS=1; fi

echo "== bench_levels ($CHARS characters, $REPS repetitions; Quake III maps: $MAPS)"
need=""
[ -f "$PK3" ] || need="$need openarena-081-maps"
command -v unzip >/dev/null 2>&1 || need="$need unzip"
if [ -n "$need" ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "bench_levels: apt-get install$need"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need >/dev/null 2>&1 ||
            { apt-get update -q >/dev/null 2>&1 &&
              DEBIAN_FRONTEND=noninteractive apt-get install -y -q $need >/dev/null 2>&1; }
    fi
    if [ ! -f "$PK3" ] || ! command -v unzip >/dev/null 2>&1; then
        echo "bench_levels: needs Debian's$need (apt-get install$need, as root): skipped"
        exit 0
    fi
fi
[ -x "$BUILD/bench/q3_level" ] || { echo "bench_levels: $BUILD/bench/q3_level not built (make bench)"; exit 1; }
mkdir -p "$OUT/maps"
rm -f "$OUT"/*.json

status=0
run() { echo "  $*" >&2; "$@" >/dev/null || status=1; }
. scripts/peers_body.sh
body_peers bench_levels

report=""
for m in $MAPS; do
    unzip -o -q -d "$OUT/maps" "$PK3" "maps/$m.bsp" || { echo "bench_levels: no maps/$m.bsp in $PK3"; status=1; continue; }
    S="$OUT/$m"
    "$BUILD/bench/q3_level" --bsp "$OUT/maps/maps/$m.bsp" --chars 1000 --out "$S" || { status=1; continue; }
    run "$BUILD/gait" bench --scene "$S" --variant mesh --chars $CHARS --reps $REPS --whole --out "$OUT/$m-gait.json"
    if [ $peers = 1 ]; then
        run node "$PEERS/body_three.mjs" --scene "$S" --chars $CHARS --reps $REPS --out "$OUT/$m-three.json"
        run node "$PEERS/body_jolt.mjs" --variant mesh --scene "$S" --chars $CHARS --reps $REPS --out "$OUT/$m-jolt.json"
        run node "$PEERS/body_rapier.mjs" --scene "$S" --chars $CHARS --reps $REPS --out "$OUT/$m-rapier.json"
    fi
    report="$report --scene $S $OUT/$m-*.json"
done
if [ -n "$report" ] && command -v node >/dev/null 2>&1; then
    # shellcheck disable=SC2086 # the list is word-split on purpose
    node tests/bench/peers/body_report.mjs $report || status=1
elif [ -n "$report" ]; then
    cat "$OUT"/*-gait.json
fi
exit $status
