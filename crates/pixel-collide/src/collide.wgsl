// lore-pixel-collide: coverage decided per fragment with the CPU twin's integer arithmetic.

struct Draw {
    bounds: vec4<i32>,   // x0, y0, x1, y1 in collision pixels
    t0: vec2<i32>,       // sprite-space position of pixel (x0, y0)'s centre, 16.16
    size: vec2<u32>,     // sprite width, height in texels
    m: vec4<i32>,        // du/dx, du/dy, dv/dx, dv/dy, 16.16
    origin: vec2<i32>,   // collision pixel drawn at target pixel (0, 0)
    sprite: vec2<u32>,   // first alpha word, alpha threshold
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

struct VOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) @interpolate(flat) draw: u32,
}

@vertex
fn vs(@builtin(vertex_index) vi: u32, @builtin(instance_index) ii: u32) -> VOut {
    let d = draws[ii];
    let side = params.target_size.x;
    // The covering quad: the draw's bounds in target pixels, clamped just outside the target.
    let lo = clamp(vec2<f32>(d.bounds.xy - d.origin), vec2<f32>(-1.0), vec2<f32>(side + 1.0));
    let hi = clamp(vec2<f32>(d.bounds.zw - d.origin), vec2<f32>(-1.0), vec2<f32>(side + 1.0));
    var corner = array<vec2<f32>, 6>(
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 0.0), vec2<f32>(1.0, 1.0),
        vec2<f32>(0.0, 0.0), vec2<f32>(1.0, 1.0), vec2<f32>(0.0, 1.0),
    );
    let p = mix(lo, hi, corner[vi]);
    var out: VOut;
    out.pos = vec4<f32>(p.x / side * 2.0 - 1.0, 1.0 - p.y / side * 2.0, 0.0, 1.0);
    out.draw = ii;
    return out;
}

@vertex
fn vs_mesh(@location(0) v: vec2<f32>, @builtin(instance_index) ii: u32) -> @builtin(position) vec4<f32> {
    let d = draws[ii];
    let side = params.target_size.x;
    // Snapped vertex (pixels from the mesh's anchor) moved by an integer offset: exact in f32.
    let p = v + vec2<f32>(d.bounds.xy - d.origin);
    return vec4<f32>(p.x / side * 2.0 - 1.0, 1.0 - p.y / side * 2.0, 0.0, 1.0);
}

@fragment
fn fs(frag: VOut) {
    let d = draws[frag.draw];
    let p = vec2<i32>(floor(frag.pos.xy)) + d.origin;
    if !covered(d, p) {
        discard;
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
            if covered(a, p) && covered(b, p) {
                hits += 1u;
            }
        }
    }
    if hits > 0u {
        atomicAdd(&counts[j], hits);
    }
}
