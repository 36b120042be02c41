//! Builds examples/blackjack-c/deal.c with gcc against this crate's cdylib and runs it; checks
//! that the hand-written header declares exactly the functions the library exports.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The directory holding libalea_blackjack_ffi.so: the test binary lives in target/<profile>/deps.
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap().to_path_buf();
    for dir in [deps.clone(), deps.parent().unwrap().to_path_buf()] {
        if dir.join("libalea_blackjack_ffi.so").exists() {
            return dir;
        }
    }
    panic!(
        "libalea_blackjack_ffi.so not found next to {}",
        exe.display()
    );
}

#[test]
fn c_example_deals_like_the_cli() {
    let out = std::env::temp_dir().join(format!("alea-bj-c-{}", std::process::id()));
    let lib = lib_dir();
    let gcc = Command::new("gcc")
        .arg(repo().join("examples/blackjack-c/deal.c"))
        .arg("-I")
        .arg(repo().join("crates/alea-blackjack-ffi/include"))
        .arg("-L")
        .arg(&lib)
        .arg("-lalea_blackjack_ffi")
        .arg("-o")
        .arg(&out)
        .output()
        .expect("run gcc");
    assert!(
        gcc.status.success(),
        "gcc failed: {}",
        String::from_utf8_lossy(&gcc.stderr)
    );
    let run = Command::new(&out)
        .env("LD_LIBRARY_PATH", &lib)
        .output()
        .expect("run the C example");
    let _ = std::fs::remove_file(&out);
    assert!(run.status.success());
    let text = String::from_utf8_lossy(&run.stdout);
    let lines: Vec<&str> = text.lines().collect();
    // Spec §10 T8: the 7-bag's first deals for seed 0 are LZJISOT.
    assert_eq!(lines[0], "L Z J I S O T");
    assert_eq!(lines[1], "pieces: 7");
    assert!(
        lines[2].starts_with("refused: ") && lines[2].contains("E01"),
        "{}",
        lines[2]
    );
}

#[test]
fn header_declares_every_export() {
    let src = std::fs::read_to_string(repo().join("crates/alea-blackjack-ffi/src/lib.rs")).unwrap();
    let header =
        std::fs::read_to_string(repo().join("crates/alea-blackjack-ffi/include/alea_blackjack.h"))
            .unwrap();
    let exported: Vec<&str> = src
        .split("extern \"C\" fn ")
        .skip(1)
        .map(|rest| rest.split('(').next().unwrap().trim())
        .collect();
    assert_eq!(exported.len(), 6, "{exported:?}");
    for name in &exported {
        assert!(header.contains(&format!("{name}(")), "header lacks {name}");
    }
    let declared = header.matches("alea_bj_").count();
    // Each function is named once in its declaration (comments use other words).
    assert_eq!(declared, exported.len(), "header declares other functions");
}

/// The Rust side of the same calls: null pointers and bad indices are refused, not crashes.
#[test]
fn null_and_out_of_range_are_refused() {
    use alea_blackjack_ffi::*;
    // SAFETY: null pointers are part of each function's contract.
    unsafe {
        assert!(alea_bj_new(std::ptr::null(), 0).is_null());
        assert_eq!(alea_bj_next(std::ptr::null_mut()), -1);
        assert_eq!(alea_bj_piece_count(std::ptr::null()), -1);
        assert!(alea_bj_piece_name(std::ptr::null(), 0).is_null());
        alea_bj_free(std::ptr::null_mut());
        let d = alea_bj_new(c"tgm2".as_ptr(), 1);
        assert!(!d.is_null());
        assert!(alea_bj_piece_name(d, 7).is_null());
        assert!(alea_bj_piece_name(d, -1).is_null());
        let p = alea_bj_next(d);
        assert!((0..7).contains(&p));
        alea_bj_free(d);
    }
}
