#!/bin/sh
# Instructions per character-step, counted by valgrind's callgrind: repeatable on a shared,
# noisy machine where wall-clock figures swing, so a change to the mover or the collider is
# judged by this count beside the timings. Only the timed steps are counted (gait bench runs
# them inside gait_bench_timed_mover / gait_bench_timed_whole; --toggle-collect picks those).
#   sh scripts/bench_callgrind.sh SCENE [VARIANT] [CHARS] [TOP]
#     SCENE    a meadow-v1 prefix (build/bench/meadow, build/bench/level)
#     VARIANT  heightfield (default) or mesh
#     CHARS    characters (default 50: about a minute under callgrind)
#     TOP      also print the TOP functions by their own instructions (default 0)
#   TESS=2 in the environment splits every triangle into 4 (gait bench --tess 2).
# Prints: "callgrind SCENE VARIANT: mover N Ir/char-step, whole step N Ir/char-step".
BUILD=${BUILD:-build}
SCENE=${1:?usage: sh scripts/bench_callgrind.sh SCENE [VARIANT] [CHARS] [TOP]}
VARIANT=${2:-heightfield}
CHARS=${3:-50}
TOP=${4:-0}
command -v valgrind >/dev/null 2>&1 || { echo "bench_callgrind: valgrind not found"; exit 1; }
OUT=$(mktemp "${TMPDIR:-/tmp}/gait-callgrind.XXXXXX")
trap 'rm -f "$OUT"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$OUT" --toggle-collect='gait_bench_timed_*' \
    "$BUILD/gait" bench --scene "$SCENE" --variant "$VARIANT" --chars "$CHARS" --reps 1 --tess "${TESS:-1}" --whole \
    >/dev/null 2>&1 || { echo "bench_callgrind: the run failed"; exit 1; }
STEPS=$(sed -n 's/.*"timedSteps": *\([0-9]*\).*/\1/p' "$SCENE.json" | head -n 1)
[ -n "$STEPS" ] || STEPS=600
# inclusive instructions of each timed function, over characters x timed steps
callgrind_annotate --inclusive=yes --auto=no "$OUT" 2>/dev/null | awk -v n="$CHARS" -v steps="$STEPS" \
    -v scene="$SCENE" -v variant="$VARIANT" -v tess="${TESS:-1}" '
    /:gait_bench_timed_mover / && !mover { gsub(",", "", $1); mover = $1 }
    /:gait_bench_timed_whole / && !whole { gsub(",", "", $1); whole = $1 }
    END { printf "callgrind %s %s%s: mover %.0f Ir/char-step, whole step %.0f Ir/char-step\n",
                 scene, variant, tess == 2 ? " x4" : "", mover / (n * steps), whole / (n * steps) }'
if [ "$TOP" -gt 0 ]; then
    callgrind_annotate --auto=no "$OUT" 2>/dev/null | grep -E '^ *[0-9,]+ ' | sed -n "2,$((TOP + 1))p"
fi
