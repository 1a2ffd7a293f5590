#!/bin/sh
# The include rules of docs/design.md ("The layers"), checked on the sources as they are:
#   1. a folder of runtime/src includes only itself and the folders below it
#      (script -> character -> collide -> core);
#   2. no header of runtime/src includes, through any chain, one that includes it back;
#   3. hosts (runtime/cli, runtime/sandbox, tests/bench, tests/fuzz) include no file of
#      runtime/src (they are built with -Iruntime/include only; a relative path would slip by);
#   4. nothing under runtime/ includes a file of tests/.
# Prints one line per failure and closes with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }

rank() { case $1 in core) echo 0 ;; collide) echo 1 ;; character) echo 2 ;; script) echo 3 ;; *) echo 9 ;; esac; }

# "file included" pairs, the included file resolved to a path under runtime/src (public headers,
# system headers and files outside runtime/src are left out)
edges=$(for f in runtime/src/*/*.[ch]; do
    dir=$(dirname "$f")
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r inc; do
        if [ -f "$dir/$inc" ]; then echo "$f $dir/$inc"
        elif [ -f "runtime/src/$inc" ]; then echo "$f runtime/src/$inc"
        fi
    done
done)

# 1. folders
n1=0
echo "$edges" | while read -r from to; do
    [ -n "$from" ] || continue
    a=$(echo "$from" | cut -d/ -f3); b=$(echo "$to" | cut -d/ -f3)
    if [ "$(rank "$b")" -gt "$(rank "$a")" ]; then echo "$from includes $to (above it)"; fi
done > "${TMPDIR:-/tmp}/gait_layers_up.$$"
if [ -s "${TMPDIR:-/tmp}/gait_layers_up.$$" ]; then
    while read -r line; do bad "layers: $line"; done < "${TMPDIR:-/tmp}/gait_layers_up.$$"
else ok; fi
rm -f "${TMPDIR:-/tmp}/gait_layers_up.$$"

# 2. cycles: a depth-first walk over the include graph
cycles=$(echo "$edges" | awk '
    NF == 2 { adj[$1] = adj[$1] " " $2; node[$1] = 1; node[$2] = 1 }
    function visit(u,    i, n, vs, v) {
        state[u] = 1; stack[++depth] = u
        n = split(adj[u], vs, " ")
        for (i = 1; i <= n; i++) {
            v = vs[i]
            if (state[v] == 1) { line = v; for (k = depth; k >= 1 && stack[k] != v; k--) line = stack[k] " <- " line; print "cycle: " v " <- " line }
            else if (state[v] == 0) visit(v)
        }
        depth--; state[u] = 2
    }
    END { for (u in node) state[u] = 0; for (u in node) if (state[u] == 0) visit(u) }')
if [ -n "$cycles" ]; then echo "$cycles" | while read -r line; do echo "FAIL layers: $line"; done; fail=$((fail + 1)); else ok; fi

# 3. hosts
hosts=$(grep -ln '#[[:space:]]*include[[:space:]]*"\(\.\./\)*\(\(runtime/\)\{0,1\}src/\|core/\|collide/\|character/\|script/\)' \
        runtime/cli/*.[ch] runtime/sandbox/*.[ch] tests/bench/*.[ch] tests/fuzz/*.c 2>/dev/null)
if [ -n "$hosts" ]; then for h in $hosts; do bad "layers: host $h includes runtime/src"; done; else ok; fi

# 4. what ships includes nothing of the tests (the runner's benchmark scenes are its own)
shipped=$(grep -ln '#[[:space:]]*include[[:space:]]*"[^"]*tests/' runtime/*/*.[ch] runtime/src/*/*.[ch] 2>/dev/null)
if [ -n "$shipped" ]; then for h in $shipped; do bad "layers: $h includes a file of tests/"; done; else ok; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
