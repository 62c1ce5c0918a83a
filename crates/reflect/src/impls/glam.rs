//! glam vectors as structs with fields `x`, `y` (`z`, `w`): paths such as
//! `"position.x"` work, and the text form is `1 , 2`.

use crate::info::{FieldAttrs, FieldInfo, NameTable, StructInfo, StructStyle, name_table};
use crate::{Reflect, Shape, Struct, TypeInfo, Typed};

const NO_ATTRS: FieldAttrs = FieldAttrs { range: None, step: None, color: false, default: false };

macro_rules! vector {
    ($t:ty, $name:literal, $s:ty, $table:literal, [$($f:ident),+]) => {
        impl Typed for $t {
            const INFO: &'static TypeInfo = &TypeInfo {
                name: $name,
                type_path: core::any::type_name::<$t>,
                docs: "A glam vector.",
                shape: Shape::Struct(StructInfo {
                    style: StructStyle::Named,
                    fields: &[$(FieldInfo {
                        name: stringify!($f),
                        type_name: core::any::type_name::<$s>,
                        docs: "",
                        attrs: NO_ATTRS,
                    }),+],
                    names: NameTable::new(&name_table::<$table>(&[$(stringify!($f)),+])),
                }),
            };
            fn create() -> Option<Self> {
                Some(<$t>::default())
            }
        }
        impl Reflect for $t {
            reflect_common!(Struct);
        }
        impl Struct for $t {
            #[inline]
            fn field_at(&self, index: usize) -> Option<&dyn Reflect> {
                let fields: &[&$s] = &[$(&self.$f),+];
                fields.get(index).map(|v| *v as &dyn Reflect)
            }
            #[inline]
            fn field_at_mut(&mut self, index: usize) -> Option<&mut dyn Reflect> {
                self.as_mut().get_mut(index).map(|v| v as &mut dyn Reflect)
            }
            #[inline]
            fn field_count(&self) -> usize {
                [$(stringify!($f)),+].len()
            }
        }
    };
}

vector!(glam::Vec2, "Vec2", f32, 4, [x, y]);
vector!(glam::Vec3, "Vec3", f32, 8, [x, y, z]);
vector!(glam::Vec4, "Vec4", f32, 8, [x, y, z, w]);
