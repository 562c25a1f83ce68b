//! The renderer: draws a [`Frame`] (boxes, a morph mesh, a model) seen by a [`Camera`] into its own
//! offscreen target. Pipelines,
//! buffers, the shadow map and the target live as long as the renderer; resizing recreates only
//! the target's textures.

use glam::Vec3;

use super::globals::Globals;
use super::instances::InstanceBuffer;
use super::mesh::CubeMesh;
use super::morph::MorphGpu;
use super::pipelines::Pipelines;
use super::shadow::{self, SHADOW_SIZE, ShadowMap};
use super::skin::{SkinGpu, SkinPipelines};
use super::target::Target;
use super::{Bounds, Camera, Frame, Look, RenderError, readback};

/// Draws instanced boxes and morph meshes on a soft-lit ground into an offscreen, multisampled
/// target.
///
/// Each frame: a shadow pass renders the boxes' and the mesh's depth from the key light, then
/// the main pass paints the backdrop gradient, the ground (grid, shadows, fog), the boxes and
/// the mesh (flat-shaded, shadowed, fogged), and resolves the four samples per pixel into
/// [`Renderer::texture`]. A morph mesh is uploaded the first time it is drawn and blended on
/// the GPU from the frame's weights.
pub struct Renderer {
    pipelines: Pipelines,
    mesh: CubeMesh,
    instances: InstanceBuffer,
    globals: wgpu::Buffer,
    globals_bind_group: wgpu::BindGroup,
    shadow: ShadowMap,
    target: Target,
    morph: Option<MorphGpu>,
    skin_pipelines: SkinPipelines,
    skin: Option<SkinGpu>,
    /// The colours and strengths the frames are painted with.
    pub look: Look,
    /// Draw only the figure: no backdrop, ground, grid, shadows or fog, on a transparent
    /// background (alpha is coverage, premultiplied), for review renders compared with other
    /// viewers'.
    pub transparent: bool,
    /// The bounds the ground, grid, fog and shadows are fitted to when they must hold still
    /// over a sequence of frames (an animated preview); `None`: each frame's own bounds.
    pub stage: Option<Bounds>,
}

/// What a frame draws, for the passes: boxes, the morph mesh's vertices, whether a model is
/// drawn and whether the boxes go on top.
#[derive(Debug, Clone, Copy)]
struct Drawn {
    boxes: u32,
    mesh: Option<u32>,
    model: bool,
    overlay: bool,
}

impl Renderer {
    /// The format of [`Renderer::texture`] (8-bit sRGB with alpha).
    pub const FORMAT: wgpu::TextureFormat = super::target::COLOUR_FORMAT;

