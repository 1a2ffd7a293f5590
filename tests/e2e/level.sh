#!/bin/sh
# Walk your own level: gait-sandbox --level FILE and `level = "file"` in a world file (Xvfb).
#
#   sh tests/e2e/level.sh BUILD_DIR
#
# Writes a glTF (with a mesh named PlayerStart), a glTF whose start is an empty node (no mesh,
# placed and turned) and an OBJ (no start) of the same level: a 40 m
# floor at y = 0 with a 4 m wall across it, its face at z = 6. For each: the sandbox loads it
# (the `level` line: meshes, triangles), starts the body on the start node (glTF) or above the
# level's centre (OBJ) standing on the floor, and W held walks it into the wall: it stops at
# the wall's face (or climbs it), never through. Then a world file with `level = "…"` and
# F1's wireframe, a broken level (an error naming the file, exit 1), and `gait run` reading the
# same world file through lua/gait/worldfile.lua. One line per check, then "N passed, N failed".
NAME=level
. "$(dirname "$0")/common.inc"

# The level, as boxes (x0, y0, z0, x1, y1, z1): the floor slab, the wall, and (glTF only) a
# 0.2 m PlayerStart pad at z = -3.
python3 - "$TMP" <<'EOF2'
import base64, json, struct, sys
out = sys.argv[1]
def box(x0, y0, z0, x1, y1, z1):
    v = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
    # corners: bit 0 x, bit 1 y, bit 2 z; faces outward (counter-clockwise seen from outside)
    q = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    t = []
    for a, b, c, d in q: t += [(a, b, c), (a, c, d)]
    return v, t
meshes = [("floor", box(-20, -0.5, -20, 20, 0, 20)), ("wall", box(-20, 0, 6, 20, 4, 7)),
          ("PlayerStart", box(-0.25, 0, -3.25, 0.25, 0.2, -2.75))]
# OBJ: the floor and the wall
with open(out + "/level.obj", "w") as f:
    base = 1
    for name, (v, t) in meshes[:2]:
        f.write("o %s\n" % name)
        for p in v: f.write("v %g %g %g\n" % p)
        for a, b, c in t: f.write("f %d %d %d\n" % (a + base, b + base, c + base))
        base += len(v)
# glTF 2.0, one buffer embedded as a data URI, a node per mesh
blob, views, accessors, gmeshes, nodes = b"", [], [], [], []
for i, (name, (v, t)) in enumerate(meshes):
    pos = b"".join(struct.pack("<3f", *p) for p in v)
    idx = b"".join(struct.pack("<3H", *tri) for tri in t)
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(pos)}); blob += pos
    views.append({"buffer": 0, "byteOffset": len(blob), "byteLength": len(idx)}); blob += idx
    blob += b"\0" * (-len(blob) % 4)
    lo = [min(p[k] for p in v) for k in range(3)]; hi = [max(p[k] for p in v) for k in range(3)]
    accessors.append({"bufferView": 2 * i, "componentType": 5126, "count": len(v), "type": "VEC3", "min": lo, "max": hi})
    accessors.append({"bufferView": 2 * i + 1, "componentType": 5123, "count": 3 * len(t), "type": "SCALAR"})
    gmeshes.append({"name": name, "primitives": [{"attributes": {"POSITION": 2 * i}, "indices": 2 * i + 1}]})
    nodes.append({"name": name, "mesh": i})
doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": list(range(len(nodes)))}],
       "nodes": nodes, "meshes": gmeshes, "accessors": accessors, "bufferViews": views,
       "buffers": [{"byteLength": len(blob), "uri": "data:application/octet-stream;base64," + base64.b64encode(blob).decode()}]}
with open(out + "/level.gltf", "w") as f: json.dump(doc, f)
# The same floor and wall with the start as an empty node (no mesh), as authoring tools export
# one: at x = 4, z = -2, 0.5 m up, turned 90 deg about y (its +z axis facing +x).
doc["scenes"] = [{"nodes": [0, 1, 3]}]
doc["nodes"] = nodes[:2] + [nodes[2], {"name": "PlayerStart.001", "translation": [4, 0.5, -2],
                                       "rotation": [0, 0.7071067811865476, 0, 0.7071067811865476]}]
with open(out + "/level_empty.gltf", "w") as f: json.dump(doc, f)
EOF2

printf '0.6 key w down\n4.0 quit\n' >"$TMP/walk"
run() { # name, args...
    name=$1; shift
    timeout 40 xvfb-run -a -s '-screen 0 1280x720x24' "$SANDBOX" --root "$REPO" --size 640x360 \
        --status-interval 0.1 --input "$TMP/walk" "$@" >"$TMP/$name.log" 2>&1
}
walks_into_wall() { # name, expected start x,z
    log="$TMP/$1.log"
    lvl=$(grep '^level ' "$log" | head -n 1)
    first=$(grep '^status ' "$log" | head -n 1)
    p=$(field "$first" pos)
    maxz=$(grep '^status ' "$log" | while read -r l; do field "$l" pos | cut -d, -f3; done | sort -g | tail -n 1)
    climbed=$(grep -c '^state .*to=climb' "$log")
    echo "$lvl" | grep -q ' 2[0-9]* triangles\| [0-9]* meshes, [0-9]* triangles'
    check "$1-loads" $? "($(echo "$lvl" | cut -c1-160))"
    awk -v p="$p" -v want="$2" 'BEGIN { split(p, a, ","); split(want, b, ",");
        exit !(a[1] - b[1] < 0.3 && b[1] - a[1] < 0.3 && a[3] - b[2] < 0.3 && b[2] - a[3] < 0.3 && a[2] > -0.05 && a[2] < 0.45) }'
    check "$1-starts-where-expected" $? "(first pos $p, wanted x,z $2 on the floor or the pad)"
    awk -v z="$maxz" 'BEGIN { exit !(z > 5.0 && z < 6.0) }' && [ -n "$maxz" ]
    check "$1-wall-stops-the-body" $? "(furthest z $maxz, the wall's face at 6; $climbed climb starts)"
}

