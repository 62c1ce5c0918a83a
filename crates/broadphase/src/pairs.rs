//! The last step of every index's `pairs`: pair keys `(a << bits) | b` into id pairs, sorted
//! (or, for `pairs_unsorted`, as they were found).
//!
//! An index finds its pairs in its own order (cell by cell, node by node) and packs each as a
//! key whose order is the pairs' order. [`PairSort`] sorts the keys by their first slot `a`
//! only: a counting sort, one pass over the keys whenever the slots are fewer than about
//! twice the keys (a least-significant-digit radix sort of a few passes otherwise). Each run
//! of keys with the same `a` is left in the order the index found them, which for the grid is
//! a few ascending runs (one per cell of `a`'s box), so a last pass that sorts only the runs
//! found out of order finishes the job. The radix sort of whole keys this replaced took two
//! passes at 1k slots and three at 10k and 100k.

use crate::id::ProxyId;
use crate::par::{self, PARTS_PER_THREAD, Spare, Threads};
use crate::slots::Slots;
use crate::stats::QueryStats;
use alloc::vec::Vec;

/// Fewer keys than this are sorted by comparison (the radix sort's count tables would cost
/// more than the keys).
const SMALL: usize = 512;

/// Fewer keys than this in all keep `pairs_unsorted`'s last step on one thread.
const PARALLEL_KEYS: usize = 32 * 1024;

/// How far [`sort_runs`] moves a pair back before it sorts the pair's whole run instead.
const SHORT_MOVE: usize = 8;

/// The widest radix digit is this or the bit length of twice the number of keys, whichever is
/// more: a count table never much bigger than the keys themselves. (A 4,096-entry table stays
/// in the first-level cache; past that, one pass with a bigger table measured faster than two
/// with small ones: 100k boxes' 131k keys in one pass of 17 bits, 24% less time than in two
/// of 9.)
const MIN_DIGIT: u32 = 12;

/// One pair as `pairs` writes it.
type Pair = (ProxyId, ProxyId);

/// Keys and the stretch of the output their pairs go to.
type WriteJob<'a> = (&'a [u64], &'a mut [Pair]);

/// The order an index's pair call asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Sorted by id ([`SpatialIndex::pairs`](crate::SpatialIndex::pairs)).
    Ids,
    /// As the index found them ([`SpatialIndex::pairs_unsorted`](crate::SpatialIndex::pairs_unsorted)).
    Found,
}

/// The buffers of the pair sort, kept between frames.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSort {
    /// The keys between two passes (the first pass reads the caller's keys).
    buffers: [Vec<u64>; 2],
    /// One count table per digit, turned into bucket starts before the digit's pass.
    counts: Vec<u32>,
    /// The per-thread buffers of [`PairSort::sort_ranges`].
    ranges: Vec<RangeSort>,
    /// [`PairSort::sort_ranges`]: the keys in each slot range, and where the ranges are cut
    /// between threads.
    range_keys: Vec<usize>,
    range_cuts: Vec<usize>,
    /// [`PairSort::sort_parts`]: which part took each chunk, and where the sorted keys are
    /// cut between stretches.
    owner: Vec<(usize, usize, usize)>,
    range_bases: Vec<usize>,
    stretch_cuts: Vec<usize>,
    /// The job lists of the split passes, kept between frames (see [`Spare`]).
    write_jobs: Spare,
    range_jobs: Spare,
    count_rests: Spare,
    count_slices: Spare,
    count_jobs: Spare,
}

