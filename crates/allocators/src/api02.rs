//! The `Allocator` trait of allocator-api2 0.2 (which hashbrown uses) for every allocator that
//! implements the 0.4 trait, by forwarding (feature `allocator-api2-02`, on by default).

use core::alloc::Layout;
use core::ptr::NonNull;

use allocator_api2::alloc::Allocator as Api04;
use allocator_api2_02::alloc::{AllocError, Allocator as Api02};

macro_rules! forward_api02 {
    ($($t:ty),+) => {$(
        // SAFETY: every method forwards to the allocator-api2 0.4 impl of the same type, whose
        // contract is the same.
        unsafe impl Api02 for $t {
            fn allocate(&self, layout: Layout) -> Result<NonNull<[u8]>, AllocError> {
                Api04::allocate(self, layout).map_err(|_| AllocError)
            }

            unsafe fn deallocate(&self, ptr: NonNull<u8>, layout: Layout) {
                // SAFETY: the caller's contract is the 0.4 trait's.
                unsafe { Api04::deallocate(self, ptr, layout) }
            }

            unsafe fn grow(&self, ptr: NonNull<u8>, old: Layout, new: Layout) -> Result<NonNull<[u8]>, AllocError> {
                // SAFETY: as above.
                unsafe { Api04::grow(self, ptr, old, new) }.map_err(|_| AllocError)
            }

            unsafe fn shrink(&self, ptr: NonNull<u8>, old: Layout, new: Layout) -> Result<NonNull<[u8]>, AllocError> {
                // SAFETY: as above.
                unsafe { Api04::shrink(self, ptr, old, new) }.map_err(|_| AllocError)
            }
        }
    )+};
}

forward_api02!(crate::Stack, crate::LockedHeap<'_>, crate::LockedPool, crate::LockedSizeClasses);

#[cfg(test)]
mod tests {
    use crate::{Heap, LockedHeap, LockedSizeClasses, Policy, Stack};

    #[test]
    fn hashbrown_runs_in_each_allocator() {
        let stack = Stack::new(1 << 16).unwrap();
        let mut region = alloc::vec![0u8; 1 << 16];
        let heap = LockedHeap::new(Heap::new(&mut region, Policy::GoodFit).unwrap());
        let small = LockedSizeClasses::new();
        let mut a = hashbrown::HashMap::new_in(&stack);
        let mut b = hashbrown::HashMap::new_in(&heap);
        let mut c = hashbrown::HashMap::new_in(&small);
        for i in 0..500u32 {
            a.insert(i, i * 2);
            b.insert(i, i * 3);
            c.insert(i, i * 4);
        }
        assert_eq!((a[&499], b[&499], c[&499]), (998, 1497, 1996));
        drop(b);
        heap.lock().check().unwrap();
        assert_eq!(heap.lock().stats().used_blocks, 0, "hashbrown freed everything");
    }
}
