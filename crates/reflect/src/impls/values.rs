//! Leaf values: numbers, `bool`, `char`, `String`.

use crate::{ParseError, Reflect, Shape, TypeInfo, Typed, Value, ValueKind};
use alloc::string::{String, ToString};
use core::fmt::Write;

/// Writes a float so that parsing the text gives back the exact same value: the shortest
/// round-trip digits, in exponent form (`1e20`, `-1e-20`) when the magnitude is at least 1e16
/// or below 1e-5, so huge and tiny values stay short.
pub fn write_float<F: Into<f64> + Copy + core::fmt::Display + core::fmt::LowerExp>(value: F, out: &mut String) {
    let magnitude = value.into().abs();
    // Writing into a String cannot fail.
    let _ = if magnitude != 0.0 && magnitude.is_finite() && !(1e-5..1e16).contains(&magnitude) {
        write!(out, "{value:e}")
    } else {
        write!(out, "{value}")
    };
}

/// Whether `text` spells infinity itself (`inf`, `-Infinity`, …) rather than a number too
/// large for the type.
fn names_infinity(text: &str) -> bool {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    digits.eq_ignore_ascii_case("inf") || digits.eq_ignore_ascii_case("infinity")
}

/// `text` without surrounding whitespace (as `str::trim`), answering at once when the first
/// and last bytes are visible ASCII, as they are in nearly every value written to a document.
#[inline]
fn trim(text: &str) -> &str {
    match text.as_bytes() {
        [first, .., last] if (0x21..0x7f).contains(first) && (0x21..0x7f).contains(last) => text,
        [only] if (0x21..0x7f).contains(only) => text,
        _ => text.trim(),
    }
}

/// `[+-]digits[.digits]` with at most `max_digits` digits in all: the sign, the digits as an
/// integer, and the number of digits after the point. Anything else (exponents, `inf`, `.5`,
/// `1.`, more digits) is `None` and goes to the standard library's parser.
#[inline]
fn simple_decimal(text: &[u8], max_digits: usize) -> Option<(bool, u64, usize)> {
    let (negative, digits) = match text {
        [b'-', rest @ ..] => (true, rest),
        [b'+', rest @ ..] => (false, rest),
        _ => (false, text),
    };
    // At most one point, so at most `max_digits + 1` bytes.
    if digits.len() > max_digits + 1 {
        return None;
    }
    let (mut mantissa, mut point) = (0u64, usize::MAX);
    for (i, &b) in digits.iter().enumerate() {
        let d = b.wrapping_sub(b'0');
        if d < 10 {
            mantissa = mantissa * 10 + u64::from(d);
        } else if b == b'.' && point == usize::MAX {
            point = i;
        } else {
            return None;
        }
    }
    let len = digits.len();
    if point == usize::MAX {
        // All digits: at least one, at most `max_digits`.
        return (len != 0 && len <= max_digits).then_some((negative, mantissa, 0));
    }
    // A point with digits on both sides.
    (point != 0 && point + 1 != len).then_some((negative, mantissa, len - point - 1))
}

/// Powers of ten exact in `f32` (5^10 < 2^24).
const POW10_F32: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
/// Powers of ten exact in `f64` (5^22 < 2^53).
const POW10_F64: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20,
    1e21, 1e22,
];

/// A short plain decimal read exactly: when the digits fit the float's mantissa (at most 7
/// for `f32`, 15 for `f64`) the integer and the power of ten are both exact, so one IEEE
/// division rounds correctly and gives the same bits as the standard library's parser (this is
/// the parser's own fast path, without its general number scanner). `None`: use that parser.
trait FastDecimal: Sized {
    fn fast_decimal(text: &str) -> Option<Self>;
}

impl FastDecimal for f32 {
    #[inline]
    #[allow(clippy::cast_precision_loss)] // at most 7 digits: below 2^24, exact
    fn fast_decimal(text: &str) -> Option<Self> {
        let (negative, mantissa, scale) = simple_decimal(text.as_bytes(), 7)?;
        let v = mantissa as f32 / POW10_F32[scale];
        Some(if negative { -v } else { v })
    }
}

impl FastDecimal for f64 {
    #[inline]
    #[allow(clippy::cast_precision_loss)] // at most 15 digits: below 2^53, exact
    fn fast_decimal(text: &str) -> Option<Self> {
        let (negative, mantissa, scale) = simple_decimal(text.as_bytes(), 15)?;
        let v = mantissa as f64 / POW10_F64[scale];
        Some(if negative { -v } else { v })
    }
}

/// `Typed` and `Reflect` for a leaf type.
macro_rules! leaf_info {
    ($t:ty, $name:expr, $kind:expr) => {
        impl Typed for $t {
            const INFO: &'static TypeInfo =
                &TypeInfo { name: $name, type_path: core::any::type_name::<$t>, docs: "", shape: Shape::Value($kind) };
            fn create() -> Option<Self> {
                Some(<$t>::default())
            }
        }
        impl Reflect for $t {
            reflect_common!(Value);
        }
    };
}

