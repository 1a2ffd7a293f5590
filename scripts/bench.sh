#!/bin/sh
# Benchmarks: each section runs one program from $BUILD/bench and prints its own table.
# Peers (other engines, through node) are installed into $BUILD/peers on first use; set
# GAIT_BENCH_NO_PEERS=1 to run gait's side only. Add new sections at the end.
BUILD=${BUILD:-build}
OUT="$BUILD/bench"
PEERS="$BUILD/peers"
mkdir -p "$OUT"
status=0

# --- peers: three.js pinned in tests/bench/peers/package.json (node_modules never committed)
peers_ready() {
    [ -n "${GAIT_BENCH_NO_PEERS:-}" ] && return 1
    command -v node >/dev/null 2>&1 || { echo "bench: node not found, peers skipped"; return 1; }
    mkdir -p "$PEERS"
    cp tests/bench/peers/package.json tests/bench/peers/*.mjs "$PEERS/"
    if [ ! -f "$PEERS/node_modules/three/package.json" ] ||
       ! grep -q '"version": "0.187.0"' "$PEERS/node_modules/three/package.json"; then
        echo "bench: npm install --prefix $PEERS (three 0.187.0)"
        npm install --prefix "$PEERS" --no-audit --no-fund --loglevel=error >/dev/null || {
            echo "bench: npm install failed, peers skipped"; return 1; }
    fi
    return 0
}

# --- collide: BVH build + capsule overlap, gait vs three.js, scaling with triangles (16x with
#     FULL=1), a step's queries over 10^6 coincident triangles
echo "== bench_collide"
SIXTEEN=${FULL:+--sixteen}
if peers_ready; then
    "$OUT/bench_collide" --scene "$OUT/meadow" --three "$PEERS/three_octree.mjs" --json "$OUT/collide.json" $SIXTEEN || status=1
else
    "$OUT/bench_collide" --scene "$OUT/meadow" --json "$OUT/collide.json" $SIXTEEN || status=1
fi

# --- kit: the cost of a Lua kit hook per character-step (interpreted: kits run with the JIT off)
echo "== bench_kit"
"$OUT/bench_kit" --characters 64 --frames 2000 --root . || status=1

# --- body: the body mover and the whole character step vs Rapier KCC, Jolt CharacterVirtual,
#     three.js Octree, on the meadow and a level (FULL=1: the whole run)
BUILD="$BUILD" sh scripts/bench_body.sh || status=1

# --- levels: the same, on six Quake III maps (OpenArena's, from Debian: levels no one here made)
BUILD="$BUILD" sh scripts/bench_levels.sh || status=1

# --- traverse: one traversal scan in µs (open ground, fence, block, too-high wall) in a field of 400 boxes
echo "== bench_traverse"
"$OUT/bench_traverse" --scans 20000 || status=1

# --- budget: CPU until the default instruction budget stops a hostile kit (target: within 100 ms)
echo "== bench_budget"
"$OUT/bench_budget" --repeats 5 --root . || status=1

# --- crowd: 100,000 creates, 10,000 characters on the meadow on 1 thread and on every core,
# a plaza crowd against the same crowd spread out (contact on), beside Jolt at 1,000 (FULL=1:
# 600 timed steps a run and 10 minutes of the plaza)
echo "== bench_crowd"
if [ -n "${FULL:-}" ]; then "$OUT/bench_crowd" --full || status=1
else "$OUT/bench_crowd" || status=1; fi
JOLT="$BUILD/peers/body/body_jolt.mjs"
if [ -z "${GAIT_BENCH_NO_PEERS:-}" ] && command -v node >/dev/null 2>&1 && [ -f "$JOLT" ] &&
   [ -d "$BUILD/peers/body/node_modules/jolt-physics" ]; then
    node "$JOLT" --variant heightfield --scene "$BUILD/bench/meadow" --chars 1000 --reps 1 \
        --out "$OUT/crowd-jolt.json" >/dev/null 2>&1 &&
    node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
             console.log(`Jolt CharacterVirtual (WASM), meadow heightfield, ${r.numCharacters} characters, 1 thread: ` +
                         `${r.usPerCharStep.map(v => v.toFixed(3)).join(" ")} us per character-step (its mover only, meadow motion)`);' \
        "$OUT/crowd-jolt.json" || { echo "bench_crowd: the Jolt run failed"; status=1; }
else
    echo "bench_crowd: Jolt skipped (its peer is installed by bench_body's section)"
fi

exit $status
