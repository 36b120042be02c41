//! The fuzz target's checks on a deterministic stream of random token soups, so that CI (which
//! only compiles fuzz targets) still exercises the parser, printer, dealer and analysis on
//! thousands of odd inputs. Also the limits that turn huge jobs into errors.

use alea_blackjack::{ExactError, ExactOptions, Randomizer, Ratio, Spec, exact};
use alea_core::Rng;

const WORDS: [&str; 22] = [
    "bag", "of", "with", "history", "rolls", "first", "sequence", "starting", "empty", "I", "J",
    "S", "Z", "I2", "0", "1", "2", "3", "7", "70000", "BAG", ",",
];

fn soup(rng: &mut Rng) -> String {
    let len = rng.below(12) as usize;
    let mut s = String::new();
    for _ in 0..len {
        let w = WORDS[rng.below(WORDS.len() as u64) as usize];
        s.push_str(w);
        if rng.below(4) != 0 {
            s.push(' ');
        }
    }
    if rng.below(20) == 0 {
        s.push(';');
    }
    s
}

#[test]
fn random_token_soups_never_panic() {
    let mut rng = Rng::seed_from_u64(7);
    let opts = ExactOptions {
        tail: Ratio::from_u64(1, 100),
        max_states: 200,
        ..ExactOptions::default()
    };
    let (mut valid, mut invalid) = (0, 0);
    for _ in 0..4000 {
        let text = soup(&mut rng);
        match Spec::parse(&text) {
            Err(e) => {
                invalid += 1;
                assert!(
                    e.span.start <= e.span.end && e.span.end <= text.len(),
                    "{text:?}"
                );
                assert!(e.help.is_some(), "{text:?}");
            }
            Ok(spec) => {
                valid += 1;
                let c = spec.to_string();
                assert_eq!(Spec::parse(&c).as_ref(), Ok(&spec), "{text:?} -> {c:?}");
                let mut d = Randomizer::new(&spec, 1);
                let peek = d.peek(5);
                let got: Vec<_> = d.by_ref().take(5).collect();
                assert_eq!(peek, got);
                let back = Randomizer::from_json(&d.to_json()).unwrap();
                assert_eq!(back.peek(10), d.peek(10));
                if let Ok(e) = exact(&spec, &opts) {
                    let total = e.frequency.iter().fold(Ratio::zero(), |a, b| &a + b);
                    assert_eq!(total, Ratio::one(), "{c}: frequencies sum to 1");
                }
            }
        }
    }
    assert!(
        valid > 100 && invalid > 100,
        "{valid} valid, {invalid} invalid"
    );
}

#[test]
fn oversized_jobs_end_in_errors() {
    let spec = Spec::parse("I,J,L,O,S,T,Z with 4 history 6 rolls").unwrap();
    let small = ExactOptions {
        max_states: 10,
        ..ExactOptions::default()
    };
    assert!(matches!(
        exact(&spec, &small),
        Err(ExactError::TooManyStates {
            limit: 10,
            needed: Some(_)
        })
    ));
    let huge_rolls = Spec::parse("I,J,L,O,S,T,Z with 2 history 60000 rolls").unwrap();
    assert_eq!(
        exact(&huge_rolls, &ExactOptions::default()).map_err(|e| e.code()),
        Err("X03")
    );
    // A 65535-entry list parses and deals; a 65536th entry is E03.
    let long: Vec<String> = (0..65535).map(|i| format!("p{i}")).collect();
    let spec = Spec::parse(&long.join(",")).unwrap();
    assert_eq!(Randomizer::new(&spec, 0).take(3).count(), 3);
    let too_long = format!("{},x", long.join(","));
    assert_eq!(Spec::parse(&too_long).unwrap_err().code, "E03");
}
