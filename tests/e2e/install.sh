#!/bin/sh
# The library as an engine takes it: `make install` into a staging DESTDIR, then what is there.
#
#   sh tests/e2e/install.sh BUILD_DIR
#
# Checks the installed files (static and shared library with its soname and symlinks, headers
# under include/gait/, gait.pc, the runner, the Lua files), that the shared library exports the
# public gait_* names only, that the version is the same everywhere it shows (gait.h, gait.pc,
# the soname, `gait --version`, the CHANGELOG's latest entry), that the installed runner finds
# its Lua files and runs a scenario, that every examples/ program builds with
# `pkg-config --cflags --libs gait` against the staged tree and passes its own checks, and that
# `make uninstall` takes away everything it put there. One line per check, then
# "N passed, N failed".
BUILD=${1:-build}
REPO=$(cd "$(dirname "$0")/../.." && pwd)
case "$BUILD" in /*) ;; *) BUILD="$REPO/$BUILD" ;; esac
. "$(dirname "$0")/check.inc"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/gait-install.XXXXXX")
trap '[ -n "${KEEP:-}" ] || rm -rf "$TMP"' EXIT INT TERM
STAGE="$TMP/stage"
PREFIX=/opt/gait-test
P="$STAGE$PREFIX"
cd "$REPO" || exit 1

make -s BUILD="$BUILD" DESTDIR="$STAGE" PREFIX="$PREFIX" install >"$TMP/install.log" 2>&1
rc=$?
check "make-install" $rc "(exit $rc$( [ $rc -ne 0 ] && echo ": $(tail -n 3 "$TMP/install.log" | tr '\n' ' ')"))"
if [ $rc -ne 0 ]; then echo "$pass passed, $fail failed"; exit 1; fi

major=$(sed -n 's/^#define GAIT_VERSION_MAJOR \([0-9]*\).*/\1/p' runtime/include/gait/gait.h)
minor=$(sed -n 's/^#define GAIT_VERSION_MINOR \([0-9]*\).*/\1/p' runtime/include/gait/gait.h)
patch=$(sed -n 's/^#define GAIT_VERSION_PATCH \([0-9]*\).*/\1/p' runtime/include/gait/gait.h)
version="$major.$minor.$patch"
if [ "$major" = 0 ]; then soname="libgait.so.0.$minor"; else soname="libgait.so.$major"; fi

missing=""
for f in lib/libgait.a "lib/libgait.so.$version" "lib/$soname" lib/libgait.so lib/pkgconfig/gait.pc \
         bin/gait include/gait/gait.h include/gait/world.h include/gait/script.h \
         share/gait/lua/boot.lua share/gait/lua/gait/test.lua share/gait/scripts/tuning/locomotion.lua \
         share/gait/scripts/kits/sword.lua share/gait/scripts/worlds/default.lua; do
    [ -e "$P/$f" ] || missing="$missing $f"
