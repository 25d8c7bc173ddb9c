#!/usr/bin/env bash
# Generates every grammar of tests/data/rfc-grammars/ and the workspace's
# specs/ with two builds of `abnf-codegen` and compares the output folders
# byte for byte: a change to the generator's speed must not change what it
# writes. Times (user CPU) go to OUT/times.txt.
#
# Usage: xtask/scripts/compare-generated.sh BASE_BINARY NEW_BINARY [OUT]
# (run from the workspace root; OUT defaults to target/cmp).
set -euo pipefail
base=$1
new=$2
out=${3:-target/cmp}
mkdir -p "$out"
: > "$out/times.txt"
run() { # label binary dest specs...
    local label=$1 bin=$2 dest=$3
    shift 3
    rm -rf "$dest"
    mkdir -p "$(dirname "$dest")"
    /usr/bin/time -f "$label %U user %e wall %M KB" -a -o "$out/times.txt" \
        "$bin" generate --out "$dest" "$@" > "$dest.log" 2>&1 || echo "$label failed" >> "$out/times.txt"
}
status=0
for f in tests/data/rfc-grammars/*.abnf specs; do
    name=$(basename "$f" .abnf)
    if [ "$f" = specs ]; then
        set -- specs/*.abnf specs/*.bnf
    else
        set -- "$f"
    fi
    run "base $name" "$base" "$out/base/$name" "$@"
    run "new  $name" "$new" "$out/new/$name" "$@"
    if diff -r "$out/base/$name" "$out/new/$name" > "$out/$name.diff"; then
        rm "$out/$name.diff"
    else
        echo "DIFFERENT: $name (see $out/$name.diff)"
        status=1
    fi
    # The messages, but for the output folder's name.
    if ! diff <(sed "s|$out/base/|OUT/|g" "$out/base/$name.log") \
        <(sed "s|$out/new/|OUT/|g" "$out/new/$name.log") > /dev/null; then
        echo "different messages: $name"
    fi
done
cat "$out/times.txt"
exit $status
