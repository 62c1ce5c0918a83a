//! A fixed slide-move workload for instruction counts (callgrind), not a timing bench:
//! `valgrind --tool=callgrind target/release/collide2d_slide MODE` with MODE one of
//! `disk`, `disk_swept`, `box`, `box_swept` (default: all four). Each mode walks a body over
//! 200 loose floor pieces (every fourth one raised by 1e-5) for 20,000 steps and prints a
//! checksum of the end positions, so the work cannot be optimised away.

use lore_collide2d::glam::{Vec2, vec2};
use lore_collide2d::{Aabb, Segment, SlideOptions, slide_aabb, slide_aabb_swept, slide_disk, slide_disk_swept};

const STEPS: usize = 20_000;

fn level() -> Vec<Segment> {
    (0..200)
        .map(|i| {
            let dy = if i % 4 == 0 { 1e-5 } else { 0.0 };
            Segment { a: vec2(i as f32, dy), b: vec2(i as f32 + 1.0, dy) }
        })
        .collect()
}

/// The pieces near `x` on the floor (what a broad phase would return).
fn near(level: &[Segment], x: f32) -> &[Segment] {
    let i = x.floor().clamp(0.0, 199.0) as usize;
    &level[i.saturating_sub(2)..(i + 3).min(200)]
}

fn run(mode: &str, level: &[Segment]) -> Vec2 {
    let opts = SlideOptions::default();
    let mut sum = Vec2::ZERO;
    let v = 0.01;
    match mode {
        "disk" | "disk_swept" => {
            let mut p = vec2(1.0, 0.5);
            for step in 0..STEPS {
                if step % 15_000 == 0 {
                    p = vec2(1.0, 0.5);
                }
                let m = vec2(v, -0.1 * v);
                let cand = near(level, p.x);
                let out = if mode == "disk" {
                    slide_disk(p, 0.5, m, cand, &opts)
                } else {
                    slide_disk_swept(p, 0.5, m, cand, &opts)
                };
                p = out.expect("valid input").position;
            }
            sum += p;
        }
        "box" | "box_swept" => {
            let mut b = Aabb::new(vec2(1.0, 0.0), vec2(2.0, 1.0)).expect("a box");
            for step in 0..STEPS {
                if step % 15_000 == 0 {
                    b = Aabb::new(vec2(1.0, 0.0), vec2(2.0, 1.0)).expect("a box");
                }
                let m = vec2(v, -0.1 * v);
                let cand = near(level, b.center().x);
                let out =
                    if mode == "box" { slide_aabb(&b, m, cand, &opts) } else { slide_aabb_swept(&b, m, cand, &opts) };
                b = b.translated(out.expect("valid input").position - b.center());
            }
            sum += b.center();
        }
        _ => {}
    }
    sum
}

fn main() {
    let level = level();
    let arg = std::env::args().nth(1);
    let modes: Vec<&str> = match arg.as_deref() {
        Some(m) => vec![m],
        None => vec!["disk", "disk_swept", "box", "box_swept"],
    };
    for m in modes {
        let s = run(m, &level);
        println!("{m}: {:.6} {:.6}", s.x, s.y);
    }
}
