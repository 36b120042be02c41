// The benchmark programs in each language (included by benches/interp.rs and
// examples/profile.rs).

/// (name, EZScript, Rhai, Lua). Each peer gets the idiomatic spelling of the same program
/// (Rhai and Lua count with integers; EZScript's numbers are all f64).
const PROGRAMS: &[(&str, &str, &str, &str)] = &[
    (
        "fib25",
        "func fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } }; fib(25)",
        "fn fib(n) { if n < 2 { n } else { fib(n - 1) + fib(n - 2) } } fib(25)",
        "local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
         return fib(25)",
    ),
    (
        "loop1e6",
        "s = 0; for i = 0; i < 1000000; i += 1 { s += i }; s",
        "let s = 0; for i in 0..1000000 { s += i; } s",
        "local s = 0 for i = 0, 999999 do s = s + i end return s",
    ),
    (
        "list_pipeline1e5",
        "data.map(func(x) { x * 7 % 1000 }).where(func(x) { x % 2 == 0 }).sort().reduce(func(a, b) { a + b })",
        "let v = data.map(|x| x * 7 % 1000).filter(|x| x % 2 == 0); v.sort(); v.reduce(|sum, x| sum + x, 0)",
        // Lua has no list methods: the usual small helpers, taking closures like the others.
        "local function map(t, f) local r = {} for i = 1, #t do r[i] = f(t[i]) end return r end
         local function where(t, f)
           local r, n = {}, 0
           for i = 1, #t do local x = t[i] if f(x) then n = n + 1 r[n] = x end end
           return r
         end
         local function reduce(t, f) local a = t[1] for i = 2, #t do a = f(a, t[i]) end return a end
         local v = where(map(data, function(x) return x * 7 % 1000 end),
                         function(x) return x % 2 == 0 end)
         table.sort(v)
         return reduce(v, function(a, b) return a + b end)",
    ),
    (
        "string_build1e4",
        "s = \"\"; for i = 0; i < 10000; i += 1 { s += \"ab\" }; s.count",
        "let s = \"\"; for i in 0..10000 { s += \"ab\"; } s.len()",
        "local s = \"\" for i = 1, 10000 do s = s .. \"ab\" end return #s",
    ),
];
