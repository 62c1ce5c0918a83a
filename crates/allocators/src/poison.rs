//! Poisoning of freed memory behind the `sanitize` feature.
//!
//! Valgrind and AddressSanitizer see a heap region or a stack chunk as one block obtained from
//! the system, so a use-after-free *inside* it is invisible to them. With `sanitize`, freed
//! bytes are overwritten with [`POISON`] (so stale reads show a recognisable pattern) and, when
//! the crate is compiled with `-Zsanitizer=address` on nightly (the build script then sets
//! `cfg(lore_asan)`), ASan is told the bytes are off limits until they are handed out again.

/// The byte freed memory is filled with when the `sanitize` feature is on.
pub const POISON: u8 = 0xDD;

#[cfg(all(feature = "sanitize", lore_asan))]
unsafe extern "C" {
    fn __asan_poison_memory_region(addr: *const u8, size: usize);
    fn __asan_unpoison_memory_region(addr: *const u8, size: usize);
    fn __asan_address_is_poisoned(addr: *const u8) -> i32;
}

/// Whether `ptr` lies in bytes marked freed (always false unless ASan poisoning is active).
/// Checked before reading a header at a caller-given address, which under ASan would
/// otherwise abort on a double free instead of reporting it.
#[inline]
#[allow(unused_variables)]
pub(crate) fn is_poisoned(ptr: *const u8) -> bool {
    #[cfg(all(feature = "sanitize", lore_asan))]
    // SAFETY: a query of ASan's shadow memory; it does not touch `ptr`.
    return unsafe { __asan_address_is_poisoned(ptr) != 0 };
    #[cfg(not(all(feature = "sanitize", lore_asan)))]
    false
}

/// Marks `len` bytes at `ptr` as freed.
///
/// # Safety
/// `ptr..ptr+len` must be memory the allocator owns and no one else uses.
#[inline]
#[allow(unused_variables)]
pub(crate) unsafe fn poison(ptr: *mut u8, len: usize) {
    #[cfg(feature = "sanitize")]
    {
        // Part of the range may be poisoned already (a neighbour merged into a freed block):
        // make it writable for the fill.
        #[cfg(lore_asan)]
        // SAFETY: ASan only records the range as usable.
        unsafe {
            __asan_unpoison_memory_region(ptr, len);
        }
        // SAFETY: the caller owns the bytes.
        unsafe { core::ptr::write_bytes(ptr, POISON, len) };
        #[cfg(lore_asan)]
        // SAFETY: ASan only records the range as poisoned.
        unsafe {
            __asan_poison_memory_region(ptr, len);
        }
    }
}

/// Marks `len` bytes at `ptr` as handed out again.
///
/// # Safety
/// `ptr..ptr+len` must be memory the allocator owns.
#[inline]
#[allow(unused_variables)]
pub(crate) unsafe fn unpoison(ptr: *mut u8, len: usize) {
    #[cfg(all(feature = "sanitize", lore_asan))]
    // SAFETY: ASan only records the range as usable.
    unsafe {
        __asan_unpoison_memory_region(ptr, len);
    }
}
