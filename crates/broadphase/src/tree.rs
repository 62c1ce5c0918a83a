//! Dynamic AABB tree: a binary tree of boxes, each internal node's box enclosing its
//! children's, leaves holding the proxies.
//!
//! The layout follows the classic dynamic tree (Box2D's `b2DynamicTree`): a node pool with a
//! free list threaded through it, leaves stored with a *fat* box (the proxy's box grown by a
//! margin) so a box that moves a little stays inside its fat box and the tree does not change
//! at all, insertion that walks down choosing the sibling by the surface-area heuristic, and
//! AVL-style rotations on the way back up that keep the tree balanced. A bulk build
//! ([`Tree::rebuild`]) makes a fresh, well-shaped tree from all current boxes at once.
//!
//! When many leaves leave their fat boxes between two queries (every box moving every frame),
//! reinserting each one would cost a walk down and up the tree per leaf. Past a share of the
//! leaves ([`Tree::set_reinsert_share`]) the tree switches to refitting in place: a moved leaf
//! takes its new fat box and grows its ancestors just enough to hold it (so the tree stays valid
//! at every moment) and marks the path to the root. The next query (or [`Tree::refit`]) then
//! walks the marked nodes once, children before parents, shrinks each to the union of its
//! children, and tries the four local rotations of Kopta et al. (2012, "Fast, effective BVH
//! updates for animated scenes") that swap a child with a grandchild when that makes the
//! node's children smaller. If the tree's surface-area cost ([`Tree::sah_cost`]) still climbs
//! past [`Tree::REBUILD_FACTOR`] times its value after the last bulk build, the tree is rebuilt.

use crate::pairs::{Order, PairSort};
use crate::proxy::Slots;
use crate::{Aabb, Error, ProxyId, QueryStats, Ray, RayHit, SpatialIndex, sort_hits};
use alloc::vec::Vec;
use glam::Vec2;

const NULL: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    /// Fat box for leaves, the union of the children's boxes for internal nodes.
    aabb: Aabb,
    /// Parent, or the next free node while on the free list.
    parent: u32,
    child1: u32,
    child2: u32,
    /// 0 for leaves, -1 for free nodes.
    height: i32,
    /// The proxy's slot, for leaves.
    slot: u32,
}

