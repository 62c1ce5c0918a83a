//! The tree's storage: the node pool with its free list, the proxies' slots, the settings,
//! and the checks of its invariants.

use crate::error::Error;
use crate::pairs::PairSort;
use crate::par::{Spare, Threads};
use crate::slots::Slots;
use alloc::vec::Vec;
use lore_geom::Aabb;

pub(super) const NULL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    /// Fat box for leaves, the union of the children's boxes for internal nodes.
    pub(super) aabb: Aabb,
    /// Parent, or the next free node while on the free list.
    pub(super) parent: u32,
    pub(super) child1: u32,
    pub(super) child2: u32,
    /// 0 for leaves, -1 for free nodes.
    pub(super) height: i32,
    /// The proxy's slot, for leaves.
    pub(super) slot: u32,
}

impl Node {
    pub(super) fn is_leaf(&self) -> bool {
        self.child1 == NULL
    }
}

/// A dynamic AABB tree with fat leaves, incremental insertion with rotations, and a bulk build.
///
/// Best where boxes differ a lot in size, for static worlds (build once, query many times),
/// and for raycasts. A moving box costs nothing while it stays inside its fat box (its box grown
/// by [`Tree::margin`]); otherwise it is removed and reinserted.
#[derive(Clone, Debug)]
pub struct Tree {
    pub(super) slots: Slots,
    /// Leaf node of each slot.
    pub(super) leaf_of: Vec<u32>,
    pub(super) nodes: Vec<Node>,
    pub(super) free: u32,
    pub(super) root: u32,
    pub(super) margin: f32,
    pub(super) stack: Vec<u32>,
    pub(super) found: Vec<u32>,
    pub(super) pair_stack: Vec<(u32, u32)>,
    /// The ray walk's stack: nodes with the ray's entry into their box.
    pub(super) ray_stack: Vec<(u32, f32)>,
    pub(super) packed: Vec<u64>,
    /// Sorts `pairs`' keys into id pairs.
    pub(super) pair_sort: PairSort,
    /// Internal nodes on a path from a refitted leaf to the root, waiting for [`Tree::refit`].
    pub(super) marked: Vec<bool>,
    /// Leaves that left their fat box since the last refit (reinserted or refitted).
    pub(super) moved: usize,
    /// Reinsert while `moved <= reinsert_share * len`, refit in place beyond.
    pub(super) reinsert_share: f32,
    /// The SAH cost after the last bulk build, compared with before deciding on a rebuild
    /// (`None` for a tree grown by insertions since).
    pub(super) baseline_cost: Option<f32>,
    /// Nodes in refit order (scratch).
    pub(super) order: Vec<u32>,
    /// Rebuilds started by [`Tree::refit`] because the cost had climbed too far.
    pub(super) auto_rebuilds: u64,
    /// Nodes refitted since the cost was last checked: the O(nodes) check runs once this
    /// reaches a quarter of the nodes, so small refits do not pay for a whole-tree scan.
    pub(super) refitted_since_check: usize,
    /// How many threads `pairs` may use.
    pub(super) threads: Threads,
    /// The keys of `pairs`' parts on several threads, by part and slot range (kept for reuse).
    pub(super) part_keys: Vec<Vec<u64>>,
    /// The stacks of `pairs`' parts on several threads (kept for reuse).
    pub(super) part_stacks: Vec<Vec<(u32, u32)>>,
    /// The job list and the key slices of `pairs` on several threads (kept for reuse).
    pub(super) searches: Spare,
    pub(super) key_slices: Spare,
}

impl Default for Tree {
    fn default() -> Self {
        Self::new()
    }
}

impl Tree {
    /// A refitted tree whose [`Tree::sah_cost`] exceeds this multiple of its cost after the last
    /// bulk build is rebuilt by [`Tree::rebuild`] (a tree grown by insertions is bulk-built at
    /// its first cost check).
    pub const REBUILD_FACTOR: f32 = 1.3;

