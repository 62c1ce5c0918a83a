//! Kinds and the registry: pluggable factories that create things by kind name.
//!
//! A *kind* is a reflected type with a `Default` value, known by its short name. Kinds register
//! themselves from their own files, with no central list to edit ("pluggable factories"):
//!
//! - `#[derive(Reflect)] #[reflect(register)]`, or [`register_kind!`](crate::register_kind)
//!   for types you do not derive, submit the kind at link time (feature `inventory`), and
//!   [`Registry::linked`] collects every kind linked into the program;
//! - where link-time collection does not work (WebAssembly without constructor support, for
//!   one), [`Registry::register`] adds kinds one by one at start-up: the same registry, filled
//!   by hand.

use crate::error::{Error, excerpt};
use crate::info::{TypeInfo, fnv1a};
use crate::{Reflect, Typed};
use alloc::boxed::Box;
use alloc::vec::Vec;

/// A factory for one kind: its name, type info and constructor.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    info: &'static TypeInfo,
    create: fn() -> Box<dyn Reflect>,
}

fn create_default<T: Reflect + Default>() -> Box<dyn Reflect> {
    Box::new(T::default())
}

impl Kind {
    /// The kind of `T`, named by `T`'s type info (its short name or rename).
    #[must_use]
    pub const fn of<T: Reflect + Typed + Default>() -> Self {
        Self { info: T::INFO, create: create_default::<T> }
    }

    /// A kind from its parts: the name comes from `info`, values from `create`. For kinds
    /// made at run time (scripted kinds, tests); `Kind::of` is the usual way.
    #[must_use]
    pub const fn from_parts(info: &'static TypeInfo, create: fn() -> Box<dyn Reflect>) -> Self {
        Self { info, create }
    }

    /// The kind's name.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.info.name
    }

    /// The kind's type info.
    #[must_use]
    pub fn info(&self) -> &'static TypeInfo {
        self.info
    }

    /// A new default value of this kind.
    #[must_use]
    pub fn create(&self) -> Box<dyn Reflect> {
        (self.create)()
    }
}

/// The link-time registration record (`inventory`). Use `#[reflect(register)]` or
/// [`register_kind!`](crate::register_kind) rather than naming it.
#[doc(hidden)]
#[derive(Debug)]
pub struct Registration(pub Kind);

#[cfg(feature = "inventory")]
inventory::collect!(Registration);

/// Registers a type that implements `Reflect + Typed + Default` as a kind at link time, from
/// the file that defines it (feature `inventory`).
///
/// ```
/// use lore_reflect::{Reflect, Registry, register_kind};
///
/// #[derive(Reflect, Default)]
/// struct Lamp { power: f32 }
/// register_kind!(Lamp);
///
/// # fn main() -> Result<(), lore_reflect::Error> {
/// let registry = Registry::linked()?;
/// let lamp = registry.create("Lamp")?;
/// assert_eq!(lamp.type_info().name, "Lamp");
/// # Ok(()) }
/// ```
#[cfg(feature = "inventory")]
#[macro_export]
macro_rules! register_kind {
    ($t:ty) => {
        $crate::__private::inventory::submit! {
            $crate::__private::Registration($crate::__private::Kind::of::<$t>())
        }
    };
}

/// Kinds by name, with constant-time lookup.
///
/// Lookup hashes the name (FNV-1a) into an open-addressing table kept at most half full, then
/// compares one or two names: creating a thing by name among a thousand kinds costs a hash, a
/// probe and the allocation of the value.
#[derive(Clone, Debug, Default)]
pub struct Registry {
    kinds: Vec<Kind>,
    /// Indices into `kinds`, `u32::MAX` when empty; length a power of two.
    slots: Vec<u32>,
}

const EMPTY: u32 = u32::MAX;

impl Registry {
    /// An empty registry (fill it with [`register`](Self::register)).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Every kind registered at link time with `#[reflect(register)]` or
    /// [`register_kind!`](crate::register_kind) in any crate linked into the program.
    ///
    /// # Errors
    /// [`Error::DuplicateKind`] when two linked kinds share a name.
    #[cfg(feature = "inventory")]
    pub fn linked() -> Result<Self, Error> {
        let mut registry = Self::new();
        for Registration(kind) in inventory::iter::<Registration> {
            registry.register_kind(*kind)?;
        }
        Ok(registry)
    }

    /// Adds `T` as a kind (the fallback for targets without link-time registration).
    ///
    /// # Errors
    /// [`Error::DuplicateKind`] when a kind of that name is already registered.
    pub fn register<T: Reflect + Typed + Default>(&mut self) -> Result<(), Error> {
        self.register_kind(Kind::of::<T>())
    }

    /// Adds a kind.
    ///
    /// # Errors
    /// [`Error::DuplicateKind`] when a kind of that name is already registered.
    pub fn register_kind(&mut self, kind: Kind) -> Result<(), Error> {
        if self.kind(kind.name()).is_some() {
            return Err(Error::DuplicateKind(kind.name()));
        }
        self.kinds.push(kind);
        if self.kinds.len() * 2 > self.slots.len() {
            self.rebuild((self.kinds.len() * 2).next_power_of_two().max(8));
        } else {
            let index = self.kinds.len() - 1;
            self.insert_slot(index);
        }
        Ok(())
    }

    fn rebuild(&mut self, size: usize) {
        self.slots.clear();
        self.slots.resize(size, EMPTY);
        for index in 0..self.kinds.len() {
            self.insert_slot(index);
        }
    }

    fn insert_slot(&mut self, index: usize) {
        let mask = self.slots.len() - 1;
        let mut slot = fnv1a(self.kinds[index].name().as_bytes()) as usize & mask;
        while self.slots[slot] != EMPTY {
            slot = (slot + 1) & mask;
        }
        self.slots[slot] = index as u32;
    }

    /// The kind called `name`.
    #[inline]
    #[must_use]
    pub fn kind(&self, name: &str) -> Option<&Kind> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut slot = fnv1a(name.as_bytes()) as usize & mask;
        loop {
            let index = self.slots[slot];
            if index == EMPTY {
                return None;
            }
            let kind = &self.kinds[index as usize];
            if kind.name() == name {
                return Some(kind);
            }
            slot = (slot + 1) & mask;
        }
    }

    /// A new default value of the kind called `name`.
    ///
    /// # Errors
    /// [`Error::UnknownKind`] when no such kind is registered.
    #[inline]
    pub fn create(&self, name: &str) -> Result<Box<dyn Reflect>, Error> {
        self.kind(name).map(Kind::create).ok_or_else(|| Error::UnknownKind(excerpt(name)))
    }

    /// The kinds, sorted by name.
    #[must_use]
    pub fn kinds(&self) -> Vec<&Kind> {
        let mut kinds: Vec<&Kind> = self.kinds.iter().collect();
        kinds.sort_by_key(|k| k.name());
        kinds
    }

    /// The number of kinds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.kinds.len()
    }

    /// Whether no kind is registered.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.kinds.is_empty()
    }
}
