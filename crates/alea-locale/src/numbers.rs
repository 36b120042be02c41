//! Number formatters (ezscript.md §9.2): compact decimals, currencies, percent, ordinals.
//! CLDR symbols and patterns come from ICU4X; the rules on top are in `rules`.

use crate::error::{FormatError, LocaleError};
use crate::rules;
use fixed_decimal::{Decimal, Sign, UnsignedDecimal};
use icu_decimal::options::{DecimalFormatterOptions, GroupingStrategy};
use icu_decimal::{CompactDecimalFormatter, DecimalFormatter};
use icu_experimental::dimension::currency::CurrencyType;
use icu_experimental::dimension::currency::formatter::CurrencyFormatter;
use icu_experimental::dimension::percent::formatter::PercentFormatter;
use icu_experimental::dimension::provider::currency::fractions::CurrencyFractionsV1;
use icu_experimental::dimension::provider::currency::symbols::{
    CurrencySymbolWidth, CurrencySymbolsV1,
};
use icu_locale::Locale;
use icu_plurals::PluralRules;
use icu_provider::{DataProvider, DataRequest};

fn data_error(error: impl std::fmt::Display) -> LocaleError {
    LocaleError::Data(error.to_string())
}

/// A currency amount's surroundings in one locale: the CLDR pattern with the narrow symbol
/// around the number, for positive and negative amounts.
#[derive(Debug)]
struct CurrencyAffixes {
    positive: (String, String),
    negative: (String, String),
}

impl CurrencyAffixes {
    /// Formats ±1 with the currency formatter and cuts it where the no-currency formatter's
    /// rendering of 1 appears: what is left and right of it is the pattern with its symbol and
    /// spacing (`$`, `\u{a0}€`, `-$`). `None` if the number cannot be found (then the plain ICU4X
    /// output is used).
    fn find(with_symbol: &CurrencyFormatter<DecimalFormatter>, one: &str) -> Option<Self> {
        let split = |sign: Sign| {
            let formatted = with_symbol
                .format_fixed_decimal(&Decimal::new(sign, 1u8.into()))
                .to_string();
            let at = formatted.find(one)?;
            Some((
                formatted[..at].to_string(),
                formatted[at + one.len()..].to_string(),
            ))
        };
        Some(Self {
            positive: split(Sign::None)?,
            negative: split(Sign::Negative)?,
        })
    }

    /// Writes `code` where the pattern has `symbol` (R6: `CHF` for the narrow `Fr.`).
    fn replace_symbol(&mut self, symbol: &str, code: &str) {
        for text in [
            &mut self.positive.0,
            &mut self.positive.1,
            &mut self.negative.0,
            &mut self.negative.1,
        ] {
            *text = text.replace(symbol, code);
        }
    }

    fn wrap(&self, sign: Sign, number: &str) -> String {
        let (prefix, suffix) = if sign == Sign::Negative {
            &self.negative
        } else {
            &self.positive
        };
        format!("{prefix}{number}{suffix}")
    }
}

/// The CLDR symbol of a currency in one width for the locale, and whether it is the locale's own
/// (`false`: found only at CLDR's root); `None` when there is none (ICU4X then shows the ISO
/// code). A silent request: a missing symbol is an answer, not an error to log.
fn symbol(
    locale: &Locale,
    currency: CurrencyType,
    width: CurrencySymbolWidth,
) -> Option<(String, bool)> {
    let data_locale = icu_provider::DataLocale::from(locale);
    let mut buffer = Default::default();
    let mut request = DataRequest {
        id: icu_provider::DataIdentifierBorrowed::for_marker_attributes_and_locale(
            CurrencySymbolsV1::make_attributes(currency, width, &mut buffer),
            &data_locale,
        ),
        ..Default::default()
    };
    request.metadata.silent = true;
    let response: icu_provider::DataResponse<CurrencySymbolsV1> =
        icu_experimental::provider::Baked.load(request).ok()?;
    let own = response
        .metadata
        .locale
        .is_none_or(|found| !found.language.is_unknown());
    Some((response.payload.get().as_str().to_string(), own))
}