/// `Value::copy_from` and `Value::clone_value` for a `Clone` leaf type.
macro_rules! leaf_copy {
    ($t:ty) => {
        #[inline]
        fn copy_from(&mut self, other: &dyn Reflect) -> bool {
            match other.as_any().downcast_ref::<$t>() {
                Some(v) => {
                    Clone::clone_from(self, v);
                    true
                }
                None => false,
            }
        }
        fn clone_value(&self) -> Option<alloc::boxed::Box<dyn Reflect>> {
            Some(alloc::boxed::Box::new(Clone::clone(self)))
        }
    };
}

macro_rules! float {
    ($t:ty, $bits:literal) => {
        leaf_info!($t, stringify!($t), ValueKind::Float($bits));
        impl Value for $t {
            leaf_copy!($t);
            fn kind(&self) -> ValueKind {
                ValueKind::Float($bits)
            }
            fn write_text(&self, out: &mut String) {
                write_float(*self, out);
            }
            #[inline]
            fn parse_text(&mut self, text: &str) -> Result<(), ParseError> {
                let text = trim(text);
                if let Some(v) = <$t as FastDecimal>::fast_decimal(text) {
                    *self = v;
                    return Ok(());
                }
                self.parse_general(text)
            }
            fn as_f64(&self) -> Option<f64> {
                Some(f64::from(*self))
            }
            fn set_f64(&mut self, value: f64) -> bool {
                *self = value as $t;
                true
            }
        }
        impl GeneralFloat for $t {
            /// Any float text the standard library reads (exponents, `inf`, `NaN`, long
            /// digit strings), out of line so the short-decimal path stays small.
            #[inline(never)]
            fn parse_general(&mut self, text: &str) -> Result<(), ParseError> {
                match text.parse::<$t>() {
                    // A finite literal that rounds to infinity is out of range, not `inf`.
                    Ok(v) if v.is_infinite() && !names_infinity(text) => Err(ParseError {
                        expected: stringify!($t),
                        reason: concat!("out of range (beyond ±", stringify!($t), "::MAX)").to_string(),
                    }),
                    Ok(v) => {
                        *self = v;
                        Ok(())
                    }
                    Err(_) => Err(ParseError { expected: stringify!($t), reason: "not a number".to_string() }),
                }
            }
        }
    };
}

/// The general float reader behind `parse_text`.
trait GeneralFloat {
    fn parse_general(&mut self, text: &str) -> Result<(), ParseError>;
}
float!(f32, 32);
float!(f64, 64);

macro_rules! int {
    ($t:ty, $kind:ident, $bits:expr) => {
        leaf_info!($t, stringify!($t), ValueKind::$kind($bits));
        impl Value for $t {
            leaf_copy!($t);
            fn kind(&self) -> ValueKind {
                ValueKind::$kind($bits)
            }
            fn write_text(&self, out: &mut String) {
                let _ = write!(out, "{}", self);
            }
            #[inline]
            fn parse_text(&mut self, text: &str) -> Result<(), ParseError> {
                match trim(text).parse::<$t>() {
                    Ok(v) => {
                        *self = v;
                        Ok(())
                    }
                    Err(e) => Err(ParseError { expected: stringify!($t), reason: e.to_string() }),
                }
            }
            #[allow(clippy::cast_lossless, clippy::cast_precision_loss)] // a slider's view
            fn as_f64(&self) -> Option<f64> {
                Some(*self as f64)
            }
            fn set_f64(&mut self, value: f64) -> bool {
                // Round half away from zero without std (`as` truncates toward zero, saturates
                // at the type's bounds and maps NaN to 0).
                let half = if value < 0.0 { -0.5 } else { 0.5 };
                *self = (value + half) as $t;
                true
            }
        }
    };
}
int!(i8, Int, 8);
int!(i16, Int, 16);
int!(i32, Int, 32);
int!(i64, Int, 64);
int!(isize, Int, usize::BITS as u8);
int!(u8, Uint, 8);
int!(u16, Uint, 16);
int!(u32, Uint, 32);
int!(u64, Uint, 64);
int!(usize, Uint, usize::BITS as u8);

leaf_info!(bool, "bool", ValueKind::Bool);
leaf_info!(char, "char", ValueKind::Char);
leaf_info!(String, "String", ValueKind::String);

impl Value for bool {
    leaf_copy!(bool);
    fn kind(&self) -> ValueKind {
        ValueKind::Bool
    }
    fn write_text(&self, out: &mut String) {
        out.push_str(if *self { "true" } else { "false" });
    }
    /// Accepts `true`/`false` and `1`/`0`.
    fn parse_text(&mut self, text: &str) -> Result<(), ParseError> {
        *self = match trim(text) {
            "true" | "1" => true,
            "false" | "0" => false,
            _ => return Err(ParseError { expected: "bool", reason: "expected true, false, 1 or 0".to_string() }),
        };
        Ok(())
    }
    fn as_f64(&self) -> Option<f64> {
        Some(f64::from(u8::from(*self)))
    }
    fn set_f64(&mut self, value: f64) -> bool {
        *self = value != 0.0;
        true
    }
}

