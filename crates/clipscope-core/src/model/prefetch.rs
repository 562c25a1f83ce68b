//! Asking the processor to start loading memory that is about to be read.
//!
//! Playing or posing a long take reads many long arrays in step (each track's times and
//! values, each node's samples): more streams than the hardware prefetcher follows. The hot
//! loops name what they will read a little ahead, and the loads find it in cache.

/// Asks the processor to start loading `items[index]`. Only a hint: nothing is read, an index
/// past the end is harmless, and off x86-64 it does nothing.
#[inline(always)]
pub(crate) fn prefetch<T>(items: &[T], index: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: `_mm_prefetch` only needs SSE, which every x86-64 CPU has; a prefetch never
        // faults, whatever the address (so the pointer may lie past the end).
        unsafe { _mm_prefetch::<_MM_HINT_T0>(items.as_ptr().wrapping_add(index).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (items, index);
}
