//! Disjoint sets for Kruskal: `u32` parents, Rem's algorithm with splicing.
//!
//! A parent always has a larger id than its child, so a set's root is its largest element and
//! no ranks or sizes are stored. Rem's union climbs both paths at once, always moving the side
//! with the smaller parent, and splices each node it leaves onto the other side's larger parent,
//! which flattens the paths it walks. Measured comparisons of union-find variants (Patwary,
//! Blair and Manne, 2010) find it the fastest in practice.

/// How many edges ahead of a union its cells' parents are prefetched.
pub(crate) const PREFETCH_AHEAD: usize = 16;

/// A partition of `0..n` into disjoint sets.
#[derive(Clone, Debug)]
pub(crate) struct DisjointSets {
    /// `parent[v] >= v`; `parent[v] == v` for a root.
    parent: Vec<u32>,
}

impl DisjointSets {
    /// `n` singleton sets.
    pub(crate) fn new(n: usize) -> Self {
        Self { parent: (0..n as u32).collect() }
    }

    /// Asks the cache for `v`'s parent ahead of a union that will need it (no-op off x86-64): a
    /// random edge order misses the cache on nearly every first lookup.
    #[inline(always)]
    pub(crate) fn prefetch(&self, v: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            if let Some(p) = self.parent.get(v as usize) {
                // SAFETY: `_mm_prefetch` needs SSE, which every x86-64 CPU has; a prefetch is only
                // a hint to the cache (it never faults and changes no memory), and `p` is a valid
                // reference anyway.
                unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(p).cast()) };
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = v;
    }

    /// Joins the sets of `x` and `y`; false when they were one set already.
    #[inline]
    pub(crate) fn union(&mut self, mut x: u32, mut y: u32) -> bool {
        let parent = &mut self.parent;
        loop {
            let (px, py) = (parent[x as usize], parent[y as usize]);
            if px == py {
                return false;
            }
            if px < py {
                parent[x as usize] = py;
                if px == x {
                    return true;
                }
                x = px;
            } else {
                parent[y as usize] = px;
                if py == y {
                    return true;
                }
                y = py;
            }
        }
    }

    /// Points every element straight at its root. Parents are larger than their children, so one
    /// pass from the largest element down finds every parent already pointing at its root.
    pub(crate) fn flatten(&mut self) {
        for v in (0..self.parent.len()).rev() {
            let p = self.parent[v] as usize;
            self.parent[v] = self.parent[p];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_pcg::Pcg64Mcg;

    /// Against a plain labelling: after random unions, two elements share a root exactly when
    /// a brute-force relabelling puts them in one set.
    #[test]
    fn unions_match_brute_force() {
        let mut rng = Pcg64Mcg::seed_from_u64(4);
        for _ in 0..20 {
            let n = 60;
            let mut sets = DisjointSets::new(n);
            let mut label: Vec<usize> = (0..n).collect();
            for step in 0..80 {
                let (a, b) = (rng.random_range(0..n as u32), rng.random_range(0..n as u32));
                let (la, lb) = (label[a as usize], label[b as usize]);
                assert_eq!(sets.union(a, b), la != lb);
                for l in &mut label {
                    if *l == lb {
                        *l = la;
                    }
                }
                if step % 17 == 0 {
                    sets.flatten();
                    assert!((0..n).all(|v| sets.parent[sets.parent[v] as usize] == sets.parent[v]));
                }
                assert!((0..n).all(|v| sets.parent[v] as usize >= v));
            }
        }
    }
}
