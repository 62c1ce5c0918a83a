//! Exact areas and confirmed hits for triangle meshes: the GPU's compute pass against the CPU
//! twin (`MeshPlacement::rasterize`), on whatever adapter `Gpu::headless` finds (lavapipe on a
//! machine without a GPU), and again on wgpu's GL backend (llvmpipe through EGL there), where
//! `GpuCollider::new` confirms hits. Without an adapter these tests fail with a message naming
//! the package to install.

use std::sync::OnceLock;

use lore_pixel_collide::glam::Vec2;
use lore_pixel_collide::{GpuCollider, GpuOptions, Id, Mask, Mesh, MeshPlacement, Pose, QueryBatch, Sprite};
mod common;
use common::Gpu;

fn gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        let g = Gpu::headless().expect("a graphics adapter (install mesa-vulkan-drivers)");
        eprintln!("adapter: {}", g.describe());
        g
    })
}

/// A device on wgpu's GL backend, whatever `WGPU_BACKEND` says: the backend whose fragment
/// shaders cannot write storage buffers, so every query takes the exact compute path there.
fn gl_gpu() -> &'static Gpu {
    static GPU: OnceLock<Gpu> = OnceLock::new();
    GPU.get_or_init(|| {
        let descriptor = wgpu::InstanceDescriptor {
            backends: wgpu::Backends::GL,
            ..wgpu::InstanceDescriptor::new_without_display_handle_from_env()
        };
        let g = Gpu::from_instance(wgpu::Instance::new(descriptor), None)
            .expect("a GL adapter (Mesa's llvmpipe through EGL: libegl-mesa0 and libgl1-mesa-dri)");
        eprintln!("adapter: {}", g.describe());
        g
    })
}

fn confirming(g: &Gpu, target: u32) -> GpuCollider {
    GpuCollider::with_options(&g.device, GpuOptions { target_size: target, confirm_hits: true, ..Default::default() })
}

fn is_gl(g: &Gpu) -> bool {
    g.adapter.get_info().backend == wgpu::Backend::Gl
}

/// A small deterministic generator (PCG-style LCG, high bits), so the cases are the same on
/// every run and platform.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.next(0.0, n as f32) as u32).min(n - 1)
    }
}

/// An irregular blob with holes.
fn blob(w: u32, h: u32, seed: u32) -> Sprite {
    let k = (seed % 5) as f32 + 2.0;
    Sprite::from_fn(w, h, |x, y| {
        let p = Vec2::new((x as f32 + 0.5) / w as f32 - 0.5, (y as f32 + 0.5) / h as f32 - 0.5) * 2.0;
        let r = 0.8 + 0.15 * (k * p.y.atan2(p.x)).sin();
        p.length() < r && !(x * 5 + y * 3 + seed).is_multiple_of(13)
    })
    .unwrap()
}

/// A random mesh of 1..=5 triangles (they may overlap each other, and one may be degenerate).
/// On a half-pixel grid (`grid`), many pixel centres fall exactly on edges.
fn random_mesh(rng: &mut Lcg, grid: bool) -> Mesh {
    let snap = |v: f32| if grid { (v * 2.0).round() / 2.0 } else { v };
    let n = 1 + rng.below(5);
    let mut tris: Vec<[Vec2; 3]> =
        (0..n).map(|_| [0; 3].map(|_| Vec2::new(snap(rng.next(-14.0, 14.0)), snap(rng.next(-14.0, 14.0))))).collect();
    if rng.below(6) == 0 {
        // A degenerate (collinear) triangle covers nothing on either engine.
        let (a, b) = (tris[0][0], tris[0][1]);
        tris.push([a, b, (a + b) * 0.5]);
    }
    Mesh::new(tris).unwrap()
}

/// Grid meshes sit on integer or half-pixel positions, unrotated (ties stay ties); the others
/// get any sub-pixel position, rotation and scale (mirrored sometimes).
fn random_mesh_pose(rng: &mut Lcg, grid: bool, far: bool) -> Pose {
    let base = if far { Vec2::new(-300_000.0, 500_000.0) } else { Vec2::ZERO };
    if grid {
        let p = Vec2::new((rng.next(0.0, 30.0) * 2.0).round() / 2.0, (rng.next(0.0, 30.0) * 2.0).round() / 2.0);
        Pose::at(base + p)
    } else {
        let s = Vec2::new(rng.next(0.5, 2.0), rng.next(0.5, 2.0));
        let s = if rng.below(3) == 0 { Vec2::new(-s.x, s.y) } else { s };
        Pose::at(base + Vec2::new(rng.next(0.0, 30.0), rng.next(0.0, 30.0))).rotated(rng.next(-3.2, 3.2)).scaled(s)
    }
}