impl Node {
    fn is_leaf(&self) -> bool {
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
    slots: Slots,
    /// Leaf node of each slot.
    leaf_of: Vec<u32>,
    nodes: Vec<Node>,
    free: u32,
    root: u32,
    margin: f32,
    stack: Vec<u32>,
    found: Vec<u32>,
    pair_stack: Vec<(u32, u32)>,
    packed: Vec<u64>,
    /// Sorts `pairs`' keys into id pairs.
    pair_sort: PairSort,
    /// Internal nodes on a path from a refitted leaf to the root, waiting for [`Tree::refit`].
    marked: Vec<bool>,
    /// Leaves that left their fat box since the last refit (reinserted or refitted).
    moved: usize,
    /// Reinsert while `moved <= reinsert_share * len`, refit in place beyond.
    reinsert_share: f32,
    /// The SAH cost after the last bulk build, compared with before deciding on a rebuild
    /// (`None` for a tree grown by insertions since).
    baseline_cost: Option<f32>,
    /// Nodes in refit order (scratch).
    order: Vec<u32>,
    /// Rebuilds started by [`Tree::refit`] because the cost had climbed too far.
    auto_rebuilds: u64,
    /// Nodes refitted since the cost was last checked: the O(nodes) check runs once this
    /// reaches a quarter of the nodes, so small refits do not pay for a whole-tree scan.
    refitted_since_check: usize,
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
            packed: Vec::new(),
            pair_sort: PairSort::default(),
            marked: Vec::new(),
            moved: 0,
            reinsert_share: 0.0,
            baseline_cost: None,
            order: Vec::new(),
            auto_rebuilds: 0,
            refitted_since_check: 0,
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
    /// or [`Tree::refit`], [`SpatialIndex::update`] reinserts; beyond that it refits. Whatever
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

    fn alloc_node(&mut self, node: Node) -> u32 {
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

    fn free_node(&mut self, i: u32) {
        let n = &mut self.nodes[i as usize];
        n.parent = self.free;
        n.height = -1;
        n.child1 = NULL;
        n.child2 = NULL;
        self.free = i;
    }

    /// Recomputes the box and height of internal node `i` from its children.
    fn refit_node(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (a, b) = (&self.nodes[n.child1 as usize], &self.nodes[n.child2 as usize]);
        let (aabb, height) = (a.aabb.union(&b.aabb), 1 + a.height.max(b.height));
        let n = &mut self.nodes[i as usize];
        n.aabb = aabb;
        n.height = height;
    }

    /// Points `parent`'s link that went to `old` at `new` (or the root when `parent` is null).
    fn replace_child(&mut self, parent: u32, old: u32, new: u32) {
        if parent == NULL {
            self.root = new;
        } else if self.nodes[parent as usize].child1 == old {
            self.nodes[parent as usize].child1 = new;
        } else {
            self.nodes[parent as usize].child2 = new;
        }
    }

    /// Walks from `i` to the root, rotating and refitting each ancestor.
    fn fix_upwards(&mut self, mut i: u32) {
        while i != NULL {
            i = self.balance(i);
            self.refit_node(i);
            i = self.nodes[i as usize].parent;
        }
    }

    fn insert_leaf(&mut self, leaf: u32) {
        if self.root == NULL {
            self.root = leaf;
            self.nodes[leaf as usize].parent = NULL;
            return;
        }
        // Walk down choosing the sibling by the surface-area heuristic: the cost of making the
        // new leaf a sibling of node i is the perimeter of their union, plus the growth it
        // forces on every ancestor ("inheritance").
        let leaf_box = self.nodes[leaf as usize].aabb;
        let mut i = self.root;
        while !self.nodes[i as usize].is_leaf() {
            let n = self.nodes[i as usize];
            let area = n.aabb.half_perimeter();
            let combined = n.aabb.union(&leaf_box).half_perimeter();
            let cost_here = 2.0 * combined;
            let inheritance = 2.0 * (combined - area);
            let child_cost = |c: &Node| {
                let grown = c.aabb.union(&leaf_box).half_perimeter();
                if c.is_leaf() { grown + inheritance } else { grown - c.aabb.half_perimeter() + inheritance }
            };
            let cost1 = child_cost(&self.nodes[n.child1 as usize]);
            let cost2 = child_cost(&self.nodes[n.child2 as usize]);
            if cost_here < cost1 && cost_here < cost2 {
                break;
            }
            i = if cost1 < cost2 { n.child1 } else { n.child2 };
        }
        let sibling = i;
        //      old_parent              old_parent
        //          |                       |
        //       sibling      ==>       new_parent
        //                               /      \
        //                           sibling    leaf
        let old_parent = self.nodes[sibling as usize].parent;
        let new_parent = self.alloc_node(Node {
            aabb: self.nodes[sibling as usize].aabb.union(&leaf_box),
            parent: old_parent,
            child1: sibling,
            child2: leaf,
            height: self.nodes[sibling as usize].height + 1,
            slot: NULL,
        });
        self.replace_child(old_parent, sibling, new_parent);
        self.nodes[sibling as usize].parent = new_parent;
        self.nodes[leaf as usize].parent = new_parent;
        self.fix_upwards(new_parent);
    }

    fn remove_leaf(&mut self, leaf: u32) {
        if leaf == self.root {
            self.root = NULL;
            return;
        }
        //      grand                 grand
        //        |                     |
        //      parent      ==>      sibling
        //      /    \
        //   leaf   sibling
        let parent = self.nodes[leaf as usize].parent;
        let grand = self.nodes[parent as usize].parent;
        let p = self.nodes[parent as usize];
        let sibling = if p.child1 == leaf { p.child2 } else { p.child1 };
        self.replace_child(grand, parent, sibling);
        self.nodes[sibling as usize].parent = grand;
        self.free_node(parent);
        self.fix_upwards(grand);
    }

    /// If node `a`'s subtrees differ in height by more than one, rotates the taller child up
    /// and returns the node now in `a`'s place; otherwise returns `a`.
    ///
    /// ```text
    ///        a                 c            (c is taller than b by 2;
    ///      /   \             /   \           f is c's taller child)
    ///     b     c    ==>    a     f
    ///          / \         / \
    ///         f   g       b   g
    /// ```
    fn balance(&mut self, a: u32) -> u32 {
        let na = self.nodes[a as usize];
        if na.is_leaf() || na.height < 2 {
            return a;
        }
        let (b, c) = (na.child1, na.child2);
        let diff = self.nodes[c as usize].height - self.nodes[b as usize].height;
        if diff > 1 {
            self.rotate_up(a, c, b, false)
        } else if diff < -1 {
            self.rotate_up(a, b, c, true)
        } else {
            a
        }
    }

    /// Rotates `up` (a child of `a`) into `a`'s place; `other` is `a`'s other child and
    /// `up_is_child1` says which side `up` was on. `up`'s taller child stays under `up`; the
    /// shorter one moves under `a`, in `up`'s old slot.
    fn rotate_up(&mut self, a: u32, up: u32, other: u32, up_is_child1: bool) -> u32 {
        let nu = self.nodes[up as usize];
        let (f, g) = (nu.child1, nu.child2);
        let (keep, give) = if self.nodes[f as usize].height > self.nodes[g as usize].height { (f, g) } else { (g, f) };
        let a_parent = self.nodes[a as usize].parent;
        // `up` takes a's place.
        self.nodes[up as usize].parent = a_parent;
        self.replace_child(a_parent, a, up);
        self.nodes[up as usize].child1 = a;
        self.nodes[up as usize].child2 = keep;
        self.nodes[a as usize].parent = up;
        // `a` keeps `other` and takes `give` where `up` was.
        if up_is_child1 {
            self.nodes[a as usize].child1 = give;
        } else {
            self.nodes[a as usize].child2 = give;
        }
        self.nodes[give as usize].parent = a;
        debug_assert!(self.nodes[a as usize].child1 == other || self.nodes[a as usize].child2 == other);
        self.refit_node(a);
        self.refit_node(up);
        up
    }

    /// A leaf that left its fat box takes its new fat box in place; its ancestors grow to hold
    /// it and are marked for the next [`Tree::refit`].
    fn enlarge(&mut self, leaf: u32, fat: Aabb) {
        self.nodes[leaf as usize].aabb = fat;
        let mut child_box = fat;
        let mut i = self.nodes[leaf as usize].parent;
        while i != NULL {
            let n = &mut self.nodes[i as usize];
            let holds = n.aabb.contains(&child_box);
            if holds && self.marked[i as usize] {
                // Every ancestor of a marked node is marked and already holds this box.
                break;
            }
            self.marked[i as usize] = true;
            if !holds {
                n.aabb = n.aabb.union(&child_box);
            }
            child_box = n.aabb;
            i = n.parent;
        }
    }

    /// Finishes the pending in-place updates: every node marked by a moved leaf is shrunk to
    /// the union of its children, children before parents, each once, and then offered the
    /// local rotations that swap one of its children with a grandchild when that shrinks the
    /// changed child's box. Queries call it themselves; call it directly to choose when the
    /// work is done. Once the refits since the last check have touched a quarter of the nodes,
    /// it computes [`Tree::sah_cost`] and rebuilds the tree if the cost has climbed past
    /// [`Tree::REBUILD_FACTOR`] times its value after the last bulk build (or, for a tree built by
    /// insertions, at the first check).
    pub fn refit(&mut self) {
        self.moved = 0;
        if self.root == NULL || !self.marked[self.root as usize] {
            return;
        }
        let mut order = core::mem::take(&mut self.order);
        order.clear();
        self.stack.clear();
        self.stack.push(self.root);
        // Pre-order over the marked nodes; read backwards, every node comes after its children.
        while let Some(i) = self.stack.pop() {
            order.push(i);
            let n = self.nodes[i as usize];
            for c in [n.child1, n.child2] {
                if self.marked[c as usize] {
                    self.stack.push(c);
                }
            }
        }
        for &i in order.iter().rev() {
            self.marked[i as usize] = false;
            self.refit_node(i);
            self.rotate_best(i);
        }
        self.refitted_since_check += order.len();
        self.order = order;
        if 4 * self.refitted_since_check < self.node_count() {
            return;
        }
        self.refitted_since_check = 0;
        // A tree grown by insertions has no reference cost yet: the first check bulk-builds
        // it (insertion-built trees measured 1.4x the bulk build's cost), which sets one.
        if self.baseline_cost.is_none_or(|base| self.sah_cost() > Self::REBUILD_FACTOR * base) {
            self.auto_rebuilds += 1;
            self.rebuild();
        }
    }

    /// Of the four swaps of one of `i`'s children with one of the other child's children, makes
    /// the one that shrinks the changed child most (if any does), and refits `i`. The other
    /// child and `i`'s own box stay as they are; heights are recomputed.
    ///
    /// ```text
    ///        i                 i            (swap b with f: c's box becomes
    ///      /   \             /   \           the union of b and g)
    ///     b     c    ==>    f     c
    ///          / \               / \
    ///         f   g             b   g
    /// ```
    fn rotate_best(&mut self, i: u32) {
        let n = self.nodes[i as usize];
        let (b, c) = (n.child1, n.child2);
        let (nb, nc) = (self.nodes[b as usize], self.nodes[c as usize]);
        // (gain, the child that moves down, the grandchild that moves up)
        let mut best = (0.0f32, NULL, NULL);
        let mut consider = |small: u32, small_box: &Aabb, parent: &Node| {
            if parent.is_leaf() {
                return;
            }
            let area = parent.aabb.half_perimeter();
            let (f, g) = (parent.child1, parent.child2);
            let (bf, bg) = (self.nodes[f as usize].aabb, self.nodes[g as usize].aabb);
            // Swapping `small` with f leaves g beside it, and the other way round.
            let gain_f = area - small_box.union(&bg).half_perimeter();
            let gain_g = area - small_box.union(&bf).half_perimeter();
            if gain_f > best.0 {
                best = (gain_f, small, f);
            }
            if gain_g > best.0 {
                best = (gain_g, small, g);
            }
        };
        consider(b, &nb.aabb, &nc);
        consider(c, &nc.aabb, &nb);
        let (gain, down, up) = best;
        // Tiny gains are float noise; skip them so boxes do not swap back and forth.
        if gain <= 1e-4 * n.aabb.half_perimeter() {
            return;
        }
        let other = if down == b { c } else { b };
        // `down` takes `up`'s place under `other`; `up` takes `down`'s place under `i`.
        if self.nodes[other as usize].child1 == up {
            self.nodes[other as usize].child1 = down;
        } else {
            self.nodes[other as usize].child2 = down;
        }
        if down == b {
            self.nodes[i as usize].child1 = up;
        } else {
            self.nodes[i as usize].child2 = up;
        }
        self.nodes[down as usize].parent = other;
        self.nodes[up as usize].parent = i;
        self.refit_node(other);
        self.refit_node(i);
    }

    /// Rebuilds the whole tree from the current boxes, top down, splitting each set of leaves
    /// at the median centre along its longer axis: the bulk build, O(n log n). Use it after
    /// loading a level, or now and then for a tree that has seen many moves (the in-place
    /// refit calls it by itself when the tree's cost has climbed too far).
    pub fn rebuild(&mut self) {
        self.marked.iter_mut().for_each(|m| *m = false);
        self.moved = 0;
        // The leaves' boxes and centres side by side, so the splits read one array in order.
        let mut leaves: Vec<(Aabb, Vec2, u32)> = Vec::with_capacity(self.slots.len());
        for s in self.slots.live_slots() {
            let leaf = self.leaf_of[s as usize];
            let b = self.nodes[leaf as usize].aabb;
            leaves.push((b, b.center(), leaf));
        }
        // Free every internal node, keep the leaves.
        self.free = NULL;
        for i in (0..self.nodes.len() as u32).rev() {
            let n = self.nodes[i as usize];
            if n.height < 0 || !n.is_leaf() {
                self.free_node(i);
            }
        }
        self.root = if leaves.is_empty() { NULL } else { self.build(&mut leaves) };
        if self.root != NULL {
            self.nodes[self.root as usize].parent = NULL;
        }
        self.baseline_cost = Some(self.sah_cost());
        self.refitted_since_check = 0;
    }

    fn build(&mut self, leaves: &mut [(Aabb, Vec2, u32)]) -> u32 {
        if leaves.len() == 1 {
            return leaves[0].2;
        }
        let mut bounds = leaves[0].0;
        let (mut lo, mut hi) = (leaves[0].1, leaves[0].1);
        for (b, c, _) in leaves.iter() {
            bounds = bounds.union(b);
            lo = lo.min(*c);
            hi = hi.max(*c);
        }
        let axis = if hi.x - lo.x >= hi.y - lo.y { 0 } else { 1 };
        let mid = leaves.len() / 2;
        leaves.select_nth_unstable_by(mid, |p, q| p.1[axis].total_cmp(&q.1[axis]).then(p.2.cmp(&q.2)));
        let (left, right) = leaves.split_at_mut(mid);
        let c1 = self.build(left);
        let c2 = self.build(right);
        let height = 1 + self.nodes[c1 as usize].height.max(self.nodes[c2 as usize].height);
        let parent = self.alloc_node(Node { aabb: bounds, parent: NULL, child1: c1, child2: c2, height, slot: NULL });
        self.nodes[c1 as usize].parent = parent;
        self.nodes[c2 as usize].parent = parent;
        parent
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
                if !n.aabb.contains(&self.slots.aabbs[n.slot as usize]) {
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
            if !n.aabb.contains(&a.aabb) || !n.aabb.contains(&b.aabb) {
                return Err("node box does not hold a child's box");
            }
            stack.push(n.child1);
            stack.push(n.child2);
        }
        if leaves != self.slots.len() { Err("leaf count differs from the proxy count") } else { Ok(()) }
    }

    /// Collects into `self.found` the slots whose boxes overlap `area`; the caller refits first.
    fn collect(&mut self, area: &Aabb, stats: &mut QueryStats) {
        self.found.clear();
        if self.root == NULL {
            return;
        }
        self.stack.clear();
        self.stack.push(self.root);
        while let Some(i) = self.stack.pop() {
            let n = &self.nodes[i as usize];
            stats.visited += 1;
            if !n.aabb.overlaps(area) {
                continue;
            }
            if n.is_leaf() {
                stats.candidates += 1;
                if self.slots.aabbs[n.slot as usize].overlaps(area) {
                    self.found.push(n.slot);
                }
            } else {
                self.stack.push(n.child1);
                self.stack.push(n.child2);
            }
        }
    }

    /// Walks the nodes the ray touches, nearest-first; `visit(id, t)` returns the cutoff `t`.
    fn walk_ray(&mut self, ray: &Ray, stats: &mut QueryStats, visit: &mut dyn FnMut(ProxyId, f32) -> f32) {
        self.refit();
        if self.root == NULL {
            return;
        }
        let mut cutoff = f32::INFINITY;
        self.stack.clear();
        self.stack.push(self.root);
        while let Some(i) = self.stack.pop() {
            let n = self.nodes[i as usize];
            stats.visited += 1;
            let clipped = ray.clipped(cutoff);
            if n.aabb.ray_entry(&clipped).is_none() {
                continue;
            }
            if n.is_leaf() {
                stats.candidates += 1;
                if let Some(t) = self.slots.aabbs[n.slot as usize].ray_entry(&clipped) {
                    cutoff = cutoff.min(visit(self.slots.id(n.slot), t));
                }
            } else {
                // Push the farther child first so the nearer one is searched first.
                let t1 = self.nodes[n.child1 as usize].aabb.ray_entry(&clipped).unwrap_or(f32::INFINITY);
                let t2 = self.nodes[n.child2 as usize].aabb.ray_entry(&clipped).unwrap_or(f32::INFINITY);
                if t1 <= t2 {
                    self.stack.push(n.child2);
                    self.stack.push(n.child1);
                } else {
                    self.stack.push(n.child1);
                    self.stack.push(n.child2);
                }
            }
        }
    }
}

impl SpatialIndex for Tree {
    fn name(&self) -> &'static str {
        "tree"
    }

    fn len(&self) -> usize {
        self.slots.len()
    }

    fn insert(&mut self, aabb: Aabb) -> Result<ProxyId, Error> {
        self.refit();
        let id = self.slots.insert(aabb)?;
        let leaf = self.alloc_node(Node {
            aabb: aabb.grown(self.margin),
            parent: NULL,
            child1: NULL,
            child2: NULL,
            height: 0,
            slot: id.index(),
        });
        let s = id.index() as usize;
        if self.leaf_of.len() <= s {
            self.leaf_of.resize(s + 1, NULL);
        }
        self.leaf_of[s] = leaf;
        self.insert_leaf(leaf);
        Ok(id)
    }

    fn remove(&mut self, id: ProxyId) -> Result<Aabb, Error> {
        self.slots.slot(id)?;
        // Finish pending refits first (a rebuild there must still see this proxy).
        self.refit();
        let (s, aabb) = self.slots.remove(id)?;
        let leaf = self.leaf_of[s as usize];
        self.remove_leaf(leaf);
        self.free_node(leaf);
        self.leaf_of[s as usize] = NULL;
        Ok(aabb)
    }

    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), Error> {
        let s = self.slots.slot(id)?;
        self.slots.aabbs[s as usize] = aabb;
        let leaf = self.leaf_of[s as usize];
        let fat = self.nodes[leaf as usize].aabb;
        let refattened = aabb.grown(self.margin);
        // Inside its fat box and the fat box not grossly larger: nothing to do.
        if fat.contains(&aabb) && fat.half_perimeter() <= 4.0 * refattened.half_perimeter() + 1e-6 {
            return Ok(());
        }
        self.moved += 1;
        // A box that jumped clear of its fat box would stretch every ancestor on the way to
        // its new place: it is reinserted. So are the first `reinsert_share` of the movers.
        let jumped = !fat.overlaps(&aabb);
        if jumped || self.moved as f32 <= self.reinsert_share * self.slots.len() as f32 {
            if self.root != NULL && self.marked[self.root as usize] {
                // Rotations and removals need every box on the way up to be tight.
                self.refit();
            }
            self.remove_leaf(leaf);
            self.nodes[leaf as usize].aabb = refattened;
            self.insert_leaf(leaf);
        } else {
            self.enlarge(leaf, refattened);
        }
        Ok(())
    }