    /// Builds the pipelines and buffers and a `width` × `height` target.
    pub fn new(device: &wgpu::Device, width: u32, height: u32) -> Renderer {
        let pipelines = Pipelines::new(device);
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("clipscope globals"),
            size: Globals::SIZE,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let globals_bind_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("clipscope globals bind group"),
            layout: &pipelines.globals_layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: globals.as_entire_binding(),
            }],
        });
        let shadow = ShadowMap::new(device, &pipelines.shadow_layout);
        let skin_pipelines =
            SkinPipelines::new(device, &pipelines.globals_layout, &pipelines.shadow_layout);
        Renderer {
            mesh: CubeMesh::new(device),
            instances: InstanceBuffer::new(device),
            target: Target::new(device, width, height),
            pipelines,
            globals,
            globals_bind_group,
            shadow,
            morph: None,
            skin_pipelines,
            skin: None,
            look: Look::default(),
            transparent: false,
            stage: None,
        }
    }

    /// Why some of the drawn model's textures could not be used (images that do not decode);
    /// their materials draw untextured.
    pub fn texture_notes(&self) -> &[String] {
        self.skin.as_ref().map_or(&[], |s| &s.notes)
    }

    /// The target size in pixels.
    pub fn size(&self) -> (u32, u32) {
        self.target.size
    }

    /// Resizes the target (a no-op when the size is unchanged). Only the target's textures are
    /// recreated; a view of the old [`Renderer::texture`] shown elsewhere must be replaced.
    pub fn resize(&mut self, device: &wgpu::Device, width: u32, height: u32) {
        if self.target.size != (width.max(1), height.max(1)) {
            self.target = Target::new(device, width, height);
        }
    }

    /// The resolved picture of the last frame ([`Renderer::FORMAT`]), e.g. to register with
    /// egui-wgpu as a native texture.
    pub fn texture(&self) -> &wgpu::Texture {
        &self.target.resolved
    }

    /// A view of [`Renderer::texture`].
    pub fn view(&self) -> &wgpu::TextureView {
        &self.target.resolved_view
    }

    /// Draws a frame and submits it.
    pub fn render(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        camera: &Camera,
        frame: &Frame<'_>,
    ) {
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("clipscope frame"),
        });
        self.encode(device, queue, &mut encoder, camera, frame);
        queue.submit([encoder.finish()]);
    }

    /// Uploads the frame's uniforms and instances and records the shadow and main passes into
    /// `encoder` (for callers that submit their own command buffers, such as an egui paint
    /// callback).
    pub fn encode(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        camera: &Camera,
        frame: &Frame<'_>,
    ) {
        let count = self.instances.upload(device, queue, frame.boxes);
        let mesh = frame.mesh.map(|draw| {
            if !self.morph.as_ref().is_some_and(|m| m.holds(draw.mesh)) {
                self.morph = Some(MorphGpu::new(
                    device,
                    &self.pipelines.morph_layout,
                    draw.mesh.clone(),
                ));
            }
            let gpu = self.morph.as_mut().expect("uploaded above");
            gpu.update(queue, draw.transform, draw.weights);
            gpu.vertex_count
        });
        let model = frame.model.is_some();
        if let Some(draw) = frame.model {
            if !self.skin.as_ref().is_some_and(|m| m.holds(draw.model)) {
                self.skin = Some(SkinGpu::new(
                    device,
                    queue,
                    &self.skin_pipelines,
                    draw.model.clone(),
                ));
            }
            let gpu = self.skin.as_mut().expect("uploaded above");
            gpu.update(queue, draw.joints, draw.weights);
        }
        let globals = self.frame_globals(camera, frame);
        let look = if self.transparent {
            Look {
                fog: 0.0,
                ..self.look
            }
        } else {
            self.look
        };
        queue.write_buffer(&self.globals, 0, &globals.bytes(&look));
        // A flat (orthographic) view is a drawing seen front-on: nothing casts a shadow on the
        // card behind it; a transparent frame has no ground to cast on. The pass still clears
        // the map.
        let casts = !camera.orthographic && !self.transparent;
        let drawn = Drawn {
            boxes: count,
            mesh,
            model,
            overlay: frame.boxes_on_top && count > 0,
        };
        self.shadow_pass(encoder, drawn, casts);
        self.main_pass(encoder, drawn);
        if drawn.overlay {
            self.overlay_pass(encoder, count);
        }
    }

    /// The key light's shadow map: boxes, the morph mesh and the model, when they `cast`.
    fn shadow_pass(&self, encoder: &mut wgpu::CommandEncoder, drawn: Drawn, cast: bool) {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("clipscope shadow pass"),
            color_attachments: &[],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.shadow.view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        if !cast {
            return;
        }
        if drawn.boxes > 0 {
            pass.set_pipeline(&self.pipelines.shadow);
            pass.set_bind_group(0, &self.globals_bind_group, &[]);
            self.draw_boxes(&mut pass, drawn.boxes);
        }
        if let (Some(vertices), Some(gpu)) = (drawn.mesh, &self.morph) {
            pass.set_pipeline(&self.pipelines.morph_shadow);
            pass.set_bind_group(0, &self.globals_bind_group, &[]);
            pass.set_bind_group(2, &gpu.bind_group, &[]);
            pass.draw(0..vertices, 0..1);
        }
        if let (true, Some(gpu)) = (drawn.model, &self.skin) {
            pass.set_pipeline(&self.skin_pipelines.shadow);
            pass.set_bind_group(0, &self.globals_bind_group, &[]);
            gpu.draw(&mut pass, false, false);
            gpu.draw(&mut pass, true, false);
        }
    }

    /// The picture: backdrop and ground (unless transparent), boxes (unless they go on top),
    /// the morph mesh, the model's opaque then blended primitives. Resolved into the target
    /// unless the overlay pass follows.
    fn main_pass(&self, encoder: &mut wgpu::CommandEncoder, drawn: Drawn) {
        let clear = if self.transparent {
            wgpu::Color::TRANSPARENT
        } else {
            wgpu::Color::WHITE
        };
        let mut pass = self.picture_pass(
            encoder,
            "clipscope main pass",
            wgpu::LoadOp::Clear(clear),
            !drawn.overlay,
        );
        if !self.transparent {
            pass.set_pipeline(&self.pipelines.background);
            pass.draw(0..3, 0..1);
            pass.set_pipeline(&self.pipelines.ground);
            pass.draw(0..6, 0..1);
        }
        if drawn.boxes > 0 && !drawn.overlay {
            pass.set_pipeline(&self.pipelines.boxes);
            self.draw_boxes(&mut pass, drawn.boxes);
        }
        if let (Some(vertices), Some(gpu)) = (drawn.mesh, &self.morph) {
            pass.set_pipeline(&self.pipelines.morph);
            pass.set_bind_group(2, &gpu.bind_group, &[]);
            pass.draw(0..vertices, 0..1);
        }
        if let (true, Some(gpu)) = (drawn.model, &self.skin) {
            pass.set_pipeline(&self.skin_pipelines.opaque);
            gpu.draw(&mut pass, false, true);
            if gpu.has_blended() {
                pass.set_pipeline(&self.skin_pipelines.blend);
                gpu.draw(&mut pass, true, true);
            }
        }
    }

    /// The boxes over the finished picture (x-ray bones): depth cleared, colour kept, then
    /// resolved into the target.
    fn overlay_pass(&self, encoder: &mut wgpu::CommandEncoder, count: u32) {
        let mut pass =
            self.picture_pass(encoder, "clipscope overlay pass", wgpu::LoadOp::Load, true);
        pass.set_pipeline(&self.pipelines.boxes);
        self.draw_boxes(&mut pass, count);
    }

    /// A pass into the multisampled picture, its colour loaded as `load` and its depth cleared,
    /// with the globals and the shadow map bound; the `last` pass of a frame resolves into the
    /// target, the others keep the samples for the next.
    fn picture_pass<'e>(
        &self,
        encoder: &'e mut wgpu::CommandEncoder,
        label: &str,
        load: wgpu::LoadOp<wgpu::Color>,
        last: bool,
    ) -> wgpu::RenderPass<'e> {
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some(label),
            color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                view: &self.target.msaa_view,
                depth_slice: None,
                resolve_target: last.then_some(&self.target.resolved_view),
                ops: wgpu::Operations {
                    load,
                    store: if last {
                        wgpu::StoreOp::Discard
                    } else {
                        wgpu::StoreOp::Store
                    },
                },
            })],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: &self.target.depth_view,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
        pass.set_bind_group(0, &self.globals_bind_group, &[]);
        pass.set_bind_group(1, &self.shadow.bind_group, &[]);
        pass
    }

    /// Reads the last frame back as tightly packed RGBA8 rows (sRGB), top row first; fails
    /// when the GPU does not finish the frame or the frame cannot be mapped.
    pub fn read_rgba(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<Vec<u8>, RenderError> {
        readback::read_rgba(device, queue, &self.target.resolved)
    }

    fn draw_boxes(&self, pass: &mut wgpu::RenderPass<'_>, count: u32) {
        pass.set_vertex_buffer(0, self.mesh.vertices.slice(..));
        pass.set_vertex_buffer(1, self.instances.buffer.slice(..));
        pass.set_index_buffer(self.mesh.indices.slice(..), wgpu::IndexFormat::Uint16);
        pass.draw_indexed(0..self.mesh.index_count, 0, 0..count);
    }

    /// The uniforms for a frame: the camera, a shadow camera fitted to what is drawn, and
    /// ground, grid and fog scaled to the size of the scene and the camera's distance.
    fn frame_globals(&self, camera: &Camera, frame: &Frame<'_>) -> Globals {
        let bounds = self
            .stage
            .or_else(|| frame.bounds())
            .unwrap_or_else(Bounds::unit);
        let ground_y = bounds.min.y.min(0.0);
        let size = bounds.radius().max(0.25);
        let (width, height) = self.target.size;
        let distance = camera.distance.max(1e-3);
        let light_view_proj =
            shadow::light_view_projection(bounds, self.look.light_direction, ground_y);
        let shadow_texel_world = 2.0 * bounds.radius().max(0.05) * 1.02 / SHADOW_SIZE as f32;
        Globals {
            view_proj: camera.view_projection(width as f32 / height as f32),
            light_view_proj,
            eye: camera.eye(),
            ground_y,
            shadow_step: self.look.shadow_softness / SHADOW_SIZE as f32,
            shadow_offset: shadow_texel_world * 1.5,
            grid_cell: grid_cell(size),
            fog_range: (distance + size * 1.5, distance * 4.0 + size * 8.0),
            viewport: (width, height),
            grid_fade: distance * 1.5 + size * 4.0,
            ground_extent: (distance * 60.0).max(size * 60.0),
            focus: Vec3::new(camera.target.x, ground_y, camera.target.z),
        }
    }
}

/// A grid cell of 1, 2.5 or 5 times a power of ten, near a third of the scene's radius.
fn grid_cell(size: f32) -> f32 {
    let want = (size / 3.0).max(1e-3);
    let decade = 10f32.powf(want.log10().floor());
    [1.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|k| k * decade)
        .min_by(|a, b| {
            let da = (a / want).ln().abs();
            let db = (b / want).ln().abs();
            da.total_cmp(&db)
        })
        .unwrap_or(decade)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_cells_are_round_numbers() {
        assert_eq!(grid_cell(1.2), 0.5);
        assert_eq!(grid_cell(3.0), 1.0);
        assert_eq!(grid_cell(30.0), 10.0);
    }
}