enum Other {
    Sprite(usize, Pose),
    Mesh(Mesh, Pose),
}

/// One case: a mesh against a sprite or another mesh, with the CPU twin's masks.
struct Case {
    a: Id,
    b: Id,
    cpu_a: Mask,
    cpu_b: Mask,
    ties: Mask,
    area: Id,
    pair_ab: Id,
    pair_ba: Id,
}

fn add_case(batch: &mut QueryBatch, sprites: &[(Id, Sprite)], mesh: &Mesh, pose: Pose, other: Other) -> Case {
    let placed = MeshPlacement::new(mesh, pose).unwrap();
    let a = batch.add_mesh(mesh, pose).unwrap();
    let (b, cpu_b) = match other {
        Other::Sprite(s, p) => (batch.add_object(sprites[s].0, p).unwrap(), Mask::rasterize(&sprites[s].1, p).unwrap()),
        Other::Mesh(m, p) => (batch.add_mesh(&m, p).unwrap(), MeshPlacement::new(&m, p).unwrap().rasterize()),
    };
    let (area, pair_ab, pair_ba) = (batch.area(a, b).unwrap(), batch.pair(a, b).unwrap(), batch.pair(b, a).unwrap());
    Case { a, b, cpu_a: placed.rasterize(), cpu_b, ties: placed.tie_pixels(), area, pair_ab, pair_ba }
}

#[test]
fn random_mesh_pairs_have_the_cpu_twin_area() {
    random_mesh_pairs(gpu());
}

#[test]
fn random_mesh_pairs_have_the_cpu_twin_area_on_gl() {
    assert!(is_gl(gl_gpu()));
    random_mesh_pairs(gl_gpu());
}

#[test]
fn hand_made_mesh_cases() {
    hand_made(gpu());
}

#[test]
fn hand_made_mesh_cases_on_gl() {
    assert!(is_gl(gl_gpu()));
    hand_made(gl_gpu());
}