    fn aabb(&self, id: ProxyId) -> Option<Aabb> {
        self.slots.get(id)
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.nodes.clear();
        self.marked.clear();
        self.moved = 0;
        self.baseline_cost = None;
        self.refitted_since_check = 0;
        self.leaf_of.iter_mut().for_each(|l| *l = NULL);
        self.free = NULL;
        self.root = NULL;
    }

    fn ids(&self) -> Vec<ProxyId> {
        self.slots.live_slots().map(|s| self.slots.id(s)).collect()
    }

    fn query_aabb(&mut self, area: &Aabb, out: &mut Vec<ProxyId>) -> QueryStats {
        self.refit();
        let mut stats = QueryStats::default();
        self.collect(area, &mut stats);
        self.found.sort_unstable();
        out.clear();
        out.extend(self.found.iter().map(|&s| self.slots.id(s)));
        stats.hits = out.len() as u64;
        stats
    }

    /// One refit, then each area's walk in turn.
    fn query_aabbs(&mut self, areas: &[Aabb], out: &mut Vec<(usize, ProxyId)>) -> QueryStats {
        self.refit();
        out.clear();
        let mut stats = QueryStats::default();
        for (i, area) in areas.iter().enumerate() {
            self.collect(area, &mut stats);
            self.found.sort_unstable();
            out.extend(self.found.iter().map(|&s| (i, self.slots.id(s))));
        }
        stats.hits = out.len() as u64;
        stats
    }

