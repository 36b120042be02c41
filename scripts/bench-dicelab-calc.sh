#!/usr/bin/env bash
# Side-by-side timing of exact dicelab distributions (issue 3, dicelab.md §5.3):
#   1. alea in-process (divan bench `alea-dicelab/benches/calc.rs`, median of 10 samples),
#   2. icepool in-process (PyPI, installed in a local virtualenv; one fresh Python process per
#      program, the evaluation alone timed, median of $RUNS),
#   3. whole-process `dicelab -c`: alea's binary (when its -c works) and dicelab 0.7
#      (/usr/bin/dicelab, `apt-get install dicelab`), each cut at $REF_TIMEOUT seconds, and
#      icepool whole-process (a fresh `python -c` importing icepool, computing and printing
#      the distribution; median of $RUNS), the comparison issue 16 sets its target on.
# Prints a markdown table for docs/performance/dicelab-calc.md.
# Usage: scripts/bench-dicelab-calc.sh   (env: CARGO_TARGET_DIR, RUNS=5, ALEA_RUNS=31, REF_TIMEOUT=10)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target}
RUNS=${RUNS:-5}
REF_TIMEOUT=${REF_TIMEOUT:-10}
REF=${REF:-/usr/bin/dicelab}
VENV=${VENV:-$CARGO_TARGET_DIR/bench-venv}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

if [[ ! -x "$VENV/bin/python" ]] || ! "$VENV/bin/python" -c 'import icepool' 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q icepool
fi

