//! The few `f32` functions `core` lacks, from `std` or from `libm` (the `no_std` build).

#[cfg(feature = "std")]
mod imp {
    #[inline]
    pub(crate) fn sqrt(x: f32) -> f32 {
        x.sqrt()
    }
    #[inline]
    pub(crate) fn exp(x: f32) -> f32 {
        x.exp()
    }
    #[inline]
    pub(crate) fn powf(x: f32, y: f32) -> f32 {
        x.powf(y)
    }
    #[inline]
    pub(crate) fn cos(x: f32) -> f32 {
        x.cos()
    }
}

#[cfg(all(not(feature = "std"), feature = "libm"))]
mod imp {
    #[inline]
    pub(crate) fn sqrt(x: f32) -> f32 {
        libm::sqrtf(x)
    }
    #[inline]
    pub(crate) fn exp(x: f32) -> f32 {
        libm::expf(x)
    }
    #[inline]
    pub(crate) fn powf(x: f32, y: f32) -> f32 {
        libm::powf(x, y)
    }
    #[inline]
    pub(crate) fn cos(x: f32) -> f32 {
        libm::cosf(x)
    }
}

#[cfg(not(any(feature = "std", feature = "libm")))]
compile_error!("lore-collide2d needs the `std` feature (default) or, for `no_std`, the `libm` feature");

pub(crate) use imp::{cos, exp, powf, sqrt};
