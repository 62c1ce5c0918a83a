use lore_reflect::Reflect;

#[derive(Reflect)]
struct Ball {
    #[reflect(slider)]
    radius: f32,
}

fn main() {}
