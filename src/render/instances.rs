//! The per-instance vertex buffer: each box's transform (four columns) and colour, 80 bytes a
//! box, grown by doubling when a frame has more boxes than it holds.

use crate::scene::BoxInstance;

/// Bytes per instance: a 4×4 matrix and an RGBA colour.
const STRIDE: u64 = 20 * 4;

/// The instance buffer and how many boxes it holds.
pub struct InstanceBuffer {
    /// The GPU buffer.
    pub buffer: wgpu::Buffer,
    /// Capacity in instances.
    capacity: u64,
    /// Staging bytes, kept to avoid an allocation per frame.
    bytes: Vec<u8>,
}

impl InstanceBuffer {
    /// An empty buffer with room for a few boxes.
    pub fn new(device: &wgpu::Device) -> InstanceBuffer {
        InstanceBuffer {
            buffer: create(device, 64),
            capacity: 64,
            bytes: Vec::new(),
        }
    }

    /// Uploads `instances` (growing the buffer if needed) and returns how many were written.
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
        self.bytes.clear();
        for instance in instances {
            for x in instance.transform.to_cols_array() {
                self.bytes.extend_from_slice(&x.to_le_bytes());
            }
            for x in [
                instance.colour[0],
                instance.colour[1],
                instance.colour[2],
                1.0,
            ] {
                self.bytes.extend_from_slice(&x.to_le_bytes());
            }
        }
        if !self.bytes.is_empty() {
            queue.write_buffer(&self.buffer, 0, &self.bytes);
        }
        instances.len() as u32
    }

    /// The vertex buffer layout: model columns at locations 2–5, colour at 6.
    pub fn layout() -> wgpu::VertexBufferLayout<'static> {
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

fn create(device: &wgpu::Device, capacity: u64) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("clipscope box instances"),
        size: capacity * STRIDE,
        usage: wgpu::BufferUsages::VERTEX | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}
