# Sourced by scripts/bench_body.sh and scripts/bench_levels.sh: body_peers NAME sets peers=1 when
# the body benchmark's peers (tests/bench/peers/body_package.json: Rapier, Jolt, three.js) are
# installed into $PEERS (npm install on first use or when the pins changed), else peers=0 with a
# line saying why (GAIT_BENCH_NO_PEERS=1, no node, the install failed). NAME prefixes its lines.
body_peers() {
    peers=1
    if [ -n "${GAIT_BENCH_NO_PEERS:-}" ]; then peers=0
    elif ! command -v node >/dev/null 2>&1; then echo "$1: node not found, peers skipped"; peers=0
    else
        mkdir -p "$PEERS"
        cp tests/bench/peers/body_*.mjs "$PEERS/"
        if ! cmp -s tests/bench/peers/body_package.json "$PEERS/package.json" || [ ! -d "$PEERS/node_modules/jolt-physics" ]; then
            cp tests/bench/peers/body_package.json "$PEERS/package.json"
            echo "$1: npm install --prefix $PEERS"
            npm install --prefix "$PEERS" --no-audit --no-fund --loglevel=error >/dev/null || {
                echo "$1: npm install failed, peers skipped"; peers=0; }
        fi
    fi
}
