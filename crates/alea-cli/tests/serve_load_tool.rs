//! The short version of the measured load test (`examples/serve_load.rs`): a few seconds of each
//! phase against a real `alea serve` process, asserting correctness only — every hostile body
//! answered and the server's peak RSS under 512 MiB (a memory bound), every cheap call answered
//! 200 under load with slow programs running, normal requests answered among slow clients, and
//! every in-flight request answered at SIGTERM with exit status 0. No timing is asserted; the
//! measured figures are in docs/playground.md.

#[path = "../examples/serve_load.rs"]
#[allow(dead_code)]
mod tool;

#[cfg(target_os = "linux")]
#[test]
fn short_load_test_every_check_holds() {
    let options = tool::Options {
        seconds: 3.0,
        clients: 12,
        heavy: 2,
        slowloris: 200,
        slow_bodies: 20,
        drain: 16,
        ..tool::Options::full(env!("CARGO_BIN_EXE_alea").into())
    };
    let report = tool::run(&options).expect("start alea serve");
    assert_eq!(report.failures(), Vec::<String>::new(), "{report:#?}");
    assert!(report.cheap.count > 0);
    assert!(report.rss_peak_kib.is_some(), "no VmHWM read");
    assert_eq!(report.drain_statuses.len(), 16);
    assert_eq!(report.hostile.len(), 27);
}
