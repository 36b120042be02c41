//! Real-browser test of the playground: Debian's `chromium`, headless, loads
//! `/?selftest=1`, which runs one example per language tab, an editor error, a 64-bit seed, a
//! refused request clearing stale results, the EZScript clock view (face, Skip level with its
//! alert, Start) and a clock-view error, and writes what it saw into `#selftest`; the dumped
//! DOM is checked, and screenshots of the tabs and the clock view are saved to
//! `target/tmp/playground-*.png`. Without chromium it skips with a message, except under
//! `CI=true`, where it fails (`support::require`); `CHROMIUM=/path/to/chromium` picks a binary.
#![allow(clippy::print_stderr)]

mod support;

mod serve_common;

use alea_cli::serve::Config;
use std::path::PathBuf;
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

fn headless(browser: &PathBuf, profile: &std::path::Path, extra: &[String]) -> String {
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=20000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .output()
        .expect("run chromium");
    String::from_utf8_lossy(&out.stdout).to_string()
}

#[test]
fn the_page_runs_one_example_per_language_in_chromium() {
    // Fails under CI=true when chromium is missing (.ci/run installs it).
    let browser = chromium();
    if !support::require("chromium (apt-get install -y chromium)", browser.is_some()) {
        return;
    }
    let Some(browser) = browser else { return };
    let server = serve_common::server(Config::default());
    let url = format!("http://{}/?selftest=1", server.addr());
    let tmp = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let profile = tmp.join(format!("chromium-profile-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&profile);
    let dom = headless(&browser, &profile, &["--dump-dom".into(), url.clone()]);
    let start = dom.find("id=\"selftest\"").expect("the page has #selftest");
    let report = &dom[start..dom[start..].find("</div>").map_or(dom.len(), |e| start + e)];
    assert!(
        report.contains("data-status=\"pass\""),
        "self-test failed: {report}"
    );
    for want in [
        "dice: ok rows=23 mean=7",
        "blackjack: ok pieces=140",
        "bjtables: ok rows=24 bagginess=1 gap12=1/49 preview=1/5",
        "holdem: ok f$raise=1",
        "ezscript: ok text=Summer League #7: buy-in 40",
        "errors: ok line=1 column=9",
        "clock: ok level=Level 7 countdown=12:26 blinds=400 / 800 ante=100 next=500 / 1000 \
         players=14 / 24 prize=$1,250 skipped=Level 8 20:00 alert=blinds changed: \
         The small blind is 500, and the big blind is 1000",
        "clockerror: ok cleared field=9",
        "resume: ok 20:00 paused by the tournament Start then 19:59 Pause",
        "cancel: ok progress shown, cancelled, running=0",
        "seed: ok seed=18446744073709551557",
        "stale: ok cleared error=HTTP 413",
    ] {
        assert!(report.contains(want), "missing {want:?} in {report}");
    }
    for tab in ["dice", "blackjack", "holdem", "ezscript", "clock"] {
        let shot = tmp.join(format!("playground-{tab}.png"));
        let _ = std::fs::remove_file(&shot);
        headless(
            &browser,
            &profile,
            &[
                "--window-size=1280,1300".into(),
                format!("--screenshot={}", shot.display()),
                format!("{url}&tab={tab}"),
            ],
        );
        let size = std::fs::metadata(&shot).map(|m| m.len()).unwrap_or(0);
        assert!(
            size > 10_000,
            "screenshot {} is missing or empty",
            shot.display()
        );
    }
    let _ = std::fs::remove_dir_all(&profile);
    server.stop();
}
