"""CPython on the programs of benches/interp.rs: fastest and median of 10 runs (wall time, ms;
the docs quote the fastest, like the divan run), and mean thread CPU time per run (like
examples/cputime.rs).
Run: python3 crates/alea-ezscript/benches/peers.py"""
import statistics
import time


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def fib25():
    return fib(25)


def loop1e6():
    s = 0
    for i in range(1000000):
        s += i
    return s


DATA = list(range(100000))


def list_pipeline1e5():
    v = sorted(x for x in map(lambda x: x * 7 % 1000, DATA) if x % 2 == 0)
    total = 0
    for x in v:
        total = total + x
    return total


def string_build1e4():
    s = ""
    for i in range(10000):
        s += "ab"
    return len(s)


def mean_cpu(f):
    """CPU time of at least 5 runs and 0.5 s, per run (like examples/cputime.rs)."""
    f()
    t = time.thread_time()
    runs = 0
    while runs < 5 or time.thread_time() - t < 0.5:
        f()
        runs += 1
    return (time.thread_time() - t) * 1000 / runs


for f in [fib25, loop1e6, list_pipeline1e5, string_build1e4]:
    times = []
    for _ in range(10):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1000)
    print(
        f"{f.__name__}\tfastest {min(times):.3f} ms\tmedian {statistics.median(times):.3f} ms"
        f"\tCPU time {mean_cpu(f):.3f} ms"
    )
