#!/usr/bin/env bash
# Regenerates the dicelab 0.7 golden outputs used by crates/alea-cli/tests/dicelab.rs:
#   * crates/alea-cli/tests/dicelab/golden/NAME.tree: `dicelab -p` of examples/dicelab/NAME.dl
#   * crates/alea-cli/tests/dicelab/parse-cases.tree: `dicelab -p` of each line of parse-cases.txt
# from the reference dicelab 0.7 (Debian package `dicelab`, /usr/bin/dicelab).
# The seeded `-r` goldens come from alea itself:
#   UPDATE_GOLDEN=1 cargo test -p alea-cli --test dicelab
set -euo pipefail
ref=${DICELAB_REF:-/usr/bin/dicelab}
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$root/crates/alea-cli/tests/dicelab
[ -x "$ref" ] || { echo "reference dicelab not found at $ref (apt-get install dicelab)" >&2; exit 1; }
mkdir -p "$dir/golden"
for f in "$root"/examples/dicelab/*.dl; do
    name=$(basename "$f" .dl)
    "$ref" -p -f "$f" > "$dir/golden/$name.tree"
done
out=$dir/parse-cases.tree
: > "$out"
while IFS= read -r program; do
    [ -z "$program" ] && continue
    printf '=== %s\n' "$program" >> "$out"
    printf '%s' "$program" | "$ref" -p >> "$out" 2>/dev/null
done < "$dir/parse-cases.txt"
echo "regenerated goldens in $dir"
