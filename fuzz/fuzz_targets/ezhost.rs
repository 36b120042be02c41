#![no_main]
//! EZScript in its system: any script or template, evaluated as any field kind against the
//! example tournament in one of several locales, ends in a value or an error, never a panic,
//! and within its step budget. (The language alone is the `ezscript` target; loading files is
//! `tournament`.)

use alea_ezhost::{Kind, Options, Session};
use libfuzzer_sys::fuzz_target;

const TOURNAMENT: &str = include_str!("../../examples/ezscript/tournament.json");
const LOCALES: [&str; 4] = ["en-US", "de-DE", "fr-FR", "ja-JP"];
const KINDS: [Kind; 5] = [Kind::Content, Kind::Condition, Kind::Alert, Kind::Payout, Kind::Points];

thread_local! {
    static SESSIONS: Vec<Session> = LOCALES
        .iter()
        .map(|locale| {
            let options = Options { locale: (*locale).into(), ..Options::default() };
            Session::new(Some(TOURNAMENT), options).expect("the example tournament loads")
        })
        .collect();
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, rest)) = data.split_first() else { return };
    let Ok(source) = std::str::from_utf8(rest) else { return };
    let locale = usize::from(selector & 3);
    let kind = KINDS[usize::from(selector >> 2) % KINDS.len()];
    let template = selector & 0x80 != 0;
    SESSIONS.with(|sessions| {
        let outcome = sessions[locale].eval(kind, Some(source), template);
        let _ = outcome.to_json();
    });
});
