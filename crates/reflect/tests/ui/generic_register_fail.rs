use lore_reflect::Reflect;

#[derive(Reflect, Default)]
#[reflect(register)]
struct Wrapper<T> {
    inner: T,
}

fn main() {}
