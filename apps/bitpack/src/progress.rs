//! A progress bar on stderr, drawn only where someone can see it.

use std::io::{IsTerminal, Write};

use clap::ValueEnum;

/// When to draw the bar.
#[derive(Clone, Copy, Debug, ValueEnum, PartialEq, Eq)]
pub enum When {
    /// Only when stderr is a terminal (not a pipe, a file or a CI log).
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// Progress of `total` units of work, drawn as a 25-step bar with a percentage.
pub struct Progress {
    total: u64,
    done: u64,
    shown: u64,
    draw: bool,
}

impl Progress {
    /// A bar for `total` units; drawn when `when` says so and the work is long enough to need one.
    pub fn new(total: u64, when: When) -> Self {
        let draw = match when {
            When::Auto => std::io::stderr().is_terminal(),
            When::Always => true,
            When::Never => false,
        };
        Progress { total: total.max(1), done: 0, shown: u64::MAX, draw: draw && total >= 64 }
    }

    /// Counts `n` more units done.
    pub fn step(&mut self, n: u64) {
        self.done = (self.done + n).min(self.total);
        let pct = self.done * 100 / self.total;
        if self.draw && pct != self.shown {
            self.shown = pct;
            let filled = (pct / 4) as usize;
            eprint!("\r[{}{}] {pct:3}%", "#".repeat(filled), " ".repeat(25 - filled.min(25)));
            let _ = std::io::stderr().flush();
        }
    }

    /// Ends the bar's line (once everything is done).
    pub fn done(&mut self) {
        if self.draw && self.shown != u64::MAX {
            self.step(self.total);
            eprintln!();
            self.draw = false;
        }
    }
}
