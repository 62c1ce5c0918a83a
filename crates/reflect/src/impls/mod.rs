//! `Reflect` for the standard types (numbers, `bool`, `char`, `String`, containers) and glam.

macro_rules! reflect_common {
    ($variant:ident) => {
        #[inline]
        fn type_info(&self) -> &'static $crate::TypeInfo {
            <Self as $crate::Typed>::INFO
        }
        #[inline]
        fn as_any(&self) -> &dyn ::core::any::Any {
            self
        }
        #[inline]
        fn as_any_mut(&mut self) -> &mut dyn ::core::any::Any {
            self
        }
        #[inline]
        fn as_reflect(&self) -> &dyn $crate::Reflect {
            self
        }
        #[inline]
        fn as_reflect_mut(&mut self) -> &mut dyn $crate::Reflect {
            self
        }
        #[inline]
        fn reflect_ref(&self) -> $crate::ReflectRef<'_> {
            $crate::ReflectRef::$variant(self)
        }
        #[inline]
        fn reflect_mut(&mut self) -> $crate::ReflectMut<'_> {
            $crate::ReflectMut::$variant(self)
        }
    };
}

/// Reflects a type of your crate as a leaf value through its `Display` and `FromStr` (and
/// `Clone`): its text form is its `Display` output, quoted when nested. For types that are
/// better edited as one piece of text (identifiers, dates, expressions). Types of other crates
/// cannot be given `Reflect` here (Rust's orphan rule): wrap them in a newtype of yours.
///
/// ```
/// use lore_reflect::{Reflect, reflect_value};
/// use std::{fmt, str::FromStr};
///
/// #[derive(Clone, Debug, PartialEq)]
/// struct Tag(String);
/// impl fmt::Display for Tag {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "#{}", self.0) }
/// }
/// impl FromStr for Tag {
///     type Err = &'static str;
///     fn from_str(s: &str) -> Result<Self, Self::Err> {
///         s.strip_prefix('#').map(|t| Tag(t.into())).ok_or("a tag starts with #")
///     }
/// }
/// reflect_value!(Tag);
///
/// #[derive(Reflect, Default)]
/// struct Item { tags: Vec<Tag>, }
/// # impl Default for Tag { fn default() -> Self { Tag(String::new()) } }
///
/// # fn main() -> Result<(), lore_reflect::Error> {
/// let mut item = Item::default();
/// let r: &mut dyn Reflect = &mut item;
/// r.set_text("tags", r##""#red" , "#big""##)?;
/// assert_eq!(item.tags, [Tag("red".into()), Tag("big".into())]);
/// assert!((&mut item as &mut dyn Reflect).set_text("tags", r#""red""#).is_err());
/// # Ok(()) }
/// ```
#[macro_export]
macro_rules! reflect_value {
    ($t:ty) => {
        impl $crate::Typed for $t {
            const INFO: &'static $crate::TypeInfo = &$crate::TypeInfo {
                name: ::core::stringify!($t),
                type_path: ::core::any::type_name::<$t>,
                docs: "",
                shape: $crate::Shape::Value($crate::ValueKind::Opaque),
            };
            fn create() -> ::core::option::Option<Self> {
                #[allow(unused_imports)]
                use $crate::__private::{CreateFallback as _, CreateViaDefault as _};
                (&$crate::__private::CreateProbe::<$t>::new()).probe_create()
            }
        }
        impl $crate::Reflect for $t {
            fn type_info(&self) -> &'static $crate::TypeInfo {
                <Self as $crate::Typed>::INFO
            }
            fn as_any(&self) -> &dyn ::core::any::Any {
                self
            }
            fn as_any_mut(&mut self) -> &mut dyn ::core::any::Any {
                self
            }
            fn as_reflect(&self) -> &dyn $crate::Reflect {
                self
            }
            fn as_reflect_mut(&mut self) -> &mut dyn $crate::Reflect {
                self
            }
            fn reflect_ref(&self) -> $crate::ReflectRef<'_> {
                $crate::ReflectRef::Value(self)
            }
            fn reflect_mut(&mut self) -> $crate::ReflectMut<'_> {
                $crate::ReflectMut::Value(self)
            }
        }
        impl $crate::Value for $t {
            fn kind(&self) -> $crate::ValueKind {
                $crate::ValueKind::Opaque
            }
            fn write_text(&self, out: &mut $crate::__private::String) {
                use ::core::fmt::Write as _;
                let _ = ::core::write!(out, "{}", self);
            }
            fn parse_text(&mut self, text: &str) -> ::core::result::Result<(), $crate::ParseError> {
                match text.parse::<$t>() {
                    ::core::result::Result::Ok(v) => {
                        *self = v;
                        ::core::result::Result::Ok(())
                    }
                    ::core::result::Result::Err(e) => ::core::result::Result::Err($crate::ParseError {
                        expected: ::core::stringify!($t),
                        reason: $crate::__private::ToString::to_string(&e),
                    }),
                }
            }
            fn copy_from(&mut self, other: &dyn $crate::Reflect) -> bool {
                match other.as_any().downcast_ref::<$t>() {
                    ::core::option::Option::Some(v) => {
                        ::core::clone::Clone::clone_from(self, v);
                        true
                    }
                    ::core::option::Option::None => false,
                }
            }
            fn clone_value(&self) -> ::core::option::Option<$crate::__private::Box<dyn $crate::Reflect>> {
                ::core::option::Option::Some($crate::__private::Box::new(::core::clone::Clone::clone(self)))
            }
        }
    };
}

mod containers;
#[cfg(feature = "glam")]
mod glam;
mod values;

pub use values::write_float;
