// The boxes: one unit cube drawn once per instance (tapered into a bone when the instance says
// so), flat-shaded with the face normal carried through the instance's transform.

struct MeshIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
}

struct InstanceIn {
    @location(2) m0: vec4<f32>,
    @location(3) m1: vec4<f32>,
    @location(4) m2: vec4<f32>,
    @location(5) m3: vec4<f32>,
    @location(6) colour: vec4<f32>,
}

struct BoxOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
    @location(1) @interpolate(flat) normal: vec3<f32>,
    @location(2) @interpolate(flat) colour: vec3<f32>,
}

// The face normal in world space: the inverse transpose of the instance's 3×3 part (as
// cofactors, so any scale, even a mirroring one, is handled).
fn world_normal(c0: vec3<f32>, c1: vec3<f32>, c2: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    let det = dot(c0, cross(c1, c2));
    let m = cross(c1, c2) * n.x + cross(c2, c0) * n.y + cross(c0, c1) * n.z;
    let s = select(1.0, -1.0, det < 0.0);
    let len = length(m);
    return select(n, m * s / len, len > 1e-12);
}

// A tapered box (a bone): the cross-section narrows toward +y by `taper` (the colour's fourth
// value), and the side faces tilt to match.
fn tapered(p: vec3<f32>, taper: f32) -> vec3<f32> {
    let k = 1.0 - taper * (p.y + 0.5);
    return vec3(p.x * k, p.y, p.z * k);
}

fn tapered_normal(n: vec3<f32>, taper: f32) -> vec3<f32> {
    return n + vec3(0.0, 0.5 * taper * (abs(n.x) + abs(n.z)), 0.0);
}

@vertex
fn vs_box(v: MeshIn, i: InstanceIn) -> BoxOut {
    let model = mat4x4(i.m0, i.m1, i.m2, i.m3);
    let world = model * vec4(tapered(v.position, i.colour.a), 1.0);
    var out: BoxOut;
    out.clip = globals.view_proj * world;
    out.world = world.xyz;
    out.normal = world_normal(i.m0.xyz, i.m1.xyz, i.m2.xyz, tapered_normal(v.normal, i.colour.a));
    out.colour = i.colour.rgb;
    return out;
}

@fragment
fn fs_box(in: BoxOut) -> @location(0) vec4<f32> {
    let n = normalize(in.normal);
    let visibility = shadow_visibility(in.world, n);
    // Faces near the ground get a little less ambient light: the boxes sit on it rather than
    // float above it.
    let height = (in.world.y - globals.camera_pos.w) / globals.ground_colour.w;
    let occlusion = mix(0.72, 1.0, smoothstep(0.0, 1.2, height));
    let lit = in.colour * irradiance(n, visibility, occlusion);
    return finish(lit, in.world, in.clip);
}

// The shadow pass: the same boxes seen from the key light, depth only.
@vertex
fn vs_shadow(v: MeshIn, i: InstanceIn) -> @builtin(position) vec4<f32> {
    let model = mat4x4(i.m0, i.m1, i.m2, i.m3);
    return globals.light_view_proj * (model * vec4(tapered(v.position, i.colour.a), 1.0));
}
