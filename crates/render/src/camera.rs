//! The 2D camera: which part of the y-up world the frame shows.

use glam::{Vec2, vec2};

/// A 2D camera over a y-up world.
///
/// The camera shows at least `half_height * 2` world units vertically and `half_width * 2`
/// horizontally, centred on `center`; whichever the frame's aspect ratio makes the binding
/// constraint wins, so a demo framed with [`Camera::fit`] shows the same world rectangle in a
/// wide window, a narrow one and the 1280×720 headless frame. Zooming scales both.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Camera {
    /// World point at the centre of the frame.
    pub center: Vec2,
    /// Least half height visible, in world units (must be > 0).
    pub half_height: f32,
    /// Least half width visible, in world units (0 = follow the height alone).
    pub half_width: f32,
}

impl Default for Camera {
    /// Centred on the origin, showing 20 world units vertically.
    fn default() -> Self {
        Self { center: Vec2::ZERO, half_height: 10.0, half_width: 0.0 }
    }
}

impl Camera {
    /// A camera centred on `center` showing `half_height * 2` world units vertically (the
    /// width follows the frame's aspect ratio).
    #[must_use]
    pub fn new(center: Vec2, half_height: f32) -> Self {
        Self { center, half_height, half_width: 0.0 }
    }

    /// A camera that shows the whole world rectangle `min..max` in a frame of any aspect
    /// ratio, with `margin` (a fraction of the size, e.g. 0.05) of room on each side.
    #[must_use]
    pub fn fit(min: Vec2, max: Vec2, margin: f32) -> Self {
        let half = (max - min).abs().max(Vec2::splat(1e-6)) * (0.5 + margin.max(0.0));
        Self { center: (min + max) * 0.5, half_height: half.y, half_width: half.x }
    }

    /// World units per pixel in a frame of `viewport` pixels.
    #[must_use]
    pub fn world_per_pixel(&self, viewport: Vec2) -> f32 {
        2.0 * self.half_extents(viewport).y / viewport.y.max(1.0)
    }

    /// Visible half extents (x, y) in world units for a frame of `viewport` pixels.
    #[must_use]
    pub fn half_extents(&self, viewport: Vec2) -> Vec2 {
        let aspect = viewport.x.max(1.0) / viewport.y.max(1.0);
        let half_y = self.half_height.max(self.half_width / aspect);
        vec2(half_y * aspect, half_y)
    }

    /// The visible world rectangle `(min, max)` for a frame of `viewport` pixels.
    #[must_use]
    pub fn visible_rect(&self, viewport: Vec2) -> (Vec2, Vec2) {
        let h = self.half_extents(viewport);
        (self.center - h, self.center + h)
    }

    /// Maps a pixel position (origin top left, y down) to world coordinates (y up).
    #[must_use]
    pub fn screen_to_world(&self, pixel: Vec2, viewport: Vec2) -> Vec2 {
        let h = self.half_extents(viewport);
        let ndc = vec2(pixel.x / viewport.x.max(1.0) * 2.0 - 1.0, 1.0 - pixel.y / viewport.y.max(1.0) * 2.0);
        self.center + ndc * h
    }

    /// Maps a world position (y up) to a pixel position (origin top left, y down).
    #[must_use]
    pub fn world_to_screen(&self, world: Vec2, viewport: Vec2) -> Vec2 {
        let h = self.half_extents(viewport);
        let ndc = (world - self.center) / h;
        vec2((ndc.x + 1.0) * 0.5 * viewport.x, (1.0 - ndc.y) * 0.5 * viewport.y)
    }

    /// Zooms by `factor` (> 1 zooms in) keeping the world point under `pixel` fixed.
    pub fn zoom_at(&mut self, factor: f32, pixel: Vec2, viewport: Vec2) {
        if !(factor.is_finite() && factor > 0.0) {
            return;
        }
        let anchor = self.screen_to_world(pixel, viewport);
        let before = self.half_height;
        self.half_height = (self.half_height / factor).clamp(1e-4, 1e7);
        self.half_width *= self.half_height / before;
        let moved = self.screen_to_world(pixel, viewport);
        self.center += anchor - moved;
    }

    /// Pans by a pixel delta (as a mouse drag: the world follows the pointer).
    pub fn pan_pixels(&mut self, delta: Vec2, viewport: Vec2) {
        let wpp = self.world_per_pixel(viewport);
        self.center += vec2(-delta.x, delta.y) * wpp;
    }

    /// The column-major 4×4 matrix taking world coordinates to clip space, for a frame of
    /// `viewport` pixels.
    #[must_use]
    pub fn view_projection(&self, viewport: Vec2) -> [[f32; 4]; 4] {
        let h = self.half_extents(viewport);
        let sx = 1.0 / h.x;
        let sy = 1.0 / h.y;
        [
            [sx, 0.0, 0.0, 0.0],
            [0.0, sy, 0.0, 0.0],
            [0.0, 0.0, 1.0, 0.0],
            [-self.center.x * sx, -self.center.y * sy, 0.0, 1.0],
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_world_round_trip() {
        let cam = Camera::new(vec2(3.0, -2.0), 5.0);
        let vp = vec2(1280.0, 720.0);
        for p in [vec2(0.0, 0.0), vec2(640.0, 360.0), vec2(1280.0, 720.0), vec2(17.0, 500.0)] {
            let w = cam.screen_to_world(p, vp);
            let back = cam.world_to_screen(w, vp);
            assert!((back - p).length() < 1e-3, "{p} -> {w} -> {back}");
        }
        // y up: the top of the screen is the larger world y.
        assert!(cam.screen_to_world(vec2(0.0, 0.0), vp).y > cam.screen_to_world(vec2(0.0, 700.0), vp).y);
        assert_eq!(cam.screen_to_world(vec2(640.0, 360.0), vp), vec2(3.0, -2.0));
    }

    #[test]
    fn fit_contains_rect() {
        let vp = vec2(1280.0, 720.0);
        let cam = Camera::fit(vec2(-50.0, 0.0), vec2(50.0, 10.0), 0.0);
        for vp in [vp, vec2(300.0, 900.0), vec2(2000.0, 100.0)] {
            let (min, max) = cam.visible_rect(vp);
            assert!(min.x <= -50.0 + 1e-3 && max.x >= 50.0 - 1e-3, "{vp}");
            assert!(min.y <= 1e-3 && max.y >= 10.0 - 1e-3, "{vp}");
            // One of the two is tight.
            assert!((max.x - 50.0).abs() < 1e-3 || (max.y - 10.0).abs() < 1e-3, "{vp}");
        }
    }

    #[test]
    fn zoom_keeps_anchor() {
        let vp = vec2(800.0, 600.0);
        let mut cam = Camera::default();
        let px = vec2(100.0, 50.0);
        let before = cam.screen_to_world(px, vp);
        cam.zoom_at(2.0, px, vp);
        assert!((cam.screen_to_world(px, vp) - before).length() < 1e-4);
        assert!((cam.half_height - 5.0).abs() < 1e-6);
    }
}