impl Value for char {
    leaf_copy!(char);
    fn kind(&self) -> ValueKind {
        ValueKind::Char
    }
    fn write_text(&self, out: &mut String) {
        out.push(*self);
    }
    /// Exactly one character (not trimmed, so `" "` is a space).
    fn parse_text(&mut self, text: &str) -> Result<(), ParseError> {
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => {
                *self = c;
                Ok(())
            }
            _ => Err(ParseError { expected: "char", reason: "expected exactly one character".to_string() }),
        }
    }
}

impl Value for String {
    leaf_copy!(String);
    fn kind(&self) -> ValueKind {
        ValueKind::String
    }
    fn write_text(&self, out: &mut String) {
        out.push_str(self);
    }
    /// The text as it is (not trimmed).
    fn parse_text(&mut self, text: &str) -> Result<(), ParseError> {
        self.clear();
        self.push_str(text);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text<T: Value>(v: T) -> String {
        let mut s = String::new();
        v.write_text(&mut s);
        s
    }

    #[test]
    fn floats_use_exponents_only_at_the_extremes() {
        assert_eq!(text(1e20f32), "1e20");
        assert_eq!(text(-1e-20f32), "-1e-20");
        assert_eq!(text(111.11f32), "111.11");
        assert_eq!(text(0.0f32), "0");
        assert_eq!(text(f32::INFINITY), "inf");
    }

    #[test]
    fn c_spellings_are_read() {
        let mut x = 0.0f32;
        x.parse_text("1e+20").unwrap();
        assert_eq!(x, 1e20);
        x.parse_text(" -1e-20 ").unwrap();
        assert_eq!(x, -1e-20);
        let mut i = 0i32;
        i.parse_text("+42").unwrap();
        assert_eq!(i, 42);
        let err = i.parse_text("4.5").unwrap_err();
        assert_eq!(err.expected, "i32");
        assert_eq!(i, 42, "a failed parse leaves the value unchanged");
    }

    #[test]
    fn integer_sliders_round_and_saturate() {
        let mut b = 0u8;
        assert!(b.set_f64(300.0));
        assert_eq!(b, 255);
        assert!(b.set_f64(2.6));
        assert_eq!(b, 3);
    }

    /// The short-decimal path gives the standard library's bits for every text it takes,
    /// and leaves every other text to it.
    #[test]
    fn short_decimals_read_as_the_standard_parser_does() {
        let mut texts: alloc::vec::Vec<String> = [
            "0",
            "-0",
            "+0",
            "0.0",
            "-0.0",
            "111.11",
            "-111.11",
            "+3",
            "1.5",
            "9999999",
            "99999.99",
            "0.1234567",
            "16777216",
            "16777217",
            "1234567.1",
            ".5",
            "1.",
            "-",
            "+",
            "",
            "1.2.3",
            "1e5",
            "1_0",
            "0x10",
            "--1",
            "999999999999999",
            "9007199254740993",
            "0.000000000000001",
            "123456789012345.6",
        ]
        .iter()
        .map(|s| (*s).to_string())
        .collect();
        // Random digit strings with a point somewhere and an optional sign (a fixed LCG).
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: u64| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % n
        };
        for _ in 0..20_000 {
            let len = 1 + next(17) as usize;
            let mut t: String = (0..len).map(|_| char::from(b'0' + next(10) as u8)).collect();
            if len > 1 && next(2) == 0 {
                t.insert(1 + next(len as u64 - 1) as usize, '.');
            }
            match next(3) {
                0 => t.insert(0, '-'),
                1 => t.insert(0, '+'),
                _ => {}
            }
            texts.push(t);
        }
        for t in &texts {
            if let Some(v) = f32::fast_decimal(t) {
                assert_eq!(Some(v.to_bits()), t.parse::<f32>().ok().map(f32::to_bits), "f32 {t:?}");
            }
            if let Some(v) = f64::fast_decimal(t) {
                assert_eq!(Some(v.to_bits()), t.parse::<f64>().ok().map(f64::to_bits), "f64 {t:?}");
            }
            let (mut a, mut b) = (0.5f32, 0.5f64);
            assert_eq!(a.parse_text(t).is_ok(), t.parse::<f32>().is_ok(), "{t:?}");
            assert_eq!(b.parse_text(t).is_ok(), t.parse::<f64>().is_ok(), "{t:?}");
        }
        for t in ["", " ", "x", " x", "x ", "\u{b}1\u{b}", "\u{a0}1", "1\u{3000}", "\t1\n", "~", "\u{7f}", "é", "a b"]
        {
            assert_eq!(trim(t), t.trim(), "{t:?}");
        }
        assert_eq!(f32::fast_decimal("111.11"), Some(111.11));
        assert_eq!(f32::fast_decimal("1e5"), None);
    }
}
