//! Formatting speed: building a formatter (CLDR data loaded once per locale) and one call of
//! each property. Run with `cargo bench -p alea-locale`.

use alea_locale::{FORMATTING_PROPERTIES, LocaleFormatter};
use divan::{Bencher, black_box};

const NOW: f64 = 1_753_035_300_000.0;

fn main() {
    divan::main();
}

#[divan::bench(args = ["en-US", "de-DE"])]
fn build(locale: &str) -> LocaleFormatter {
    LocaleFormatter::new(black_box(locale), "Europe/Berlin", NOW).unwrap()
}

#[divan::bench(args = FORMATTING_PROPERTIES)]
fn property_de(bencher: Bencher, property: &str) {
    let formatter = LocaleFormatter::new("de-DE", "Europe/Berlin", NOW).unwrap();
    let input = if property.contains("Date") || property.ends_with("TimeString") {
        NOW
    } else {
        61_250.0
    };
    bencher.bench(|| formatter.format_property(black_box(property), black_box(input)));
}

#[divan::bench(args = [1e300, 1e21, 123_456_789.0])]
fn compact_large(bencher: Bencher, x: f64) {
    let formatter = LocaleFormatter::new("en-US", "Europe/Berlin", NOW).unwrap();
    bencher.bench(|| formatter.to_compact_decimal_string(black_box(x)));
}