    /// An empty tree with a fat margin of 0.1 world units.
    #[must_use]
    pub fn new() -> Self {
        Self {
            slots: Slots::default(),
            leaf_of: Vec::new(),
            nodes: Vec::new(),
            free: NULL,
            root: NULL,
            margin: 0.1,
            stack: Vec::new(),
            found: Vec::new(),
            pair_stack: Vec::new(),
            ray_stack: Vec::new(),
            packed: Vec::new(),
            pair_sort: PairSort::default(),
            marked: Vec::new(),
            moved: 0,
            reinsert_share: 0.0,
            baseline_cost: None,
            order: Vec::new(),
            auto_rebuilds: 0,
            refitted_since_check: 0,
            threads: Threads::default(),
            part_keys: Vec::new(),
            part_stacks: Vec::new(),
            searches: Spare::new(),
            key_slices: Spare::new(),
        }
    }

    /// An empty tree whose leaves are fattened by `margin` (0 for static worlds).
    ///
    /// # Errors
    /// [`Error::NonFinite`] or [`Error::BadConfig`] for a margin that is not finite and `>= 0`.
    pub fn with_margin(margin: f32) -> Result<Self, Error> {
        if !margin.is_finite() {
            return Err(Error::NonFinite);
        }
        if margin < 0.0 {
            return Err(Error::BadConfig("tree margin must be >= 0"));
        }
        Ok(Self { margin, ..Self::new() })
    }

    /// How far a leaf's fat box reaches past the proxy's box.
    #[must_use]
    pub fn margin(&self) -> f32 {
        self.margin
    }

    /// How many of the leaves that leave their fat boxes between two queries are reinserted
    /// (searched a new place in the tree by the surface-area heuristic) before the rest are
    /// refitted in place: while at most `share × len()` leaves have moved since the last query
    /// or [`Tree::refit`], [`SpatialIndex::update`](crate::SpatialIndex::update) reinserts; beyond that it refits. Whatever
    /// the share, a box whose new box does not touch its old fat box (a jump, a teleport) is
    /// reinserted, since refitting would stretch its ancestors across the distance.
    ///
    /// - default `0.0`: refit every leaf that moved continuously (cheapest: one refit pass per
    ///   frame; the tree's shape follows the boxes through local rotations and, when its cost
    ///   has climbed by [`Tree::REBUILD_FACTOR`], a bulk rebuild);
    /// - `1.0`: always reinsert (each update costs a walk down and up the tree; the tree never
    ///   rebuilds itself);
    /// - in between: the first movers of each frame are reinserted. Measured on 1k boxes all
    ///   moving, reinsertion cost more and gave a worse tree than refitting (SAH insertion
    ///   builds trees about 1.4× the bulk build's cost), so the default does not.
    ///
    /// # Errors
    /// [`Error::NonFinite`] for NaN, [`Error::BadConfig`] outside `0.0..=1.0`.
    pub fn set_reinsert_share(&mut self, share: f32) -> Result<(), Error> {
        if share.is_nan() {
            return Err(Error::NonFinite);
        }
        if !(0.0..=1.0).contains(&share) {
            return Err(Error::BadConfig("tree reinsert share must be in 0..=1"));
        }
        self.reinsert_share = share;
        Ok(())
    }

    /// The share set by [`Tree::set_reinsert_share`].
    #[must_use]
    pub fn reinsert_share(&self) -> f32 {
        self.reinsert_share
    }

    /// The tree's surface-area cost: the sum of the half-perimeters of its internal nodes
    /// divided by the root's (0 for fewer than two leaves). A box query or a pair search visits
    /// nodes roughly in proportion to it, so it measures the tree's quality: lower is better.
    /// O(nodes).
    #[must_use]
    pub fn sah_cost(&self) -> f32 {
        if self.root == NULL || self.nodes[self.root as usize].is_leaf() {
            return 0.0;
        }
        let sum: f64 = self.nodes.iter().filter(|n| n.height > 0).map(|n| f64::from(n.aabb.half_perimeter())).sum();
        let root = f64::from(self.nodes[self.root as usize].aabb.half_perimeter());
        if root > 0.0 { (sum / root) as f32 } else { 0.0 }
    }

