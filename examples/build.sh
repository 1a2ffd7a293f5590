#!/bin/sh
# Builds every examples/*.c against an installed gait, as an engine would, through
# `pkg-config --cflags --libs gait`, and runs each one (each checks its own result and exits
# non-zero when it fails). Used by `make examples` and the install test.
#
#   DESTDIR=/tmp/stage PREFIX=/usr/local OUT=build/examples sh examples/build.sh
#
# With DESTDIR set, pkg-config looks in the staged tree (PKG_CONFIG_SYSROOT_DIR prefixes its
# -I and -L) and the programs find libgait.so there (LD_LIBRARY_PATH). Prints one line per
# program and "N passed, N failed".
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
OUT=${OUT:-build/examples}
CC=${CC:-cc}
LIBDIR="$DESTDIR$PREFIX/lib"
mkdir -p "$OUT"
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
[ -n "$DESTDIR" ] && export PKG_CONFIG_SYSROOT_DIR="$DESTDIR"
if ! flags=$(pkg-config --cflags --libs gait 2>&1); then
    echo "FAIL pkg-config: $flags (is gait installed under $DESTDIR$PREFIX? make install)"
    echo "0 passed, 1 failed"
    exit 1
fi
# the datadir as installed, then where it really is when staged
datadir="$DESTDIR$(pkg-config --variable=datadir gait)"
pass=0
fail=0
for src in "$HERE"/*.c; do
    name=$(basename "$src" .c)
    # Strict C11 and warnings as errors: the public headers must hold up in a host's build.
    if ! $CC -std=c11 -Wall -Wextra -Wpedantic -Werror "$src" $flags -lm -o "$OUT/$name" \
            >"$OUT/$name.build.log" 2>&1; then
        fail=$((fail + 1)); echo "FAIL $name: does not build with pkg-config --cflags --libs gait ($flags):"
        sed 's/^/  /' "$OUT/$name.build.log" | head -n 20
        continue
    fi
    case $name in
        kit_from_c) set -- "$datadir" ;;
        level_from_file) set -- "$HERE/level.obj" ;;
        *) set -- ;;
    esac
    if LD_LIBRARY_PATH="$LIBDIR${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$OUT/$name" "$@" \
            >"$OUT/$name.log" 2>&1; then
        pass=$((pass + 1)); echo "PASS $name: $(tail -n 2 "$OUT/$name.log" | head -n 1)"
    else
        fail=$((fail + 1)); echo "FAIL $name:"; sed 's/^/  /' "$OUT/$name.log" | tail -n 15
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
