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

mod containers;
#[cfg(feature = "glam")]
mod glam;
mod values;

pub use values::write_float;
