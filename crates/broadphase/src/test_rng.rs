//! Deterministic generators for the unit tests (no dependency).

/// A small xorshift generator for the tests (deterministic, no dependency): each call steps
/// the state and returns it.
pub(crate) fn xorshift(mut state: u64) -> impl FnMut() -> u64 {
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// Floats in `[0, 1)` from [`xorshift`] (its top 24 bits).
pub(crate) fn xorshift_unit(seed: u64) -> impl FnMut() -> f32 {
    let mut next = xorshift(seed);
    move || (next() >> 40) as f32 / (1u64 << 24) as f32
}
