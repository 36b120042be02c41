//! A session evaluates on the caller's thread, and that can be any thread (issue 14): no
//! evaluation starts a big-stack thread of its own any more, a session is `Send + Sync`, and
//! its evaluations, the clock and `check` run on default 2 MiB threads, hostile nesting
//! included.

mod harness;

use alea_ezhost::{ContentFields, Kind, Options, Session};
use harness::*;

fn assert_send_sync<T: Send + Sync>() {}

/// Runs `f` on a spawned thread with a default Rust thread's 2 MiB of stack.
fn on_2mib<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(2 << 20)
            .spawn_scoped(s, f)
            .expect("spawn")
            .join()
            .expect("no panic")
    })
}

#[test]
fn one_session_serves_many_2mib_threads() {
    assert_send_sync::<Session>();
    let s = session("en-US");
    let expected = s.eval(Kind::Content, Some("{{ title }}"), true).text;
    assert!(!expected.is_empty());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..3)
            .map(|_| {
                scope.spawn(|| {
                    on_2mib(|| {
                        let text = s.eval(Kind::Content, Some("{{ title }}"), true).text;
                        let ok = s.eval(Kind::Condition, Some("true"), false).ok;
                        let firings = s.simulate(800).expect("simulates").firings.len();
                        let fields = ContentFields::compile(&[("blindLevelNumber", false)]);
                        let frames = s.clock_view(744, 748, &fields, &[], 0).unwrap().frames;
                        (text, ok, firings, frames.len(), s.check().len())
                    })
                })
            })
            .collect();
        let want = (expected, true, s.simulate(800).unwrap().firings.len(), 5, 0);
        for h in handles {
            assert_eq!(h.join().expect("no panic"), want);
        }
    });
}

#[test]
fn hostile_nesting_through_a_session_fits_2mib() {
    let options = Options {
        fuel: Some(10_000_000),
        ..options("en-US")
    };
    let s = Session::new(Some(TOURNAMENT), options).expect("loads");
    on_2mib(|| {
        let deep = "l = []; for i = 0; i < 100000; i += 1 { l = [l] }";
        // Built, compared and dropped; its display passes the text limit.
        let out = s.eval(
            Kind::Content,
            Some(&format!("{deep}; m = l; [l == m].first")),
            false,
        );
        assert_eq!((out.ok, out.text.as_str()), (true, "true"));
        let out = s.eval(Kind::Content, Some(&format!("{deep}; l")), false);
        assert_eq!(out.errors[0].diagnostic.message, "Text is too long");
        // 40,000 levels display; the JSON value falls back to the text, too deep for JSON.
        let shallower = deep.replace("100000", "40000");
        let out = s.eval(Kind::Content, Some(&format!("{shallower}; l")), false);
        assert!(out.ok, "{:?}", out.errors);
        assert_eq!(out.text.len(), 80_002);
        assert_eq!(out.value, serde_json::Value::String(out.text.clone()));
    });
}
