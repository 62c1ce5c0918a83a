//! Storage addressed by generational handles: [`HandleArray`] (sparse: fastest `get`),
//! [`DenseHandleArray`] (values packed in one `Vec`: fastest iteration) and [`SecondaryMap`]
//! (more values for the keys of another array).
//!
//! A [`Handle`] is an index plus the slot's generation when the value went in. Removing a value
//! bumps the slot's generation, so an old handle no longer matches even after the slot is
//! reused (the ABA problem of plain indices). Generations are odd while a slot is occupied and
//! even while it is free; after 2^31 reuses of one slot a generation comes back, which is the
//! only way a stale handle can match again.
//!
//! Each array is keyed by a [`Key`]: [`Handle`] itself by default, or a type of your own made
//! with [`new_key_type!`](crate::new_key_type), so that an enemy's key cannot be used on the
//! bullets by mistake:
//!
//! ```
//! use lore_allocators::{HandleArray, SecondaryMap, new_key_type};
//!
//! new_key_type! {
//!     /// Names an enemy.
//!     pub struct EnemyKey;
//!     /// Names a bullet.
//!     pub struct BulletKey;
//! }
//!
//! let mut enemies: HandleArray<&str, EnemyKey> = HandleArray::with_key();
//! let mut bullets: HandleArray<f32, BulletKey> = HandleArray::with_key();
//! let orc: EnemyKey = enemies.insert("orc");
//! let shot: BulletKey = bullets.insert(2.5);
//! // bullets.get(orc) does not compile: the key types differ.
//! assert_eq!(enemies[orc], "orc");
//! assert_eq!(bullets[shot], 2.5);
//!
//! // Health for the same enemies, stored beside the array.
//! let mut health: SecondaryMap<u32, EnemyKey> = SecondaryMap::new();
//! health.insert(orc, 30)?;
//! assert_eq!(health.get(orc), Some(&30));
//! # Ok::<(), lore_allocators::Error>(())
//! ```

use core::num::NonZeroU32;

use crate::error::{Error, Result};

mod dense;
mod secondary;
mod sparse;
#[cfg(test)]
mod tests;

pub use dense::DenseHandleArray;
pub use secondary::SecondaryMap;
pub use sparse::HandleArray;

/// An 8-byte key into a [`HandleArray`] or [`DenseHandleArray`]; `Option<Handle>` is 8 bytes
/// too.
///
/// Handles are plain data: they can be copied, compared, hashed and packed into a `u64`
/// ([`Handle::to_bits`]) for storage outside Rust. A handle from one array used on another is
/// usually reported as stale but may match a live value there: keep one array per kind, or
/// give each kind its own key type with [`new_key_type!`](crate::new_key_type).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "crate::serde_impls::HandleRecord", try_from = "crate::serde_impls::HandleRecord")
)]
pub struct Handle {
    index: u32,
    generation: NonZeroU32,
}

impl core::fmt::Debug for Handle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{}v{}", self.index, self.generation)
    }
}

impl Handle {
    /// The handle of slot `index` holding generation `generation` (odd, hence non-zero).
    #[inline]
    pub(crate) fn new(index: u32, generation: u32) -> Self {
        debug_assert!(generation % 2 == 1, "live generations are odd");
        Self { index, generation: NonZeroU32::new(generation).expect("odd generations are non-zero") }
    }

    /// The slot index.
    #[must_use]
    pub fn index(self) -> u32 {
        self.index
    }

    /// The slot generation (always odd).
    #[must_use]
    pub fn generation(self) -> u32 {
        self.generation.get()
    }

    /// Packs the handle into a `u64` (generation high, index low).
    #[must_use]
    pub fn to_bits(self) -> u64 {
        (u64::from(self.generation.get()) << 32) | u64::from(self.index)
    }