run gltf --level "$TMP/level.gltf"
walks_into_wall gltf "0,-3"
run empty --level "$TMP/level_empty.gltf"
first=$(grep '^status ' "$TMP/empty.log" | head -n 1)
p=$(field "$first" pos)
awk -v p="$p" 'BEGIN { split(p, a, ","); exit !(a[1] > 3.7 && a[1] < 4.3 && a[3] > -2.3 && a[3] < -1.7 && a[2] > -0.05 && a[2] < 0.05) }'
check "empty-node-start-stood-on-the-floor" $? "(first pos $p, wanted 4,0,-2: 0.5 m above the floor, stood on it)"
yaw=$(field "$first" yaw)
awk -v y="$yaw" 'BEGIN { exit !(y > 1.5 && y < 1.65) }'
check "empty-start-node-faces-its-way" $? "(yaw $yaw, wanted about 1.571: the node's +z turned to +x)"
maxx=$(grep '^status ' "$TMP/empty.log" | while read -r l; do field "$l" pos | cut -d, -f1; done | sort -g | tail -n 1)
awk -v x="$maxx" 'BEGIN { exit !(x > 8) }' && [ -n "$maxx" ]
check "empty-start-walks-the-way-it-faces" $? "(furthest x $maxx: W held walks along +x, the camera behind)"
run obj --level "$TMP/level.obj"
walks_into_wall obj "0,0"

# A world file with a level key (and no spawn): the same level, and the debug view on.
cat >"$TMP/world.lua" <<'EOF2'
return { name = "level test", level = "level.obj", sea_level = -5 }
EOF2
printf '0.3 key f1 tap\n0.6 key w down\n3.5 quit\n' >"$TMP/walk"
run world "$TMP/world.lua" --screenshot "$TMP/world.png"
grep -q '^level .*level.obj: 2 meshes, 24 triangles' "$TMP/world.log" &&
    grep -q '^world .*level test: 2 landmarks' "$TMP/world.log"
check "world-file-level-key" $? "($(grep '^level ' "$TMP/world.log" | cut -c1-120))"
walks_into_wall world "0,0"
# F1 on: the level's triangles drawn as dark edges over the floor (many dark pixels on it).
dark=$(convert "$TMP/world.png" -crop 640x120+0+240 -colorspace gray -threshold 25% -format '%[fx:int(w*h*(1-mean))]' info: 2>/dev/null)
[ "${dark:-0}" -gt 1500 ]   # about 600 without F1 (HUD text), 3000+ with
check "debug-view-draws-level-triangles" $? "(${dark:-?} dark pixels in the lower third)"

# The headless runner reads the same world file (worldfile.lua + the runner's load_level).
cat >"$TMP/run.lua" <<EOF2
local worldfile = require("gait.worldfile")
local w, player = worldfile.load("$TMP/world.lua")
print("landmarks", w:landmark_count())
return {world = w, steps = 1, fps = 60, trace = {player}}
EOF2
"$BUILD/gait" --root "$REPO" run "$TMP/run.lua" >"$TMP/gaitrun.log" 2>&1
grep -q 'landmarks	2' "$TMP/gaitrun.log"
check "gait-run-reads-level-key" $? "($(grep landmarks "$TMP/gaitrun.log" || tail -n 2 "$TMP/gaitrun.log"))"

# gait run with a world file whose level marks a start (an empty node) and no spawn: the player
# starts there, as the sandbox starts it
cat >"$TMP/world_start.lua" <<'EOF2'
return { name = "start test", level = "level_empty.gltf", sea_level = -5 }
EOF2
cat >"$TMP/run_start.lua" <<EOF2
local worldfile = require("gait.worldfile")
local w, player = worldfile.load("$TMP/world_start.lua")
local x, y, z = player:position()
print(string.format("player %.2f %.2f %.2f yaw %.3f", x, y, z, player:yaw()))
return {world = w, steps = 1, fps = 60, trace = {player}}
EOF2
"$BUILD/gait" --root "$REPO" run "$TMP/run_start.lua" >"$TMP/gaitrun_start.log" 2>&1
grep -q 'player 4.00 0.00 -2.00 yaw 1.571' "$TMP/gaitrun_start.log"
check "gait-run-starts-at-the-level-start" $? "($(grep player "$TMP/gaitrun_start.log" || tail -n 2 "$TMP/gaitrun_start.log"))"

# A level that is not a level: an error naming the file, exit 1, no window left open.
printf 'this is not a mesh\n' >"$TMP/broken.obj"
out=$(timeout 20 xvfb-run -a -s '-screen 0 640x360x24' "$SANDBOX" --root "$REPO" --level "$TMP/broken.obj" --frames 5 2>&1)
rc=$?
[ $rc -ne 0 ] && echo "$out" | grep -q 'broken.obj'
check "broken-level-is-an-error" $? "(exit $rc: $(echo "$out" | grep broken.obj | head -n 1 | cut -c1-140))"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
