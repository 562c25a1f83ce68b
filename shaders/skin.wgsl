// Models: meshes deformed on the GPU by their morph targets, then by linear blend skinning with
// up to eight joints per vertex (src/skin/ in the render crate uploads them). Concatenated after
// common.wgsl and lighting.wgsl.
//
// Every primitive of every mesh instance is one indexed draw whose instance index picks its
// DrawParams. A draw's palette holds its skin's joint matrices (jointWorld · inverseBind) and,
// last, its node's world matrix, which unskinned primitives use. Morph offsets come from the
// draw's list of targets with a non-zero weight this frame.

struct DrawParams {
    // First palette matrix; the node's matrix is at palette + joints.
    palette: u32,
    joints: u32,
    // 1: skinned by joints and weights; 0: the node's matrix alone.
    skinned: u32,
    // Bit 0: the primitive has normals; bit 1: textured; bit 2: alpha mask.
    flags: u32,
    // The primitive's first vertex in the vertex buffer, and its vertex count.
    vertex_start: u32,
    vertex_count: u32,
    // The draw's active targets: [active_start, active_start + active_count).
    active_start: u32,
    active_count: u32,
    // Base colour factor (linear RGBA).
    base_colour: vec4<f32>,
    // The primitive's morph offsets start here (two vec4 per vertex and target).
    target_base: u32,
    alpha_cutoff: f32,
    pad0: u32,
    pad1: u32,
}

@group(2) @binding(0) var<storage, read> palette: array<mat4x4<f32>>;
@group(2) @binding(1) var<storage, read> draws: array<DrawParams>;
// Per primitive, target and vertex: the position offset, then the normal offset.
@group(2) @binding(2) var<storage, read> deltas: array<vec4<f32>>;
// x: target index, y: weight.
@group(2) @binding(3) var<storage, read> active_targets: array<vec2<f32>>;

@group(3) @binding(0) var base_texture: texture_2d<f32>;
@group(3) @binding(1) var base_sampler: sampler;

struct SkinIn {
    @builtin(vertex_index) vertex: u32,
    @builtin(instance_index) draw: u32,
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) colour: vec4<f32>,
    @location(4) joints0: vec4<u32>,
    @location(5) joints1: vec4<u32>,
    @location(6) weights0: vec4<f32>,
    @location(7) weights1: vec4<f32>,
}

struct SkinOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) uv: vec2<f32>,
    @location(3) colour: vec4<f32>,
    @location(4) @interpolate(flat) draw: u32,
}

const HAS_NORMALS: u32 = 1u;
const MASKED: u32 = 4u;

// `weight` times the palette matrix of joint `joint` (nothing for a joint the skin lacks, as
// the CPU reference skips it).
fn weighted(d: DrawParams, joint: u32, weight: f32) -> mat4x4<f32> {
    let ok = weight != 0.0 && joint < d.joints;
    let m = palette[d.palette + select(0u, joint, ok)];
    return m * select(0.0, weight, ok);
}

// The matrix that moves this vertex: the weighted sum of its joints', or the node's.
fn skin_matrix(d: DrawParams, v: SkinIn) -> mat4x4<f32> {
    if d.skinned == 0u {
        return palette[d.palette + d.joints];
    }
    var m = mat4x4<f32>(vec4(0.0), vec4(0.0), vec4(0.0), vec4(0.0));
    for (var k = 0u; k < 4u; k++) {
        m += weighted(d, v.joints0[k], v.weights0[k]);
        m += weighted(d, v.joints1[k], v.weights1[k]);
    }
    return m;
}

// The position and normal with the active morph targets added.
struct Shape {
    position: vec3<f32>,
    normal: vec3<f32>,
}

fn morphed(d: DrawParams, v: SkinIn) -> Shape {
    var s: Shape;
    s.position = v.position;
    s.normal = v.normal;
    let local = v.vertex - d.vertex_start;
    for (var i = 0u; i < d.active_count; i++) {
        let a = active_targets[d.active_start + i];
        let at = d.target_base + (u32(a.x) * d.vertex_count + local) * 2u;
        s.position += a.y * deltas[at].xyz;
        s.normal += a.y * deltas[at + 1u].xyz;
    }
    return s;
}

// A normal through `m`: its cofactor matrix (the inverse transpose up to scale), so non-uniform
// scale and mirroring keep normals square to the surface.
fn transform_normal(m: mat4x4<f32>, n: vec3<f32>) -> vec3<f32> {
    let c0 = m[0].xyz;
    let c1 = m[1].xyz;
    let c2 = m[2].xyz;
    let r = cross(c1, c2) * n.x + cross(c2, c0) * n.y + cross(c0, c1) * n.z;
    return select(r, -r, dot(c0, cross(c1, c2)) < 0.0);
}

@vertex
fn vs_skin(v: SkinIn) -> SkinOut {
    let d = draws[v.draw];
    let shape = morphed(d, v);
    let m = skin_matrix(d, v);
    let world = m * vec4(shape.position, 1.0);
    var out: SkinOut;
    out.clip = globals.view_proj * world;
    out.world = world.xyz;
    out.normal = transform_normal(m, shape.normal);
    out.uv = v.uv;
    out.colour = v.colour;
    out.draw = v.draw;
    return out;
}

// The lit colour of a fragment and its alpha (the base colour's times the texture's).
fn shade(in: SkinOut) -> vec4<f32> {
    let d = draws[in.draw];
    let texel = textureSample(base_texture, base_sampler, in.uv);
    let flat_normal = cross(dpdx(in.world), dpdy(in.world));
    let albedo = d.base_colour * in.colour * texel;
    if (d.flags & MASKED) != 0u && albedo.a < d.alpha_cutoff {
        discard;
    }
    let smooth_normal = in.normal;
    var n = select(flat_normal, smooth_normal, (d.flags & HAS_NORMALS) != 0u);
    n = normalize(select(vec3(0.0, 1.0, 0.0), n, dot(n, n) > 1e-20));
    // Both sides are drawn: light the side that faces the camera.
    n = select(n, -n, dot(n, globals.camera_pos.xyz - in.world) < 0.0);
    let visibility = shadow_visibility(in.world, n);
    let height = (in.world.y - globals.camera_pos.w) / globals.ground_colour.w;
    let occlusion = mix(0.8, 1.0, smoothstep(0.0, 1.2, height));
    let lit = albedo.rgb * irradiance(n, visibility, occlusion);
    return vec4(finish(lit, in.world, in.clip).rgb, albedo.a);
}

@fragment
fn fs_skin(in: SkinOut) -> @location(0) vec4<f32> {
    return vec4(shade(in).rgb, 1.0);
}

// Blended materials keep their alpha.
@fragment
fn fs_skin_blend(in: SkinOut) -> @location(0) vec4<f32> {
    return shade(in);
}

// The shadow pass: the same deformed vertices seen from the key light, depth only.
@vertex
fn vs_skin_shadow(v: SkinIn) -> @builtin(position) vec4<f32> {
    let d = draws[v.draw];
    let shape = morphed(d, v);
    let world = skin_matrix(d, v) * vec4(shape.position, 1.0);
    return globals.light_view_proj * world;
}
