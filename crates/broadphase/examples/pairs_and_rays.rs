//! A small level: a row of static tiles, a few moving boxes, and each frame the pairs to
//! resolve and a line-of-sight ray.
//!
//! `cargo run -p lore-broadphase --example pairs_and_rays`
//!
//! The tiles go into the static index of a [`World`] (a grid whose cell is the tile pitch, its
//! origin on the tile lattice), the movers into its moving index (a grid with a cell about their
//! size). Each frame moves the movers, asks for the pairs (mover × mover and mover × tile), and
//! casts a ray from the first mover to the right, reporting the first thing it hits.

use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{Aabb, Error, Grid, ProxyId, Ray, SpatialIndex, World};

fn main() -> Result<(), Error> {
    // A level 64 × 16 units: a floor of unit tiles and a wall at x = 40.
    let level = Aabb::new(vec2(0.0, 0.0), vec2(64.0, 16.0))?;
    let mut world = World::new(Grid::covering(level, 1.0)?, Grid::covering(level, 2.0)?);
    for x in 0..64 {
        world.statics_mut().insert(Aabb::new(vec2(x as f32, 0.0), vec2(x as f32 + 1.0, 1.0))?)?;
    }
    for y in 1..6 {
        world.statics_mut().insert(Aabb::new(vec2(40.0, y as f32), vec2(41.0, y as f32 + 1.0))?)?;
    }

    // Four movers of half size 0.5, falling and drifting right at different speeds.
    let mut movers: Vec<(ProxyId, Vec2, Vec2)> = Vec::new();
    for (k, start) in [vec2(4.0, 3.0), vec2(4.6, 4.0), vec2(20.0, 3.0), vec2(36.0, 2.5)].into_iter().enumerate() {
        let id = world.movers_mut().insert(Aabb::from_center(start, Vec2::splat(0.5))?)?;
        movers.push((id, start, vec2(0.3 + 0.2 * k as f32, -0.5)));
    }

    let (mut moving, mut mixed) = (Vec::new(), Vec::new());
    for frame in 0..8 {
        for (id, center, velocity) in &mut movers {
            *center += *velocity;
            // Rest on the floor (its top is at y = 1) and stop at the wall's left side.
            *center = center.clamp(vec2(0.5, 1.5), vec2(39.5, 15.5));
            world.movers_mut().update(*id, Aabb::from_center(*center, Vec2::splat(0.5))?)?;
        }
        // `moving`: (mover, mover) pairs; `mixed`: (mover, tile) pairs. Ids of the two
        // indexes are separate, so the two lists keep them apart.
        world.pairs(&mut moving, &mut mixed);
        println!("frame {frame}: {} mover-mover pairs {moving:?}, {} mover-tile pairs", moving.len(), mixed.len());

        // Line of sight from the first mover to the right: the nearest mover other than
        // itself, or the nearest tile, whichever comes first.
        let (me, eye) = (movers[0].0, movers[0].1);
        let ray = Ray::new(eye, vec2(1.0, 0.0), 100.0)?;
        let (mover, _) = world.movers_mut().raycast(&ray, &mut |id| id != me);
        let (tile, _) = world.statics_mut().raycast(&ray, &mut |_| true);
        match (mover, tile) {
            (Some(m), Some(t)) if m.t <= t.t => println!("  sees mover {:?} at distance {:.2}", m.id, m.t),
            (_, Some(t)) => println!("  sees a tile at distance {:.2}", t.t),
            (Some(m), None) => println!("  sees mover {:?} at distance {:.2}", m.id, m.t),
            (None, None) => println!("  sees nothing"),
        }
    }
    Ok(())
}
