//! The C ABI of `alea-blackjack` (header: `include/alea_blackjack.h`).
//!
//! A C, C++ or C# game loads a spec or preset name, draws pieces and reads their names:
//!
//! ```c
//! AleaBjDealer *d = alea_bj_new("bag of I,J,L,O,S,T,Z", 0);
//! int32_t p = alea_bj_next(d);                 /* piece index */
//! const char *name = alea_bj_piece_name(d, p); /* "L" */
//! alea_bj_free(d);
//! ```
//!
//! `unsafe` is confined to this crate and needed only because C hands us raw pointers: every
//! entry point checks for null, reads C strings only up to their terminator, and never lets a
//! panic cross the boundary (each body runs under `catch_unwind`). Errors are reported through
//! return values (null or -1) and `alea_bj_last_error`, a thread-local message.

use alea_blackjack::{Randomizer, Source};
use std::cell::RefCell;
use std::ffi::{CStr, CString, c_char};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// An opaque dealer: a randomizer and its piece names as C strings.
pub struct AleaBjDealer {
    dealer: Randomizer,
    names: Vec<CString>,
}

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: &str) {
    let c = CString::new(message.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

fn make(text: &str, seed: u64) -> Result<AleaBjDealer, String> {
    let source = Source::resolve(text).map_err(|e| e.to_string())?;
    let dealer = source.randomizer(seed);
    let names = dealer
        .pieces()
        .iter()
        .map(|n| CString::new(n.as_bytes()).unwrap_or_default())
        .collect();
    Ok(AleaBjDealer { dealer, names })
}

/// Creates a dealer for a Blackjack spec or preset name (NUL-terminated UTF-8) seeded with
/// `seed`; the same seed deals what `alea blackjack SPEC --seed SEED` deals. Returns null on
/// error (see [`alea_bj_last_error`]). Free the dealer with [`alea_bj_free`].
///
/// # Safety
/// `spec` must be null or point to a NUL-terminated string.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn alea_bj_new(spec: *const c_char, seed: u64) -> *mut AleaBjDealer {
    if spec.is_null() {
        set_error("spec is null");
        return std::ptr::null_mut();
    }
    // SAFETY: non-null and NUL-terminated by the caller's contract.
    let text = unsafe { CStr::from_ptr(spec) };
    let result = catch_unwind(|| match text.to_str() {
        Ok(t) => make(t, seed),
        Err(_) => Err("spec is not valid UTF-8".to_string()),
    });
    match result {
        Ok(Ok(d)) => Box::into_raw(Box::new(d)),
        Ok(Err(m)) => {
            set_error(&m);
            std::ptr::null_mut()
        }
        Err(_) => {
            set_error("internal error");
            std::ptr::null_mut()
        }
    }
}

/// Deals the next piece and returns its index (0 ≤ index < [`alea_bj_piece_count`]), or -1
/// when `dealer` is null.
///
/// # Safety
/// `dealer` must be null or a pointer returned by [`alea_bj_new`] and not yet freed.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn alea_bj_next(dealer: *mut AleaBjDealer) -> i32 {
    // SAFETY: a live dealer from alea_bj_new, used by one thread at a time (caller contract).
    let Some(d) = (unsafe { dealer.as_mut() }) else {
        set_error("dealer is null");
        return -1;
    };
    catch_unwind(AssertUnwindSafe(|| i32::from(d.dealer.deal().0))).unwrap_or(-1)
}

/// The number of distinct pieces, or -1 when `dealer` is null.
///
/// # Safety
/// As for [`alea_bj_next`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn alea_bj_piece_count(dealer: *const AleaBjDealer) -> i32 {
    // SAFETY: a live dealer from alea_bj_new (caller contract).
    match unsafe { dealer.as_ref() } {
        Some(d) => d.names.len() as i32,
        None => -1,
    }
}

/// The name of piece `index` as a NUL-terminated string owned by the dealer (valid until
/// [`alea_bj_free`]), or null when the dealer is null or the index out of range.
///
/// # Safety
/// As for [`alea_bj_next`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn alea_bj_piece_name(
    dealer: *const AleaBjDealer,
    index: i32,
) -> *const c_char {
    // SAFETY: a live dealer from alea_bj_new (caller contract).
    let Some(d) = (unsafe { dealer.as_ref() }) else {
        return std::ptr::null();
    };
    usize::try_from(index)
        .ok()
        .and_then(|i| d.names.get(i))
        .map_or(std::ptr::null(), |n| n.as_ptr())
}

/// Frees a dealer; null is ignored.
///
/// # Safety
/// `dealer` must be null or a pointer returned by [`alea_bj_new`], freed at most once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn alea_bj_free(dealer: *mut AleaBjDealer) {
    if !dealer.is_null() {
        // SAFETY: allocated by Box::into_raw in alea_bj_new and not freed before.
        drop(unsafe { Box::from_raw(dealer) });
    }
}

/// The last error message of this thread (empty if none), owned by the library and valid
/// until the next call that fails on this thread.
#[unsafe(no_mangle)]
pub extern "C" fn alea_bj_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}
