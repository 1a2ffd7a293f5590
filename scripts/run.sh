#!/bin/sh
# `make run`: the sandbox on the default world when a display is there; otherwise says so and
# plays the headless demo (a scripted tour of the default world), writing a trace CSV.
BUILD=${BUILD:-build}
if [ -x "$BUILD/gait-sandbox" ] && [ -n "${DISPLAY:-}" ]; then
    exec "$BUILD/gait-sandbox" scripts/worlds/default.lua "$@"
fi
if [ -x "$BUILD/gait-sandbox" ]; then
    echo "run: no display (DISPLAY is not set): playing the headless demo instead."
    echo "     To see the sandbox, run 'make run' in a desktop session, or under Xvfb:"
    echo "     xvfb-run -a -s '-screen 0 1280x720x24' $BUILD/gait-sandbox scripts/worlds/default.lua"
else
    echo "run: the sandbox is not built here: playing the headless demo."
fi
echo "run: trace: $BUILD/demo-trace.csv"
# --trusted: the demo is ours, and it writes its picture (a sandboxed scenario writes no file)
GAIT_DEMO_PICTURE="$BUILD/demo-path.png" exec "$BUILD/gait" run --trusted scripts/demo.lua --trace "$BUILD/demo-trace.csv" "$@"