impl PairSort {
    /// Writes the pairs of the keys in `parts` (taken in order, as one list) into `out`
    /// (replaced), each key `(a << bits) | b` becoming `(id of slot a, id of slot b)`: in key
    /// order for [`Order::Ids`], in the order of the keys for [`Order::Found`]. Every slot must
    /// be below `2^bits` and below `slots.capacity()`, and no key may appear twice. For
    /// [`Order::Found`], the parts' pairs are written on one thread each when `threads` allows
    /// (the sorted order has [`PairSort::sort_ranges`]).
    pub(crate) fn sort_into(
        &mut self,
        parts: &[&[u64]],
        bits: u32,
        slots: &Slots,
        out: &mut Vec<(ProxyId, ProxyId)>,
        order: Order,
        threads: Threads,
    ) {
        out.clear();
        let low = (1u64 << bits) - 1;
        let generations = slots.generations();
        // By value, so the loop that writes the pairs keeps them in registers (captured by
        // reference, each was loaded again after every write to `out`).
        let pair = move |k: u64| {
            let (a, b) = ((k >> bits) as u32, (k & low) as u32);
            (ProxyId::new(a, generations[a as usize]), ProxyId::new(b, generations[b as usize]))
        };
        let n: usize = parts.iter().map(|p| p.len()).sum();
        let keys = || parts.iter().flat_map(|p| p.iter().copied());
        if order == Order::Found {
            if parts.len() > 1 && threads.parts(n, PARALLEL_KEYS) > 1 {
                // Each thread writes the pairs of whole input parts (their ends cut `out`).
                out.resize(n, (ProxyId::new(0, 0), ProxyId::new(0, 0)));
                let mut jobs: Vec<WriteJob<'_>> = self.write_jobs.take();
                let mut rest = &mut out[..];
                for &keys in parts {
                    let (here, tail) = core::mem::take(&mut rest).split_at_mut(keys.len());
                    rest = tail;
                    jobs.push((keys, here));
                }
                par::run(&mut jobs, |(keys, here)| write_pairs(keys, here, pair));
                self.write_jobs.keep(jobs);
            } else {
                out.extend(keys().map(pair));
            }
            return;
        }
        if n < SMALL {
            let sorted = &mut self.buffers[0];
            sorted.clear();
            sorted.extend(keys());
            sorted.sort_unstable();
            out.extend(sorted.iter().map(|&k| pair(k)));
            return;
        }
        // The digits of `a` (the key's top `bits` bits): as few as digits of the widest size
        // allow (at most 3, since `bits <= 32`).
        let widest = MIN_DIGIT.max(usize::BITS - (2 * n).leading_zeros());
        let passes = bits.div_ceil(widest).max(1) as usize;
        let digit = bits.div_ceil(passes as u32);
        let size = 1usize << digit;
        let mask = (size - 1) as u64;
        let shift_of = |p: usize| bits + p as u32 * digit;
        self.counts.clear();
        self.counts.resize(passes * size, 0);
        // One read counts every digit at once; each pass then only scatters.
        for &keys in parts {
            match passes {
                1 => count::<1>(keys, &mut self.counts, bits, digit, mask),
                2 => count::<2>(keys, &mut self.counts, bits, digit, mask),
                _ => count::<3>(keys, &mut self.counts, bits, digit, mask),
            }
        }
        // The passes that move something: a digit every key shares leaves the order as it is
        // (the first key's digit then has all `n` keys). Their count tables become bucket starts.
        let first = keys().next().unwrap_or(0);
        let mut moving = [0usize; 3];
        let mut m = 0;
        for (p, table) in self.counts.chunks_exact_mut(size).enumerate() {
            if table[((first >> shift_of(p)) & mask) as usize] as usize == n {
                continue;
            }
            let mut sum = 0;
            for c in table.iter_mut() {
                let here = *c;
                *c = sum;
                sum += here;
            }
            moving[m] = p;
            m += 1;
        }
        // Each pass scatters keys from one buffer into the other; the first reads the
        // caller's keys (copied as they are when no pass moves anything).
        let [even, odd] = &mut self.buffers;
        if m == 0 {
            even.clear();
            even.extend(keys());
        }
        for (i, &p) in moving[..m].iter().enumerate() {
            let table = &mut self.counts[p * size..(p + 1) * size];
            let shift = shift_of(p);
            let mut scatter = |src: &[u64], dst: &mut [u64]| {
                for &k in src {
                    let d = ((k >> shift) & mask) as usize;
                    dst[table[d] as usize] = k;
                    table[d] += 1;
                }
            };
            match i {
                0 => {
                    even.resize(n, 0);
                    for &keys in parts {
                        scatter(keys, &mut even[..]);
                    }
                }
                _ if i % 2 == 1 => {
                    odd.resize(n, 0);
                    scatter(&even[..], &mut odd[..]);
                }
                _ => scatter(&odd[..], &mut even[..]),
            }
        }
        let sorted = if m % 2 == 0 && m > 0 { odd } else { even };
        sort_runs(sorted, bits);
        out.extend(sorted.iter().map(|&k| pair(k)));
    }
}