    /// As [`Tree::query_aabbs`], written as pairs.
    fn pairs_with(&mut self, ids: &[ProxyId], areas: &[Aabb], out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.refit();
        out.clear();
        let mut stats = QueryStats::default();
        for (&id, area) in ids.iter().zip(areas) {
            self.collect(area, &mut stats);
            self.found.sort_unstable();
            out.extend(self.found.iter().map(|&s| (id, self.slots.id(s))));
        }
        stats.hits = out.len() as u64;
        stats
    }

    fn raycast(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool) -> (Option<RayHit>, QueryStats) {
        let mut stats = QueryStats::default();
        let mut best: Option<RayHit> = None;
        self.walk_ray(ray, &mut stats, &mut |id, t| {
            let hit = RayHit { id, t };
            if best.is_none_or(|b| hit.before(&b)) && filter(id) {
                best = Some(hit);
            }
            best.map_or(f32::INFINITY, |b| b.t)
        });
        stats.hits = u64::from(best.is_some());
        (best, stats)
    }

    fn raycast_all(&mut self, ray: &Ray, filter: &mut dyn FnMut(ProxyId) -> bool, out: &mut Vec<RayHit>) -> QueryStats {
        out.clear();
        let mut stats = QueryStats::default();
        self.walk_ray(ray, &mut stats, &mut |id, t| {
            if filter(id) {
                out.push(RayHit { id, t });
            }
            f32::INFINITY
        });
        sort_hits(out);
        stats.hits = out.len() as u64;
        stats
    }

