#!/usr/bin/env bash
# Regenerates every golden file, then shows what changed (review the diff before committing).
#
#   scripts/regen-goldens.sh            alea's own goldens (UPDATE_GOLDEN=1 tests)
#   scripts/regen-goldens.sh --reference   also the outputs of the reference dicelab 0.7
#                                       (needs Debian's `dicelab`; slow)
#
# Not regenerated on purpose: crates/alea-blackjack/tests/golden/exact.txt pins the exact values
# from before the chain's symmetry reduction; a change there is a bug, not a new golden.
set -euo pipefail
cd "$(dirname "$0")/.."
UPDATE_GOLDEN=1 cargo test -q -p alea-cli --test dicelab --test holdem
if [ "${1:-}" = "--reference" ]; then
    scripts/regen-dicelab-golden.sh
    scripts/regen-dicelab-calc-golden.sh
fi
git status --short -- crates
