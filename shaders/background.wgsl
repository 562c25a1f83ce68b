// The backdrop: one full-screen triangle painted with the vertical gradient.

@vertex
fn vs_background(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {
    let x = f32((i << 1u) & 2u) * 2.0 - 1.0;
    let y = f32(i & 2u) * 2.0 - 1.0;
    return vec4(x, y, 1.0, 1.0);
}

@fragment
fn fs_background(@builtin(position) frag: vec4<f32>) -> @location(0) vec4<f32> {
    return vec4(dither(background(frag), frag), 1.0);
}