# Program TAB icepool expression ("-" when there is no idiomatic icepool equivalent).
cat >"$WORK/suite.tsv" <<'SUITE'
sum(high 3 (20#d6))	icepool.d6.pool(20).highest(3).sum()
count >7 50#d10	50 @ (icepool.d10 > 7)
high 1 100#d20	icepool.d20.pool(100).highest(1).sum()
sum(high 3 (100#d6))	icepool.d6.pool(100).highest(3).sum()
let x = 7#d10 in high 1 (foreach y in 1..10 do sum (==y x))	MaxRun().evaluate(icepool.d10.pool(7))
sum(100#d6)	100 @ icepool.d6
6#sum(drop low 1 4#d6)	-
count >7 5#d10	5 @ (icepool.d10 > 7)
let c=5#d10 in (count >7 c)-(count ==1 c)	-
count (while x=d6 do ((count <6 x)#d6))	-
d6.d6	-
high 1 low 2 3#d20	icepool.d20.pool(3).lowest(2).highest(1).sum()
sum(while x=3#d6 do ((count ==6 x)#d6))	-
let a = 3#d6 in let b = 2#d6 in count( (<(high 1 a) high 1 b), (<(high 1 low 2 a) low 1 b))	-
SUITE

cat >"$WORK/ice.py" <<'PY'
import statistics, subprocess, sys, time
expr, runs = sys.argv[1], int(sys.argv[2])
PROG = '''
import time, icepool
class MaxRun(icepool.MultisetEvaluator):
    def next_state(self, state, order, outcome, count):
        c = outcome * count
        return c if state is None or c > state else state
    def final_outcome(self, final_state, *args, **kwargs):
        return final_state
start = time.perf_counter()
result = %s
print(time.perf_counter() - start)
print(result)
''' % expr
import resource
def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
times, walls, cpus = [], [], []
for _ in range(runs):
    c0 = cpu()
    start = time.perf_counter()
    out = subprocess.run([sys.executable, '-c', PROG], capture_output=True, text=True, check=True)
    walls.append(time.perf_counter() - start)
    cpus.append(cpu() - c0)
    times.append(float(out.stdout.strip().splitlines()[0]))
print(statistics.median(times), statistics.median(walls), min(walls), statistics.median(cpus))
PY

echo "building and running the alea bench (cargo bench -p alea-dicelab --bench calc)..." >&2
cargo bench -q -p alea-dicelab --bench calc >"$WORK/alea.txt" 2>/dev/null

python3 - "$WORK/alea.txt" >"$WORK/alea.tsv" <<'PY'
import re, sys
units = {'ns': 1e-9, 'µs': 1e-6, 'us': 1e-6, 'ms': 1e-3, 's': 1.0}
for line in open(sys.argv[1], encoding='utf-8'):
    m = re.match(r'^[\s│]*[├╰]─ (.*)$', line.rstrip('\n'))
    if not m or '│' not in m.group(1):
        continue
    parts = m.group(1).split('│')
    head = re.match(r'^(.*?)\s{2,}([\d.]+) (\S+)\s*$', parts[0])
    median = parts[2].split()
    if head and len(median) == 2:
        print(f"{head.group(1).strip()}\t{float(median[0]) * units[median[1]]}")
PY

ALEA_BIN=$CARGO_TARGET_DIR/release/dicelab
alea_cli_ok=0
if [[ -x "$ALEA_BIN" ]] && [[ "$(echo d6 | "$ALEA_BIN" -c 2>/dev/null | head -n 1)" == $'  1\t0.166667\t' ]]; then
    alea_cli_ok=1
fi

cat >"$WORK/wall.py" <<'PY'
# Whole-process wall time of `BIN -c` on PROGRAM (stdin): the median of RUNS runs, timed by
# one Python timer around the child (as icepool's whole-process runs are), or ">T" when a run
# exceeds T seconds; then the median CPU time (user + system) of the child, which does not
# count the time spent waiting for a core on a shared machine. The parent waits in a blocking
# wait4 (a SIGALRM kills a child past T): `subprocess.run(timeout=...)` polls the child with
# sleeps of 1, 2, 4, 8 ms, …, which rounded every run of a few milliseconds up to about 1.3,
# 3.3 or 7.3 ms (the "3.3 ms plateau" of the runs before 2026-12-06).
import os, signal, statistics, subprocess, sys, time
binary, timeout, runs, program = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
times, cpus = [], []
for _ in range(runs):
    start = time.perf_counter()
    p = subprocess.Popen([binary, '-c'], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    signal.signal(signal.SIGALRM, lambda *_: p.kill())
    signal.setitimer(signal.ITIMER_REAL, timeout)
    try:
        p.stdin.write(program.encode())
        p.stdin.close()
    except BrokenPipeError:
        pass
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    signal.setitimer(signal.ITIMER_REAL, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if elapsed >= timeout:
        print(f">{sys.argv[2]} >{sys.argv[2]} >{sys.argv[2]}")
        sys.exit(0)
    times.append(elapsed)
    cpus.append(usage.ru_utime + usage.ru_stime)
print(f"{statistics.median(times):.6f} {min(times):.6f} {statistics.median(cpus):.6f}")
PY

whole() { # whole-process seconds of `$1 -c` on program $2: "MEDIAN MIN CPU" of $3 runs, or ">T >T >T"
    python3 "$WORK/wall.py" "$1" "$REF_TIMEOUT" "$3" "$2"
}

fmt() { python3 -c "import sys; v=sys.argv[1]; print(v + ' s' if v.startswith('>') else v if not v[0].isdigit() else f'{float(v)*1e3:.3g} ms')" "$1"; }

echo "| program | alea in-process | icepool in-process | ratio | alea dicelab -c (median / fastest) | icepool whole process (median / fastest) | ratio whole (medians) | CPU time alea / icepool (medians) | ratio CPU | 0.7 dicelab -c |"
echo "|---|---|---|---|---|---|---|---|---|---|"
while IFS=$'\t' read -r program expr; do
    alea=$(awk -F'\t' -v p="$program" '$1 == p { print $2 }' "$WORK/alea.tsv")
    ice="-"
    ice_whole="-"
    ratio="-"
    ratio_whole="-"
    cli="n/a"
    cli_cpu="n/a"
    ice_cpu="-"
    ratio_cpu="-"
    if [[ $alea_cli_ok -eq 1 ]]; then
        # Median of ALEA_RUNS (31): a run takes about a millisecond, so a burst of load on a
        # shared machine would otherwise decide a median of 5.
        read -r cli cli_min cli_cpu < <(whole "$ALEA_BIN" "$program" "${ALEA_RUNS:-31}")
    fi
    if [[ "$expr" != "-" ]]; then
        read -r ice ice_whole ice_min ice_cpu < <("$VENV/bin/python" "$WORK/ice.py" "$expr" "$RUNS")
        ratio=$(python3 -c "r = $ice / $alea; print(f'{r:.0f}×' if r >= 10 else f'{r:.2f}×')")
        python3 -c "print($ice / $alea)" >>"$WORK/ratios.txt"
        if [[ "$cli" != "n/a" && "$cli" != ">"* ]]; then
            ratio_whole=$(python3 -c "r = $ice_whole / $cli; print(f'{r:.0f}×' if r >= 10 else f'{r:.2f}×')")
            python3 -c "print($ice_whole / $cli)" >>"$WORK/ratios_whole.txt"
            python3 -c "print($ice_min / $cli_min)" >>"$WORK/ratios_fastest.txt"
            ratio_cpu=$(python3 -c "r = $ice_cpu / max($cli_cpu, 1e-6); print(f'{r:.0f}×' if r >= 10 else f'{r:.2f}×')")
            python3 -c "print($ice_cpu / max($cli_cpu, 1e-6))" >>"$WORK/ratios_cpu.txt"
        fi
        ice_cpu="$(fmt "$ice_cpu")"
        ice_whole="$(fmt "$ice_whole") / $(fmt "$ice_min")"
    fi
    [[ "$cli" != "n/a" ]] && cli="$(fmt "$cli") / $(fmt "$cli_min")" && cli_cpu="$(fmt "$cli_cpu")"
    read -r ref _ < <(whole "$REF" "$program" 1)
    echo "| \`$program\` | $(fmt "$alea") | $(fmt "$ice") | $ratio | $cli | $ice_whole | $ratio_whole | $cli_cpu / $ice_cpu | $ratio_cpu | $(fmt "$ref") |"
done <"$WORK/suite.tsv"
median() { # median of the ratios in file $1, or "n/a" when none was measured
    [[ -s "$1" ]] || { echo "n/a"; return; }
    python3 -c "import statistics, sys; print(f'{statistics.median(float(l) for l in open(sys.argv[1])):.0f}×')" "$1"
}
echo
echo "Median ratio over icepool: in-process $(median "$WORK/ratios.txt"), whole process $(median "$WORK/ratios_whole.txt") (medians of the runs), $(median "$WORK/ratios_fastest.txt") (fastest runs), whole-process CPU time $(median "$WORK/ratios_cpu.txt")."
