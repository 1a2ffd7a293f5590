#!/bin/sh
# The body benchmark: gait's body mover against Rapier's KCC, Jolt's CharacterVirtual (WASM) and
# three.js Octree + Capsule on the meadow scene (docs/meadow-v1.md), then one table.
#   sh scripts/bench_body.sh            quick: 100 characters, 1 repetition each (~1 min)
#   FULL=1 sh scripts/bench_body.sh     the scene's 1000 characters, 3 repetitions (~15 min, 2 cores)
# Peers are npm-installed (pinned in tests/bench/peers/body_package.json) into $BUILD/peers/body;
# node_modules is never committed. GAIT_BENCH_NO_PEERS=1 runs gait's side only.
BUILD=${BUILD:-build}
OUT="$BUILD/bench/body"
PEERS="$BUILD/peers/body"
SCENE="$BUILD/bench/meadow"
mkdir -p "$OUT"
rm -f "$OUT"/*.json
if [ -n "${FULL:-}" ]; then CHARS=1000; REPS=3; FEW=250; else CHARS=100; REPS=1; FEW=25; fi

if [ ! -f "$SCENE.json" ]; then
    "$BUILD/bench/meadow_gen" --chars 1000 --out "$SCENE" || { echo "bench_body: no scene"; exit 1; }
fi

status=0
run() { echo "  $*" >&2; "$@" >/dev/null || status=1; }
echo "== bench_body ($CHARS characters, $REPS repetitions; FULL=1 for the whole run)"
run "$BUILD/gait" bench --scene "$SCENE" --chars $CHARS --reps $REPS --out "$OUT/gait.json"
run "$BUILD/gait" bench --scene "$SCENE" --chars $CHARS --reps $REPS --tess 2 --out "$OUT/gait-x4.json"
run "$BUILD/gait" bench --scene "$SCENE" --chars $FEW --reps $REPS --out "$OUT/gait-few.json"
run "$BUILD/gait" bench --scene "$SCENE" --chars $CHARS --reps $REPS --variant mesh --out "$OUT/gait-mesh.json"

peers=1
if [ -n "${GAIT_BENCH_NO_PEERS:-}" ]; then peers=0
elif ! command -v node >/dev/null 2>&1; then echo "bench_body: node not found, peers skipped"; peers=0
else
    mkdir -p "$PEERS"
    cp tests/bench/peers/body_*.mjs "$PEERS/"
    if ! cmp -s tests/bench/peers/body_package.json "$PEERS/package.json" || [ ! -d "$PEERS/node_modules/jolt-physics" ]; then
        cp tests/bench/peers/body_package.json "$PEERS/package.json"
        echo "bench_body: npm install --prefix $PEERS"
        npm install --prefix "$PEERS" --no-audit --no-fund --loglevel=error >/dev/null || {
            echo "bench_body: npm install failed, peers skipped"; peers=0; }
    fi
fi
if [ $peers = 1 ]; then
    cp tests/bench/peers/body_*.mjs "$PEERS/"
    run node "$PEERS/body_three.mjs" --scene "$SCENE" --chars $CHARS --reps $REPS --out "$OUT/three.json"
    run node "$PEERS/body_jolt.mjs" --variant mesh --scene "$SCENE" --chars $CHARS --reps $REPS --out "$OUT/jolt-mesh.json"
    run node "$PEERS/body_jolt.mjs" --variant heightfield --scene "$SCENE" --chars $CHARS --reps $REPS --out "$OUT/jolt-heightfield.json"
    run node "$PEERS/body_rapier.mjs" --scene "$SCENE" --chars $CHARS --reps $REPS --out "$OUT/rapier.json"
fi
if command -v node >/dev/null 2>&1; then
    cp tests/bench/peers/body_report.mjs tests/bench/peers/body_common.mjs "$PEERS/" 2>/dev/null || true
    node tests/bench/peers/body_report.mjs --scene "$SCENE" "$OUT"/*.json || status=1
else
    cat "$OUT"/*.json
fi
exit $status