/// 400 mesh/sprite and 400 mesh/mesh pairs in one batch: the GPU's exact area equals the CPU
/// twin's for every pair, tie pixels included, and confirmed yes/no equals `area > 0`.
fn random_mesh_pairs(g: &Gpu) {
    let mut rng = Lcg(0x5eed_0009);
    let mut batch = QueryBatch::new();
    let sprites: Vec<(Id, Sprite)> = (0..4)
        .map(|i| {
            let s = blob(12 + 7 * i, 20 - 3 * i, i);
            (batch.add_sprite(&s), s)
        })
        .collect();
    let mut cases = Vec::new();
    for i in 0..800 {
        let grid = i % 2 == 0;
        // One pair in ten far off any screen (both objects moved by the same large offset).
        let far = i % 10 == 3;
        let mesh = random_mesh(&mut rng, grid);
        let pose = random_mesh_pose(&mut rng, grid, far);
        let other = if i < 400 {
            let base = if far { Vec2::new(-300_000.0, 500_000.0) } else { Vec2::ZERO };
            let mut p = Pose::at(base + Vec2::new(rng.next(0.0, 30.0), rng.next(0.0, 30.0)));
            if !grid {
                p = p.rotated(rng.next(-3.2, 3.2)).scaled(Vec2::splat(rng.next(0.6, 1.8)));
            }
            Other::Sprite(rng.below(4) as usize, p)
        } else {
            let other_grid = grid || rng.below(2) == 0;
            Other::Mesh(random_mesh(&mut rng, other_grid), random_mesh_pose(&mut rng, other_grid, far))
        };
        cases.push(add_case(&mut batch, &sprites, &mesh, pose, other));
    }
    // Group queries: the mesh of every 4th pair against the other objects of the next three
    // pairs (sprites or meshes), and that pair's other object against their three meshes.
    let mut groups = Vec::new();
    for k in (0..796).step_by(4) {
        let next = &cases[k + 1..k + 4];
        let g = batch.add_group(&next.iter().map(|c| c.b).collect::<Vec<_>>()).unwrap();
        let expect = next.iter().any(|c| cases[k].cpu_a.overlaps(&c.cpu_b));
        groups.push((batch.group(cases[k].a, g).unwrap(), expect));
        let g = batch.add_group(&next.iter().map(|c| c.a).collect::<Vec<_>>()).unwrap();
        let expect = next.iter().any(|c| cases[k].cpu_b.overlaps(&c.cpu_a));
        groups.push((batch.group(cases[k].b, g).unwrap(), expect));
    }
    let exact = confirming(g, 128).run(&g.device, &g.queue, &batch).unwrap();
    for (i, &(q, expect)) in groups.iter().enumerate() {
        assert_eq!(exact.overlaps(q), expect, "confirmed group query {i}");
    }
    let group_hits = groups.iter().filter(|g| g.1).count();
    assert!(group_hits > 40 && group_hits < 360, "group hits {group_hits} of {}", groups.len());
    let by_default = GpuCollider::new(&g.device);
    assert_eq!(by_default.options().confirm_hits, is_gl(g), "GpuCollider::new confirms hits on GL only");
    let default_results = by_default.run(&g.device, &g.queue, &batch).unwrap();
    let (mut hits, mut tie_hits) = (0, 0);
    for (i, c) in cases.iter().enumerate() {
        let cpu = c.cpu_a.overlap_area(&c.cpu_b);
        assert_eq!(exact.area(c.area), Some(cpu), "pair {i}: GPU area differs from the CPU twin");
        assert_eq!(exact.overlaps(c.area), cpu > 0, "pair {i}");
        assert_eq!(exact.overlaps(c.pair_ab), cpu > 0, "pair {i}: confirmed a–b");
        assert_eq!(exact.overlaps(c.pair_ba), cpu > 0, "pair {i}: confirmed b–a");
        assert_eq!(default_results.area(c.area), Some(cpu), "pair {i}: default collider's area");
        hits += usize::from(cpu > 0);
        // Pairs where the other object covers a pixel whose centre lies exactly on a mesh edge.
        tie_hits += usize::from(c.ties.overlaps(&c.cpu_b));
        // The default path (pair quads; the compute pass on GL) decides tie pixels by the
        // twin's rule too.
        assert_eq!(default_results.overlaps(c.pair_ab), cpu > 0, "pair {i}: default a–b");
        assert_eq!(default_results.overlaps(c.pair_ba), cpu > 0, "pair {i}: default b–a");
    }
    eprintln!(
        "mesh pairs: {group_hits} of {} confirmed group queries hit; 800 exact areas equal the CPU twin; {hits} overlap; {tie_hits} share an on-edge pixel centre; \
         the 1600 default answers equal the CPU twin",
        groups.len()
    );
    assert!(hits > 200 && hits < 700, "too few or too many hits to mean anything: {hits}");
    assert!(tie_hits > 30, "too few pairs sharing tie pixels to mean anything: {tie_hits}");
}

/// An object of the batch and its CPU twin mask.
type Object = (Id, Mask);

fn rect_mesh(x0: f32, y0: f32, x1: f32, y1: f32) -> Mesh {
    Mesh::polygon(&[Vec2::new(x0, y0), Vec2::new(x1, y0), Vec2::new(x1, y1), Vec2::new(x0, y1)]).unwrap()
}

