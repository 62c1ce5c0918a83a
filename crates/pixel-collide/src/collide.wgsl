// lore-pixel-collide: coverage decided per fragment with the CPU twin's integer arithmetic.

struct Draw {
    bounds: vec4<i32>,   // x0, y0, x1, y1 in collision pixels
    t0: vec2<i32>,       // sprite-space position of pixel (x0, y0)'s centre, 16.16
    size: vec2<u32>,     // sprite width, height in texels
    m: vec4<i32>,        // du/dx, du/dy, dv/dx, dv/dy, 16.16
    mesh: vec4<u32>,     // first triangle word, triangle count, 1 for a mesh, first word of the sprite's solid bits
}

struct Params {
    target_size: vec4<f32>,  // side in pixels, 1.0 when pieces cover the whole target, -, -
    job_base: vec4<u32>,     // first area job of this dispatch, -, -, -
}

struct AreaJob {
    ab: vec4<u32>,       // draw a, draw b, -, -
    rect: vec4<i32>,     // pixels to count
}

@group(0) @binding(0) var<storage, read> draws: array<Draw>;
// Sprites' solid texels (one bit each: texel i = y * width + x is bit i % 32 of word i / 32),
// then mesh triangles (eight words each, see mesh_covered).
@group(0) @binding(1) var<storage, read> words: array<u32>;
@group(0) @binding(2) var<uniform> params: Params;

fn covered(d: Draw, p: vec2<i32>) -> bool {
    if any(p < d.bounds.xy) || any(p >= d.bounds.zw) {
        return false;
    }
    let q = p - d.bounds.xy;
    let u = d.t0.x + d.m.x * q.x + d.m.y * q.y;
    let v = d.t0.y + d.m.z * q.x + d.m.w * q.y;
    let t = vec2<i32>(u >> 16u, v >> 16u);
    if t.x < 0 || t.y < 0 || t.x >= i32(d.size.x) || t.y >= i32(d.size.y) {
        return false;
    }
    let i = u32(t.y) * d.size.x + u32(t.x);
    return ((words[d.mesh.w + i / 32u] >> (i % 32u)) & 1u) != 0u;
}

// Sign of a * b - c * d, exactly, for |a|, |b|, |c|, |d| < 2^19, without 64-bit integers
// (not on every backend). b and d are split at bit 10 (b = bh * 1024 + bl, 0 <= bl < 1024), so
// a * b - c * d = hi * 1024 + lo with hi = a * bh - c * dh and lo = a * bl - c * dl, each well
// inside i32. Carrying lo's high bits into hi leaves 0 <= lo < 1024, and the sign is hi's, or
// lo's when hi is 0.
fn sign_of_cross(a: i32, b: i32, c: i32, d: i32) -> i32 {
    let hi = a * (b >> 10u) - c * (d >> 10u);
    let lo = a * (b & 1023) - c * (d & 1023);
    let h = hi + (lo >> 10u);
    if h != 0 {
        return select(-1, 1, h > 0);
    }
    return select(0, 1, (lo & 1023) != 0);
}

// The CPU twin's edge test (MeshPlacement::rasterize): the centre c is strictly on the inner
// side of edge a -> b, or exactly on it and the edge is a top or left edge.
fn inside_edge(a: vec2<i32>, b: vec2<i32>, c: vec2<i32>, top_left: bool) -> bool {
    let s = sign_of_cross(b.x - a.x, c.y - a.y, b.y - a.y, c.x - a.x);
    return s > 0 || (s == 0 && top_left);
}

fn vertex(w: u32) -> vec2<i32> {
    return vec2<i32>(bitcast<i32>(words[w]), bitcast<i32>(words[w + 1u]));
}

// Mesh coverage with the CPU twin's rule and integers: vertices in 1/16 pixel relative to the
// bounds' corner, pixel centres, triangles already oriented (positive area) with their top-left
// edge flags (bits 0..2 of word 6).
fn mesh_covered(d: Draw, p: vec2<i32>) -> bool {
    if any(p < d.bounds.xy) || any(p >= d.bounds.zw) {
        return false;
    }
    let c = (p - d.bounds.xy) * 16 + vec2<i32>(8);
    for (var t = 0u; t < d.mesh.y; t++) {
        let w = d.mesh.x + t * 8u;
        let v0 = vertex(w);
        let v1 = vertex(w + 2u);
        let v2 = vertex(w + 4u);
        if any(c < min(min(v0, v1), v2)) || any(c > max(max(v0, v1), v2)) {
            continue;
        }
        let tl = words[w + 6u];
        if inside_edge(v0, v1, c, (tl & 1u) != 0u) && inside_edge(v1, v2, c, (tl & 2u) != 0u)
            && inside_edge(v2, v0, c, (tl & 4u) != 0u) {
            return true;
        }
    }
    return false;
}