/// The number formatters of one locale.
#[derive(Debug)]
pub(crate) struct NumberFormats {
    /// Short compact style, never grouped (R4).
    compact: CompactDecimalFormatter,
    /// The locale's decimal format without grouping: the compact currency fallback (R3, R4).
    ungrouped: DecimalFormatter,
    percent: PercentFormatter<DecimalFormatter>,
    english_ordinals: PluralRules,
    currency_code: String,
    currency_digits: u8,
    with_symbol: CurrencyFormatter<DecimalFormatter>,
    no_symbol: CurrencyFormatter<DecimalFormatter>,
    /// The fraction part the no-currency formatter adds to a whole amount (`.00`, `,00`, ``).
    whole_fraction_suffix: String,
    affixes: Option<CurrencyAffixes>,
}

impl NumberFormats {
    pub(crate) fn new(locale: &Locale, currency: &str) -> Result<Self, LocaleError> {
        let currency_type = CurrencyType::try_from_str(currency)
            .ok()
            .filter(|_| currency.len() == 3 && currency.bytes().all(|b| b.is_ascii_uppercase()))
            .ok_or_else(|| LocaleError::InvalidCurrency(currency.to_string()))?;
        let compact =
            CompactDecimalFormatter::try_new_short(locale.into(), rules::COMPACT_GROUPING.into())
                .map_err(data_error)?;
        let ungrouped = DecimalFormatter::try_new(
            locale.into(),
            DecimalFormatterOptions::from(GroupingStrategy::Never),
        )
        .map_err(data_error)?;
        let percent =
            PercentFormatter::try_new(locale.into(), Default::default()).map_err(data_error)?;
        let english: Locale = "en".parse().map_err(data_error)?;
        let english_ordinals =
            PluralRules::try_new_ordinal((&english).into()).map_err(data_error)?;
        let with_symbol = CurrencyFormatter::try_new_symbol_narrow(
            locale.into(),
            currency_type,
            Default::default(),
        )
        .map_err(data_error)?;
        let no_symbol = CurrencyFormatter::try_new_no_currency(
            locale.into(),
            currency_type,
            Default::default(),
        )
        .map_err(data_error)?;
        let fractions: icu_provider::DataResponse<CurrencyFractionsV1> =
            icu_experimental::provider::Baked
                .load(DataRequest::default())
                .map_err(data_error)?;
        let currency_digits = fractions.payload.get().resolve(currency_type).digits.min(6);

        let one = no_symbol
            .format_fixed_decimal(&Decimal::from(1u8))
            .to_string();
        let plain_one = ungrouped.format(&Decimal::from(1u8)).to_string();
        let whole_fraction_suffix = one.strip_prefix(&plain_one).unwrap_or("").to_string();
        let mut affixes = CurrencyAffixes::find(&with_symbol, &one);
        // R6: when the locale has no standard symbol for the currency (ICU shows its ISO code)
        // and the narrow one is only CLDR's root's, show the code: de-CH `CHF`, not root's `Fr.`.
        if let (Some(affixes), Some((narrow, false)), None) = (
            affixes.as_mut(),
            symbol(locale, currency_type, CurrencySymbolsV1::NARROW),
            symbol(locale, currency_type, CurrencySymbolsV1::SHORT),
        ) {
            affixes.replace_symbol(&narrow, currency);
        }
        Ok(Self {
            compact,
            ungrouped,
            percent,
            english_ordinals,
            currency_code: currency.to_string(),
            currency_digits,
            with_symbol,
            no_symbol,
            whole_fraction_suffix,
            affixes,
        })
    }

    pub(crate) fn currency_code(&self) -> &str {
        &self.currency_code
    }

    /// `toCompactDecimalString`: R3 style, R2 digits, CLDR short affix, never grouped (R4).
    pub(crate) fn compact_decimal(&self, x: f64) -> Result<String, FormatError> {
        let (significand, exponent) = self.compact_parts(finite(x)?);
        self.compact
            .format_with_exponent(&significand, exponent)
            .map(|formatted| formatted.to_string())
            .map_err(|e| FormatError::Data(e.to_string()))
    }

