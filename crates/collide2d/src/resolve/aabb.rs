//! Box resolution after seed 003 ("AABB Collision Resolution, Phase I"): corrections only
//! oppose the movement and never exceed it; single-axis ("necessary") corrections first, then
//! the smallest remaining axis; teleport mode takes the minimal correction in any direction;
//! priorities decide who is shoved between moving boxes.

use alloc::vec;
use alloc::vec::Vec;

use glam::Vec2;

use crate::contact::{Contact, contact_aabb_aabb};
use crate::error::{Error, finite};
use crate::shapes::Aabb;

/// How a box move is corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AabbMode {
    /// Corrections only undo part of the movement, axis by axis (smooth, no snapping).
    #[default]
    Smooth,
    /// The box jumped: push it out by the minimal translation in any direction.
    Teleport,
}

/// The result of [`resolve_aabb`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AabbResolution {
    /// The box after the move and corrections.
    pub aabb: Aabb,
    /// The motion actually applied (`requested + correction`).
    pub motion: Vec2,
    /// `false` when the box still overlaps an obstacle (it started inside one, or no
    /// correction within the movement frees it).
    pub resolved: bool,
}

/// How far back against the relative motion `rel` the box must go on `axis` to leave `o`, if
/// that is no more than the relative motion (a small tolerance absorbs rounding).
fn need(moved: &Aabb, o: &Aabb, rel: Vec2, axis: usize) -> Option<f32> {
    let m = rel[axis];
    if m == 0.0 {
        return None;
    }
    let n = if m > 0.0 { moved.max()[axis] - o.min()[axis] } else { o.max()[axis] - moved.min()[axis] };
    let slack = 1e-5 * m.abs() + 4.0 * f32::EPSILON * moved.max()[axis].abs().max(moved.min()[axis].abs());
    (n > 0.0 && n <= m.abs() + slack).then_some(n.min(m.abs()))
}

fn overlapping(b: &Aabb, obstacles: &[Aabb]) -> bool {
    obstacles.iter().any(|o| b.interiors_overlap(o))
}

/// Move box `start` by `motion` among static `obstacles` and correct the overlaps.
///
/// In [`AabbMode::Smooth`] the correction on each axis opposes the motion and is at most the
/// motion's component: the box never moves further than requested nor along a new direction.
///
/// # Errors
/// [`Error::NonFinite`] for a non-finite motion or box.
pub fn resolve_aabb(start: &Aabb, motion: Vec2, obstacles: &[Aabb], mode: AabbMode) -> Result<AabbResolution, Error> {
    finite(motion, "motion")?;
    finite(start.min(), "aabb min")?;
    finite(start.max(), "aabb max")?;
    Ok(match mode {
        AabbMode::Smooth => smooth(start, motion, obstacles),
        AabbMode::Teleport => teleport(start, motion, obstacles),
    })
}

fn smooth(start: &Aabb, motion: Vec2, obstacles: &[Aabb]) -> AabbResolution {
    smooth_among(start, motion, obstacles.iter().map(|o| (*o, Vec2::ZERO)))
}

/// The smooth rule against obstacles that may move themselves (`(box after its move, its
/// motion)`): corrections oppose the *relative* motion. Against static obstacles they only undo
/// the body's own motion; opposite shoves on one axis are summed (the body is squeezed).
fn smooth_among(start: &Aabb, motion: Vec2, obstacles: impl Iterator<Item = (Aabb, Vec2)> + Clone) -> AabbResolution {
    let moved = start.translated(motion);
    // Per axis, the largest shove toward + and toward -.
    let mut pos = [0.0f32; 2];
    let mut neg = [0.0f32; 2];
    let shove = |pos: &mut [f32; 2], neg: &mut [f32; 2], axis: usize, n: f32, rel: f32| {
        if rel > 0.0 {
            neg[axis] = neg[axis].max(n);
        } else {
            pos[axis] = pos[axis].max(n);
        }
    };
    let mut choices: Vec<([Option<f32>; 2], Vec2)> = Vec::new();
    for (o, om) in obstacles.clone() {
        if !moved.interiors_overlap(&o) {
            continue;
        }
        let rel = motion - om;
        let opts = [need(&moved, &o, rel, 0), need(&moved, &o, rel, 1)];
        match opts {
            [Some(n), None] => shove(&mut pos, &mut neg, 0, n, rel.x),
            [None, Some(n)] => shove(&mut pos, &mut neg, 1, n, rel.y),
            [Some(_), Some(_)] => choices.push((opts, rel)),
            [None, None] => {}
        }
    }
    // Choices: what is left after the necessary shoves, smallest axis first.
    for (opts, rel) in choices {
        let done = |axis: usize| if rel[axis] > 0.0 { neg[axis] } else { pos[axis] };
        let left = [opts[0].map(|n| n - done(0)), opts[1].map(|n| n - done(1))];
        if left.iter().any(|l| l.is_some_and(|l| l <= 0.0)) {
            continue; // already freed by the shoves on one axis
        }
        let pick = match (left[0], left[1]) {
            (Some(x), Some(y)) => usize::from(y < x),
            (Some(_), None) => 0,
            _ => 1,
        };
        if let Some(n) = opts[pick] {
            shove(&mut pos, &mut neg, pick, n, rel[pick]);
        }
    }
    let mut applied = motion;
    for axis in 0..2 {
        applied[axis] += pos[axis] - neg[axis];
    }
    let aabb = start.translated(applied);
    let resolved = !obstacles.into_iter().any(|(o, _)| aabb.interiors_overlap(&o));
    AabbResolution { aabb, motion: applied, resolved }
}

