//! Box resolution after seed 003 ("AABB Collision Resolution, Phase I"): corrections only
//! oppose the movement and never exceed it; single-axis ("necessary") corrections first, then
//! the smallest remaining axis; teleport mode takes the minimal correction in any direction;
//! priorities decide who is shoved between moving boxes.

use glam::Vec2;

use crate::error::{Error, finite};
use crate::query;
use crate::shapes::Aabb;

/// How a box move is corrected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum AabbMode {
    /// Corrections only undo part of the movement, axis by axis (smooth, no snapping).
    #[default]
    Smooth,
    /// The box jumped: push it out by the minimal translation in any direction.
    Teleport,
}

/// The result of [`resolve_aabb`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AabbResolution {
    /// The box after the move and corrections.
    pub aabb: Aabb,
    /// The motion actually applied (`requested + correction`).
    pub motion: Vec2,
    /// `false` when the box still overlaps an obstacle (it started inside one, or no
    /// correction within the movement frees it).
    pub resolved: bool,
}

fn need(moved: &Aabb, o: &Aabb, motion: Vec2, axis: usize) -> Option<f32> {
    let m = motion[axis];
    if m == 0.0 {
        return None;
    }
    let n = if m > 0.0 { moved.max[axis] - o.min[axis] } else { o.max[axis] - moved.min[axis] };
    (n > 0.0 && n <= m.abs()).then_some(n)
}

fn overlapping(b: &Aabb, obstacles: &[Aabb]) -> bool {
    obstacles.iter().any(|o| b.overlaps(o))
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
    finite(start.min, "aabb min")?;
    finite(start.max, "aabb max")?;
    Ok(match mode {
        AabbMode::Smooth => smooth(start, motion, obstacles),
        AabbMode::Teleport => teleport(start, motion, obstacles),
    })
}

fn smooth(start: &Aabb, motion: Vec2, obstacles: &[Aabb]) -> AabbResolution {
    let moved = start.translated(motion);
    // corr[axis] = how much of the motion on that axis is taken back.
    let mut corr = [0.0f32; 2];
    let mut choices: Vec<[Option<f32>; 2]> = Vec::new();
    for o in obstacles {
        if !moved.overlaps(o) {
            continue;
        }
        let opts = [need(&moved, o, motion, 0), need(&moved, o, motion, 1)];
        match opts {
            [Some(n), None] => corr[0] = corr[0].max(n),
            [None, Some(n)] => corr[1] = corr[1].max(n),
            [Some(_), Some(_)] => choices.push(opts),
            [None, None] => {}
        }
    }
    // Choices: what is left after the necessary shoves, smallest axis first.
    for opts in choices {
        let left = [opts[0].map(|n| n - corr[0]), opts[1].map(|n| n - corr[1])];
        if left.iter().any(|l| l.is_some_and(|l| l <= 0.0)) {
            continue; // already freed by the shoves on one axis
        }
        let pick = match (left[0], left[1]) {
            (Some(x), Some(y)) => usize::from(y < x),
            (Some(_), None) => 0,
            _ => 1,
        };
        if let Some(n) = opts[pick] {
            corr[pick] = corr[pick].max(n);
        }
    }
    let mut applied = motion;
    for axis in 0..2 {
        let m = motion[axis];
        let c = corr[axis].min(m.abs());
        applied[axis] = if m > 0.0 { (m - c).max(0.0) } else { (m + c).min(0.0) };
    }
    let aabb = start.translated(applied);
    AabbResolution { aabb, motion: applied, resolved: !overlapping(&aabb, obstacles) }
}

fn teleport(start: &Aabb, motion: Vec2, obstacles: &[Aabb]) -> AabbResolution {
    let mut b = start.translated(motion);
    for _ in 0..16 {
        let deepest =
            obstacles.iter().filter_map(|o| query::aabb_aabb(&b, o)).fold(None, |best: Option<query::Contact>, c| {
                if best.is_none_or(|x| c.depth > x.depth) { Some(c) } else { best }
            });
        match deepest {
            Some(c) => b = b.translated(c.normal * c.depth),
            None => break,
        }
    }
    AabbResolution { aabb: b, motion: b.min - start.min, resolved: !overlapping(&b, obstacles) }
}

/// A moving box for [`resolve_bodies`].
#[derive(Clone, Copy, Debug, PartialEq)]
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
/// weaker body yields to a stronger one. Returns the resolved boxes in input order.
///
/// # Errors
/// [`Error::NonFinite`] for a non-finite box or motion.
pub fn resolve_bodies(bodies: &[Body], walls: &[Aabb]) -> Result<Vec<AabbResolution>, Error> {
    let mut order: Vec<usize> = (0..bodies.len()).collect();
    order.sort_by_key(|&i| bodies[i].priority);
    let mut placed: Vec<Aabb> = walls.to_vec();
    let mut out: Vec<Option<AabbResolution>> = vec![None; bodies.len()];
    for i in order {
        let b = &bodies[i];
        let r = resolve_aabb(&b.aabb, b.motion, &placed, AabbMode::Smooth)?;
        placed.push(r.aabb);
        out[i] = Some(r);
    }
    Ok(out.into_iter().flatten().collect())
}