/// One thread's share of a pair pass cut into chunks that the threads take in turn (the grid's
/// and the hash's): the keys of the chunks it took, one chunk after the other, and for the
/// sorted order its count of keys per first slot.
#[derive(Clone, Debug, Default)]
pub(crate) struct PartKeys {
    /// The keys found (`keys[..len]`; the rest is room for the branch-free walks).
    pub(crate) keys: Vec<u64>,
    /// How many keys were found.
    pub(crate) len: usize,
    /// The chunks taken, in the order taken: the chunk and where its keys end in `keys`.
    chunks: Vec<(usize, usize)>,
    /// Per first slot: this part's keys (once counted), then where its next key goes in the
    /// sorted order (in [`PairSort::sort_parts`]).
    counts: Vec<u32>,
    /// Whether `counts` counts the keys (`count_slots`), so `push` counts too.
    counted: bool,
    /// Per slot range of the sorted order: this part's keys (once counted).
    range_keys: Vec<usize>,
    /// The slot ranges of `range_keys`.
    ranges: SlotRanges,
    /// What the part's walks cost.
    pub(crate) stats: QueryStats,
}

impl PartKeys {
    /// Empties the part for a new pass.
    pub(crate) fn start(&mut self) {
        self.len = 0;
        self.chunks.clear();
        self.counted = false;
        self.stats = QueryStats::default();
    }

    /// Closes chunk `chunk`: its keys are those found since the previous chunk was closed.
    pub(crate) fn end_chunk(&mut self, chunk: usize) {
        self.chunks.push((chunk, self.len));
    }

    /// Adds one key (counted if the keys are).
    pub(crate) fn push(&mut self, key: u64, bits: u32) {
        if self.len == self.keys.len() {
            self.keys.resize(2 * self.len + 16, 0);
        }
        self.keys[self.len] = key;
        self.len += 1;
        if self.counted {
            let a = (key >> bits) as u32;
            self.counts[a as usize] += 1;
            self.range_keys[self.ranges.of(a)] += 1;
        }
    }

    /// Puts each key at its place in `target`: its part's next position for its first slot
    /// (`counts`, made positions by `slot_offsets`).
    fn scatter_keys(&mut self, bits: u32, target: &SortedKeys) {
        // (Slices in locals: the stores cannot then move the vectors, so nothing is reloaded.)
        let (keys, counts) = (&self.keys[..self.len], &mut self.counts[..]);
        let put = |k: u64, counts: &mut [u32]| {
            let a = (k >> bits) as usize;
            let at = counts[a] as usize;
            counts[a] += 1;
            assert!(at < target.1);
            // SAFETY: `at` is in bounds (checked). No other thread writes it: the offsets give
            // each (slot, part) its own stretch of positions, as long as the keys of that part
            // and slot, and each key takes the next position of its part's stretch for its
            // slot (the part's counter for that slot, which only this thread moves).
            unsafe { target.0.add(at).write(k) };
        };
        // (Four keys a step, as in `count_slots`.)
        let mut quads = keys.chunks_exact(4);
        for quad in &mut quads {
            for &k in quad {
                put(k, counts);
            }
        }
        for &k in quads.remainder() {
            put(k, counts);
        }
    }

    /// Counts the keys per first slot (slots below `capacity`) and per range of `ranges`,
    /// for the sorted order.
    pub(crate) fn count_slots(&mut self, bits: u32, capacity: usize, ranges: SlotRanges) {
        self.counts.clear();
        self.counts.resize(capacity, 0);
        let (keys, counts) = (&self.keys[..self.len], &mut self.counts[..]);
        // (Four keys a step: the loop's own count and test come once per four keys.)
        let mut quads = keys.chunks_exact(4);
        for quad in &mut quads {
            for &k in quad {
                counts[(k >> bits) as usize] += 1;
            }
        }
        for &k in quads.remainder() {
            counts[(k >> bits) as usize] += 1;
        }
        self.ranges = ranges;
        self.range_keys.clear();
        // (Summed as `u32`, which vectorises: a range holds fewer than 2³² keys, as a count does.)
        self.range_keys.extend(
            (0..ranges.len()).map(|r| self.counts[ranges.start(r)..ranges.start(r + 1)].iter().sum::<u32>() as usize),
        );
        self.counted = true;
    }
}

