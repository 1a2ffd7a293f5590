#!/bin/sh
# Where the sandbox's frame goes under Mesa's llvmpipe (no GPU), at 1280x720 under Xvfb.
#
#   sh scripts/sandbox_fps.sh [BUILD_DIR] [extra sandbox flags...]
#
# Two views the designers live in: on land (the spawn, facing the tower, the plaza and hills)
# and over the lake (on its west shore looking east across the water). For each: the frame rate
# paced to 60 as the sandbox runs (fps, frame_ms = work per frame, cpu_ms = CPU of every thread
# per frame), then unpaced with --profile (each pass waits for the rasterizer and is timed).
# The machine is shared: the load average is printed before and after; compare runs made
# together only.
BUILD=${1:-build}
[ $# -gt 0 ] && shift
SANDBOX="$BUILD/gait-sandbox"
REPO=${ROOT:-$(cd "$(dirname "$0")/.." && pwd)}
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
for view in land lake; do
    case $view in
        land) place="0,12,-12,0" ;;
        lake) place="112,12,-30,1.5708" ;;
    esac
    printf '5.0 quit\n' >"${TMPDIR:-/tmp}/gait-fps-track"
    xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$REPO" --place "$place" \
        --input "${TMPDIR:-/tmp}/gait-fps-track" --status-interval 1 "$@" 2>/dev/null |
        awk -v v="$view" '/^status / && ++n >= 2 { for (i = 1; i <= NF; i++) { split($i, kv, "=");
            if (kv[1] == "fps" || kv[1] == "frame_ms" || kv[1] == "cpu_ms") s[kv[1]] = s[kv[1]] " " kv[2] } }
            END { printf "%-5s paced 60: fps%s | frame_ms%s | cpu_ms%s\n", v, s["fps"], s["frame_ms"], s["cpu_ms"] }'
    xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$REPO" --place "$place" --fps 0 --profile \
        --input "${TMPDIR:-/tmp}/gait-fps-track" --status-interval 1 "$@" 2>/dev/null |
        awk -v v="$view" '/^passes / && ++n >= 2 { sub(/^passes t=[0-9.]* /, ""); print v " passes (CPU ms/frame of all threads, unpaced): " $0 }' | tail -n 2
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
