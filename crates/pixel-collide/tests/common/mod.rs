//! A device for the GPU tests: lore-render's choice of adapter (a hardware adapter first, then
//! Mesa's lavapipe on Vulkan, then llvmpipe on GL), the one the demos use. lore-render is a
//! dev-dependency only: the crate's normal dependency tree without its `gpu` feature holds no
//! wgpu (`cargo tree -e normal -p lore-pixel-collide --no-default-features`).

pub use lore_render::gpu::Gpu;