fn covers(d: Draw, p: vec2<i32>) -> bool {
    if d.mesh.z != 0u {
        return mesh_covered(d, p);
    }
    return covered(d, p);
}

// Pair pieces: rectangles over the pixels where two posed sprites' footprints meet (see
// footprint.rs), one instance each, six entries of four words: the place in the target (x | y << 16,
// width | height << 16); the answer word, the collision pixel of target pixel (0, 0) less the pair
// rectangle's corner and the rectangle's width | height << 16; then each sprite's map
// (sprite_solid). The vertex stage hands them to the piece's fragments flat.
@group(0) @binding(5) var<storage, read> pieces: array<vec4<u32>>;

struct PairOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) @interpolate(flat) job: vec4<i32>,
    @location(1) @interpolate(flat) a0: vec4<i32>,
    @location(2) @interpolate(flat) a1: vec4<i32>,
    @location(3) @interpolate(flat) b0: vec4<i32>,
    @location(4) @interpolate(flat) b1: vec4<i32>,
}

@vertex
fn vs_pair(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> PairOut {
    let at = ii * 6u;
    let place = pieces[at];
    let side = params.target_size.x;
    var lo = vec2<f32>(vec2<u32>(place.x & 0xffffu, place.x >> 16u));
    var hi = lo + vec2<f32>(vec2<u32>(place.y & 0xffffu, place.y >> 16u));
    if params.target_size.y != 0.0 {
        // Unscissored: the piece covers the whole target.
        lo = vec2<f32>(0.0);
        hi = vec2<f32>(side);
    }
    var corner = array<vec2<f32>, 6>(
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 1.0), vec2<f32>(0.0, 1.0),
    );
    let p = mix(lo, hi, corner[vi]);
    var out: PairOut;
    out.pos = vec4<f32>(p.x / side * 2.0 - 1.0, 1.0 - p.y / side * 2.0, 0.0, 1.0);
    out.job = vec4<i32>(pieces[at + 1u]);
    out.a0 = vec4<i32>(pieces[at + 2u]);
    out.a1 = vec4<i32>(pieces[at + 3u]);
    out.b0 = vec4<i32>(pieces[at + 4u]);
    out.b1 = vec4<i32>(pieces[at + 5u]);
    return out;
}

// Whether a sprite covers the pixel at offset q from the pair rectangle's corner: m0 = t0 (moved
// to that corner), du/dx, du/dy; m1 = dv/dx, dv/dy, width | height << 16, first solid word. The
// same i32 arithmetic as covered() and the CPU twin. Branch-free: a software rasterizer runs
// every instruction for every fragment anyway.
fn sprite_solid(m0: vec4<i32>, m1: vec4<i32>, q: vec2<i32>) -> bool {
    let u = m0.x + m0.z * q.x + m0.w * q.y;
    let v = m0.y + m1.x * q.x + m1.y * q.y;
    // A negative texel coordinate becomes a huge unsigned one: outside.
    let t = vec2<u32>(vec2<i32>(u, v) >> vec2<u32>(16u));
    let size = vec2<u32>(u32(m1.z) & 0xffffu, u32(m1.z) >> 16u);
    let inside = all(t < size);
    let i = select(0u, t.y * size.x + t.x, inside);
    let word = words[u32(m1.w) + i / 32u];
    return inside & (((word >> (i % 32u)) & 1u) != 0u);
}

@fragment
fn fs_pair(f: PairOut) {
    let word = u32(f.job.x);
    // Another fragment already found a shared pixel: nothing left to learn.
    if atomicLoad(&counts[word]) != 0u {
        return;
    }
    let q = vec2<i32>(floor(f.pos.xy)) + f.job.yz;
    let size = vec2<u32>(u32(f.job.w) & 0xffffu, u32(f.job.w) >> 16u);
    if all(vec2<u32>(q) < size) & sprite_solid(f.a0, f.a1, q) & sprite_solid(f.b0, f.b1, q) {
        atomicStore(&counts[word], 1u);
    }
}

@group(0) @binding(3) var<storage, read> jobs: array<AreaJob>;
@group(0) @binding(4) var<storage, read_write> counts: array<atomic<u32>>;

@compute @workgroup_size(8, 8, 1)
fn area(@builtin(global_invocation_id) g: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let j = params.job_base.x + g.z;
    let job = jobs[j];
    let a = draws[job.ab.x];
    let b = draws[job.ab.y];
    let w = u32(job.rect.z - job.rect.x);
    let h = u32(job.rect.w - job.rect.y);
    var hits = 0u;
    for (var y = g.y; y < h; y += n.y * 8u) {
        for (var x = g.x; x < w; x += n.x * 8u) {
            let p = job.rect.xy + vec2<i32>(i32(x), i32(y));
            if covers(a, p) && covers(b, p) {
                hits += 1u;
            }
        }
    }
    if hits > 0u {
        atomicAdd(&counts[j], hits);
    }
}
