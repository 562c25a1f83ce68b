// Morph meshes: one triangle list whose vertices are blended from morph targets on the GPU.
// Concatenated after boxes.wgsl, whose BoxOut and fs_box it reuses for shading.
//
// No vertex buffers: vertex `v` is corner `v % 3` of triangle `v / 3`. Each invocation blends
// the triangle's three vertices (base + Σ weight·delta over the active targets only) so it can
// give the whole triangle one flat normal, like the boxes.

struct MorphParams {
    // Mesh → world.
    model: mat4x4<f32>,
    // x: vertices per shape; y: active targets this frame.
    counts: vec4<u32>,
}

@group(2) @binding(0) var<uniform> morph: MorphParams;
// The base shape at [0, V), then target k's offsets from it at [(k + 1)·V, (k + 2)·V).
@group(2) @binding(1) var<storage, read> shapes: array<vec4<f32>>;
// Three vertex indices per triangle.
@group(2) @binding(2) var<storage, read> corners: array<u32>;
// One linear colour per triangle.
@group(2) @binding(3) var<storage, read> triangle_colours: array<vec4<f32>>;
// The targets with a non-zero weight this frame: x = target index, y = weight.
@group(2) @binding(4) var<storage, read> active_targets: array<vec2<f32>>;

fn blended(vertex: u32) -> vec3<f32> {
    let count = morph.counts.x;
    var p = shapes[vertex].xyz;
    for (var k = 0u; k < morph.counts.y; k++) {
        let a = active_targets[k];
        p += a.y * shapes[(u32(a.x) + 1u) * count + vertex].xyz;
    }
    return p;
}

@vertex
fn vs_morph(@builtin(vertex_index) index: u32) -> BoxOut {
    let triangle = index / 3u;
    let p0 = blended(corners[triangle * 3u]);
    let p1 = blended(corners[triangle * 3u + 1u]);
    let p2 = blended(corners[triangle * 3u + 2u]);
    let corner = index % 3u;
    let p = select(select(p2, p1, corner == 1u), p0, corner == 0u);
    let world = morph.model * vec4(p, 1.0);
    let m = morph.model;
    var out: BoxOut;
    out.clip = globals.view_proj * world;
    out.world = world.xyz;
    out.normal = world_normal(m[0].xyz, m[1].xyz, m[2].xyz, cross(p1 - p0, p2 - p0));
    out.colour = triangle_colours[triangle].rgb;
    return out;
}

@vertex
fn vs_morph_shadow(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    let p = blended(corners[index]);
    return globals.light_view_proj * (morph.model * vec4(p, 1.0));
}
