use lore_reflect::Reflect;

struct Opaque;

#[derive(Reflect)]
struct Holder {
    inner: Opaque,
}

fn main() {}
