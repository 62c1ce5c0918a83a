use lore_reflect::Reflect;

#[derive(Reflect)]
struct Ball {
    #[reflect(range = 0.0..)]
    radius: f32,
}

fn main() {}