/// Where the threads of [`PairSort::sort_parts`] put the keys: each writes its own keys at
/// positions no other thread writes (see there).
struct SortedKeys(*mut u64, usize);

// SAFETY: shared by the threads of one scatter pass, each writing positions that no other
// writes (see `PairSort::sort_parts`); the buffer outlives the pass.
unsafe impl Sync for SortedKeys {}

impl PairSort {
    /// Writes the pairs of the keys of `parts` into `out` (replaced): in key order for
    /// [`Order::Ids`] (the parts counted by [`PartKeys::count_slots`]), else in chunk order
    /// (chunk `0` to `chunks - 1`, whichever part took each), on one thread per part.
    ///
    /// The sorted order is the counting sort of [`PairSort::sort_into`] on several threads:
    /// the slots are cut into one range per part, and each thread turns the counts of its
    /// range (in every part) into where each part's keys of each slot start, relative to the
    /// range; each thread then puts its own part's keys there (after the keys of the ranges
    /// before), and last, each thread sorts the runs of one stretch of the keys, cut between
    /// first slots, and writes their pairs.
    pub(crate) fn sort_parts(
        &mut self,
        parts: &mut [PartKeys],
        chunks: usize,
        bits: u32,
        slots: &Slots,
        out: &mut Vec<(ProxyId, ProxyId)>,
        order: Order,
    ) {
        let low = (1u64 << bits) - 1;
        let generations = slots.generations();
        let pair = move |k: u64| {
            let (a, b) = ((k >> bits) as u32, (k & low) as u32);
            (ProxyId::new(a, generations[a as usize]), ProxyId::new(b, generations[b as usize]))
        };
        let n: usize = parts.iter().map(|p| p.len).sum();
        // Every pair is overwritten: what `out` held is kept where it fits, not cleared.
        out.truncate(n);
        out.resize(n, (ProxyId::new(0, 0), ProxyId::new(0, 0)));
        if order == Order::Found {
            // Each chunk's stretch of `out`, in chunk order, written from the keys of the part
            // that took it: one job per chunk.
            self.owner.clear();
            self.owner.resize(chunks, (usize::MAX, 0, 0));
            for (p, part) in parts.iter().enumerate() {
                let mut start = 0;
                for &(c, end) in &part.chunks {
                    self.owner[c] = (p, start, end);
                    start = end;
                }
            }
            let mut jobs: Vec<WriteJob<'_>> = self.write_jobs.take();
            let mut rest = &mut out[..];
            for &(p, start, end) in &self.owner {
                if p != usize::MAX {
                    let (here, tail) = core::mem::take(&mut rest).split_at_mut(end - start);
                    rest = tail;
                    jobs.push((&parts[p].keys[start..end], here));
                }
            }
            par::run_on(parts.len(), &mut jobs, |(keys, here)| write_pairs(keys, here, pair));
            self.write_jobs.keep(jobs);
            return;
        }
        let threads = parts.len();
        let capacity = slots.capacity();
        let ranges = parts[0].ranges;
        // 1. Per slot range: the counts become where each part's keys of each slot go. Each
        // part's counts are cut by range; the slices are listed range by range, one per part.
        self.range_bases.clear();
        let mut base = 0;
        for r in 0..ranges.len() {
            self.range_bases.push(base);
            base += parts.iter().map(|p| p.range_keys[r]).sum::<usize>();
        }
        debug_assert_eq!(base, n);
        let mut rests: Vec<&mut [u32]> = self.count_rests.take();
        for part in parts.iter_mut() {
            debug_assert!(part.counted && part.counts.len() == capacity && part.ranges.len() == ranges.len());
            rests.push(&mut part.counts[..]);
        }
        let mut slices: Vec<&mut [u32]> = self.count_slices.take();
        for r in 0..ranges.len() {
            let width = ranges.start(r + 1) - ranges.start(r);
            for rest in &mut rests {
                let (here, tail) = core::mem::take(rest).split_at_mut(width);
                *rest = tail;
                slices.push(here);
            }
        }
        self.count_rests.keep(rests);
        let mut offsets: Vec<(&mut [&mut [u32]], usize)> = self.count_jobs.take();
        offsets.extend(slices.chunks_mut(threads).zip(self.range_bases.iter().copied()));
        par::run_on(threads, &mut offsets, |(counts, base)| slot_offsets(counts, *base as u32));
        self.count_jobs.keep(offsets);
        self.count_slices.keep(slices);
        // 2. Each part's keys to their places.
        let sorted = &mut self.buffers[0];
        // Every key is overwritten: only a longer buffer is filled.
        if sorted.len() < n {
            sorted.resize(n, 0);
        }
        let target = SortedKeys(sorted.as_mut_ptr(), n);
        par::run(parts, |part| part.scatter_keys(bits, &target));
        // 3. Stretches of about equal length, cut between first slots: runs sorted, pairs written.
        let sorted = &mut sorted[..n];
        let stretches = threads * PARTS_PER_THREAD;
        let cuts = &mut self.stretch_cuts;
        cuts.clear();
        cuts.push(0);
        for t in 1..stretches {
            let mut at = (n * t / stretches).max(cuts[cuts.len() - 1]);
            while at > 0 && at < n && sorted[at] >> bits == sorted[at - 1] >> bits {
                at += 1;
            }
            cuts.push(at);
        }
        cuts.push(n);
        let mut jobs: Vec<(&mut [u64], &mut [Pair])> = self.write_jobs.take();
        let (mut keys, mut pairs) = (&mut sorted[..], &mut out[..]);
        for w in cuts.windows(2) {
            let (k, k_rest) = core::mem::take(&mut keys).split_at_mut(w[1] - w[0]);
            let (p, p_rest) = core::mem::take(&mut pairs).split_at_mut(w[1] - w[0]);
            (keys, pairs) = (k_rest, p_rest);
            jobs.push((k, p));
        }
        par::run_on(threads, &mut jobs, |(keys, pairs)| {
            sort_runs(keys, bits);
            write_pairs(keys, pairs, pair);
        });
        self.write_jobs.keep(jobs);
    }
}

