// The ground: a large square at the ground height around the camera target, catching the key
// light's shadows, with a grid that fades out with distance and fog that melts it into the
// backdrop.

struct GroundOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) world: vec3<f32>,
}

@vertex
fn vs_ground(@builtin(vertex_index) i: u32) -> GroundOut {
    var corners = array<vec2<f32>, 6>(
        vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
        vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0),
    );
    let c = corners[i] * globals.viewport.w;
    let world = vec3(globals.focus.x + c.x, globals.camera_pos.w, globals.focus.z + c.y);
    var out: GroundOut;
    out.clip = globals.view_proj * vec4(world, 1.0);
    out.world = world;
    return out;
}

// How much of a grid line covers this pixel, for lines every `cell` world units: about one
// pixel wide whatever the distance, anti-aliased with the screen-space derivative.
fn grid_line(xz: vec2<f32>, cell: f32, width: f32) -> f32 {
    let coord = xz / cell;
    let w = max(fwidth(coord), vec2(1e-5));
    let d = abs(fract(coord - 0.5) - 0.5) / w;
    let line = 1.0 - min(min(d.x, d.y) / width, 1.0);
    // Lines closer together than a few pixels would shimmer: let them go.
    let density = clamp(1.5 - max(w.x, w.y) * 6.0, 0.0, 1.0);
    return line * density;
}

@fragment
fn fs_ground(in: GroundOut) -> @location(0) vec4<f32> {
    let cell = globals.ground_colour.w;
    let minor = grid_line(in.world.xz, cell, 1.0);
    let major = grid_line(in.world.xz, cell * 5.0, 1.4);
    let r = distance(in.world.xz, globals.focus.xz);
    let fade = 1.0 - smoothstep(0.25 * globals.viewport.z, globals.viewport.z, r);
    let amount = max(minor * 0.4, major) * globals.grid_colour.w * fade;
    let albedo = mix(globals.ground_colour.rgb, globals.grid_colour.rgb, amount);
    let n = vec3(0.0, 1.0, 0.0);
    let visibility = shadow_visibility(in.world, n);
    let lit = albedo * irradiance(n, visibility, 1.0);
    return finish(lit, in.world, in.clip);
}