    fn pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.pairs_in(out, Order::Ids)
    }

    fn pairs_unsorted(&mut self, out: &mut Vec<(ProxyId, ProxyId)>) -> QueryStats {
        self.pairs_in(out, Order::Found)
    }

    fn debug_view(&mut self, visit: &mut dyn FnMut(Aabb, u32)) {
        self.refit();
        if self.root == NULL {
            return;
        }
        let mut stack = alloc::vec![(self.root, 0u32)];
        while let Some((i, depth)) = stack.pop() {
            let n = self.nodes[i as usize];
            visit(n.aabb, depth);
            if !n.is_leaf() {
                stack.push((n.child1, depth + 1));
                stack.push((n.child2, depth + 1));
            }
        }
    }
}

impl Tree {
    /// Every pair once: two leaves meet only under their lowest common ancestor, so the tree
    /// is tested against itself by crossing the two children of every internal node, opening
    /// both sides of an overlapping pair of internal nodes at once (the internal side of a
    /// node and a leaf). `PairSort` puts the pairs in id order, or for `pairs_unsorted` leaves
    /// them in the order of the descent.
    fn pairs_in(&mut self, out: &mut Vec<(ProxyId, ProxyId)>, order: Order) -> QueryStats {
        self.refit();
        out.clear();
        let mut stats = QueryStats::default();
        let bits = 32 - (self.slots.capacity() as u32).leading_zeros();
        let mut packed = core::mem::take(&mut self.packed);
        packed.clear();
        let mut stack = core::mem::take(&mut self.pair_stack);
        let nodes = &self.nodes;
        let boxes = &self.slots.aabbs;
        for n in nodes {
            if n.height <= 0 {
                continue;
            }
            // Only pairs of nodes whose boxes overlap go on the stack.
            stats.visited += 1;
            if !nodes[n.child1 as usize].aabb.overlaps(&nodes[n.child2 as usize].aabb) {
                continue;
            }
            stack.clear();
            stack.push((n.child1, n.child2));
            while let Some((a, b)) = stack.pop() {
                let (na, nb) = (&nodes[a as usize], &nodes[b as usize]);
                // Open the internal node of the two, or both.
                let (open, keep, keep_box) = match (na.is_leaf(), nb.is_leaf()) {
                    (true, true) => {
                        stats.candidates += 1;
                        let (sa, sb) = (na.slot, nb.slot);
                        if boxes[sa as usize].overlaps(&boxes[sb as usize]) {
                            let (lo, hi) = if sa < sb { (sa, sb) } else { (sb, sa) };
                            packed.push((u64::from(lo) << bits) | u64::from(hi));
                        }
                        continue;
                    }
                    (false, true) => (na, b, &nb.aabb),
                    (true, false) => (nb, a, &na.aabb),
                    (false, false) => {
                        // Both internal: open both at once. Four tests of child against child
                        // instead of two to open one side and up to two more for each surviving
                        // child to open the other later.
                        stats.visited += 4;
                        for c in [na.child1, na.child2] {
                            let cb = &nodes[c as usize].aabb;
                            for d in [nb.child1, nb.child2] {
                                if cb.overlaps(&nodes[d as usize].aabb) {
                                    stack.push((c, d));
                                }
                            }
                        }
                        continue;
                    }
                };
                stats.visited += 2;
                for c in [open.child1, open.child2] {
                    if nodes[c as usize].aabb.overlaps(keep_box) {
                        stack.push((c, keep));
                    }
                }
            }
        }
        self.pair_sort.sort_into(&packed, bits, &self.slots, out, order);
        self.packed = packed;
        self.pair_stack = stack;
        stats.hits = out.len() as u64;
        stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::vec2;

    fn unit(x: f32, y: f32) -> Aabb {
        Aabb::from_center(vec2(x, y), vec2(0.5, 0.5)).unwrap()
    }

    #[test]
    fn stays_valid_through_inserts_moves_and_removals() {
        let mut t = Tree::new();
        let mut ids = Vec::new();
        for i in 0..200 {
            ids.push(t.insert(unit((i % 20) as f32 * 1.5, (i / 20) as f32 * 1.5)).unwrap());
            t.validate().unwrap();
        }
        assert!(t.height() <= 2 * 8, "height {}", t.height());
        for (k, &id) in ids.iter().enumerate() {
            t.update(id, unit(k as f32 * 0.37, 3.0 + (k % 7) as f32)).unwrap();
        }
        t.validate().unwrap();
        for &id in ids.iter().step_by(3) {
            t.remove(id).unwrap();
        }
        t.validate().unwrap();
        t.rebuild();
        t.validate().unwrap();
        assert_eq!(t.len(), 200 - 67);
    }

    #[test]
    fn small_moves_keep_the_leaf() {
        let mut t = Tree::with_margin(0.5).unwrap();
        let a = t.insert(unit(0.0, 0.0)).unwrap();
        t.insert(unit(5.0, 0.0)).unwrap();
        let before = t.nodes.clone();
        t.update(a, unit(0.2, -0.3)).unwrap();
        assert!(t.nodes.iter().zip(&before).all(|(x, y)| x.aabb == y.aabb));
        t.update(a, unit(3.0, 0.0)).unwrap();
        t.validate().unwrap();
        assert!(Tree::with_margin(-1.0).is_err());
    }

    /// `n` boxes of half extent 0.5–2 in a square with about 2.6 overlaps per box, each with a
    /// velocity; `step` moves them and bounces them off the walls.
    struct Swarm {
        pos: Vec<glam::Vec2>,
        half: Vec<glam::Vec2>,
        vel: Vec<glam::Vec2>,
        side: f32,
    }

    impl Swarm {
        fn new(n: usize, speed: f32) -> Self {
            let mut next = crate::xorshift_unit(0x9E37_79B9_7F4A_7C15);
            let side = (9.5 * n as f32).sqrt();
            let mut s = Self { pos: Vec::new(), half: Vec::new(), vel: Vec::new(), side };
            for _ in 0..n {
                s.pos.push(vec2(next() * side, next() * side));
                s.half.push(vec2(0.5 + 1.5 * next(), 0.5 + 1.5 * next()));
                s.vel.push(vec2(next() - 0.5, next() - 0.5) * 2.0 * speed);
            }
            s
        }

        fn step(&mut self) {
            for (p, v) in self.pos.iter_mut().zip(&mut self.vel) {
                *p += *v;
                if p.x < 0.0 || p.x > self.side {
                    v.x = -v.x;
                }
                if p.y < 0.0 || p.y > self.side {
                    v.y = -v.y;
                }
            }
        }

        fn aabb(&self, i: usize) -> Aabb {
            Aabb::from_center(self.pos[i], self.half[i]).unwrap()
        }
    }

    fn brute_pairs(s: &Swarm, ids: &[ProxyId]) -> Vec<(ProxyId, ProxyId)> {
        let mut want = Vec::new();
        for i in 0..ids.len() {
            for j in i + 1..ids.len() {
                if s.aabb(i).overlaps(&s.aabb(j)) {
                    want.push((ids[i].min(ids[j]), ids[i].max(ids[j])));
                }
            }
        }
        want.sort_unstable();
        want
    }

    #[test]
    fn refit_frames_stay_valid_and_exact() {
        for share in [0.0, 1.0 / 16.0, 1.0] {
            let mut s = Swarm::new(400, 0.3);
            let mut t = Tree::new();
            t.set_reinsert_share(share).unwrap();
            let ids: Vec<ProxyId> = (0..400).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
            let mut got = Vec::new();
            for frame in 0..300 {
                s.step();
                for (i, &id) in ids.iter().enumerate() {
                    t.update(id, s.aabb(i)).unwrap();
                }
                // Valid between the updates and the refit too: ancestors grow as leaves move.
                t.validate().unwrap();
                if frame % 10 == 0 {
                    t.pairs(&mut got);
                    assert_eq!(got, brute_pairs(&s, &ids), "share {share}, frame {frame}");
                } else {
                    t.refit();
                }
                t.validate().unwrap();
                assert!(t.marked.iter().all(|&m| !m), "marks left after a refit");
            }
        }
    }

    #[test]
    fn quality_stays_bounded_under_refits() {
        // Fast boxes cross the world many times over: without re-optimisation the tree's
        // leaves would end up far from their neighbours in the tree.
        let mut s = Swarm::new(2000, 0.5);
        let mut t = Tree::new();
        t.set_reinsert_share(0.0).unwrap();
        let ids: Vec<ProxyId> = (0..2000).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
        t.rebuild();
        let mut worst = 0.0f32;
        for frame in 0..600 {
            s.step();
            for (i, &id) in ids.iter().enumerate() {
                t.update(id, s.aabb(i)).unwrap();
            }
            t.refit();
            if frame % 50 == 49 {
                let mut fresh = t.clone();
                fresh.rebuild();
                let ratio = t.sah_cost() / fresh.sah_cost();
                worst = worst.max(ratio);
                assert!(
                    ratio <= Tree::REBUILD_FACTOR * 1.25,
                    "frame {frame}: cost {} vs fresh {}",
                    t.sah_cost(),
                    fresh.sah_cost()
                );
            }
        }
        assert!(worst > 0.0);
        t.validate().unwrap();
    }

    fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut next = crate::xorshift(seed);
        move || next() >> 11
    }