/// Writes the pair of each key into `out` (as many as fit).
#[inline(always)]
fn write_pairs(keys: &[u64], out: &mut [(ProxyId, ProxyId)], pair: impl Fn(u64) -> (ProxyId, ProxyId)) {
    for (o, &k) in out.iter_mut().zip(keys) {
        *o = pair(k);
    }
}

/// Turns the counts of one slot range, one slice per part (all of the same length), into
/// where each part's keys of each slot go, from `base` on: slot by slot, part by part, in one
/// pass over the slices (two parts, the usual case, read side by side).
fn slot_offsets(counts: &mut [&mut [u32]], base: u32) {
    let mut sum = base;
    match counts {
        [] => {}
        [one] => {
            for c in one.iter_mut() {
                let here = *c;
                *c = sum;
                sum += here;
            }
        }
        [first, second] => {
            for (c0, c1) in first.iter_mut().zip(second.iter_mut()) {
                let (k0, k1) = (*c0, *c1);
                *c0 = sum;
                *c1 = sum + k0;
                sum += k0 + k1;
            }
        }
        _ => {
            let len = counts[0].len();
            for i in 0..len {
                for c in counts.iter_mut() {
                    let here = c[i];
                    c[i] = sum;
                    sum += here;
                }
            }
        }
    }
}

/// How many slot ranges the pair keys are split into per thread, so that
/// [`PairSort::sort_ranges`] can hand each thread a run of ranges with about as many keys.
pub(crate) const RANGES_PER_THREAD: usize = 8;

/// Splits pair keys by their first slot into ranges that [`PairSort::sort_ranges`] sorts,
/// runs of them on one thread each: slot `a` is in range `min(⌊a · mult / 2³²⌋, ranges - 1)`, about
/// `capacity / ranges` slots a range (a multiply and a shift: the walks ask it once per entry).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SlotRanges {
    ranges: usize,
    capacity: usize,
    mult: u64,
}

