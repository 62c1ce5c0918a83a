//! Nearest neighbours, a swept box and a payload per proxy, on every index.
//!
//! `cargo run -p lore-broadphase --example nearest_and_casts`
//!
//! A field of crates and coins: a turret finds the three nearest coins within range (k-nearest
//! with a bound and a filter), a player box dashes to the right and stops at the first crate in
//! its way (the first hit of a cast), and a bullet lists everything it passes through (every
//! hit, in order). Each proxy's kind lives in a `ProxyMap` beside the index. The same calls run
//! on all five indexes, which give the same answers.

use lore_broadphase::glam::{Vec2, vec2};
use lore_broadphase::{Aabb, Axis, BruteForce, Error, Grid, ProxyMap, SpatialHash, SpatialIndex, Sweep, Tree};

#[derive(Clone, Copy, Debug, PartialEq)]
enum Kind {
    Crate,
    Coin,
}

fn main() -> Result<(), Error> {
    let indexes: Vec<Box<dyn SpatialIndex>> = vec![
        Box::new(BruteForce::new()),
        Box::new(Sweep::new(Axis::X)),
        Box::new(Grid::new(vec2(0.0, 0.0), 2.0, 32, 32)?),
        Box::new(SpatialHash::new(2.0)?),
        Box::new(Tree::new()),
    ];
    let mut answers = Vec::new();
    for mut index in indexes {
        let mut kinds = ProxyMap::new();
        for i in 0..20 {
            let (x, y) = ((i * 7 % 20) as f32 * 3.0 + 1.0, (i * 11 % 20) as f32 * 3.0 + 1.0);
            let kind = if i % 3 == 0 { Kind::Crate } else { Kind::Coin };
            let half = if kind == Kind::Crate { Vec2::splat(1.0) } else { Vec2::splat(0.25) };
            let id = index.insert(Aabb::from_center(vec2(x, y), half)?)?;
            kinds.insert(id, kind);
        }

        // The three nearest coins within 20 units of the turret.
        let turret = vec2(30.0, 30.0);
        let mut near = Vec::new();
        index.k_nearest(turret, 3, 20.0, &mut |id| kinds.get(id) == Some(&Kind::Coin), &mut near)?;

        // The player dashes 40 units right and stops at the first crate.
        let player = Aabb::from_center(vec2(2.0, 37.0), vec2(0.5, 0.5))?;
        let dash = vec2(40.0, 0.0);
        let (stop, _) = index.cast_aabb(&player, dash, &mut |id| kinds.get(id) == Some(&Kind::Crate))?;
        let travelled = stop.map_or(dash, |hit| dash * hit.t);

        // A bullet (a small box) flies diagonally through everything.
        let bullet = Aabb::from_center(vec2(0.0, 0.0), vec2(0.1, 0.1))?;
        let mut hits = Vec::new();
        index.cast_aabb_all(&bullet, vec2(60.0, 60.0), &mut |_| true, &mut hits)?;

        println!(
            "{:>5}: nearest coins {:?}, dash stops after {:.2} units, bullet passes {} boxes",
            index.name(),
            near.iter().map(|n| (n.id, n.distance_squared.sqrt())).collect::<Vec<_>>(),
            travelled.x,
            hits.len()
        );
        answers.push((near, stop, hits));
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "every index gives the same answers");
    Ok(())
}