    /// How many times [`Tree::refit`] has rebuilt the tree because its cost had climbed past
    /// [`Tree::REBUILD_FACTOR`] times the reference (for tuning; never reset).
    #[must_use]
    pub fn auto_rebuilds(&self) -> u64 {
        self.auto_rebuilds
    }

    /// Height of the tree (0 for a single leaf, -1 when empty).
    #[must_use]
    pub fn height(&self) -> i32 {
        if self.root == NULL { -1 } else { self.nodes[self.root as usize].height }
    }

    /// Number of nodes in use (leaves and internal nodes).
    #[must_use]
    pub fn node_count(&self) -> usize {
        if self.slots.len() == 0 { 0 } else { 2 * self.slots.len() - 1 }
    }

    pub(super) fn alloc_node(&mut self, node: Node) -> u32 {
        if self.free != NULL {
            debug_assert!(!self.marked[self.free as usize]);
            let i = self.free;
            self.free = self.nodes[i as usize].parent;
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            self.marked.push(false);
            (self.nodes.len() - 1) as u32
        }
    }

    pub(super) fn free_node(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.parent = self.free;
        n.height = -1;
        n.child1 = NULL;
        n.child2 = NULL;
        self.free = i;
    }

    /// Recomputes the box and height of internal node `i` from its children.
    pub(super) fn refit_node(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (a, b) = (&self.nodes[n.child1 as usize], &self.nodes[n.child2 as usize]);
        let (aabb, height) = (a.aabb.union(&b.aabb), 1 + a.height.max(b.height));
        let n = &mut self.nodes[i as usize];
        n.aabb = aabb;
        n.height = height;
    }

    /// Points `parent`'s link that went to `old` at `new` (or the root when `parent` is null).
    pub(super) fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = new;
        } else if self.nodes[parent as usize].child1 == old {
            self.nodes[parent as usize].child1 = new;
        } else {
            self.nodes[parent as usize].child2 = new;
        }
    }

    /// Checks the tree's invariants: parent links, heights, every node's box enclosing its
    /// children's, every leaf's fat box enclosing its proxy's box, every live proxy in exactly
    /// one leaf. Meant for tests.
    ///
    /// # Errors
    /// A sentence naming the first broken invariant.
    pub fn validate(&self) -> Result<(), &'static str> {
        if self.root == NULL {
            return if self.slots.len() == 0 { Ok(()) } else { Err("empty tree with live proxies") };
        }
        if self.nodes[self.root as usize].parent != NULL {
            return Err("root has a parent");
        }
        let mut leaves = 0usize;
        let mut stack = alloc::vec![self.root];
        while let Some(i) = stack.pop() {
            let n = self.nodes[i as usize];
            if n.height < 0 {
                return Err("free node in the tree");
            }
            if n.is_leaf() {
                leaves += 1;
                if n.height != 0 || n.child2 != NULL {
                    return Err("leaf with a height or a child");
                }
                if !self.slots.is_live(n.slot) || self.leaf_of[n.slot as usize] != i {
                    return Err("leaf of a dead proxy or wrong leaf link");
                }
                if !n.aabb.contains_aabb(&self.slots.aabbs[n.slot as usize]) {
                    return Err("fat box does not hold the proxy's box");
                }
                continue;
            }
            let (a, b) = (self.nodes[n.child1 as usize], self.nodes[n.child2 as usize]);
            if a.parent != i || b.parent != i {
                return Err("child's parent link is wrong");
            }
            if n.height != 1 + a.height.max(b.height) {
                return Err("height is not 1 + the taller child's");
            }
            if !n.aabb.contains_aabb(&a.aabb) || !n.aabb.contains_aabb(&b.aabb) {
                return Err("node box does not hold a child's box");
            }
            stack.push(n.child1);
            stack.push(n.child2);
        }
        if leaves != self.slots.len() { Err("leaf count differs from the proxy count") } else { Ok(()) }
    }
}
