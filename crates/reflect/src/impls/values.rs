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

/// `Typed` and `Reflect` for a leaf type.
macro_rules! leaf_info {
    ($t:ty, $name:expr, $kind:expr) => {
        impl Typed for $t {
            const INFO: &'static TypeInfo =
                &TypeInfo { name: $name, type_path: core::any::type_name::<$t>, docs: "", shape: Shape::Value($kind) };
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
                let text = text.trim();
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
            fn as_f64(&self) -> Option<f64> {
                Some(f64::from(*self))
            }
            fn set_f64(&mut self, value: f64) -> bool {
                *self = value as $t;
                true
            }
        }
    };
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
                match text.trim().parse::<$t>() {
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
        *self = match text.trim() {
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
}