impl SlotRanges {
    /// `ranges` ranges (at least one) over the slots below `capacity`.
    pub(crate) fn new(ranges: usize, capacity: usize) -> Self {
        let (ranges, capacity) = (ranges.max(1), capacity.max(1));
        Self { ranges, capacity, mult: ((ranges as u64) << 32).div_ceil(capacity as u64) }
    }

    /// How many ranges.
    pub(crate) fn len(self) -> usize {
        self.ranges
    }

    /// The range of slot `a`.
    #[inline(always)]
    pub(crate) fn of(self, a: u32) -> usize {
        ((u64::from(a) * self.mult) >> 32).min(self.ranges as u64 - 1) as usize
    }

    /// The first slot of range `r` (`capacity` from `r == len` on): the first `a` whose
    /// `⌊a · mult / 2³²⌋` reaches `r`.
    pub(crate) fn start(self, r: usize) -> usize {
        if r >= self.ranges {
            self.capacity
        } else {
            ((r as u64) << 32).div_ceil(self.mult).min(self.capacity as u64) as usize
        }
    }
}

/// One range's share of [`PairSort::sort_ranges`]: its counts and its keys in order.
#[derive(Clone, Debug, Default)]
pub(crate) struct RangeSort {
    counts: Vec<u32>,
    keys: Vec<u64>,
}

impl PairSort {
    /// Writes the pairs of the keys in `parts[w * ranges.len() + r]` (key slices by part `w`
    /// and slot range `r` of `ranges`, each key in the range of its first slot) into `out`
    /// (replaced), sorted,
    /// on up to `threads` threads: the ranges are cut into runs holding about as many keys
    /// each, and each thread sorts one run's keys (a counting sort on the first slot and
    /// [`sort_runs`], or a comparison sort when the run has many more slots than keys) into
    /// its own stretch of `out`. (Splitting the slots evenly would not do: a pair's first slot
    /// is the smaller of two, so low slots head most pairs.)
    pub(crate) fn sort_ranges(
        &mut self,
        parts: &[&[u64]],
        ranges: SlotRanges,
        threads: usize,
        bits: u32,
        slots: &Slots,
        out: &mut Vec<(ProxyId, ProxyId)>,
    ) {
        let low = (1u64 << bits) - 1;
        let generations = slots.generations();
        let pair = move |k: u64| {
            let (a, b) = ((k >> bits) as u32, (k & low) as u32);
            (ProxyId::new(a, generations[a as usize]), ProxyId::new(b, generations[b as usize]))
        };
        let per_part = ranges.len();
        debug_assert_eq!(parts.len() % per_part, 0);
        let in_range = |r: usize| parts.iter().skip(r).step_by(per_part).map(|k| k.len()).sum::<usize>();
        self.range_keys.clear();
        self.range_keys.extend((0..ranges.len()).map(in_range));
        let n: usize = self.range_keys.iter().sum();
        // Every pair is overwritten: what `out` held is kept where it fits, not cleared.
        out.truncate(n);
        out.resize(n, (ProxyId::new(0, 0), ProxyId::new(0, 0)));
        par::cut_by_weight(ranges.len(), threads, self.range_keys.iter().map(|&k| k as u64), &mut self.range_cuts);
        self.ranges.resize_with(self.range_cuts.len() - 1, RangeSort::default);
        let mut jobs: Vec<((usize, usize), &mut RangeSort, &mut [Pair])> = self.range_jobs.take();
        let mut rest = &mut out[..];
        for (cut, sort) in self.range_cuts.windows(2).zip(self.ranges.iter_mut()) {
            let keys = self.range_keys[cut[0]..cut[1]].iter().sum();
            let (here, tail) = core::mem::take(&mut rest).split_at_mut(keys);
            rest = tail;
            jobs.push(((cut[0], cut[1]), sort, here));
        }
        par::run(&mut jobs, |((first, end), sort, here)| {
            let (first, end) = (*first, *end);
            let keys = (first..end).flat_map(|r| parts.iter().skip(r).step_by(per_part).copied());
            let (lo, hi) = (ranges.start(first), ranges.start(end));
            let width = hi - lo;
            let k = here.len();
            let RangeSort { counts, keys: sorted } = &mut **sort;
            if width <= 2 * k + 4096 {
                // A counting sort on the first slot, then each run of one first slot sorted.
                counts.clear();
                counts.resize(width + 1, 0);
                for part in keys.clone() {
                    for &key in part {
                        counts[(key >> bits) as usize - lo] += 1;
                    }
                }
                let mut sum = 0;
                for c in counts.iter_mut() {
                    let here = *c;
                    *c = sum;
                    sum += here;
                }
                // Every key is overwritten: only a longer buffer is filled.
                if sorted.len() < k {
                    sorted.resize(k, 0);
                }
                let sorted = &mut sorted[..k];
                for part in keys {
                    for &key in part {
                        let c = &mut counts[(key >> bits) as usize - lo];
                        sorted[*c as usize] = key;
                        *c += 1;
                    }
                }
                sort_runs(sorted, bits);
            } else {
                sorted.clear();
                for part in keys {
                    sorted.extend_from_slice(part);
                }
                sorted.sort_unstable();
            }
            for (o, &key) in here.iter_mut().zip(sorted.iter()) {
                *o = pair(key);
            }
        });
        self.range_jobs.keep(jobs);
    }
}

