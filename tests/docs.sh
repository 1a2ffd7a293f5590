#!/bin/sh
# docs/behaviour.md's tables of numbers are the library's schema tables: the block between its
# schema markers must be exactly what `gait schema --markdown` prints.
#   sh tests/docs.sh [BUILD]            check ("N passed, N failed")
#   sh tests/docs.sh [BUILD] --write    rewrite the block from the schema (after changing one)
cd "$(dirname "$0")/.." || exit 2
BUILD=${1:-${BUILD:-build}}
DOC=docs/behaviour.md
if [ ! -x "$BUILD/gait" ]; then
    echo "docs: $BUILD/gait is not built"
    echo "0 passed, 1 failed"
    exit 1
fi
tmp=${TMPDIR:-/tmp}/gait_docs.$$
"$BUILD/gait" schema --markdown > "$tmp.schema" || { echo "0 passed, 1 failed"; rm -f "$tmp".*; exit 1; }
awk -v s="$tmp.schema" '
    /<!-- schema:begin -->/ { print; while ((getline l < s) > 0) print l; skip = 1; next }
    /<!-- schema:end -->/ { skip = 0 }
    !skip { print }' "$DOC" > "$tmp.doc"
if [ "${2:-}" = "--write" ]; then
    cp "$tmp.doc" "$DOC"
    echo "docs: $DOC rewritten from the schema"
    rm -f "$tmp".*
    exit 0
fi
pass=0 fail=0
if cmp -s "$tmp.doc" "$DOC"; then
    pass=$((pass + 1))
else
    echo "FAIL docs: $DOC's numbers differ from the schema (sh tests/docs.sh $BUILD --write updates them):"
    diff "$DOC" "$tmp.doc" | head -n 20
    fail=$((fail + 1))
fi
# The repo explains itself: code, tests and docs cite docs/behaviour.md by its section titles
# (`docs/behaviour.md, "The body"`), never a document a clone does not have.
files=$(git ls-files 'runtime/*' 'lua/*' 'tests/*' 'scripts/*' 'docs/*' 'examples/*' README.md 2>/dev/null)
outside=$(printf '%s\n' $files | xargs grep -nE 'SPEC §|\.\./shared|/work/shared' 2>/dev/null | grep -v '^tests/docs.sh:')
if [ -n "$outside" ]; then
    echo "FAIL docs: references to documents outside the repo:"
    echo "$outside" | head -n 10
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
bad=""
for title in $(printf '%s\n' $files | xargs grep -ohE 'behaviour\.md[,:] "[^"]+"' 2>/dev/null |
               sed -E 's/.*"([^"]+)"/\1/' | sort -u | tr ' ' '_'); do
    t=$(echo "$title" | tr '_' ' ')
    grep -qE "^#+ $t\$" "$DOC" || bad="$bad \"$t\""
done
if [ -n "$bad" ]; then
    echo "FAIL docs: sections cited that $DOC does not have:$bad"
    fail=$((fail + 1))
else
    pass=$((pass + 1))
fi
echo "$pass passed, $fail failed"
rm -f "$tmp".*
[ "$fail" -eq 0 ]
