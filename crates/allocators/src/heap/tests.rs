use super::bins::{bin_at_least, bin_of_block, bin_of_size, bin_of_size_int};
use super::block::BINS;
use super::*;
use alloc::vec;
use alloc::vec::Vec;

fn l(size: usize, align: usize) -> Layout {
    Layout::from_size_align(size, align).unwrap()
}

/// The size classes, written plainly: a class per 16 bytes below 1 KiB, then TLSF's 8 per
/// power of two (by the 3 bits after the leading one).
fn reference_class(size: usize) -> (usize, usize) {
    if size < 1024 {
        return (0, size / 16);
    }
    let log = usize::BITS as usize - 1 - size.leading_zeros() as usize;
    (log, (size >> (log - 3)) & 7)
}

/// Block sizes worth testing: every one up to 1 MiB, and those around each power of two.
fn sizes() -> impl Iterator<Item = usize> {
    let edges = (5..32).flat_map(|b| [(1usize << b) - 16, 1 << b, (1 << b) + 16]);
    (1..65_536).map(|u| u * 16).chain(edges).chain([u32::MAX as usize & !15])
}

#[test]
fn size_classes_are_tlsf_classes() {
    for size in sizes() {
        if size >= 1024 {
            assert_eq!(bin_of_size(size), bin_of_size_int(size), "float and integer class of {size}");
        }
        assert!(bin_of_size(size) < BINS, "class of {size}");
        assert_eq!(bin_of_block(size), bin_of_size(size), "branch-free class of {size}");
        // The same partition as the plain one, in the same order, without gaps above 16.
        let (a, b) = (size, size + 16);
        if reference_class(a) == reference_class(b) {
            assert_eq!(bin_of_size(a), bin_of_size(b), "class boundary at {b}");
        } else {
            assert_eq!(bin_of_size(a) + 1, bin_of_size(b), "class boundary at {b}");
        }
    }
    // Sizes no block has land at or above `BINS` (no search may find a block for them),
    // whichever way they are worked out.
    #[cfg(target_pointer_width = "64")]
    for huge in [1 << 36, 1 << 53, (1 << 53) + 16, 1 << 62, isize::MAX as usize, usize::MAX - 15] {
        assert!(bin_of_size(huge) >= BINS, "class of {huge}");
        assert!(bin_at_least(huge) >= BINS, "class at least {huge}");
    }
}

#[test]
fn requests_find_blocks_large_enough() {
    for need in sizes().filter(|&s| s >= MIN_BLOCK) {
        let a = bin_at_least(need);
        // The request's own class when all its blocks fit, else the next one...
        let own = bin_of_size(need);
        assert_eq!(a, if bin_of_size(need - 16) < own { own } else { own + 1 }, "need {need}");
        // ...and every block in that class or above is large enough.
        for v in (need.saturating_sub(320).max(16)..need + 320).step_by(16) {
            if bin_of_size(v) >= a {
                assert!(v >= need, "need {need}, block {v}");
            }
        }
    }
}

#[test]
fn the_largest_layouts_are_out_of_memory() {
    for policy in Policy::ALL {
        let mut region = vec![0u8; 4096];
        let mut heap = Heap::new(&mut region, policy).unwrap();
        let a = heap.alloc(l(100, 8)).unwrap();
        for align in [8, 16, 4096, 1 << 40] {
            let size = isize::MAX as usize + 1 - align;
            let layout = l(size, align);
            assert_eq!(heap.alloc(layout), Err(Error::OutOfMemory { size, align }), "{policy:?}");
            assert_eq!(heap.realloc(a, layout), Err(Error::OutOfMemory { size, align }), "{policy:?}");
            let big = l(heap.capacity(), align);
            assert!(matches!(heap.alloc(big), Err(Error::OutOfMemory { .. })), "{policy:?}");
        }
        heap.free(a).unwrap();
        heap.check().unwrap();
    }
}

#[test]
fn region_limits() {
    let mut small = [0u8; 40];
    assert!(matches!(Heap::new(&mut small, Policy::FirstFit), Err(Error::BadRegion(40))));
}

#[test]
fn every_policy_splits_and_coalesces() {
    for policy in Policy::ALL {
        let mut region = vec![0u8; 4096];
        let mut heap = Heap::new(&mut region, policy).unwrap();
        let ptrs: Vec<_> = (0..10).map(|i| heap.alloc(l(20 + i * 8, 8)).unwrap()).collect();
        heap.check().unwrap();
        for p in ptrs.iter().step_by(2) {
            heap.free(*p).unwrap();
        }
        heap.check().unwrap();
        assert_eq!(heap.stats().free_blocks, 6, "{policy:?}");
        for p in ptrs.iter().skip(1).step_by(2) {
            heap.free(*p).unwrap();
        }
        heap.check().unwrap();
        let s = heap.stats();
        assert_eq!((s.free_blocks, s.used, s.free), (1, 0, heap.capacity()));
    }
}