    /// Unpacks [`Handle::to_bits`]; `None` for a value no array ever makes (an even or zero
    /// generation).
    #[must_use]
    pub fn from_bits(bits: u64) -> Option<Self> {
        let generation = (bits >> 32) as u32;
        if generation.is_multiple_of(2) {
            return None;
        }
        Some(Self { index: bits as u32, generation: NonZeroU32::new(generation)? })
    }
}

/// The key type of a handle array: a [`Handle`] or a newtype around one.
///
/// Make one with [`new_key_type!`](crate::new_key_type) (as slotmap's `new_key_type!` does);
/// implement it by hand only for a `#[repr(transparent)]` newtype of [`Handle`] whose
/// conversions are the identity.
pub trait Key: Copy + Eq + Ord + core::hash::Hash + core::fmt::Debug {
    /// The key that wraps `handle`.
    fn from_handle(handle: Handle) -> Self;
    /// The handle inside the key.
    fn handle(self) -> Handle;
}

impl Key for Handle {
    #[inline]
    fn from_handle(handle: Handle) -> Self {
        handle
    }
    #[inline]
    fn handle(self) -> Handle {
        self
    }
}

/// Declares key types for [`HandleArray`], [`DenseHandleArray`] and [`SecondaryMap`]: each is a
/// `#[repr(transparent)]` newtype of [`Handle`] that implements [`Key`], `Copy`, `Eq`, `Ord`,
/// `Hash`, `Debug` and the conversions from and to `Handle`.
///
/// ```
/// lore_allocators::new_key_type! {
///     /// Names a scene node.
///     pub struct NodeKey;
///     struct PrivateKey;
/// }
/// let mut nodes = lore_allocators::HandleArray::<&str, NodeKey>::with_key();
/// let root = nodes.insert("root");
/// let handle: lore_allocators::Handle = root.into();
/// assert_eq!(NodeKey::from(handle), root);
/// ```
#[macro_export]
macro_rules! new_key_type {
    ( $(#[$outer:meta])* $vis:vis struct $name:ident; $($rest:tt)* ) => {
        $(#[$outer])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
        #[repr(transparent)]
        $vis struct $name($crate::Handle);

        impl $crate::Key for $name {
            #[inline]
            fn from_handle(handle: $crate::Handle) -> Self {
                Self(handle)
            }
            #[inline]
            fn handle(self) -> $crate::Handle {
                self.0
            }
        }

        impl ::core::convert::From<$crate::Handle> for $name {
            #[inline]
            fn from(handle: $crate::Handle) -> Self {
                Self(handle)
            }
        }

        impl ::core::convert::From<$name> for $crate::Handle {
            #[inline]
            fn from(key: $name) -> Self {
                key.0
            }
        }

        $crate::new_key_type!($($rest)*);
    };
    () => {};
}

const NO_FREE: u32 = u32::MAX;

/// The most slots an array holds: every `u32` but the free-list end mark. (Unit tests use a
/// small limit so that a full array can be reached.)
#[cfg(not(test))]
const MAX_SLOTS: u32 = NO_FREE;
#[cfg(test)]
const MAX_SLOTS: u32 = 1000;

/// The index the next new slot gets, or [`Error::Full`].
#[inline]
fn next_index(len: usize) -> Result<u32> {
    u32::try_from(len).ok().filter(|&i| i < MAX_SLOTS).ok_or(Error::Full { limit: MAX_SLOTS as usize })
}

/// Checks the handles of a disjoint access: each names a live value (`position` maps it to
/// its place, or `None` when stale) and no two name the same one. Returns the places.
fn disjoint_positions<K: Key, const N: usize>(
    keys: &[K; N],
    mut position: impl FnMut(Handle) -> Option<usize>,
) -> Result<[usize; N]> {
    let mut places = [0usize; N];
    for (i, key) in keys.iter().enumerate() {
        let handle = key.handle();
        places[i] = position(handle).ok_or(Error::StaleHandle)?;
        if let Some(first) = keys[..i].iter().position(|k| k.handle().index == handle.index) {
            return Err(Error::AliasedHandles { first, second: i });
        }
    }
    Ok(places)
}