    #[test]
    fn small_refits_that_scatter_the_tree_end_in_a_rebuild() {
        // Fifty boxes a round take a step of up to one unit in their own direction (never
        // clear of their fat box, so they are refitted in place): over the rounds they cross
        // the world, their ancestors stretch, and the cost check has to rebuild the tree.
        let mut s = Swarm::new(1000, 0.5);
        let mut t = Tree::new();
        let ids: Vec<ProxyId> = (0..1000).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
        t.rebuild();
        let start = t.sah_cost();
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        for round in 0..3000 {
            for _ in 0..50 {
                let k = (next() % 1000) as usize;
                let p = s.pos[k] + s.vel[k];
                if p.x < 0.0 || p.x > s.side || p.y < 0.0 || p.y > s.side {
                    s.vel[k] = -s.vel[k];
                }
                s.pos[k] = p;
                t.update(ids[k], s.aabb(k)).unwrap();
            }
            t.refit();
            if round % 100 == 99 {
                let mut fresh = t.clone();
                fresh.rebuild();
                assert!(t.sah_cost() <= Tree::REBUILD_FACTOR * 1.25 * fresh.sah_cost().max(start), "round {round}");
            }
        }
        assert!(t.auto_rebuilds() > 0);
        t.validate().unwrap();
        let mut got = Vec::new();
        t.pairs(&mut got);
        assert_eq!(got, brute_pairs(&s, &ids));
    }