#[test]
fn best_fit_takes_the_smallest_hole() {
    let mut region = vec![0u8; 4096];
    let mut heap = Heap::new(&mut region, Policy::BestFit).unwrap();
    let big = heap.alloc(l(200, 8)).unwrap();
    let _sep1 = heap.alloc(l(8, 8)).unwrap();
    let small = heap.alloc(l(40, 8)).unwrap();
    let _sep2 = heap.alloc(l(8, 8)).unwrap();
    heap.free(big).unwrap();
    heap.free(small).unwrap();
    assert_eq!(heap.alloc(l(40, 8)).unwrap(), small);
}

#[test]
fn misuse_is_reported() {
    let mut region = vec![0u8; 1024];
    let mut other = vec![0u8; 64];
    let mut heap = Heap::new(&mut region, Policy::GoodFit).unwrap();
    let a = heap.alloc(l(64, 8)).unwrap();
    let _b = heap.alloc(l(64, 8)).unwrap();
    // SAFETY: `a` holds 64 bytes. (Written first: with `sanitize`, never-written bytes
    // still hold the poison pattern and an interior pointer there reads as freed.)
    unsafe { a.as_ptr().write_bytes(0, 64) };
    // SAFETY: pointer arithmetic inside the live block `a`.
    let inner = unsafe { NonNull::new_unchecked(a.as_ptr().add(16)) };
    assert_eq!(heap.free(inner), Err(Error::ForeignPointer));
    assert_eq!(heap.free(NonNull::new(other.as_mut_ptr()).unwrap()), Err(Error::ForeignPointer));
    // Just below the first payload, and at the end of the managed area (where the next
    // payload would be): both outside, neither may be read as a header.
    let base = heap.base().cast_mut();
    let cap = heap.capacity();
    for p in [base, base.wrapping_add(cap), base.wrapping_add(cap + HEADER)] {
        assert_eq!(heap.free(NonNull::new(p).unwrap()), Err(Error::ForeignPointer));
    }
    heap.free(a).unwrap();
    assert_eq!(heap.free(a), Err(Error::DoubleFree));
    heap.check().unwrap();
}

#[test]
fn realloc_grows_in_place_into_a_free_neighbour() {
    let mut region = vec![0u8; 4096];
    let mut heap = Heap::new(&mut region, Policy::FirstFit).unwrap();
    let a = heap.alloc(l(32, 8)).unwrap();
    // SAFETY: `a` holds 32 bytes.
    unsafe { a.as_ptr().write_bytes(7, 32) };
    let b = heap.realloc(a, l(500, 8)).unwrap();
    assert_eq!(a, b);
    // SAFETY: `b` holds 500 bytes, the first 32 kept.
    assert!(unsafe { core::slice::from_raw_parts(b.as_ptr(), 32) }.iter().all(|&x| x == 7));
    let b = heap.realloc(b, l(16, 8)).unwrap();
    assert_eq!(a, b);
    heap.check().unwrap();
    assert_eq!(heap.stats().used, 32);
}

/// With `sanitize`, freed payload bytes hold the poison pattern and (under ASan) are marked
/// unaddressable; handing them out again clears the mark.
#[cfg(feature = "sanitize")]
#[test]
fn freed_blocks_are_poisoned() {
    let mut region = vec![0u8; 4096];
    let mut heap = Heap::new(&mut region, Policy::GoodFit).unwrap();
    let a = heap.alloc(l(200, 8)).unwrap();
    let _guard = heap.alloc(l(16, 8)).unwrap();
    heap.free(a).unwrap();
    // SAFETY: the offset lies inside the freed block, past its links.
    let inside = unsafe { a.as_ptr().add(64) };
    if cfg!(lore_asan) {
        assert!(crate::poison::is_poisoned(inside), "ASan knows the block is free");
    } else {
        // SAFETY: the region is plain memory owned by this test (no ASan in this build).
        assert_eq!(unsafe { inside.read() }, crate::POISON);
    }
    let b = heap.alloc(l(200, 8)).unwrap();
    assert_eq!(a, b);
    assert!(!crate::poison::is_poisoned(inside), "handed out again");
}

#[test]
fn large_alignment() {
    let mut region = vec![0u8; 1 << 14];
    let mut heap = Heap::new(&mut region, Policy::GoodFit).unwrap();
    for align in [32, 64, 256, 1024] {
        let p = heap.alloc(l(24, align)).unwrap();
        assert_eq!(p.as_ptr() as usize % align, 0);
        heap.check().unwrap();
    }
}

