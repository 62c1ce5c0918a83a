//! Allocators for games, each checked against a model and under valgrind and AddressSanitizer.
//!
//! | type | lifetime pattern it fits | free | cost |
//! | --- | --- | --- | --- |
//! | [`Stack`] | per frame / per level scratch, nested scopes | rewind to a [`Marker`] (LIFO) | a pointer bump |
//! | [`Heap`] / [`LockedHeap`] | mixed sizes and lifetimes in a fixed region (consoles, `no_std`, a budget) | any order, coalescing | O(1) with [`Policy::GoodFit`] |
//! | [`Pool`] / [`SizeClasses`] | many objects of one size (or a few sizes) created and destroyed all the time | any order | a free-list pop / push |
//! | [`HandleArray`] / [`DenseHandleArray`] (+ [`SecondaryMap`], typed keys from [`new_key_type!`]) | entities referring to each other without references | by handle, stale handles detected | an index and a compare |
//! | [`tracking::TrackingAlloc`] | finding leaks and measuring allocation volume | — | counters per thread |
//!
//! Every allocator except the handle arrays implements [`allocator_api2::alloc::Allocator`] (so
//! `allocator_api2::vec::Vec` and hashbrown can live in it); the locked heap and the size
//! classes also implement [`GlobalAlloc`](core::alloc::GlobalAlloc). Misuse a safe method can
//! see (double free, a pointer from elsewhere, a stale handle, a marker from another stack, out
//! of memory) is an [`Error`], never a panic or corruption.
//!
//! ```
//! use lore_allocators::{Heap, Policy, Stack, HandleArray};
//! use core::alloc::Layout;
//!
//! // Scratch memory for one frame.
//! let mut frame = Stack::new(64 * 1024)?;
//! let start = frame.marker();
//! let path = frame.alloc_slice_copy(&[1u16, 4, 9, 16])?;
//! assert_eq!(path.len(), 4);
//! frame.rewind(start)?;
//!
//! // A fixed budget for mixed sizes.
//! let mut region = vec![0u8; 1 << 16];
//! let mut heap = Heap::new(&mut region, Policy::GoodFit)?;
//! let block = heap.alloc(Layout::from_size_align(300, 16)?)?;
//! heap.free(block)?;
//! heap.check()?;
//!
//! // Entities by handle.
//! let mut things = HandleArray::new();
//! let h = things.insert("lamp");
//! assert_eq!(things.get(h), Some(&"lamp"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Features
//! - `std` (default): per-thread counters in the tracking allocator and `std::error::Error`.
//!   Without it the crate is `no_std` + `alloc`.
//! - `allocator-api2-02` (default): the allocators also implement the `Allocator` trait of
//!   allocator-api2 0.2, which is the one hashbrown takes, so `hashbrown::HashMap::new_in(&heap)`
//!   works.
//! - `sanitize`: freed bytes are filled with [`POISON`] and, in builds with
//!   `-Zsanitizer=address`, marked unaddressable for AddressSanitizer, so a use-after-free
//!   inside a region is caught.
//! - `serde`: `Serialize` / `Deserialize` for [`Handle`] as `{ index, generation }` (`no_std`
//!   too); a generation no array issues (even) is refused when read. The arrays themselves are
//!   not serialised: save the values with their handles and rebuild.
#![cfg_attr(docsrs, feature(doc_cfg))]
#![cfg_attr(not(feature = "std"), no_std)]
#![deny(missing_docs)]

extern crate alloc;

#[cfg(feature = "allocator-api2-02")]
mod api02;
mod error;
pub mod handle;
pub mod heap;
mod poison;
pub mod pool;
#[cfg(feature = "serde")]
mod serde_impls;
pub mod stack;
pub mod sync;
pub mod trace;
pub mod tracking;

pub use error::{Error, Result};
pub use handle::{DenseHandleArray, Handle, HandleArray, Key, SecondaryMap};
pub use heap::{BlockInfo, Heap, HeapStats, LockedHeap, Policy};
pub use poison::POISON;
pub use pool::{LockedPool, LockedSizeClasses, Pool, SizeClasses};
pub use stack::{Marker, Stack};

/// The guide's examples (docs/allocators.md), run as doc tests.
#[cfg(all(doctest, feature = "std"))]
#[doc = include_str!("../../../docs/allocators.md")]
struct GuideDoctests;

/// The README's examples, compiled and run as doctests so they cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