    #[test]
    fn jumps_are_reinserted() {
        let s = Swarm::new(1000, 0.0);
        let mut t = Tree::new();
        let ids: Vec<ProxyId> = (0..1000).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
        t.rebuild();
        let start = t.sah_cost();
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        for _ in 0..300 {
            // One small move refitted in place (its path marked), then teleports: each is
            // reinserted after the pending refit is finished.
            t.update(ids[0], s.aabb(0)).unwrap();
            let nudged = Aabb::from_center(s.pos[0] + vec2(0.3, 0.0), s.half[0]).unwrap();
            t.update(ids[0], nudged).unwrap();
            assert!(t.marked[t.root as usize]);
            for _ in 0..10 {
                let k = 1 + (next() % 999) as usize;
                let (x, y) = ((next() % 1000) as f32 / 1000.0 * s.side, (next() % 1000) as f32 / 1000.0 * s.side);
                t.update(ids[k], unit(x, y)).unwrap();
                assert!(t.marked.iter().all(|&m| !m));
            }
            t.validate().unwrap();
        }
        // Reinsertion keeps the tree within reach of a fresh build without any rebuild.
        let mut fresh = t.clone();
        fresh.rebuild();
        assert!(t.sah_cost() <= 2.0 * fresh.sah_cost().max(start));
    }

