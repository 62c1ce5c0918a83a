//! The locked allocators shared by several threads: every block stays intact while its thread
//! holds it, and everything is given back at the end.

use core::alloc::Layout;

use allocator_api2::alloc::Allocator;
use lore_allocators::{Heap, LockedHeap, LockedPool, LockedSizeClasses, Policy, Pool};

fn hammer<A: Allocator + Sync>(alloc: &A, sizes: &[usize]) {
    std::thread::scope(|s| {
        for t in 0..4u8 {
            s.spawn(move || {
                let mut held = Vec::new();
                for round in 0..300usize {
                    let size = sizes[(round * 7 + usize::from(t)) % sizes.len()];
                    let layout = Layout::from_size_align(size, 8).unwrap();
                    let p = alloc.allocate(layout).expect("room for every thread").cast::<u8>();
                    // SAFETY: `p` holds `size` bytes owned by this thread.
                    unsafe { p.as_ptr().write_bytes(t, size) };
                    held.push((p, layout));
                    if round % 3 == 2 {
                        let (p, layout) = held.swap_remove(round % held.len());
                        // SAFETY: as above.
                        let bytes = unsafe { core::slice::from_raw_parts(p.as_ptr(), layout.size()) };
                        assert!(bytes.iter().all(|&b| b == t), "another thread wrote into our block");
                        // SAFETY: allocated above with `layout`, freed once.
                        unsafe { alloc.deallocate(p, layout) };
                    }
                }
                for (p, layout) in held {
                    // SAFETY: as above.
                    unsafe { alloc.deallocate(p, layout) };
                }
            });
        }
    });
}

#[test]
fn locked_heap() {
    let mut region = vec![0u8; 1 << 20];
    let heap = LockedHeap::new(Heap::new(&mut region, Policy::GoodFit).unwrap());
    hammer(&heap, &[8, 24, 100, 700, 64, 3000]);
    let h = heap.lock();
    h.check().unwrap();
    assert_eq!(h.stats().used_blocks, 0);
    assert_eq!(h.stats().free_blocks, 1);
}

#[test]
fn locked_pool() {
    let pool = LockedPool::new(Pool::new(Layout::from_size_align(48, 8).unwrap()).unwrap());
    hammer(&pool, &[48, 16, 40]);
    assert_eq!(pool.lock().live(), 0);
    assert_eq!(pool.lock().pages(), 1);
}

#[test]
fn locked_size_classes() {
    let small = LockedSizeClasses::new();
    hammer(&small, &[1, 16, 33, 500, 4096, 9000]);
    assert!(small.lock().pages().iter().all(|&p| p <= 1), "empty pages went back");
}
