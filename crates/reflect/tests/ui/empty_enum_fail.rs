use lore_reflect::Reflect;

#[derive(Reflect)]
enum Never {}

fn main() {}