/// Sorts each run of keys with the same first slot (the same bits above `b`'s), in keys
/// ordered by their first slot. A key found out of order moves back to its place if that is
/// at most [`SHORT_MOVE`] places away (the usual case: the grid's runs are short and nearly
/// sorted); otherwise its whole run is sorted, so a long run found in any order costs
/// `O(r log r)`. In order, the check costs one comparison per key.
fn sort_runs(keys: &mut [u64], bits: u32) {
    let mut i = 1;
    while i < keys.len() {
        let k = keys[i];
        if k > keys[i - 1] {
            i += 1;
            continue;
        }
        // Its place: after the last key before it that is smaller (the run's first key at the
        // latest, since the runs are in order).
        let floor = i.saturating_sub(SHORT_MOVE + 1);
        let place = match keys[floor..i].iter().rposition(|&p| p < k) {
            Some(j) => Some(floor + j + 1),
            None if floor == 0 => Some(0),
            None => None,
        };
        if let Some(j) = place {
            keys.copy_within(j..i, j + 1);
            keys[j] = k;
            i += 1;
        } else {
            let a = k >> bits;
            let start = keys[..i].iter().rposition(|&p| p >> bits != a).map_or(0, |s| s + 1);
            let end = keys[i..].iter().position(|&p| p >> bits != a).map_or(keys.len(), |e| i + e);
            keys[start..end].sort_unstable();
            i = end;
        }
    }
}

