// Shared by every pass: the per-frame globals (one uniform buffer, see src/render/globals.rs),
// the background gradient, fog and dithering. Concatenated in front of each pass's shader.

struct Globals {
    view_proj: mat4x4<f32>,
    light_view_proj: mat4x4<f32>,
    // xyz: camera position; w: ground height.
    camera_pos: vec4<f32>,
    // xyz: unit vector towards the key light; w: shadow filter step in shadow-map uv.
    light_dir: vec4<f32>,
    // rgb: key light colour times intensity; w: normal offset for shadow lookups (world units).
    light_colour: vec4<f32>,
    // xyz: unit vector towards the fill light; w: fill intensity.
    fill_dir: vec4<f32>,
    // Background at the top and the bottom of the frame (linear rgb).
    sky_top: vec4<f32>,
    sky_bottom: vec4<f32>,
    // Hemispheric ambient: light from above and bounce from below.
    ambient_sky: vec4<f32>,
    ambient_ground: vec4<f32>,
    // rgb: ground albedo; w: grid cell size (world units).
    ground_colour: vec4<f32>,
    // rgb: grid line colour; w: grid strength 0-1.
    grid_colour: vec4<f32>,
    // x: distance where fog starts; y: where it is full; z: full fog amount; w: unused.
    fog: vec4<f32>,
    // xy: target size in pixels; z: radius where the grid has faded; w: ground half-size.
    viewport: vec4<f32>,
    // xyz: the point the ground is centred on (camera target); w: unused.
    focus: vec4<f32>,
}

@group(0) @binding(0) var<uniform> globals: Globals;

// The background at a pixel row: a soft vertical gradient, eased so that the middle of the
// frame stays light.
fn background(frag: vec4<f32>) -> vec3<f32> {
    let v = clamp(frag.y / globals.viewport.y, 0.0, 1.0);
    let top = globals.sky_top.rgb;
    let bottom = globals.sky_bottom.rgb;
    var c = mix(top, bottom, smoothstep(0.0, 1.0, v));
    // A faint warm glow around the upper middle, like a studio backdrop.
    let uv = frag.xy / globals.viewport.xy;
    let glow = exp(-4.0 * dot(uv - vec2(0.5, 0.3), uv - vec2(0.5, 0.3)));
    c = c + vec3(0.035, 0.025, 0.012) * glow;
    return c;
}

// How much fog covers a point: none near the subject, rising smoothly with distance.
fn fog_amount(world: vec3<f32>) -> f32 {
    let d = distance(world, globals.camera_pos.xyz);
    let f = clamp((d - globals.fog.x) / max(globals.fog.y - globals.fog.x, 1e-4), 0.0, 1.0);
    return f * f * (3.0 - 2.0 * f) * globals.fog.z;
}

// Mixes a lit colour into the fog (the background behind the same pixel, so that far things
// melt into the backdrop) and adds a tiny deterministic dither against 8-bit banding.
fn finish(lit: vec3<f32>, world: vec3<f32>, frag: vec4<f32>) -> vec4<f32> {
    let c = mix(lit, background(frag), fog_amount(world));
    return vec4(dither(c, frag), 1.0);
}

// Adds ±half a step of 8-bit noise (interleaved gradient noise: fixed per pixel).
fn dither(c: vec3<f32>, frag: vec4<f32>) -> vec3<f32> {
    let n = fract(52.9829189 * fract(dot(floor(frag.xy), vec2(0.06711056, 0.00583715))));
    // Linear output is sRGB-encoded by the target; a step of 1/255 in sRGB is about
    // 1/255 * d(linear)/d(srgb), which grows with brightness; this is close enough.
    return max(c + (n - 0.5) * (1.0 / 255.0) * (0.3 + 1.4 * c), vec3(0.0));
}
