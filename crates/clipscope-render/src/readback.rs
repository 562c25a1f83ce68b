//! Copying a rendered texture back to the CPU as tightly packed RGBA8 rows.

use std::time::Duration;

use super::RenderError;

/// How long to wait for the GPU (software rasterisers can be slow on big frames).
const WAIT: Duration = Duration::from_secs(60);

/// Copies a 2D RGBA8 `texture` into CPU memory: `width * height * 4` bytes, top row first.
pub(crate) fn read_rgba(
    device: &wgpu::Device,
    queue: &wgpu::Queue,
    texture: &wgpu::Texture,
) -> Result<Vec<u8>, RenderError> {
    let (width, height) = (texture.width(), texture.height());
    let row = width as usize * 4;
    let align = wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as usize;
    let padded = row.div_ceil(align) * align;
    let buffer = device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("clipscope readback"),
        size: (padded * height as usize) as u64,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
        label: Some("clipscope readback"),
    });
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: &buffer,
            layout: wgpu::TexelCopyBufferLayout {
                offset: 0,
                bytes_per_row: Some(padded as u32),
                rows_per_image: None,
            },
        },
        wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
    );
    let submission = queue.submit([encoder.finish()]);
    let slice = buffer.slice(..);
    let (sender, receiver) = std::sync::mpsc::channel();
    slice.map_async(wgpu::MapMode::Read, move |result| {
        let _ = sender.send(result);
    });
    device
        .poll(wgpu::PollType::Wait {
            submission_index: Some(submission),
            timeout: Some(WAIT),
        })
        .map_err(RenderError::Unfinished)?;
    receiver
        .recv()
        .map_err(|_| RenderError::Dropped)?
        .map_err(RenderError::Map)?;
    let mut out = Vec::with_capacity(row * height as usize);
    {
        let data = slice.get_mapped_range().map_err(RenderError::MappedRange)?;
        for y in 0..height as usize {
            out.extend_from_slice(&data[y * padded..y * padded + row]);
        }
    }
    buffer.unmap();
    Ok(out)
}
