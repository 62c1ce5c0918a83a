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

/// Reflects a struct of another crate (bevy's `#[reflect_remote]`): Rust's orphan rule keeps
/// you from implementing [`Reflect`](crate::Reflect) for a foreign type, so the macro declares a
/// `#[repr(transparent)]` newtype of yours around it and reflects the foreign struct's public
/// fields through it. Use the newtype as the field type in your own reflected structs; it
/// derefs to the foreign value and converts from and into it (`From`).
///
/// Doc comments on the newtype become its type docs. List the fields to reflect (every listed field must be public and its type reflected);
/// unlisted fields are not reflected. The kind name is the newtype's name. Containers create
/// new values ([`Typed::create`](crate::Typed::create)) with the foreign type's `Default`
/// when it has one; implement `Default` for the newtype yourself where your own derives need
/// it (`impl Default for Mat2Def { fn default() -> Self { Self(Default::default()) } }`).
///
/// ```
/// use glam::{Mat2, Vec2};
/// use lore_reflect::{Reflect, reflect_remote};
///
/// reflect_remote! {
///     /// glam's 2×2 matrix, reflected as a struct of its two columns.
///     pub struct Mat2Def(glam::Mat2) { x_axis: Vec2, y_axis: Vec2 }
/// }
/// impl Default for Mat2Def {
///     fn default() -> Self {
///         Self(Mat2::default())
///     }
/// }
///
/// #[derive(Reflect, Default)]
/// struct Sprite { transform: Mat2Def }
///
/// # fn main() -> Result<(), lore_reflect::Error> {
/// let mut sprite = Sprite::default(); // glam's default: the identity
/// let r: &mut dyn Reflect = &mut sprite;
/// r.set_text("transform.y_axis.x", "0.5")?;
/// assert_eq!(*sprite.transform, Mat2::from_cols(Vec2::new(1.0, 0.0), Vec2::new(0.5, 1.0)));
/// assert_eq!((&sprite as &dyn Reflect).text("transform")?, "(1 , 0) , (0.5 , 1)");
/// # Ok(()) }
/// ```
#[macro_export]
macro_rules! reflect_remote {
    (
        $(#[doc = $doc:literal])*
        $vis:vis struct $local:ident($remote:ty) { $($field:ident : $fty:ty),+ $(,)? }
    ) => {
        $(#[doc = $doc])*
        #[repr(transparent)]
        $vis struct $local(pub $remote);

        impl ::core::ops::Deref for $local {
            type Target = $remote;
            fn deref(&self) -> &$remote {
                &self.0
            }
        }
        impl ::core::ops::DerefMut for $local {
            fn deref_mut(&mut self) -> &mut $remote {
                &mut self.0
            }
        }
        impl ::core::convert::From<$remote> for $local {
            fn from(value: $remote) -> Self {
                Self(value)
            }
        }
        impl ::core::convert::From<$local> for $remote {
            fn from(value: $local) -> Self {
                value.0
            }
        }

        const _: () = {
            use $crate::__private as __lr;
            const __COUNT: usize = [$(::core::stringify!($field)),+].len();
            impl __lr::Typed for $local {
                const INFO: &'static __lr::TypeInfo = &__lr::TypeInfo {
                    name: ::core::stringify!($local),
                    type_path: __lr::type_name::<$remote>,
                    docs: ::core::concat!($($doc, "\n"),*).trim_ascii(),
                    shape: __lr::Shape::Struct(__lr::StructInfo {
                        style: __lr::StructStyle::Named,
                        fields: &[$(__lr::FieldInfo {
                            name: ::core::stringify!($field),
                            type_name: __lr::type_name::<$fty>,
                            docs: "",
                            attrs: __lr::FieldAttrs { range: None, step: None, color: false, default: false },
                        }),+],
                        names: __lr::NameTable::new(
                            &__lr::name_table::<{ (2 * __COUNT).next_power_of_two() }>(&[$(::core::stringify!($field)),+]),
                        ),
                    }),
                };
                fn create() -> ::core::option::Option<Self> {
                    #[allow(unused_imports)]
                    use __lr::{CreateFallback as _, CreateViaDefault as _};
                    (&__lr::CreateProbe::<$remote>::new()).probe_create().map($local)
                }
            }
            impl __lr::Reflect for $local {
                fn type_info(&self) -> &'static __lr::TypeInfo {
                    <Self as __lr::Typed>::INFO
                }
                fn as_any(&self) -> &dyn __lr::Any {
                    self
                }
                fn as_any_mut(&mut self) -> &mut dyn __lr::Any {
                    self
                }
                fn as_reflect(&self) -> &dyn __lr::Reflect {
                    self
                }
                fn as_reflect_mut(&mut self) -> &mut dyn __lr::Reflect {
                    self
                }
                fn reflect_ref(&self) -> __lr::ReflectRef<'_> {
                    __lr::ReflectRef::Struct(self)
                }
                fn reflect_mut(&mut self) -> __lr::ReflectMut<'_> {
                    __lr::ReflectMut::Struct(self)
                }
            }
            impl __lr::Struct for $local {
                fn field_at(&self, index: usize) -> ::core::option::Option<&dyn __lr::Reflect> {
                    let mut at = 0;
                    $(
                        if index == at {
                            return ::core::option::Option::Some(&self.0.$field as &$fty);
                        }
                        at += 1;
                    )+
                    let _ = at;
                    ::core::option::Option::None
                }
                fn field_at_mut(&mut self, index: usize) -> ::core::option::Option<&mut dyn __lr::Reflect> {
                    let mut at = 0;
                    $(
                        if index == at {
                            return ::core::option::Option::Some(&mut self.0.$field as &mut $fty);
                        }
                        at += 1;
                    )+
                    let _ = at;
                    ::core::option::Option::None
                }
                fn field_count(&self) -> usize {
                    __COUNT
                }
            }
        };
    };
}

mod containers;
#[cfg(feature = "glam")]
mod glam;
mod values;

pub use values::write_float;