/// Hand-made cases, each with the expected area written down and checked against the CPU twin
/// too: shared edges, pixel centres exactly on edges, one-pixel overlaps, touching edges,
/// objects far off-screen, a mesh 16,000 pixels long (edge functions beyond 32 bits).
fn hand_made(g: &Gpu) {
    let mut b = QueryBatch::new();
    let square = Sprite::from_fn(8, 8, |_, _| true).unwrap();
    let big = Sprite::from_fn(16, 16, |_, _| true).unwrap();
    let (sq, bg) = (b.add_sprite(&square), b.add_sprite(&big));
    let origin = Pose::at(Vec2::ZERO);
    let mut pending: Vec<(&str, Object, Object, u64)> = Vec::new();
    let mut add = |name, x, y, expect| pending.push((name, x, y, expect));
    let mesh = |b: &mut QueryBatch, m: &Mesh, p: Pose| {
        (b.add_mesh(m, p).unwrap(), MeshPlacement::new(m, p).unwrap().rasterize())
    };
    let sprite = |b: &mut QueryBatch, id: Id, s: &Sprite, p: Pose| {
        (b.add_object(id, p).unwrap(), Mask::rasterize(s, p).unwrap())
    };

    // The two halves of an 8×8 square split along the diagonal, whose pixel centres all lie on
    // it: the top-left rule gives each tie pixel to one half only, so they share nothing and
    // cover 64 pixels between them (36 + 28).
    let upper = Mesh::new(vec![[Vec2::new(0.0, 0.0), Vec2::new(8.0, 0.0), Vec2::new(8.0, 8.0)]]).unwrap();
    let lower = Mesh::new(vec![[Vec2::new(0.0, 0.0), Vec2::new(8.0, 8.0), Vec2::new(0.0, 8.0)]]).unwrap();
    let (u, l) = (mesh(&mut b, &upper, origin), mesh(&mut b, &lower, origin));
    let s0 = sprite(&mut b, sq, &square, Pose::top_left(0, 0, 8, 8));
    add("diagonal halves share nothing", u.clone(), l.clone(), 0);
    add("upper half vs square", u, s0.clone(), 36);
    add("lower half vs square", l, s0.clone(), 28);
    // An 8×8 square on half-pixel edges: every edge runs through pixel centres; the top and left
    // ones count, the bottom and right ones do not, so it covers exactly 64 pixels.
    let half = mesh(&mut b, &rect_mesh(0.5, 0.5, 8.5, 8.5), origin);
    add("half-pixel square vs 16×16", half.clone(), sprite(&mut b, bg, &big, Pose::top_left(0, 0, 16, 16)), 64);
    // Its bottom-right tie column and row are not its own: a sprite covering only them shares nothing.
    add("tie column is not covered", half.clone(), sprite(&mut b, sq, &square, Pose::top_left(8, 0, 8, 8)), 0);
    // The top-left tie column is: a sprite on column 0 only shares its 8 pixels.
    let column = Sprite::from_fn(1, 8, |_, _| true).unwrap();
    let col = b.add_sprite(&column);
    add("tie column 0 is covered", half, sprite(&mut b, col, &column, Pose::top_left(0, 0, 1, 8)), 8);
    // One-pixel overlaps: mesh vs sprite and mesh vs mesh at a corner.
    let m0 = mesh(&mut b, &rect_mesh(0.0, 0.0, 8.0, 8.0), origin);
    add("one pixel, mesh–sprite", m0.clone(), sprite(&mut b, sq, &square, Pose::top_left(7, 7, 8, 8)), 1);
    add("one pixel, mesh–mesh", m0.clone(), mesh(&mut b, &rect_mesh(7.0, 7.0, 15.0, 15.0), origin), 1);
    // Touching edges share no pixel.
    add("touching meshes", m0.clone(), mesh(&mut b, &rect_mesh(8.0, 0.0, 16.0, 8.0), origin), 0);
    add("touching mesh–sprite", m0, sprite(&mut b, sq, &square, Pose::top_left(0, 8, 8, 8)), 0);
    // Far off any screen: 4×4 shared pixels, mesh–mesh and mesh–sprite.
    let far = Pose::at(Vec2::new(-100_000.0, 500_000.0));
    let fm = mesh(&mut b, &rect_mesh(0.0, 0.0, 8.0, 8.0), far);
    add("off-screen meshes", fm.clone(), mesh(&mut b, &rect_mesh(4.0, 4.0, 12.0, 12.0), far), 16);
    add("off-screen mesh–sprite", fm, sprite(&mut b, sq, &square, Pose::top_left(-99_996, 500_004, 8, 8)), 16);
    // A sliver 16,000 pixels long: vertices and pixel centres near 2^18 sixteenths, so the edge
    // functions exceed 32 bits. A 16×16 sprite at its far end shares the sliver's last pixels.
    let sliver = Mesh::new(vec![[Vec2::new(0.0, 0.0), Vec2::new(16_000.0, 1.3), Vec2::new(16_000.0, 5.1)]]).unwrap();
    let sl = mesh(&mut b, &sliver, origin);
    let expect = sl.1.overlap_area(&Mask::rasterize(&big, Pose::top_left(15_990, 0, 16, 16)).unwrap());
    add("16,000-pixel sliver", sl, sprite(&mut b, bg, &big, Pose::top_left(15_990, 0, 16, 16)), expect);

    let cases: Vec<_> =
        pending.into_iter().map(|(name, x, y, expect)| (name, b.area(x.0, y.0).unwrap(), expect, x.1, y.1)).collect();
    // The exact-area pass does not use the collision target; two sizes show it.
    for target in [16, 512] {
        let r = confirming(g, target).run(&g.device, &g.queue, &b).unwrap();
        for (name, q, expect, x, y) in &cases {
            assert_eq!(x.overlap_area(y), *expect, "{name}: the CPU twin");
            assert_eq!(r.area(*q), Some(*expect), "{name}: the GPU (target {target})");
        }
    }
    assert!(cases.last().is_some_and(|c| c.2 > 10), "the sliver case should share pixels");
}
