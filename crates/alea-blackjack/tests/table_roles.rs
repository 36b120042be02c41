//! Issue 17 part 2: the tables compute one chain per role (pieces that play the same part share
//! it), P(gap ≥ k) alone without the whole table, and an unknown piece is the library's error.

use alea_blackjack::{
    ExactError, ExactOptions, ExactTableOptions, Fallback, Ratio, Source, exact_tables,
    gap_at_least, gap_at_least_or_simulate,
};

fn src(text: &str) -> Source {
    Source::resolve(text).unwrap()
}

const SPECS: &[&str] = &[
    "7bag",
    "14bag",
    "memoryless",
    "tgm1",
    "tgm2",
    "I,I,J,L,O,S,T,Z",
    "bag of I,I,J,L first J",
    "I,J,L,O first I,J",
    "sequence of I,J,I,L",
    "I,J,L,O,S,T,Z with 4 history",
    "I,J,L with 2 history starting with I,J",
    "S,Z,T with 2 history 3 rolls first S",
    "nes",
    "nes-real",
    "gameboy",
    "pairs",
    "7+1bag",
];

/// Every piece's tables computed together (one chain per role) equal that piece's tables
/// computed alone (its own chain), for every spec and preset with a finite chain.
#[test]
fn shared_chains_equal_each_piece_alone() {
    for text in SPECS {
        let s = src(text);
        let opts = ExactTableOptions {
            drought_to: 14,
            game_length: 30,
            game_drought: 8,
            // Per-piece tables only: the joint ones are tested in joint_tables.rs.
            joint: false,
            ..ExactTableOptions::default()
        };
        let all = exact_tables(&s, &opts).unwrap();
        for p in &all.pieces {
            let alone = exact_tables(
                &s,
                &ExactTableOptions {
                    piece: Some(p.piece.clone()),
                    ..opts.clone()
                },
            )
            .unwrap();
            assert_eq!(alone.pieces, vec![p.clone()], "{text} {}", p.piece);
            assert_eq!(alone.runs, all.runs, "{text}");
        }
    }
}

/// P(gap ≥ k) alone equals the drought table's entry k, and the hand values: 7-bag 1/49 at
/// 12 and 0 at 13; memoryless (6/7)^k.
#[test]
fn gap_at_least_alone_equals_the_table() {
    for text in SPECS {
        let s = src(text);
        let t = exact_tables(
            &s,
            &ExactTableOptions {
                drought_to: 15,
                joint: false,
                ..ExactTableOptions::default()
            },
        )
        .unwrap();
        for k in [0u64, 1, 5, 12, 15] {
            let g = gap_at_least(&s, k, None, &ExactOptions::default()).unwrap();
            for (row, p) in g.iter().zip(&t.pieces) {
                assert_eq!(row.0, p.piece);
                let want = p
                    .drought
                    .get(k as usize)
                    .cloned()
                    .unwrap_or_else(Ratio::zero);
                assert_eq!(row.1, want, "{text} {} k={k}", p.piece);
            }
        }
    }
    let bag = |k| gap_at_least(&src("7bag"), k, Some("T"), &ExactOptions::default()).unwrap();
    assert_eq!(bag(12), vec![("T".to_string(), Ratio::from_u64(1, 49))]);
    assert_eq!(bag(13), vec![("T".to_string(), Ratio::zero())]);
    let q = Ratio::from_u64(6, 7);
    let want = (0..500).fold(Ratio::one(), |a, _| &a * &q);
    let g = gap_at_least(&src("memoryless"), 500, None, &ExactOptions::default()).unwrap();
    assert_eq!(g.len(), 7);
    assert!(g.iter().all(|(_, p)| *p == want));
}

/// A piece the randomizer does not deal is X05 from every table entry point, and never a
/// reason to simulate.
#[test]
fn unknown_piece_is_the_librarys_error() {
    let s = src("tgm2");
    let unknown = |e: ExactError| match e {
        ExactError::UnknownPiece { piece, pieces } => {
            assert_eq!(piece, "Q");
            assert_eq!(pieces.len(), 7);
        }
        other => panic!("expected X05, got {other}"),
    };
    unknown(gap_at_least(&s, 3, Some("Q"), &ExactOptions::default()).unwrap_err());
    unknown(
        exact_tables(
            &s,
            &ExactTableOptions {
                piece: Some("Q".into()),
                ..ExactTableOptions::default()
            },
        )
        .unwrap_err(),
    );
    let fallback = Fallback::Simulate {
        seed: 1,
        deals: 1000,
    };
    for text in ["tgm2", "tgm3"] {
        let e = gap_at_least_or_simulate(
            &src(text),
            3,
            Some("Q"),
            &ExactOptions::default(),
            &fallback,
        )
        .unwrap_err();
        assert_eq!(e.code(), "X05", "{text}");
    }
    assert!(
        ExactError::UnknownPiece {
            piece: "Q".into(),
            pieces: vec!["S".into(), "Z".into()]
        }
        .to_json()
        .contains("\"code\": \"X05\"")
    );
}
