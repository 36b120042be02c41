#!/usr/bin/env bash
# Whole-process `dicelab -c`: alea's drop-in binary (release) against dicelab 0.7
# (/usr/bin/dicelab, `apt-get install dicelab`), side by side on the man-page examples
# (dicelab.md §9) and the issue's slow pool suite (§5.3). alea: median of $RUNS runs; 0.7: one
# run cut at $REF_TIMEOUT seconds (reported as "> T s"). Each row also says whether the two
# outputs are byte-identical. Prints a markdown table for docs/performance/dicelab-calc-cli.md.
#
# Usage: scripts/bench-dicelab-calc-cli.sh          (env: CARGO_TARGET_DIR, RUNS=5, REF_TIMEOUT=120)
#        scripts/bench-dicelab-calc-cli.sh --stat   also runs the chi-square agreement of
#            `alea dice -e -n 1000000` with the exact distribution for all 20 programs of
#            crates/alea-cli/tests/dice_calc.rs (release build).
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
RUNS=${RUNS:-5}
REF_TIMEOUT=${REF_TIMEOUT:-120}
REF=${REF:-/usr/bin/dicelab}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [[ "${1:-}" == "--stat" ]]; then
    ALEA_STAT_ALL=1 cargo test -q --release -p alea-cli --test dice_calc simulation
fi

cargo build -q --release -p alea-cli --bin dicelab
ALEA=$CARGO_TARGET_DIR/release/dicelab

# suite TAB program (the while threshold, when any, as a leading "-t T ").
cat >"$WORK/suite.tsv" <<'SUITE'
man 1	count >7 5#d10
man 2	let c=5#d10 in (count >7 c)-(count ==1 c)
man 3	count (while x=d6 do ((count <6 x)#d6))
man 3	-t 0.01 count (while x=d6 do ((count <6 x)#d6))
man 4	count (while x=(d6/6) do ((count <1 x)#(d6/6)))
man 6	d6.d6
man 7	high 1 low 2 3#d20
man 8	sum(while x=3#d6 do ((count ==6 x)#d6))
man 11	let a = 3#d6 in let b = 2#d6 in count( (<(high 1 a) high 1 b), (<(high 1 low 2 a) low 1 b))
man 12	let c=5#d10 in let succs = count >7 c in let ones = count ==1 c in if >0 succs then high 1 (0,succs-ones) else if >0 ones then -1 else 0
man 13	let x = 2#d8,d10 in (count >15 sum x)# let a = low 1 x in let b = high 1 low 2 x in let c = high 1 x in if ==a ==b c then a+b+c else if ==a <c b then c else if >a ==c b then b+c else b
manual	count >10 sum keep high 2 3#d6
pool	sum(100#d6)
pool	sum(high 3 (20#d6))
pool	count >7 50#d10
pool	high 1 100#d20
pool	sum(high 3 (100#d6))
man 9, pool	let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))
SUITE

# run BIN PROGRAM OUT TIMEOUT: prints seconds (or ">T") and leaves stdout in OUT.
run() {
    local bin=$1 line=$2 out=$3 limit=$4 args=(-c) program=$2 start end status=0
    if [[ "$line" == "-t "* ]]; then
        args+=(-t "$(cut -d' ' -f2 <<<"$line")")
        program=$(cut -d' ' -f3- <<<"$line")
    fi
    start=$(date +%s.%N)
    printf '%s\n' "$program" | timeout "$limit" "$bin" "${args[@]}" >"$out" 2>/dev/null || status=$?
    end=$(date +%s.%N)
    if [[ $status -eq 124 ]]; then echo ">$limit"; return; fi
    if [[ $status -ge 128 ]]; then echo "crash"; return; fi
    python3 -c "print(f'{$end - $start:.4f}')"
}

fmt() {
    python3 -c "
import sys; v = sys.argv[1]
print(v if not v[0].isdigit() and not v.startswith('>') else ('> ' + v[1:] + ' s') if v.startswith('>') else f'{float(v)*1e3:.3g} ms')" "$1"
}

echo "| suite | program | alea \`dicelab -c\` | 0.7 \`dicelab -c\` | 0.7 / alea | same output |"
echo "|---|---|---|---|---|---|"
while IFS=$'\t' read -r suite line; do
    times=()
    for _ in $(seq "$RUNS"); do times+=("$(run "$ALEA" "$line" "$WORK/ours" 60)"); done
    ours=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((RUNS + 1) / 2))p")
    ref=$(run "$REF" "$line" "$WORK/ref" "$REF_TIMEOUT")
    ratio="-"
    same="-"
    if [[ "$ref" == ">"* ]]; then
        ratio=$(python3 -c "print(f'> {${ref#>} / $ours:.0f}×')")
    elif [[ "$ref" == "crash" ]]; then
        same="0.7 crashes"
    else
        ratio=$(python3 -c "r = $ref / $ours; print(f'{r:.0f}×' if r >= 10 else f'{r:.2f}×')")
        if cmp -s "$WORK/ours" "$WORK/ref"; then same="yes"; else same="no"; fi
    fi
    echo "| $suite | \`$line\` | $(fmt "$ours") | $(fmt "$ref") | $ratio | $same |"
done <"$WORK/suite.tsv"
