#!/usr/bin/env bash
# Compares `dicelab -e -n N` of alea (release build) with the reference dicelab 0.7 on the
# man-page examples, side by side in one run (whole process, stdin input), and writes the
# ratios to docs/performance/dicelab-sampling.md.
#
#   scripts/bench-dicelab-sampling.sh            # N = 1000000, all cores for alea
#   N=100000 THREADS=1 scripts/bench-dicelab-sampling.sh
#
# Uses hyperfine when installed (apt-get install -y hyperfine), else a small timing loop.
# Reports the fastest of RUNS runs (wall clock) and, with hyperfine, the mean CPU time
# (user + sys), which a loaded machine disturbs less. Examples that 0.7 cannot evaluate
# (a list result) are skipped.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
N=${N:-1000000}
RUNS=${RUNS:-3}
THREADS=${THREADS:-}
ref=${DICELAB_REF:-/usr/bin/dicelab}
out=${OUT:-$root/docs/performance/dicelab-sampling.md}
target=${CARGO_TARGET_DIR:-$root/target}
[ -x "$ref" ] || { echo "reference dicelab not found at $ref (apt-get install dicelab)" >&2; exit 1; }
[ -n "${SKIP_BUILD:-}" ] || (cd "$root" && cargo build --release -p alea-cli --bin dicelab >&2)
ours=$target/release/dicelab
env_prefix=""
[ -n "$THREADS" ] && env_prefix="RAYON_NUM_THREADS=$THREADS "
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fastest() { sort -g | head -1; }
time_loop() { # command... -> fastest seconds
    for _ in $(seq "$RUNS"); do
        local s e
        s=$(date +%s.%N); "$@" > /dev/null 2>&1; e=$(date +%s.%N)
        echo "$e - $s" | bc -l
    done | fastest
}

load=$(uptime | sed 's/.*load average/load average/')
rows=""
for f in "$root"/examples/dicelab/*.dl; do
    name=$(basename "$f" .dl)
    # 0.7 evaluates only single-value programs; skip the others (list results).
    if ! "$ref" -e -n 10 -f "$f" 2>&1 >/dev/null | grep -q . ; then :; else continue; fi
    if command -v hyperfine > /dev/null; then
        hyperfine -N --runs "$RUNS" --export-json "$tmp/$name.json" \
            "$ref -e -n $N -f $f" "env ${env_prefix}$ours -e -n $N -f $f" > /dev/null 2>&1 \
            || hyperfine --runs "$RUNS" --export-json "$tmp/$name.json" \
            "$ref -e -n $N -f $f" "${env_prefix}$ours -e -n $N -f $f" > /dev/null
        field() { python3 -c "import json;r=json.load(open('$tmp/$name.json'))['results'][$1];print($2)"; }
        t_ref=$(field 0 "r['min']")
        t_ours=$(field 1 "r['min']")
        c_ref=$(field 0 "r['user']+r['system']")
        c_ours=$(field 1 "r['user']+r['system']")
    else
        t_ref=$(time_loop "$ref" -e -n "$N" -f "$f")
        t_ours=$(time_loop env ${env_prefix:+$env_prefix} "$ours" -e -n "$N" -f "$f")
        c_ref=$t_ref
        c_ours=$t_ours
    fi
    ratio=$(echo "$t_ref / $t_ours" | bc -l)
    c_ratio=$(echo "$c_ref / $c_ours" | bc -l)
    program=$(tr '\n' ' ' < "$f" | sed 's/  */ /g; s/|/\\|/g; s/ *$//')
    [ ${#program} -gt 70 ] && program="${program:0:67}..."
    rows+=$(printf '| %s | `%s` | %.3f | %.3f | %.1f× | %.3f | %.3f | %.1f× |' "$name" "$program" \
        "$t_ref" "$t_ours" "$ratio" "$c_ref" "$c_ours" "$c_ratio")$'\n'
    printf '%-32s 0.7 %8.3fs  alea %8.3fs  ratio %6.1fx  cpu ratio %6.1fx\n' \
        "$name" "$t_ref" "$t_ours" "$ratio" "$c_ratio" >&2
done

mkdir -p "$(dirname "$out")"
{
    echo "# dicelab sampling: \`dicelab -e -n $N\`, alea vs dicelab 0.7"
    echo
    echo "Whole process (start-up, parse, $N rolls, histogram), both programs measured side by"
    echo "side in one run: the fastest of $RUNS runs (wall clock) and the mean CPU time (user +"
    echo "sys). Ratio = 0.7 time / alea time (higher is better for alea). alea threads:"
    echo "${THREADS:-all cores ($(nproc))}."
    echo
    echo "* Machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(uname -sr)"
    echo "* Date: $(date -u +%Y-%m-%dT%H:%MZ)"
    echo "* Command: \`N=$N RUNS=$RUNS${THREADS:+ THREADS=$THREADS} scripts/bench-dicelab-sampling.sh\`"
    echo "* Timer: $(command -v hyperfine > /dev/null && hyperfine --version || echo 'date loop')"
    echo "* Load before the run: $load"
    echo
    echo "| example | program | 0.7 wall (s) | alea wall (s) | ratio | 0.7 CPU (s) | alea CPU (s) | CPU ratio |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|"
    printf '%s' "$rows"
} > "$out"
echo "wrote $out" >&2
