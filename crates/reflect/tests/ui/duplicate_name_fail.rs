use lore_reflect::Reflect;

#[derive(Reflect)]
struct Twice {
    a: f32,
    #[reflect(rename = "a")]
    b: f32,
}

fn main() {}