#[test]
fn fills_almost_all_of_the_region() {
    for policy in Policy::ALL {
        let mut region = vec![0u8; 1 << 16];
        let mut heap = Heap::new(&mut region, policy).unwrap();
        let mut n = 0;
        while heap.alloc(l(48, 8)).is_ok() {
            n += 1;
        }
        assert_eq!(n, heap.capacity() / 64, "{policy:?}");
    }
}

#[test]
fn free_sized_frees_as_free_does_whatever_the_layout_says() {
    for policy in Policy::ALL {
        let mut region = vec![0u8; 1 << 14];
        let mut heap = Heap::new(&mut region, policy).unwrap();
        // Neighbours free and used on either side, the right layout, a smaller and a larger
        // one (the layout is only a hint: the header decides).
        let blocks: Vec<_> = (0..12).map(|i| heap.alloc(l(24 + 40 * i, 8)).unwrap()).collect();
        for (i, &p) in blocks.iter().enumerate().filter(|(i, _)| i % 3 == 1) {
            heap.free_sized(p, l(24 + 40 * i, 8)).unwrap();
            heap.check().unwrap();
        }
        for (i, &p) in blocks.iter().enumerate().filter(|(i, _)| i % 3 != 1) {
            let hint = match i % 3 {
                0 => l(8, 8),
                _ => l(4000, 64),
            };
            heap.free_sized(p, hint).unwrap();
            heap.check().unwrap();
        }
        assert_eq!(heap.stats().free_blocks, 1, "{policy:?}");
        assert_eq!(heap.free_sized(blocks[0], l(24, 8)), Err(Error::DoubleFree), "{policy:?}");
        let foreign = NonNull::new(heap.base().cast_mut().wrapping_add(heap.capacity() + 64)).unwrap();
        assert_eq!(heap.free_sized(foreign, l(8, 8)), Err(Error::ForeignPointer), "{policy:?}");
    }
}

#[test]
fn realloc_sized_resizes_as_realloc_does() {
    for policy in Policy::ALL {
        let mut region = vec![0u8; 1 << 14];
        let mut heap = Heap::new(&mut region, policy).unwrap();
        let a = heap.alloc(l(100, 32)).unwrap();
        // SAFETY: `a` holds 100 bytes.
        unsafe { a.as_ptr().write_bytes(9, 100) };
        // Shrinking stays in place; growing keeps the contents and the alignment (in place
        // or not, depending on where the region puts the block).
        assert_eq!(heap.realloc_sized(a, l(100, 32), 40), Ok(a), "{policy:?}");
        let b = heap.realloc_sized(a, l(40, 32), 3000).unwrap();
        assert_eq!(b.as_ptr() as usize % 32, 0, "{policy:?}");
        // SAFETY: `b` holds 3000 bytes, the first 40 kept.
        assert!(unsafe { core::slice::from_raw_parts(b.as_ptr(), 40) }.iter().all(|&x| x == 9), "{policy:?}");
        heap.check().unwrap();
        // A size no layout can have is out of memory, as `realloc` reports a too large one;
        // the block is untouched.
        let huge = isize::MAX as usize;
        assert_eq!(heap.realloc_sized(b, l(3000, 32), huge), Err(Error::OutOfMemory { size: huge, align: 32 }));
        assert!(matches!(heap.realloc_sized(b, l(3000, 32), 1 << 20), Err(Error::OutOfMemory { .. })));
        // Misuse is reported as by `realloc`.
        let c = heap.alloc(l(64, 8)).unwrap();
        heap.free(c).unwrap();
        assert_eq!(heap.realloc_sized(c, l(64, 8), 8), Err(Error::DoubleFree), "{policy:?}");
        let foreign = NonNull::new(heap.base().cast_mut().wrapping_add(heap.capacity() + 64)).unwrap();
        assert_eq!(heap.realloc_sized(foreign, l(8, 8), 8), Err(Error::ForeignPointer), "{policy:?}");
        heap.free_sized(b, l(3000, 32)).unwrap();
        heap.check().unwrap();
    }
}

#[test]
fn the_list_policies_leave_the_bitmap_empty() {
    for policy in [Policy::FirstFit, Policy::NextFit, Policy::BestFit] {
        let mut region = vec![0u8; 1 << 14];
        let mut heap = Heap::new(&mut region, policy).unwrap();
        let ptrs: Vec<_> = (0..20).map(|i| heap.alloc(l(16 + 24 * i, 8)).unwrap()).collect();
        for p in ptrs.iter().step_by(2) {
            heap.free(*p).unwrap();
        }
        assert_eq!(heap.bitmap, [0; BINS / 64], "{policy:?}");
        // Requests still go through their own search (good fit's finds nothing).
        assert!(heap.alloc(l(40, 8)).is_ok(), "{policy:?}");
        heap.check().unwrap();
    }
}