fn teleport(start: &Aabb, motion: Vec2, obstacles: &[Aabb]) -> AabbResolution {
    let mut b = start.translated(motion);
    for _ in 0..16 {
        let deepest =
            obstacles.iter().filter_map(|o| contact_aabb_aabb(&b, o)).fold(None, |best: Option<Contact>, c| {
                if best.is_none_or(|x| c.depth > x.depth) { Some(c) } else { best }
            });
        match deepest {
            Some(c) => b = b.translated(c.normal * c.depth),
            None => break,
        }
    }
    AabbResolution { aabb: b, motion: b.min() - start.min(), resolved: !overlapping(&b, obstacles) }
}

/// A moving box for [`resolve_bodies`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Body {
    /// The box before the move.
    pub aabb: Aabb,
    /// The requested motion.
    pub motion: Vec2,
    /// Lower numbers win: a body is never shoved by one with a larger number.
    pub priority: u8,
}

/// Move several boxes among walls. Walls beat every body; bodies are resolved from the highest
/// priority (lowest number) down, each against the walls and the bodies already placed, so a
/// weaker body yields to a stronger one: against a moving body the corrections oppose the
/// relative motion, so a strong body walking into a weak one shoves it. Pushed from both sides
/// at once a body is squeezed (the shoves are summed) and reported unresolved. Returns the
/// resolved boxes in input order.
///
/// # Errors
/// [`Error::NonFinite`] for a non-finite box or motion.
pub fn resolve_bodies(bodies: &[Body], walls: &[Aabb]) -> Result<Vec<AabbResolution>, Error> {
    for b in bodies {
        finite(b.motion, "motion")?;
        finite(b.aabb.min(), "aabb min")?;
        finite(b.aabb.max(), "aabb max")?;
    }
    let mut order: Vec<usize> = (0..bodies.len()).collect();
    order.sort_by_key(|&i| bodies[i].priority);
    // Walls (still) and the bodies placed so far (with the motion they made).
    let mut placed: Vec<(Aabb, Vec2)> = walls.iter().map(|w| (*w, Vec2::ZERO)).collect();
    let mut out: Vec<Option<AabbResolution>> = vec![None; bodies.len()];
    for i in order {
        let b = &bodies[i];
        let r = smooth_among(&b.aabb, b.motion, placed.iter().copied());
        placed.push((r.aabb, r.motion));
        out[i] = Some(r);
    }
    Ok(out.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    #[test]
    fn necessary_correction_first_prevents_the_seam_snag() {
        // Two floor tiles; the box walks right over the seam while pressing down.
        let tiles = [Aabb::covering(vec2(0.0, -1.0), vec2(1.0, 0.0)), Aabb::covering(vec2(1.0, -1.0), vec2(2.0, 0.0))];
        let b = Aabb::covering(vec2(0.05, 0.0), vec2(0.95, 0.9));
        let r = resolve_aabb(&b, vec2(0.1, -0.05), &tiles, AabbMode::Smooth).unwrap();
        assert_eq!(r.motion, vec2(0.1, 0.0));
        assert!(r.resolved);
    }

    #[test]
    fn corner_undoes_the_move_and_teleport_takes_the_minimum() {
        let walls =
            [Aabb::covering(vec2(1.0, -5.0), vec2(2.0, 5.0)), Aabb::covering(vec2(-5.0, -2.0), vec2(5.0, -1.0))];
        let b = Aabb::covering(vec2(0.0, -1.0), vec2(1.0, 0.0));
        let r = resolve_aabb(&b, vec2(0.2, -0.2), &walls, AabbMode::Smooth).unwrap();
        assert_eq!(r.motion, Vec2::ZERO);
        let t = resolve_aabb(&b, vec2(0.5, 0.0), &walls, AabbMode::Teleport).unwrap();
        assert!(t.resolved);
        assert!((t.aabb.max().x - 1.0).abs() < 1e-6);
    }

    #[test]
    fn walls_beat_bodies_and_priorities_decide() {
        let walls = [Aabb::covering(vec2(3.0, 0.0), vec2(4.0, 2.0))];
        let strong = Body { aabb: Aabb::covering(vec2(0.0, 0.0), vec2(1.0, 1.0)), motion: vec2(0.5, 0.0), priority: 0 };
        let weak = Body { aabb: Aabb::covering(vec2(1.2, 0.0), vec2(2.2, 1.0)), motion: vec2(-0.5, 0.0), priority: 1 };
        let out = resolve_bodies(&[weak, strong], &walls).unwrap();
        assert_eq!(out[1].motion, vec2(0.5, 0.0), "the strong body moves freely");
        assert!(!out[0].aabb.interiors_overlap(&out[1].aabb), "the weak one yields");
    }
}
