//! One submission's results on their way back: mapping the read-back buffers and turning
//! occlusion counts and exact areas into answers.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::{Id, SLOTS_PER_SET};
use crate::Error;

/// Where one query's answer lies: its occlusion slots and compute jobs.
#[derive(Clone, Copy, Debug)]
pub(super) struct QueryPlan {
    pub(super) slots: (usize, usize),
    pub(super) jobs: (usize, usize),
    /// An area query.
    pub(super) area: bool,
    /// Answered by the exact count (area queries, and every query when confirming hits).
    pub(super) exact: bool,
}

/// A batch recorded into a caller's encoder, not yet read back.
#[derive(Debug)]
#[must_use = "call read_back after submitting the encoder"]
pub struct Recorded {
    pub(super) plan: Vec<QueryPlan>,
    pub(super) slots: usize,
    pub(super) jobs: usize,
    pub(super) occlusion: Option<wgpu::Buffer>,
    pub(super) counts: Option<wgpu::Buffer>,
}

impl Recorded {
    /// Starts mapping the results; call after the encoder it was recorded into was submitted.
    pub fn read_back(self) -> Pending {
        let done = Arc::new(AtomicUsize::new(0));
        let failure = Arc::new(Mutex::new(None));
        for buffer in [&self.occlusion, &self.counts].into_iter().flatten() {
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

    /// Occlusion slots recorded (after the bounding-rectangle prefilter and tiling).
    pub fn slot_count(&self) -> usize {
        self.slots
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
        usize::from(self.recorded.occlusion.is_some()) + usize::from(self.recorded.counts.is_some())
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
        let read = |b: &Option<wgpu::Buffer>, n: usize, size: usize| -> Result<Vec<u8>, Error> {
            match b {
                None => Ok(Vec::new()),
                Some(b) => {
                    let view = b.slice(..).get_mapped_range().map_err(|e| Error::ReadBack(e.to_string()))?;
                    let bytes = view[..n * size].to_vec();
                    drop(view);
                    b.unmap();
                    Ok(bytes)
                }
            }
        };
        let occ_bytes = read(&self.recorded.occlusion, self.recorded.slots.div_ceil(SLOTS_PER_SET) * SLOTS_PER_SET, 8)?;
        let cnt_bytes = read(&self.recorded.counts, self.recorded.jobs, 4)?;
        let occ: Vec<u64> =
            occ_bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default())).collect();
        let cnt: Vec<u32> =
            cnt_bytes.chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap_or_default())).collect();
        let answers = self
            .recorded
            .plan
            .iter()
            .map(|p| {
                let occluded = (p.slots.0..p.slots.0 + p.slots.1).any(|s| occ.get(s).is_some_and(|&v| v != 0));
                let area: u64 =
                    (p.jobs.0..p.jobs.0 + p.jobs.1).map(|j| u64::from(cnt.get(j).copied().unwrap_or(0))).sum();
                let overlaps = if p.exact { area > 0 } else { occluded };
                Answer { overlaps, area: p.area.then_some(area) }
            })
            .collect();
        Ok(Results { answers })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Answer {
    overlaps: bool,
    area: Option<u64>,
}

/// The answers of one batch, indexed by the query ids it handed out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Results {
    answers: Vec<Answer>,
}

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

    /// Number of answers.
    pub fn len(&self) -> usize {
        self.answers.len()
    }

    /// Whether the batch held no query.
    pub fn is_empty(&self) -> bool {
        self.answers.is_empty()
    }
}
