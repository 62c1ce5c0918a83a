//! The heap interface the allocators bench and the `heap_actions` driver share, with lore's
//! heap and its peers (talc, linked_list_allocator, buddy_system_allocator) behind it, so both
//! measure exactly the same calls.

use std::alloc::Layout;
use std::ptr::NonNull;

use lore_allocators::Heap;
use rand::{RngExt as _, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// The fraction of a `len`-byte region in live requested bytes when `heap`'s first allocation
/// fails: random sizes `16..=max`, alignment 8, one free for every two allocations, seed fixed.
pub fn use_at_first_failure(heap: &mut dyn BenchHeap, len: usize, max: usize) -> f64 {
    let mut rng = Pcg64Mcg::seed_from_u64(11);
    let mut live: Vec<(NonNull<u8>, Layout)> = Vec::new();
    let mut bytes = 0usize;
    loop {
        if !live.is_empty() && rng.random_range(0..3) == 0 {
            let (p, l) = live.swap_remove(rng.random_range(0..live.len()));
            bytes -= l.size();
            // SAFETY: allocated here with `l`.
            unsafe { heap.free(p, l) };
        } else {
            let l = Layout::from_size_align(rng.random_range(16..=max), 8).expect("a valid layout");
            match heap.alloc(l) {
                Some(p) => {
                    bytes += l.size();
                    live.push((p, l));
                }
                None => return bytes as f64 / len as f64,
            }
        }
    }
}

/// The operations a heap peer needs for the workloads.
pub trait BenchHeap {
    /// Allocates a block, or `None` when the heap cannot.
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>>;
    /// # Safety
    /// `ptr` was allocated here with `layout`.
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout);
    /// Resizes a block; `None` leaves it as it was. The default is what `GlobalAlloc::realloc`
    /// does for allocators without their own (linked_list_allocator, buddy_system_allocator):
    /// allocate, copy, free.
    ///
    /// # Safety
    /// As `free`.
    unsafe fn realloc(&mut self, ptr: NonNull<u8>, layout: Layout, new_size: usize) -> Option<NonNull<u8>> {
        let fresh = self.alloc(Layout::from_size_align(new_size, layout.align()).ok()?)?;
        // SAFETY: both blocks are live and distinct; the caller's contract for `ptr`.
        unsafe {
            std::ptr::copy_nonoverlapping(ptr.as_ptr(), fresh.as_ptr(), layout.size().min(new_size));
            self.free(ptr, layout);
        }
        Some(fresh)
    }
}

impl BenchHeap for Heap<'_> {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        Heap::alloc(self, layout).ok()
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // As `GlobalAlloc::dealloc` (and talc) get it: with the layout.
        let _ = Heap::free_sized(self, ptr, layout);
    }
    unsafe fn realloc(&mut self, ptr: NonNull<u8>, layout: Layout, new_size: usize) -> Option<NonNull<u8>> {
        // As `GlobalAlloc::realloc` gets it: with the old layout and the new size.
        Heap::realloc_sized(self, ptr, layout, new_size).ok()
    }
}

impl BenchHeap for talc::base::Talc<talc::source::Manual, talc::DefaultBinning> {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        // SAFETY: any layout is valid for talc.
        unsafe { self.allocate(layout) }
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { self.deallocate(ptr.as_ptr(), layout) }
    }
    unsafe fn realloc(&mut self, ptr: NonNull<u8>, layout: Layout, new_size: usize) -> Option<NonNull<u8>> {
        // What talc's own `GlobalAlloc::realloc` does: in place if it can, else move.
        // SAFETY: the caller's contract; `new_size` is non-zero.
        if unsafe { self.try_realloc_in_place(ptr.as_ptr(), layout, new_size) } {
            return Some(ptr);
        }
        let fresh = BenchHeap::alloc(self, Layout::from_size_align(new_size, layout.align()).ok()?)?;
        // SAFETY: both blocks are live and distinct; the copy is the smaller size.
        unsafe {
            std::ptr::copy_nonoverlapping(ptr.as_ptr(), fresh.as_ptr(), layout.size().min(new_size));
            self.deallocate(ptr.as_ptr(), layout);
        }
        Some(fresh)
    }
}

impl BenchHeap for linked_list_allocator::Heap {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        self.allocate_first_fit(layout).ok()
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { self.deallocate(ptr, layout) }
    }
}

impl BenchHeap for buddy_system_allocator::Heap<32> {
    fn alloc(&mut self, layout: Layout) -> Option<NonNull<u8>> {
        buddy_system_allocator::Heap::alloc(self, layout).ok()
    }
    unsafe fn free(&mut self, ptr: NonNull<u8>, layout: Layout) {
        // SAFETY: the caller's contract.
        unsafe { self.dealloc(ptr, layout) };
    }
}
