use lore_reflect::Reflect;

#[derive(Reflect)]
struct Borrowed<'a> {
    name: &'a str,
}

fn main() {}