/// Counts the `P` digits of `digit` bits of every key above its low `base` bits into `P`
/// consecutive tables.
#[inline(always)]
fn count<const P: usize>(keys: &[u64], counts: &mut [u32], base: u32, digit: u32, mask: u64) {
    let size = 1usize << digit;
    let mut rest = counts;
    let tables: [&mut [u32]; P] = core::array::from_fn(|_| {
        let (table, tail) = core::mem::take(&mut rest).split_at_mut(size);
        rest = tail;
        table
    });
    let mut tables = tables;
    for &k in keys {
        for (p, table) in tables.iter_mut().enumerate() {
            table[((k >> (base + p as u32 * digit)) & mask) as usize] += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lore_geom::Aabb;

    /// `n` live slots, every third one removed and filled again (generation 1).
    fn slots(n: usize) -> Slots {
        let mut s = Slots::default();
        let ids: Vec<ProxyId> = (0..n).map(|_| s.insert(Aabb::point(glam::Vec2::ZERO).unwrap()).unwrap()).collect();
        for &id in ids.iter().step_by(3) {
            s.remove(id).unwrap();
        }
        for _ in ids.iter().step_by(3) {
            s.insert(Aabb::point(glam::Vec2::ZERO).unwrap()).unwrap();
        }
        s
    }

    fn sorted_pairs(keys: &[u64], bits: u32, slots: &Slots) -> Vec<(ProxyId, ProxyId)> {
        let mut out = Vec::new();
        PairSort::default().sort_into(&[keys], bits, slots, &mut out, Order::Ids, Threads::one());
        out
    }

    fn want(keys: &[u64], bits: u32, slots: &Slots) -> Vec<(ProxyId, ProxyId)> {
        let mut keys = keys.to_vec();
        keys.sort_unstable();
        keys.iter().map(|&k| (slots.id((k >> bits) as u32), slots.id((k & ((1 << bits) - 1)) as u32))).collect()
    }

    /// `n` distinct keys of slots below `2^bits` and `limit`, in a scrambled order.
    fn keys(n: u64, bits: u32, limit: u64) -> Vec<u64> {
        (0..n).map(|i| (((i * 7919) % limit) << bits) | ((i * 104_729 + i / limit) % limit)).collect()
    }

    #[test]
    fn one_two_and_three_passes_sort() {
        let s = slots((1 << 20) + 4096);
        // 10-bit slots: one pass.
        let k = keys(5000, 10, 1000);
        assert_eq!(sorted_pairs(&k, 10, &s), want(&k, 10, &s));
        // 17-bit slots, 131k keys: one pass of a 17-bit digit.
        let k = keys(131_000, 17, 100_003);
        assert_eq!(sorted_pairs(&k, 17, &s), want(&k, 17, &s));
        // 18-bit slots, 5,000 keys: two 9-bit digits (at most 14 bits for so few keys).
        let k = keys(5000, 18, 100_003);
        assert_eq!(sorted_pairs(&k, 18, &s), want(&k, 18, &s));
        // 30-bit slots, 2,000 keys: three 10-bit digits, all varying (slots around 2^20).
        let k: Vec<u64> = keys(2000, 30, 4096).iter().map(|&k| k + (((1 << 20) - 2048) << 30)).collect();
        assert_eq!(sorted_pairs(&k, 30, &s), want(&k, 30, &s));
        // 24-bit slots below 4,096: the top digit is shared, its pass skipped.
        let k = keys(3000, 24, 4096);
        assert_eq!(sorted_pairs(&k, 24, &s), want(&k, 24, &s));
    }

    #[test]
    fn runs_of_one_first_slot_are_sorted() {
        let s = slots(4096);
        // Every key with the same first slot: no pass moves anything, one run to sort.
        let mut k: Vec<u64> = (0..2000u64).map(|b| (7 << 12) | (4000 - b)).collect();
        assert_eq!(sorted_pairs(&k, 12, &s), want(&k, 12, &s));
        // A long reversed run among short ones, and runs already in order.
        k.extend((0..1000u64).map(|i| ((i % 300 + 8) << 12) | (i % 97 + 3000)));
        assert_eq!(sorted_pairs(&k, 12, &s), want(&k, 12, &s));
        // Few keys: the comparison sort.
        assert_eq!(sorted_pairs(&k[..100], 12, &s), want(&k[..100], 12, &s));
        assert!(sorted_pairs(&[], 12, &s).is_empty());
    }

    #[test]
    fn slot_ranges_cover_every_slot_once() {
        for (ranges, capacity) in [(1, 1), (2, 1), (2, 3), (2, 100_000), (3, 65_537), (7, 1000), (16, 1 << 20), (5, 3)]
        {
            let r = SlotRanges::new(ranges, capacity);
            assert_eq!(r.start(0), 0);
            assert_eq!(r.start(ranges), capacity);
            for a in (0..capacity).step_by(capacity / 5000 + 1).chain([capacity - 1]) {
                let i = r.of(a as u32);
                assert!(i < ranges);
                assert!(r.start(i) <= a && a < r.start(i + 1), "{ranges} {capacity}: slot {a} in range {i}");
            }
            // About even: no range more than one slot above its share, for big capacities.
            if capacity >= 1000 {
                for i in 0..ranges {
                    assert!(r.start(i + 1) - r.start(i) <= capacity / ranges + 2, "{ranges} {capacity} {i}");
                }
            }
        }
    }

    #[test]
    fn a_sorter_reused_across_calls_gives_the_same_answers() {
        let s = slots(1024);
        let mut sort = PairSort::default();
        let mut out = Vec::new();
        for round in 0..4u64 {
            let k = keys(700 + 900 * round, 10, 1000 - round);
            sort.sort_into(&[&k], 10, &s, &mut out, Order::Ids, Threads::one());
            assert_eq!(out, want(&k, 10, &s));
        }
    }
}
