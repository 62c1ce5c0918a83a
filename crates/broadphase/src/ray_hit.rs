//! One ray hit: what the raycasts return. The box and the ray themselves are
//! [`lore_geom`]'s, re-exported at the crate root (their tests live there).

use crate::id::ProxyId;

/// One ray hit: which proxy, and the `t` where the ray enters its box.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RayHit {
    /// The proxy hit.
    pub id: ProxyId,
    /// Entry parameter, `0` when the ray starts inside the box.
    pub t: f32,
}

impl RayHit {
    /// Whether `self` comes before `other` in hit order: smaller `t`, ties to the smaller id.
    #[must_use]
    pub fn before(&self, other: &RayHit) -> bool {
        (self.t, self.id) < (other.t, other.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The box and ray tests live with the types, in lore-geom (`aabb.rs`, `ray.rs`).
    #[test]
    fn hits_order_by_t_then_id() {
        let (a, b) = (ProxyId::new(1, 0), ProxyId::new(2, 0));
        assert!(RayHit { id: b, t: 0.5 }.before(&RayHit { id: a, t: 0.75 }));
        assert!(RayHit { id: a, t: 0.5 }.before(&RayHit { id: b, t: 0.5 }));
        assert!(!RayHit { id: b, t: 0.5 }.before(&RayHit { id: a, t: 0.5 }));
    }
}
