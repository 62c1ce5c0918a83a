//! Movement helpers around the collisions (seed 001): framerate-independent smoothing and
//! damping, and logarithmic interpolation for scales such as zoom.

use glam::Vec2;

use crate::math::{exp, powf};

/// Move `current` toward `target`, losing the fraction `1 - exp(-rate * dt)` of the gap: the
/// same curve whatever the frame rate (`rate` per second, `dt` in seconds).
#[must_use]
pub fn approach(current: Vec2, target: Vec2, rate: f32, dt: f32) -> Vec2 {
    target + (current - target) * exp(-rate * dt)
}

/// Scalar [`approach`].
#[must_use]
pub fn approach_f32(current: f32, target: f32, rate: f32, dt: f32) -> f32 {
    target + (current - target) * exp(-rate * dt)
}

/// Damp a velocity so that `retain_per_second` of it is left after one second, whatever `dt`.
#[must_use]
pub fn damp(velocity: Vec2, retain_per_second: f32, dt: f32) -> Vec2 {
    velocity * powf(retain_per_second.max(0.0), dt)
}

/// Logarithmic interpolation between positive `a` and `b`: equal steps of `t` multiply by
/// equal factors (zoom from 1 to 100 passes 10 at `t = 0.5`). Non-positive inputs fall back to
/// linear interpolation.
#[must_use]
pub fn log_lerp(a: f32, b: f32, t: f32) -> f32 {
    if a > 0.0 && b > 0.0 { a * powf(b / a, t) } else { a + (b - a) * t }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approach_is_framerate_independent() {
        let (mut a, mut b) = (0.0f32, 0.0f32);
        for _ in 0..60 {
            a = approach_f32(a, 10.0, 3.0, 1.0 / 60.0);
        }
        for _ in 0..240 {
            b = approach_f32(b, 10.0, 3.0, 1.0 / 240.0);
        }
        assert!((a - b).abs() < 1e-3, "{a} vs {b}");
        let v = damp(Vec2::new(8.0, 0.0), 0.5, 1.0);
        assert!((v.x - 4.0).abs() < 1e-5);
        assert!((log_lerp(1.0, 100.0, 0.5) - 10.0).abs() < 1e-4);
        assert!((approach(Vec2::ZERO, Vec2::ONE, 1e9, 1.0) - Vec2::ONE).length() < 1e-6);
    }
}