    fn compact_parts(&self, x: f64) -> (Decimal, u8) {
        rules::compact_style(x, |magnitude| {
            self.compact.compact_exponent_for_magnitude(magnitude)
        })
    }

    /// `toCurrencyString`: CLDR currency pattern with grouping and the narrow symbol; cents only
    /// when the amount is not whole (R5).
    pub(crate) fn currency(&self, x: f64) -> Result<String, FormatError> {
        let amount = rules::currency_amount(finite(x)?, self.currency_digits);
        let Some(affixes) = &self.affixes else {
            return Ok(self.with_symbol.format_fixed_decimal(&amount).to_string());
        };
        let whole = *amount.absolute.magnitude_range().start() >= 0;
        let absolute = Decimal::new(Sign::None, amount.absolute.clone());
        let mut number = self.no_symbol.format_fixed_decimal(&absolute).to_string();
        if whole && self.currency_digits > 0 {
            // ICU4X always pads to the currency's digits; R5 shows whole amounts without them.
            if let Some(stripped) = number.strip_suffix(self.whole_fraction_suffix.as_str()) {
                number.truncate(stripped.len());
            }
        }
        Ok(affixes.wrap(amount.sign, &number))
    }

    /// `toCompactCurrencyString`: R3 over the short compact patterns inside the currency pattern;
    /// the fallback style is `toCurrencyString` without grouping.
    pub(crate) fn compact_currency(&self, x: f64) -> Result<String, FormatError> {
        let x = finite(x)?;
        let (significand, exponent) = self.compact_parts(x);
        let (sign, number) = if exponent == 0 {
            // Below the compact threshold the amount is whole (R5: the app shows whole amounts;
            // ICU's compact currency too: `$13` for 12.5, not `$12.50`).
            let amount = rules::currency_amount(x, 0);
            let absolute = Decimal::new(Sign::None, amount.absolute);
            (amount.sign, self.ungrouped.format(&absolute).to_string())
        } else {
            let absolute = Decimal::new(Sign::None, significand.absolute);
            let formatted = self
                .compact
                .format_with_exponent(&absolute, exponent)
                .map_err(|e| FormatError::Data(e.to_string()))?
                .to_string();
            (significand.sign, formatted)
        };
        Ok(match &self.affixes {
            Some(affixes) => affixes.wrap(sign, &number),
            None => format!("{}{number} {}", sign_text(sign), self.currency_code),
        })
    }

    /// `toPercentString`: x × 100, no fraction digits (R7), CLDR percent pattern with grouping.
    pub(crate) fn percent(&self, x: f64) -> Result<String, FormatError> {
        let value = rules::percent_value(finite(x)?);
        let formatted = self.percent.format(&value).to_string();
        let Some(own) = rules::native_percent_sign(&formatted) else {
            return Ok(formatted);
        };
        Ok(rules::PERCENT_SIGNS
            .iter()
            .find(|sign| formatted.contains(**sign))
            .map_or_else(
                || formatted.clone(),
                |sign| formatted.replacen(sign, own, 1),
            ))
    }

    /// `withOrdinalSuffix`: truncated, display rule, English suffix by CLDR English ordinal
    /// rules (R8).
    pub(crate) fn ordinal(&self, x: f64) -> Result<String, FormatError> {
        let whole = finite(x)?.trunc();
        let display = alea_core::js_number(whole);
        let digits = format!("{:.0}", whole.abs());
        let operands = UnsignedDecimal::try_from_str(&digits).unwrap_or_default();
        let category = self.english_ordinals.category_for(&operands);
        Ok(format!(
            "{display}{}",
            rules::english_ordinal_suffix(category)
        ))
    }
}

fn sign_text(sign: Sign) -> &'static str {
    if sign == Sign::Negative { "-" } else { "" }
}

/// Formatters fail on non-finite numbers (§9.1).
pub(crate) fn finite(x: f64) -> Result<f64, FormatError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(FormatError::NonFinite)
    }
}
