"""CPython on the programs of benches/interp.rs (fastest and median of 10 runs, ms; the docs
quote the fastest, like the divan run).
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


for f in [fib25, loop1e6, list_pipeline1e5, string_build1e4]:
    times = []
    for _ in range(10):
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t) * 1000)
    print(f"{f.__name__}\tfastest {min(times):.3f} ms\tmedian {statistics.median(times):.3f} ms")
