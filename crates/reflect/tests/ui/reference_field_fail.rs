use lore_reflect::Reflect;

#[derive(Reflect)]
struct Named {
    name: &'static str,
}

fn main() {}
