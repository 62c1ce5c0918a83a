// lore-pixel-collide: coverage decided per fragment with the CPU twin's integer arithmetic.

struct Draw {
    bounds: vec4<i32>,   // x0, y0, x1, y1 in collision pixels
    t0: vec2<i32>,       // sprite-space position of pixel (x0, y0)'s centre, 16.16
    size: vec2<u32>,     // sprite width, height in texels
    m: vec4<i32>,        // du/dx, du/dy, dv/dx, dv/dy, 16.16
    origin: vec2<i32>,   // collision pixel drawn at target pixel (0, 0)
    sprite: vec2<u32>,   // first alpha word, alpha threshold
    mesh: vec4<u32>,     // first triangle word, triangle count, 1 for a mesh, -
}

struct Params {
    target_size: vec4<f32>,  // side in pixels, -, -, -
    job_base: vec4<u32>,     // first area job of this dispatch
}

struct AreaJob {
    ab: vec4<u32>,       // draw a, draw b, -, -
    rect: vec4<i32>,     // pixels to count
}

@group(0) @binding(0) var<storage, read> draws: array<Draw>;
// Sprite alpha (four texels a word), then mesh triangles (eight words each, see mesh_covered).
@group(0) @binding(1) var<storage, read> alpha: array<u32>;
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
    let word = alpha[d.sprite.x + i / 4u];
    let a = (word >> ((i % 4u) * 8u)) & 0xffu;
    return a >= d.sprite.y;
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
    return vec2<i32>(bitcast<i32>(alpha[w]), bitcast<i32>(alpha[w + 1u]));
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
        let tl = alpha[w + 6u];
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

// Pair quads: one instance per (query, member, tile). jobs[instance] holds draw a, draw b, the
// answer word (counts index) and the quad's place in the target (x | y << 16); rect is the tile
// of collision pixels the quad covers. The vertex stage copies both draws into flat varyings, so
// the fragment stage reads only the sprites' alpha.
struct PairOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) @interpolate(flat) a_bounds: vec4<i32>,
    @location(1) @interpolate(flat) a_t0_size: vec4<i32>,
    @location(2) @interpolate(flat) a_m: vec4<i32>,
    @location(3) @interpolate(flat) a_sprite: vec4<u32>,   // first word, threshold, first triangle word, triangles | mesh flag
    @location(4) @interpolate(flat) b_bounds: vec4<i32>,
    @location(5) @interpolate(flat) b_t0_size: vec4<i32>,
    @location(6) @interpolate(flat) b_m: vec4<i32>,
    @location(7) @interpolate(flat) b_sprite: vec4<u32>,
    @location(8) @interpolate(flat) job: vec4<i32>,        // answer word, collision pixel at target (0, 0)
}

fn pack_sprite(d: Draw) -> vec4<u32> {
    return vec4<u32>(d.sprite.x, d.sprite.y, d.mesh.x, d.mesh.y | (d.mesh.z << 31u));
}

fn unpack_draw(bounds: vec4<i32>, t0_size: vec4<i32>, m: vec4<i32>, sprite: vec4<u32>) -> Draw {
    return Draw(bounds, t0_size.xy, vec2<u32>(t0_size.zw), m, vec2<i32>(0), sprite.xy,
        vec4<u32>(sprite.z, sprite.w & 0x7fffffffu, sprite.w >> 31u, 0u));
}

@vertex
fn vs_pair(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> PairOut {
    let job = jobs[ii];
    let a = draws[job.ab.x];
    let b = draws[job.ab.y];
    let side = params.target_size.x;
    let place = vec2<i32>(i32(job.ab.w & 0xffffu), i32(job.ab.w >> 16u));
    var lo = vec2<f32>(place);
    var hi = vec2<f32>(place + job.rect.zw - job.rect.xy);
    if params.target_size.y != 0.0 {
        // Unscissored: the quad covers the whole target.
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
    out.a_bounds = a.bounds;
    out.a_t0_size = vec4<i32>(a.t0, vec2<i32>(a.size));
    out.a_m = a.m;
    out.a_sprite = pack_sprite(a);
    out.b_bounds = b.bounds;
    out.b_t0_size = vec4<i32>(b.t0, vec2<i32>(b.size));
    out.b_m = b.m;
    out.b_sprite = pack_sprite(b);
    out.job = vec4<i32>(i32(job.ab.z), job.rect.xy - place, 0);
    return out;
}

@fragment
fn fs_pair(f: PairOut) {
    let word = u32(f.job.x);
    // Another fragment already found a shared pixel: nothing left to learn.
    if atomicLoad(&counts[word]) != 0u {
        return;
    }
    let p = vec2<i32>(floor(f.pos.xy)) + f.job.yz;
    let a = unpack_draw(f.a_bounds, f.a_t0_size, f.a_m, f.a_sprite);
    let b = unpack_draw(f.b_bounds, f.b_t0_size, f.b_m, f.b_sprite);
    if covers(a, p) && covers(b, p) {
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