    #[test]
    fn few_movers_are_reinserted_many_are_refitted() {
        let mut s = Swarm::new(320, 0.3);
        let mut t = Tree::new();
        assert_eq!(t.reinsert_share(), 0.0);
        t.set_reinsert_share(1.0 / 16.0).unwrap();
        let ids: Vec<ProxyId> = (0..320).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
        let mut pairs = Vec::new();
        t.pairs(&mut pairs);
        // Steps of 0.4: out of the fat box (margin 0.1) but still touching it.
        let step = |s: &Swarm, i: usize| Aabb::from_center(s.pos[i] + vec2(0.4, 0.0), s.half[i]).unwrap();
        // 20 = 320/16 movers are reinserted: no node is marked for a refit.
        for (i, &id) in ids[..20].iter().enumerate() {
            t.update(id, step(&s, i)).unwrap();
        }
        assert!(t.marked.iter().all(|&m| !m));
        t.validate().unwrap();
        // The 21st is refitted in place: its path to the root is marked.
        t.update(ids[20], step(&s, 20)).unwrap();
        let leaf = t.leaf_of[ids[20].index() as usize];
        assert!(t.marked[t.nodes[leaf as usize].parent as usize] && t.marked[t.root as usize]);
        t.validate().unwrap();
        t.pairs(&mut pairs);
        assert!(t.marked.iter().all(|&m| !m));
        t.validate().unwrap();
        // Share 1: always reinsert, never a mark.
        t.set_reinsert_share(1.0).unwrap();
        s.step();
        for (i, &id) in ids.iter().enumerate() {
            t.update(id, s.aabb(i)).unwrap();
        }
        assert!(t.marked.iter().all(|&m| !m));
        t.validate().unwrap();
        assert!(t.set_reinsert_share(f32::NAN).is_err());
        assert!(t.set_reinsert_share(-0.1).is_err());
        assert!(t.set_reinsert_share(1.5).is_err());
        assert_eq!(t.reinsert_share(), 1.0);
    }

    #[test]
    fn removing_and_inserting_with_refits_pending() {
        let mut s = Swarm::new(200, 0.4);
        let mut t = Tree::new();
        t.set_reinsert_share(0.0).unwrap();
        let mut ids: Vec<ProxyId> = (0..200).map(|i| t.insert(s.aabb(i)).unwrap()).collect();
        for round in 0..20 {
            s.step();
            for (i, &id) in ids.iter().enumerate() {
                t.update(id, s.aabb(i)).unwrap();
            }
            // Pending marks, then a removal and an insertion of the same box.
            let k = (round * 37) % ids.len();
            t.remove(ids[k]).unwrap();
            ids[k] = t.insert(s.aabb(k)).unwrap();
            t.validate().unwrap();
        }
        let mut got = Vec::new();
        t.pairs(&mut got);
        let mut want = brute_pairs(&s, &ids);
        want.sort_unstable();
        assert_eq!(got, want);
    }
}
