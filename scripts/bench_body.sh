#!/bin/sh
# The body benchmark: gait's body mover and its whole character step against Rapier's KCC, Jolt's
# CharacterVirtual (WASM) and three.js Octree + Capsule, on two scenes (format meadow-v1, docs/meadow-v1.md):
#   meadow  terrain + 400 boxes: gait with its heightfield, and with every triangle as one mesh;
#   level   a level with no terrain, every triangle a mesh (runtime/cli/scene_level.h: rooms, stairs,
#           ramps, pillars, arches, fences, props);
# then one table per scene.
#   sh scripts/bench_body.sh            quick: 100 characters, 1 repetition each (~2 min)
#   FULL=1 sh scripts/bench_body.sh     the scenes' 1000 characters, 3 repetitions (~30 min, 2 cores)
# Peers are npm-installed (pinned in tests/bench/peers/body_package.json) into $BUILD/peers/body;
# node_modules is never committed. GAIT_BENCH_NO_PEERS=1 runs gait's side only.
BUILD=${BUILD:-build}
OUT="$BUILD/bench/body"
PEERS="$BUILD/peers/body"
MEADOW="$BUILD/bench/meadow"
LEVEL="$BUILD/bench/level"
mkdir -p "$OUT"
rm -f "$OUT"/*.json
if [ -n "${FULL:-}" ]; then CHARS=1000; REPS=3; FEW=250; else CHARS=100; REPS=1; FEW=25; fi

# the scenes, written afresh (deterministic, under a second each) so they match this build's generator
"$BUILD/bench/meadow_gen" --chars 1000 --out "$MEADOW" >/dev/null || { echo "bench_body: no meadow scene"; exit 1; }
"$BUILD/bench/meadow_gen" --level --chars 1000 --out "$LEVEL" >/dev/null || { echo "bench_body: no level scene"; exit 1; }

status=0
run() { echo "  $*" >&2; "$@" >/dev/null || status=1; }
echo "== bench_body ($CHARS characters, $REPS repetitions; FULL=1 for the whole run)"
G="$BUILD/gait"
run "$G" bench --scene "$MEADOW" --chars $CHARS --reps $REPS --whole --out "$OUT/meadow-gait.json"
run "$G" bench --scene "$MEADOW" --chars $CHARS --reps $REPS --tess 2 --out "$OUT/meadow-gait-x4.json"
run "$G" bench --scene "$MEADOW" --chars $FEW --reps $REPS --out "$OUT/meadow-gait-few.json"
run "$G" bench --scene "$MEADOW" --chars $CHARS --reps $REPS --variant mesh --whole --out "$OUT/meadow-gait-mesh.json"
run "$G" bench --scene "$LEVEL" --chars $CHARS --reps $REPS --whole --out "$OUT/level-gait.json"
run "$G" bench --scene "$LEVEL" --chars $CHARS --reps $REPS --tess 2 --out "$OUT/level-gait-x4.json"

. scripts/peers_body.sh
body_peers bench_body
if [ $peers = 1 ]; then
    cp tests/bench/peers/body_*.mjs "$PEERS/"
    for sc in meadow level; do
        S="$BUILD/bench/$sc"
        run node "$PEERS/body_three.mjs" --scene "$S" --chars $CHARS --reps $REPS --out "$OUT/$sc-three.json"
        run node "$PEERS/body_jolt.mjs" --variant mesh --scene "$S" --chars $CHARS --reps $REPS --out "$OUT/$sc-jolt-mesh.json"
        [ $sc = meadow ] && run node "$PEERS/body_jolt.mjs" --variant heightfield --scene "$S" --chars $CHARS --reps $REPS --out "$OUT/$sc-jolt-heightfield.json"
        run node "$PEERS/body_rapier.mjs" --scene "$S" --chars $CHARS --reps $REPS --out "$OUT/$sc-rapier.json"
    done
fi
if command -v node >/dev/null 2>&1; then
    node tests/bench/peers/body_report.mjs --scene "$MEADOW" "$OUT"/meadow-*.json --scene "$LEVEL" "$OUT"/level-*.json || status=1
else
    cat "$OUT"/*.json
fi
exit $status
