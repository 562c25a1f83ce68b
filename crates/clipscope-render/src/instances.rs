//! The per-instance vertex buffer: each box's transform (four columns) and colour, 80 bytes a
//! box, grown by doubling when a frame has more boxes than it holds.

use clipscope_scene::BoxInstance;

/// Bytes per instance: a 4×4 matrix and an RGBA colour.
const STRIDE: u64 = 20 * 4;

/// The instance buffer and how many boxes it holds.
pub struct InstanceBuffer {
    /// The GPU buffer.
    pub(crate) buffer: wgpu::Buffer,
    /// Capacity in instances.
    capacity: u64,
}

impl InstanceBuffer {
    /// An empty buffer with room for a few boxes.
    pub fn new(device: &wgpu::Device) -> InstanceBuffer {
        InstanceBuffer {
            buffer: create(device, 64),
            capacity: 64,
        }
    }

    /// Uploads `instances` (growing the buffer if needed) and returns how many were written.
    /// The boxes are written straight into the queue's staging memory
    /// ([`wgpu::Queue::write_buffer_with`]), without a copy of their own; the transfer starts
    /// with the next submit.
    pub fn upload(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        instances: &[BoxInstance],
    ) -> u32 {
        let n = instances.len() as u64;
        if n > self.capacity {
            self.capacity = n.next_power_of_two();
            self.buffer = create(device, self.capacity);
        }
        if let Some(size) = wgpu::BufferSize::new(n * STRIDE)
            && let Some(mut staging) = queue.write_buffer_with(&self.buffer, 0, size)
        {
            let (boxes, _) = staging.slice(..).into_chunks::<{ STRIDE as usize }>();
            boxes.write_iter(instances.iter().map(instance_bytes));
        }
        instances.len() as u32
    }

    /// The vertex buffer layout: model columns at locations 2–5, colour at 6.
    pub(crate) fn layout() -> wgpu::VertexBufferLayout<'static> {
        const ATTRIBUTES: [wgpu::VertexAttribute; 5] = wgpu::vertex_attr_array![
            2 => Float32x4, 3 => Float32x4, 4 => Float32x4, 5 => Float32x4, 6 => Float32x4
        ];
        wgpu::VertexBufferLayout {
            array_stride: STRIDE,
            step_mode: wgpu::VertexStepMode::Instance,
            attributes: &ATTRIBUTES,
        }
    }
}

/// One box as the vertex shader reads it: the four columns of its transform, then its colour
/// with its taper as the fourth value, little-endian `f32`s.
#[inline]
fn instance_bytes(instance: &BoxInstance) -> [u8; STRIDE as usize] {
    let [r, g, b] = instance.colour;
    let mut floats = [0.0f32; 20];
    floats[..16].copy_from_slice(&instance.transform.to_cols_array());
    floats[16..].copy_from_slice(&[r, g, b, instance.taper]);
    let mut bytes = [0; STRIDE as usize];
    for (chunk, x) in bytes.chunks_exact_mut(4).zip(floats) {
        chunk.copy_from_slice(&x.to_le_bytes());
    }
    bytes
}

fn create(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("clipscope box instances"),
        size: capacity * STRIDE,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
