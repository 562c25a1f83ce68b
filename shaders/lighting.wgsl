// Lighting shared by the ground and the boxes: the directional key light's shadow map with a
// percentage-closer filter, a fill light and hemispheric ambient.

@group(1) @binding(0) var shadow_map: texture_depth_2d;
@group(1) @binding(1) var shadow_sampler: sampler_comparison;

// 1 where the key light reaches a point, 0 in full shadow, soft in between: a 6×6 grid of
// bilinear comparison taps (a smooth box filter a dozen texels wide).
fn shadow_visibility(world: vec3<f32>, normal: vec3<f32>) -> f32 {
    let offset = normal * globals.light_colour.w;
    let p = globals.light_view_proj * vec4(world + offset, 1.0);
    let ndc = p.xyz / p.w;
    let uv = vec2(ndc.x * 0.5 + 0.5, 0.5 - ndc.y * 0.5);
    let step = globals.light_dir.w;
    let reference = ndc.z - 0.0005;
    var sum = 0.0;
    for (var y = 0; y < 6; y++) {
        for (var x = 0; x < 6; x++) {
            let o = (vec2(f32(x), f32(y)) - 2.5) * step;
            sum += textureSampleCompareLevel(shadow_map, shadow_sampler, uv + o, reference);
        }
    }
    let inside = all(uv > vec2(0.0)) && all(uv < vec2(1.0)) && ndc.z < 1.0;
    return select(1.0, sum / 36.0, inside);
}

// The light arriving at a surface with unit normal `n`, before it is multiplied by the
// surface's colour; `occlusion` (0-1) dims the ambient and fill light.
fn irradiance(n: vec3<f32>, visibility: f32, occlusion: f32) -> vec3<f32> {
    let hemi = mix(globals.ambient_ground.rgb, globals.ambient_sky.rgb, n.y * 0.5 + 0.5);
    let key = globals.light_colour.rgb * max(dot(n, globals.light_dir.xyz), 0.0) * visibility;
    let fill = vec3(globals.fill_dir.w) * max(dot(n, globals.fill_dir.xyz), 0.0);
    return (hemi + fill * globals.ambient_sky.rgb) * occlusion + key;
}
