#!/bin/sh
# A speed change to the mover or the collider, checked against a build of the code before it:
# the same bits on every benchmark scene (feet hashes of the mover and of the whole step), and
# the instructions per character-step of each (callgrind, scripts/bench_callgrind.sh), the one
# figure these machines repeat where the timings swing by 10-20 %.
#   sh scripts/bench_ab.sh BASE [NEW]
#     BASE   a build directory of the code before the change (its gait binary is BASE/gait):
#              git worktree add /tmp/base HEAD~1 && make -C /tmp/base build/gait, then
#              BASE is /tmp/base/build
#     NEW    the build to judge (default build)
#   CHARS=N  characters for the instruction counts (default 20); IR=0 skips them (hashes only)
#   SCENES="build/bench/meadow ..."  the scenes (default: the meadow, the level and the Quake III
#              maps make bench wrote under build/bench/levels)
# Each scene runs as a mesh (the meadow also as its heightfield): a line "same" or "DIFFERENT"
# for the hashes, then the mover's and the whole step's instructions, base -> new (change).
# Exit status 1 when any hash differs.
BASE=${1:?usage: sh scripts/bench_ab.sh BASE [NEW]}
NEW=${2:-build}
CHARS=${CHARS:-20}
IR=${IR:-1}
for b in "$BASE" "$NEW"; do
    [ -x "$b/gait" ] || { echo "bench_ab: no $b/gait (make BUILD=$b $b/gait)"; exit 2; }
done
if [ -z "${SCENES:-}" ]; then
    SCENES="build/bench/meadow build/bench/level"
    for f in build/bench/levels/*.bin; do [ -f "$f" ] && SCENES="$SCENES ${f%.bin}"; done
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gait-ab.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
hashes() { # binary scene variant -> the feet hashes of the mover and the whole step
    "$1/gait" bench --scene "$2" --variant "$3" --chars 100 --reps 1 --whole --out "$TMP/h.json" \
        >"$TMP/h.txt" 2>/dev/null || { echo "failed"; return; }
    grep -o '"feetHash": *"[^"]*"' "$TMP/h.txt" | sed 's/.*: *//' | tr -d '"' | tr '\n' ' '
}
ir() { # build scene variant -> "mover whole" instructions per character-step
    BUILD="$1" sh scripts/bench_callgrind.sh "$2" "$3" "$CHARS" |
        sed -n 's/.*mover \([0-9]*\) .*whole step \([0-9]*\) .*/\1 \2/p'
}
status=0
for s in $SCENES; do
    [ -f "$s.bin" ] || { echo "bench_ab: no scene $s (make bench writes them)"; status=2; continue; }
    variants=mesh
    case "$s" in */meadow) variants="heightfield mesh" ;; esac
    for v in $variants; do
        a=$(hashes "$BASE" "$s" "$v")
        b=$(hashes "$NEW" "$s" "$v")
        if [ "$a" = "$b" ] && [ "$a" != failed ]; then same=same; else same=DIFFERENT; status=1; fi
        line=$(printf '%-32s %-11s %-9s' "$s" "$v" "$same")
        if [ "$IR" = 1 ]; then
            # shellcheck disable=SC2046 # two numbers each, split on purpose
            line="$line $(echo $(ir "$BASE" "$s" "$v") $(ir "$NEW" "$s" "$v") | awk '
                NF == 4 { printf "mover %6d -> %6d (%+.1f%%)  whole %6d -> %6d (%+.1f%%)",
                          $1, $3, 100 * ($3 - $1) / $1, $2, $4, 100 * ($4 - $2) / $2 }
                NF != 4 { printf "instructions not counted (valgrind?)" }')"
        fi
        echo "$line"
        if [ "$same" != same ]; then
            echo "  base: $a"
            echo "  new:  $b"
        fi
    done
done
exit $status
