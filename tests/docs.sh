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
if cmp -s "$tmp.doc" "$DOC"; then
    echo "1 passed, 0 failed"
    rm -f "$tmp".*
    exit 0
fi
echo "FAIL docs: $DOC's numbers differ from the schema (sh tests/docs.sh $BUILD --write updates them):"
diff "$DOC" "$tmp.doc" | head -n 20
echo "0 passed, 1 failed"
rm -f "$tmp".*
exit 1
