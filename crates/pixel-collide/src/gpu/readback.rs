//! One submission's results on their way back: mapping the read-back buffer and turning the
//! answer words and exact areas into answers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::{BatchStats, Id};
use crate::Error;

/// Where one query's answer lies: its answer word (set by its pair pieces) and compute jobs
/// (exact counts: area queries, members that are meshes, every query when confirming hits).
#[derive(Clone, Copy, Debug)]
pub(super) struct QueryPlan {
    /// Pair pieces were drawn for it (its answer word, after the jobs' counts, is meaningful).
    pub(super) quads: bool,
    pub(super) jobs: (usize, usize),
    /// An area query.
    pub(super) area: bool,
}

/// A batch recorded into a caller's encoder, not yet read back.
#[derive(Debug)]
#[must_use = "call read_back after submitting the encoder"]
pub struct Recorded {
    pub(super) plan: Vec<QueryPlan>,
    pub(super) quads: usize,
    pub(super) jobs: usize,
    /// The jobs' counts, then one answer word per query.
    pub(super) read: Option<wgpu::Buffer>,
    pub(super) words: usize,
    /// Boxed: [`Pending::try_take`] hands a `Pending` back by value.
    pub(super) stats: Box<BatchStats>,
}

impl Recorded {
    /// Starts mapping the results; call after the encoder it was recorded into was submitted.
    pub fn read_back(self) -> Pending {
        let done = Arc::new(AtomicUsize::new(0));
        let failure = Arc::new(Mutex::new(None));
        if let Some(buffer) = &self.read {
            let (done, failure) = (done.clone(), failure.clone());
            buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                if let Err(e) = r {
                    *failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e.to_string());
                }
                done.fetch_add(1, Ordering::Release);
            });
        }
        Pending { recorded: self, done, failure }
    }

    /// Pair pieces recorded (after the footprint prefilter and tiling): one per candidate
    /// member and tile.
    pub fn slot_count(&self) -> usize {
        self.quads
    }

    /// The GPU commands the batch was recorded with.
    pub fn stats(&self) -> BatchStats {
        *self.stats
    }

    /// Exact-area jobs recorded.
    pub fn job_count(&self) -> usize {
        self.jobs
    }
}

/// Results on their way back from the GPU.
#[derive(Debug)]
pub struct Pending {
    recorded: Recorded,
    done: Arc<AtomicUsize>,
    failure: Arc<Mutex<Option<String>>>,
}

impl Pending {
    fn buffers(&self) -> usize {
        usize::from(self.recorded.read.is_some())
    }

    /// Blocks until the results are back (same-frame delivery).
    ///
    /// # Errors
    /// [`Error::ReadBack`] when the device is lost or the buffer cannot be mapped.
    pub fn wait(self, device: &wgpu::Device) -> Result<Results, Error> {
        while self.done.load(Ordering::Acquire) < self.buffers() {
            device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| Error::ReadBack(e.to_string()))?;
        }
        self.finish()
    }

    /// The results if they are back, without blocking (one-frame-later delivery: call it next
    /// frame); `Err(self)` hands the pending batch back otherwise.
    ///
    /// # Errors
    /// `Ok(Err(..))` as [`Pending::wait`].
    pub fn try_take(self, device: &wgpu::Device) -> Result<Result<Results, Error>, Self> {
        let _ = device.poll(wgpu::PollType::Poll);
        if self.done.load(Ordering::Acquire) < self.buffers() {
            return Err(self);
        }
        Ok(self.finish())
    }

    fn finish(self) -> Result<Results, Error> {
        if let Some(e) = self.failure.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take() {
            return Err(Error::ReadBack(e));
        }
        let mut words = Vec::new();
        if let Some(b) = &self.recorded.read {
            let view = b.slice(..).get_mapped_range().map_err(|e| Error::ReadBack(e.to_string()))?;
            words.extend(
                view.chunks_exact(4)
                    .take(self.recorded.words)
                    .map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default())),
            );
            drop(view);
            b.unmap();
        }
        let jobs = self.recorded.jobs;
        let answers = self
            .recorded
            .plan
            .iter()
            .enumerate()
            .map(|(q, p)| {
                let area: u64 =
                    (p.jobs.0..p.jobs.0 + p.jobs.1).map(|j| u64::from(words.get(j).copied().unwrap_or(0))).sum();
                let hit = p.quads && words.get(jobs + q).is_some_and(|&w| w != 0);
                Answer { overlaps: hit || area > 0, area: p.area.then_some(area) }
            })
            .collect();
        Ok(Results { answers, stats: *self.recorded.stats })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Answer {
    overlaps: bool,
    area: Option<u64>,
}

/// The answers of one batch, indexed by the query ids it handed out. Two results are equal when
/// their answers are (whatever their [`BatchStats`]).
#[derive(Clone, Debug)]
pub struct Results {
    answers: Vec<Answer>,
    stats: BatchStats,
}

impl PartialEq for Results {
    fn eq(&self, other: &Self) -> bool {
        self.answers == other.answers
    }
}

impl Eq for Results {}

impl Results {
    /// Whether query `q` found a shared solid pixel (false for an id not in the batch).
    pub fn overlaps(&self, q: Id) -> bool {
        self.answers.get(q.0).is_some_and(|a| a.overlaps)
    }

    /// The exact shared pixel count of an [`area`](crate::QueryBatch::area) query (`None` for other
    /// queries).
    pub fn area(&self, q: Id) -> Option<u64> {
        self.answers.get(q.0).and_then(|a| a.area)
    }

    /// The GPU commands the batch took (see [`BatchStats`]).
    pub fn stats(&self) -> BatchStats {
        self.stats
    }

    /// Number of answers.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether the batch held no query.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }
}
