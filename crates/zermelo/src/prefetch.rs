//! Software prefetch hints for the random accesses of big graphs (solver frontiers, loaders).
//!
//! A prefetch asks the processor to start loading a cache line that will be read soon, so that
//! many cache misses overlap instead of waiting one after another (about 100 ns each on some
//! machines). It is a hint: it never faults, changes no memory the program sees, and is free to
//! be ignored; on other architectures these functions do nothing.

#![allow(unsafe_code)]

/// Hints that `slice[index]` will be read soon; an index past the end is ignored.
#[inline(always)]
pub fn prefetch<T>(slice: &[T], index: usize) {
    if let Some(item) = slice.get(index) {
        prefetch_ptr(item as *const T);
    }
}

/// Hints that the first elements of `slice` will be read soon.
#[inline(always)]
pub fn prefetch_start<T>(slice: &[T]) {
    if let Some(first) = slice.first() {
        prefetch_ptr(first as *const T);
    }
}

#[inline(always)]
fn prefetch_ptr<T>(ptr: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` only hints the cache: it never faults, even on an invalid address,
    // and reads nothing into the program. The pointer comes from a live reference anyway.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(ptr.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = ptr;
}