done
nh=$(ls runtime/include/gait/*.h | wc -l); ni=$(ls "$P/include/gait/"*.h 2>/dev/null | wc -l)
[ -z "$missing" ] && [ "$nh" -eq "$ni" ]
check "installed-files" $? "(${missing:-all there}; $ni of $nh headers)"

[ "$(readlink "$P/lib/libgait.so")" = "$soname" ] && [ "$(readlink "$P/lib/$soname")" = "libgait.so.$version" ]
check "so-symlinks" $? "(libgait.so -> $(readlink "$P/lib/libgait.so") -> $(readlink "$P/lib/$soname"))"
got=$(readelf -d "$P/lib/libgait.so.$version" 2>/dev/null | sed -n 's/.*soname: \[\(.*\)\]/\1/p')
[ "$got" = "$soname" ]
check "soname" $? "($got)"
nm -D --defined-only "$P/lib/libgait.so.$version" | awk '{ print $3 }' >"$TMP/exports"
others=$(grep -v '^gait_[a-z]' "$TMP/exports" | head -n 5 | tr '\n' ' ')
internal=$(grep -c '^gait__' "$TMP/exports")
[ -z "$others" ] && [ "$internal" -eq 0 ] && grep -q '^gait_world_create$' "$TMP/exports"
check "exports-public-api-only" $? "($(wc -l <"$TMP/exports") names; others: ${others:-none}; internal gait__: $internal)"

export PKG_CONFIG_PATH="$P/lib/pkgconfig"
pcv=$(pkg-config --modversion gait 2>&1)
runv=$("$P/bin/gait" --version 2>&1)
log=$(sed -n 's/^## \[\?\([0-9][0-9.]*\)\]\?.*/\1/p' CHANGELOG.md 2>/dev/null | head -n 1)
[ "$pcv" = "$version" ] && [ "$runv" = "gait $version" ] && [ "$log" = "$version" ]
check "one-version" $? "(gait.h $version, gait.pc $pcv, runner '$runv', CHANGELOG $log, soname $soname)"
priv=$(pkg-config --static --libs gait 2>&1)
echo "$priv" | grep -q -- '-lluajit' && echo "$priv" | grep -q -- '-lm' && ! pkg-config --libs gait | grep -q luajit
check "pc-private-libs" $? "(--libs: $(pkg-config --libs gait | tr -s ' '); --static: $(echo "$priv" | tr -s ' '))"

# The installed runner finds PREFIX/share/gait by itself (no --root) and runs a scenario file.
cat >"$TMP/smoke.lua" <<'EOF2'
local gait = require("gait")
test("the installed runner's Lua layer", function()
  expect_true(gait.root():match("share/gait$") ~= nil, "root " .. gait.root())
  local w = gait.world.new()
  assert(w:set_terrain(gait.geometry.flat_terrain(32)))
  local ch = assert(w:spawn{position = {0, 0, 0}})
  ch:set_input{move_y = 1}
  for _ = 1, 60 do w:update(1 / 60) end
  local _, _, z = ch:position()
  expect_true(z > 2, "ran forward")
end)
EOF2
(cd "$TMP" && env -u GAIT_ROOT "$P/bin/gait" test smoke.lua) >"$TMP/smoke.log" 2>&1
rc=$?
check "installed-runner-finds-its-lua" $rc "($(tail -n 1 "$TMP/smoke.log"))"

OUT="$TMP/examples" DESTDIR="$STAGE" PREFIX="$PREFIX" sh examples/build.sh >"$TMP/examples.log" 2>&1
rc=$?
sed 's/^/  /' "$TMP/examples.log"
n=$(ls examples/*.c | wc -l); ok=$(grep -c '^PASS ' "$TMP/examples.log")
[ $rc -eq 0 ] && [ "$ok" -eq "$n" ]
check "examples-build-and-run" $? "($ok of $n through pkg-config --cflags --libs gait)"

# The README's "C API in one screen" block, as printed there, compiles and runs too.
awk '/^## The C API in one screen/ { on = 1 } on && /^```c$/ { grab = 1; next }
     grab && /^```$/ { exit } grab { print }' README.md >"$TMP/readme.c"
flags=$(PKG_CONFIG_SYSROOT_DIR="$STAGE" pkg-config --cflags --libs gait)
[ -s "$TMP/readme.c" ] && cc -std=c11 -Wall -Wextra -Werror "$TMP/readme.c" $flags -o "$TMP/readme" \
    >"$TMP/readme.log" 2>&1 && LD_LIBRARY_PATH="$P/lib" "$TMP/readme" >>"$TMP/readme.log" 2>&1
check "readme-one-screen-compiles-and-runs" $? "($(wc -l <"$TMP/readme.c") lines$(head -n 3 "$TMP/readme.log" | tr '\n' ' ')"

make -s BUILD="$BUILD" DESTDIR="$STAGE" PREFIX="$PREFIX" uninstall >"$TMP/uninstall.log" 2>&1
rc=$?
left=$(find "$STAGE" -type f -o -type l | head -n 5 | tr '\n' ' ')
[ $rc -eq 0 ] && [ -z "$left" ]
check "uninstall-removes-all" $? "(exit $rc; left: ${left:-nothing})"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
