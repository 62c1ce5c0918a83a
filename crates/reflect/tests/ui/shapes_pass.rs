use lore_reflect::Reflect;

#[derive(Reflect, Default)]
struct Unit;

#[derive(Reflect, Default)]
struct Tuple(f32, #[reflect(skip)] u8, String);

#[derive(Reflect, Default)]
#[reflect(register, rename = "Thing")]
struct Named {
    #[reflect(range = -1.0..=1.0, step = 0.1, doc = "a value")]
    value: f64,
    #[reflect(color, default)]
    tint: [f32; 4],
}

#[derive(Reflect, Default)]
enum Choice<T> {
    #[default]
    None,
    One(T),
    Two { a: T, #[reflect(skip)] b: u8 },
}

fn main() {
    let _ = Choice::<Unit>::None;
    let _ = Tuple::default();
}
