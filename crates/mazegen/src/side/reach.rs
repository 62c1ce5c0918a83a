//! The reachability check: can a character with a level's [`Movement`] limits get from the start
//! to the exit, picking up keys on the way?
//!
//! It knows nothing of any physics engine. The character is an axis-aligned box; space is in
//! tiles, y down (row 0 at the top), so a tile `(x, y)` covers `[x, x + 1] × [y, y + 1]`.
//!
//! **Positions.** The search visits two kinds of rest positions: *standing* in column `c` with
//! its feet on the top edge of row `r + 1` (its centre at `c + 0.5`) on something that holds it
//! (solid ground, a one-way platform, a locked door, the top of a ladder, a lift at one of its
//! stops), and *climbing* a ladder tile `(c, r)` with its feet on the bottom edge of that tile.
//! A character is at most one tile wide, so at rest its box lies in one column.
//!
//! **Moves.**
//! - walk to the next column at the same height, or over a slope tile one row up or down;
//! - grab a ladder, climb it a tile at a time, climb off its top or step off its bottom;
//! - ride a lift from one stop to the other (waiting for it is allowed);
//! - arcs, followed in steps of at most 0.1 tile: a jump (take-off speed
//!   [`Movement::jump_speed`] up) at horizontal speeds 0, ±½ and ±1 times the run speed from
//!   the centre of a column, and at ±½ and ±1 outwards from the rim of a ledge (the last spot
//!   where the box is still held); a walk off a ledge at ±0.1, ±½ and ±1 times the run speed; a drop through a one-way platform at
//!   0, ±½ and ±1; letting go of a ladder sideways at ±½ and ±1. Gravity is
//!   [`Movement::gravity`]. An arc ends where the feet cross the top of something that holds
//!   them while falling (one-way platforms and ladder tops hold only from above); an arc that
//!   touches anything solid on the way (a wall, a ceiling, a slope, a locked door) is not
//!   credited at all. The check is therefore conservative: it never credits a bump off a
//!   ceiling or a slide along a wall, moves a controller may well allow.
//!
//! **Keys and doors.** Keys are never used up and a door or hatch of a held color is open (a
//! hatch becomes a ladder tile). The search runs in stages: each stage explores everything
//! reachable with the keys held, then takes the keys it found; positions whose moves were
//! blocked by a door of a new color are explored again. The search ends when a stage finds no
//! new key; the level is beaten when by then the exit was touched and every key of the level
//! picked up (a key that cannot be had is a broken level too).

use std::collections::VecDeque;

use super::{LevelTile, SideLevel};
use crate::error::{Error, MalformedError, Unbeatable};

/// What [`check_side`] found: which keys each stage of the search picked up and how much of
/// the level the character can reach.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideSolution {
    /// Key colors in the order the stages found them (within a stage, by color).
    pub key_order: Vec<u8>,
    /// The colors each stage found (sorted; the last stage finds none): stage `s` explores
    /// with the keys of stages `0..s` in hand.
    pub keys_per_stage: Vec<Vec<u8>>,
    /// Positions (standing or climbing) reached by the end of each stage.
    pub reached_per_stage: Vec<usize>,
}

/// Largest level the checker takes (tiles), to bound its memory.
const MAX_TILES: u64 = crate::config::MAX_NODES;

/// Proves a side-scroller level beatable: from the start, with the level's movement limits,
/// every key is picked up and the exit is touched (see the module documentation for the moves
/// credited).
///
/// ```
/// use lore_mazegen::{SideConfig, check_side, generate_side};
/// let level = generate_side(&SideConfig::default().seed(3))?;
/// let solution = check_side(&level)?;
/// let mut keys = solution.key_order.clone();
/// keys.sort_unstable();
/// assert_eq!(keys, vec![0, 1, 2]); // 4 zones, 3 doors, every key picked up
/// # Ok::<(), lore_mazegen::Error>(())
/// ```
///
/// # Errors
/// [`Error::Movement`] for bad movement limits; [`Error::Malformed`] when the tile list does
/// not match the size, the level is empty or over 2^26 tiles, or an object or lift lies outside
/// it; [`Error::Unbeatable`] with the reason when the exit cannot be reached.
pub fn check_side(level: &SideLevel) -> Result<SideSolution, Error> {
    level.movement.validate()?;
    let (w, h) = (level.width, level.height);
    if w == 0 || h == 0 || u64::from(w) * u64::from(h) > MAX_TILES {
        return Err(Error::Malformed(MalformedError::LevelSize { width: w, height: h }));
    }
    if level.tiles.len() != w as usize * h as usize {
        return Err(Error::Malformed(MalformedError::TileCount { tiles: level.tiles.len(), width: w, height: h }));
    }
    let inside = |(x, y): (u32, u32)| x < w && y < h;
    if !inside(level.start) || !inside(level.exit) || level.keys.iter().any(|&(_, at)| !inside(at)) {
        return Err(Error::Malformed(MalformedError::ObjectOutside));
    }
    for (index, lift) in level.lifts.iter().enumerate() {
        let ok = lift.width >= 1
            && u64::from(lift.x) + u64::from(lift.width) <= u64::from(w)
            && lift.top < lift.bottom
            && lift.bottom <= h
            && lift.period.is_finite()
            && lift.dwell.is_finite()
            && lift.dwell >= 0.0
            && lift.period > 2.0 * lift.dwell;
        if !ok {
            return Err(Error::Malformed(MalformedError::Lift { index }));
        }
    }
    Search::new(level).run()
}

/// A rest position: `(c, r)` and whether the character climbs a ladder there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pos {
    pub c: i64,
    pub r: i64,
    pub climbing: bool,
}

/// A small epsilon for half-open overlap tests (tiles are whole units).
const EPS: f32 = 1e-4;

/// The tile grid with a key set: what blocks, what holds, what is a ladder.
struct Space<'a> {
    level: &'a SideLevel,
    held: [bool; 256],
    /// Lift stops: `stop[y * width + x]` holds feet on the top edge of row `y` in column `x`.
    stop: Vec<bool>,
    /// Colors of locked doors touched by the last expansion.
    touched: [bool; 256],
    half_width: f32,
    body: f32,
}

impl<'a> Space<'a> {
    fn new(level: &'a SideLevel) -> Self {
        let (w, h) = (level.width as usize, level.height as usize);
        let mut stop = vec![false; w * (h + 1)];
        for lift in &level.lifts {
            for x in lift.x..lift.x + lift.width {
                for y in [lift.top, lift.bottom] {
                    if let Some(s) = stop.get_mut(y as usize * w + x as usize) {
                        *s = true;
                    }
                }
            }
        }
        Self {
            level,
            held: [false; 256],
            stop,
            touched: [false; 256],
            half_width: level.movement.size.x / 2.0,
            body: level.movement.size.y,
        }
    }

    fn tile(&self, x: i64, y: i64) -> Option<LevelTile> {
        if x < 0 || y < 0 {
            return None;
        }
        self.level.tile(x as u32, y as u32)
    }

    /// True when tile `(x, y)` stops a moving box (outside the level counts as solid).
    fn blocks(&mut self, x: i64, y: i64) -> bool {
        match self.tile(x, y) {
            None => true,
            Some(LevelTile::Solid | LevelTile::SlopeUp | LevelTile::SlopeDown) => true,
            Some(LevelTile::Door(c) | LevelTile::Hatch(c)) => {
                let locked = !self.held[usize::from(c)];
                if locked {
                    self.touched[usize::from(c)] = true;
                }
                locked
            }
            Some(LevelTile::Empty | LevelTile::OneWay | LevelTile::Ladder) => false,
        }
    }

    /// True when tile `(x, y)` can be climbed (a locked hatch is noted as touched).
    fn ladder(&mut self, x: i64, y: i64) -> bool {
        match self.tile(x, y) {
            Some(LevelTile::Ladder) => true,
            Some(LevelTile::Hatch(c)) => {
                let open = self.held[usize::from(c)];
                if !open {
                    self.touched[usize::from(c)] = true;
                }
                open
            }
            _ => false,
        }
    }

    /// True when feet on the top edge of row `y` in column `x` are held up (from above).
    fn holds(&mut self, x: i64, y: i64) -> bool {
        if x >= 0 && y >= 0 && (x as u64) < u64::from(self.level.width) {
            let i = y as usize * self.level.width as usize + x as usize;
            if self.stop.get(i).copied().unwrap_or(false) {
                return true;
            }
        }
        match self.tile(x, y) {
            None | Some(LevelTile::Empty | LevelTile::SlopeUp | LevelTile::SlopeDown) => false,
            Some(LevelTile::Solid | LevelTile::OneWay) => true,
            // A locked door is a floor; an open one is air.
            Some(LevelTile::Door(c)) => !self.held[usize::from(c)],
            Some(LevelTile::Ladder | LevelTile::Hatch(_)) => {
                if self.ladder(x, y) {
                    !self.ladder(x, y - 1)
                } else {
                    // A locked hatch is a floor.
                    true
                }
            }
        }
    }

    /// True when a box with feet at `fy` (y-down) and centre `cx` touches nothing that blocks.
    fn free(&mut self, cx: f32, fy: f32) -> bool {
        let (x0, x1) = ((cx - self.half_width + EPS).floor() as i64, (cx + self.half_width - EPS).floor() as i64);
        let (y0, y1) = ((fy - self.body + EPS).floor() as i64, (fy - EPS).floor() as i64);
        let mut free = true;
        for y in y0..=y1 {
            for x in x0..=x1 {
                // Keep scanning after a hit so every locked door in the way is noted.
                if self.blocks(x, y) {
                    free = false;
                }
            }
        }
        free
    }

    /// The body of a character at rest in column `c` with feet on the top edge of row `feet`
    /// touches nothing that blocks.
    fn column_free(&mut self, c: i64, feet: i64) -> bool {
        self.free(c as f32 + 0.5, feet as f32)
    }

    /// A valid standing position in column `c`, feet on the top of row `r + 1`.
    fn stands(&mut self, c: i64, r: i64) -> bool {
        self.column_free(c, r + 1) && self.holds(c, r + 1)
    }

    /// A valid climbing position on ladder tile `(c, r)`.
    fn climbs(&mut self, c: i64, r: i64) -> bool {
        self.ladder(c, r) && self.column_free(c, r + 1)
    }

    fn valid(&mut self, p: Pos) -> bool {
        if p.climbing { self.climbs(p.c, p.r) } else { self.stands(p.c, p.r) }
    }

    /// Where an arc from `(cx, fy)` with velocity `(vx, vy)` (y down) comes to rest, if it does
    /// without touching anything solid.
    fn arc(&mut self, cx: f32, fy: f32, vx: f32, vy: f32) -> Option<Pos> {
        let g = self.level.movement.gravity();
        let (mut x, mut y, mut vy) = (cx, fy, vy);
        if !self.free(x, y) {
            return None;
        }
        let bottom = self.level.height as f32 + self.body + 1.0;
        // Steps of 0.1 tile at most: an arc longer than 10,000 tiles is not credited (no room of a
        // generated level is nearly that tall).
        for _ in 0..100_000 {
            // The longest step that moves the box at most 0.1 tile along each axis, gravity
            // included (`|vy| dt + g dt² / 2 = 0.1`), so no tile is ever stepped over.
            let across = 0.1 / vx.abs().max(1e-3);
            let down = (-vy.abs() + (vy * vy + 0.2 * g).sqrt()) / g;
            let dt = across.min(down);
            let py = y;
            x += vx * dt;
            y += vy * dt + 0.5 * g * dt * dt;
            vy += g * dt;
            if y > bottom {
                return None;
            }
            if vy > 0.0 {
                let row = y.floor();
                if py <= row + 1e-6
                    && y >= row
                    && let Some(p) = self.landing(x, row as i64)
                {
                    return Some(p);
                }
            }
            if !self.free(x, y) {
                return None;
            }
        }
        None
    }

    /// The standing position of feet landing at `cx` on the top edge of row `row`, if something
    /// under the box holds them there.
    fn landing(&mut self, cx: f32, row: i64) -> Option<Pos> {
        let (x0, x1) = ((cx - self.half_width + EPS).floor() as i64, (cx + self.half_width - EPS).floor() as i64);
        if !(x0..=x1).any(|x| self.holds(x, row)) {
            return None;
        }
        if !self.free(cx, row as f32) {
            return None;
        }
        let home = cx.floor() as i64;
        let other = if home == x0 { x1 } else { x0 };
        [home, other].into_iter().find(|&c| self.stands(c, row - 1)).map(|c| Pos { c, r: row - 1, climbing: false })
    }

    /// Every position one move away from `p` (with the keys held now), with the move.
    fn moves(&mut self, p: Pos, out: &mut Vec<(Pos, SideMove)>) {
        let m = self.level.movement;
        let run = m.run_speed;
        let (c, r) = (p.c, p.r);
        let feet = (r + 1) as f32;
        let centre = c as f32 + 0.5;
        let mut push = |s: &mut Self, q: Pos, how: SideMove| {
            if s.valid(q) {
                out.push((q, how));
            }
        };
        if p.climbing {
            push(self, Pos { c, r: r - 1, climbing: true }, SideMove::Climb);
            push(self, Pos { c, r: r + 1, climbing: true }, SideMove::Climb);
            // Off the top (standing on the ladder's top tile) or the bottom.
            push(self, Pos { c, r: r - 1, climbing: false }, SideMove::ClimbOff);
            push(self, Pos { c, r, climbing: false }, SideMove::ClimbOff);
            for dir in [-1.0f32, 1.0] {
                for share in [0.5, 1.0] {
                    let vx = dir * share * run;
                    if let Some(q) = self.arc(centre, feet, vx, 0.0) {
                        out.push((q, SideMove::LetGo { vx }));
                    }
                }
            }
            return;
        }
        // Walking and grabbing ladders.
        for dc in [-1, 1] {
            push(self, Pos { c: c + dc, r, climbing: false }, SideMove::Walk);
        }
        push(self, Pos { c, r, climbing: true }, SideMove::Grab);
        push(self, Pos { c, r: r + 1, climbing: true }, SideMove::Grab);
        // Slopes: up to the right over a `/` at (c + 1, r), down to the right over a `\` at
        // (c + 1, r + 1), and the mirror images.
        for dir in [-1i64, 1] {
            let next = c + dir;
            let (up, down) = if dir == 1 {
                (LevelTile::SlopeUp, LevelTile::SlopeDown)
            } else {
                (LevelTile::SlopeDown, LevelTile::SlopeUp)
            };
            if self.tile(next, r) == Some(up) && self.column_free(next, r) && self.stands(c + 2 * dir, r - 1) {
                out.push((Pos { c: c + 2 * dir, r: r - 1, climbing: false }, SideMove::Walk));
            }
            if self.tile(next, r + 1) == Some(down) && self.column_free(next, r + 1) && self.stands(c + 2 * dir, r + 1)
            {
                out.push((Pos { c: c + 2 * dir, r: r + 1, climbing: false }, SideMove::Walk));
            }
        }
        // Lifts: ride from one stop to the other.
        for i in 0..self.level.lifts.len() {
            let lift = self.level.lifts[i];
            if c < i64::from(lift.x) || c >= i64::from(lift.x + lift.width) {
                continue;
            }
            let (top, bottom) = (i64::from(lift.top), i64::from(lift.bottom));
            let to = if r + 1 == top {
                bottom
            } else if r + 1 == bottom {
                top
            } else {
                continue;
            };
            let sweep = (top..=bottom).all(|f| self.column_free(c, f));
            if sweep && self.stands(c, to - 1) {
                out.push((Pos { c, r: to - 1, climbing: false }, SideMove::Lift { index: i as u32 }));
            }
        }
        // Jumps.
        let jump = m.jump_speed();
        for share in [-1.0f32, -0.5, 0.0, 0.5, 1.0] {
            if let Some(q) = self.arc(centre, feet, share * run, -jump) {
                out.push((q, SideMove::Jump { from: centre, vx: share * run }));
            }
        }
        // At the edge of a ledge: jump from the last spot where the box is still held, or walk
        // off from where it leaves the ground.
        for dir in [-1i64, 1] {
            if !self.holds(c + dir, r + 1) {
                let rim = centre + dir as f32 * (0.5 + self.half_width - 0.01);
                for share in [0.5f32, 1.0] {
                    let vx = dir as f32 * share * run;
                    if let Some(q) = self.arc(rim, feet, vx, -jump) {
                        out.push((q, SideMove::Jump { from: rim, vx }));
                    }
                }
                let edge = centre + dir as f32 * (0.5 + self.half_width);
                for share in [0.1f32, 0.5, 1.0] {
                    let vx = dir as f32 * share * run;
                    if let Some(q) = self.arc(edge, feet, vx, 0.0) {
                        out.push((q, SideMove::WalkOff { from: edge, vx }));
                    }
                }
            }
        }
        // Dropping through a one-way platform.
        if self.tile(c, r + 1) == Some(LevelTile::OneWay) {
            for share in [-1.0f32, -0.5, 0.0, 0.5, 1.0] {
                if let Some(q) = self.arc(centre, feet + 0.01, share * run, 0.0) {
                    out.push((q, SideMove::Drop { vx: share * run }));
                }
            }
        }
    }

    /// True when the box at rest at `p` overlaps tile `(x, y)`.
    fn touches(&self, p: Pos, (x, y): (u32, u32)) -> bool {
        let top = ((p.r + 1) as f32 - self.body + EPS).floor() as i64;
        i64::from(x) == p.c && (top..=p.r).contains(&i64::from(y))
    }
}

/// The staged breadth-first search.
struct Search<'a> {
    space: Space<'a>,
    width: i64,
    seen: Vec<bool>,
    queue: VecDeque<Pos>,
    /// Positions to explore again once a key of this color is held.
    waiting: Vec<Vec<Pos>>,
}

impl<'a> Search<'a> {
    fn new(level: &'a SideLevel) -> Self {
        let n = level.width as usize * level.height as usize * 2;
        Self {
            space: Space::new(level),
            width: i64::from(level.width),
            seen: vec![false; n],
            queue: VecDeque::new(),
            waiting: vec![Vec::new(); 256],
        }
    }

    fn index(&self, p: Pos) -> Option<usize> {
        let h = i64::from(self.space.level.height);
        (p.c >= 0 && p.r >= 0 && p.c < self.width && p.r < h)
            .then(|| ((p.r * self.width + p.c) * 2 + i64::from(p.climbing)) as usize)
    }

    fn run(mut self) -> Result<SideSolution, Error> {
        let level = self.space.level;
        let start = Pos { c: i64::from(level.start.0), r: i64::from(level.start.1), climbing: false };
        if !self.space.stands(start.c, start.r) {
            return Err(Error::Unbeatable(Unbeatable::StartBlocked { at: level.start }));
        }
        let mut key_order = Vec::new();
        let mut keys_per_stage = Vec::new();
        let mut reached_per_stage = Vec::new();
        let mut reached = 0usize;
        let mut found = [false; 256];
        let mut exit = false;
        if let Some(i) = self.index(start) {
            self.seen[i] = true;
            reached += 1;
            self.queue.push_back(start);
        }
        let mut next = Vec::new();
        loop {
            while let Some(p) = self.queue.pop_front() {
                for &(color, at) in &level.keys {
                    if self.space.touches(p, at) {
                        found[usize::from(color)] = true;
                    }
                }
                exit |= self.space.touches(p, level.exit);
                self.space.touched = [false; 256];
                next.clear();
                self.space.moves(p, &mut next);
                for (color, &t) in self.space.touched.iter().enumerate() {
                    if t && !self.space.held[color] {
                        self.waiting[color].push(p);
                    }
                }
                for &(q, _) in &next {
                    if let Some(i) = self.index(q)
                        && !self.seen[i]
                    {
                        self.seen[i] = true;
                        reached += 1;
                        self.queue.push_back(q);
                    }
                }
            }
            reached_per_stage.push(reached);
            let new: Vec<u8> =
                (0..=255u8).filter(|&c| found[usize::from(c)] && !self.space.held[usize::from(c)]).collect();
            keys_per_stage.push(new.clone());
            if new.is_empty() {
                let all_keys = level.keys.iter().all(|&(c, _)| self.space.held[usize::from(c)]);
                if exit && all_keys {
                    return Ok(SideSolution { key_order, keys_per_stage, reached_per_stage });
                }
                return Err(Error::Unbeatable(self.why(exit)));
            }
            for &c in &new {
                self.space.held[usize::from(c)] = true;
                let again = std::mem::take(&mut self.waiting[usize::from(c)]);
                self.queue.extend(again);
            }
            key_order.extend(new);
        }
    }

    /// Why the search stopped short of the exit or of a key (`exit`: the exit was touched).
    fn why(&self, exit: bool) -> Unbeatable {
        let level = self.space.level;
        let held: Vec<u8> = (0..=255u8).filter(|&c| self.space.held[usize::from(c)]).collect();
        let mut locked: Vec<u8> =
            level.tiles.iter().filter_map(|t| t.lock_color()).filter(|&c| !self.space.held[usize::from(c)]).collect();
        locked.sort_unstable();
        locked.dedup();
        // The first color still locked says where the search ran dry; then any key left.
        if !exit && let Some(&color) = locked.first() {
            return match level.keys.iter().find(|&&(c, _)| c == color) {
                Some(&(_, at)) => Unbeatable::KeyUnreachable { color, at, held },
                None => Unbeatable::NoKey { color },
            };
        }
        match level.keys.iter().find(|&&(c, _)| !self.space.held[usize::from(c)]) {
            Some(&(color, at)) => Unbeatable::KeyUnreachable { color, at, held },
            None => Unbeatable::ExitUnreachable { at: level.exit },
        }
    }
}

/// How a route moves from one rest position to the next: the moves [`check_side`] credits (see
/// the module documentation), with what a player has to do for each. Speeds are in tiles per
/// second (positive to the right), positions in tiles from the level's left edge.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum SideMove {
    /// Walk to the next column at the same height, or over a slope tile one row up or down.
    Walk,
    /// Grab a ladder: the one the body is in, or the one just under the feet.
    Grab,
    /// Climb one ladder tile up or down.
    Climb,
    /// Climb off a ladder's top, or step off its bottom, standing.
    ClimbOff,
    /// Let go of a ladder sideways at `vx`, falling.
    LetGo {
        /// Horizontal speed.
        vx: f32,
    },
    /// Ride lift `index` (of [`SideLevel::lifts`]) to its other stop.
    Lift {
        /// The lift.
        index: u32,
    },
    /// Jump with the centre at `from`, moving at `vx`.
    Jump {
        /// Centre at take-off.
        from: f32,
        /// Horizontal speed.
        vx: f32,
    },
    /// Walk off a ledge, leaving the ground with the centre at `from`, moving at `vx`.
    WalkOff {
        /// Centre where the box leaves the ground.
        from: f32,
        /// Horizontal speed.
        vx: f32,
    },
    /// Drop through the one-way platform underfoot, moving at `vx`.
    Drop {
        /// Horizontal speed.
        vx: f32,
    },
}

/// A rest position of the character: standing in `column` with its feet on the top edge of
/// row `row + 1`, or climbing the ladder tile `(column, row)` with its feet on its bottom edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RestPos {
    /// Column of the body.
    pub column: u32,
    /// Row of the body's lowest tile.
    pub row: u32,
    /// Climbing a ladder rather than standing.
    pub climbing: bool,
}

/// One step of a route: the move and where it comes to rest.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RouteStep {
    /// The move.
    pub how: SideMove,
    /// Where it ends.
    pub to: RestPos,
}

/// One leg of a [`SideRoute`]: the steps to a key (its color) or to the exit (`None`).
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RouteLeg {
    /// The key this leg picks up, or `None` for the leg to the exit.
    pub key: Option<u8>,
    /// The tile it ends on.
    pub target: (u32, u32),
    /// The moves, in order.
    pub steps: Vec<RouteStep>,
}

/// A route through a side-scroller level: from the start to every key in the order
/// [`check_side`] found them, then to the exit, each leg a shortest sequence of credited moves.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SideRoute {
    /// The rest position at the start.
    pub start: RestPos,
    /// The legs in order (the last one to the exit).
    pub legs: Vec<RouteLeg>,
}

/// The route [`check_side`]'s moves give through `level`: every key in key order, then the
/// exit. Keys whose tiles a leg passes are counted as held from the end of that leg on.
///
/// ```
/// use lore_mazegen::{SideConfig, generate_side, route_side};
/// let level = generate_side(&SideConfig::default().seed(3))?;
/// let route = route_side(&level)?;
/// assert_eq!(route.legs.len(), 4); // three keys, then the exit
/// assert_eq!(route.legs[3].target, level.exit);
/// # Ok::<(), lore_mazegen::Error>(())
/// ```
///
/// # Errors
/// As [`check_side`]; [`Error::Unbeatable`] (the exit) if a leg finds no way, which a level
/// that passed the check never gives.
pub fn route_side(level: &SideLevel) -> Result<SideRoute, Error> {
    let solution = check_side(level)?;
    let start = RestPos { column: level.start.0, row: level.start.1, climbing: false };
    let mut held = Vec::new();
    let mut legs = Vec::new();
    let mut at = start;
    let mut targets: Vec<(Option<u8>, (u32, u32))> = Vec::new();
    for &color in &solution.key_order {
        if let Some(&(_, tile)) = level.keys.iter().find(|&&(c, _)| c == color) {
            targets.push((Some(color), tile));
        }
    }
    targets.push((None, level.exit));
    for (key, target) in targets {
        if key.is_some_and(|c| held.contains(&c)) {
            continue;
        }
        let steps =
            route_leg(level, at, &held, target).ok_or(Error::Unbeatable(Unbeatable::ExitUnreachable { at: target }))?;
        // Every key the leg touches is held from now on.
        let space = Space::new(level);
        for p in std::iter::once(at).chain(steps.iter().map(|s| s.to)) {
            let p = Pos { c: i64::from(p.column), r: i64::from(p.row), climbing: p.climbing };
            for &(c, tile) in &level.keys {
                if space.touches(p, tile) && !held.contains(&c) {
                    held.push(c);
                }
            }
        }
        if let Some(c) = key
            && !held.contains(&c)
        {
            held.push(c);
        }
        if let Some(last) = steps.last() {
            at = last.to;
        }
        legs.push(RouteLeg { key, target, steps });
    }
    Ok(SideRoute { start, legs })
}

/// A shortest sequence of credited moves from `from` to a rest position touching tile
/// `target`, holding the keys `held`; `None` when there is none, when `from` is not a valid
/// rest position or the level is malformed (see [`check_side`]). An empty sequence when `from`
/// touches the target already.
#[must_use]
pub fn route_leg(level: &SideLevel, from: RestPos, held: &[u8], target: (u32, u32)) -> Option<Vec<RouteStep>> {
    if level.movement.validate().is_err()
        || level.width == 0
        || level.height == 0
        || level.tiles.len() != level.width as usize * level.height as usize
        || u64::from(level.width) * u64::from(level.height) > MAX_TILES
    {
        return None;
    }
    let mut space = Space::new(level);
    for &c in held {
        space.held[usize::from(c)] = true;
    }
    let (w, h) = (i64::from(level.width), i64::from(level.height));
    let index = |p: Pos| {
        (p.c >= 0 && p.r >= 0 && p.c < w && p.r < h).then(|| ((p.r * w + p.c) * 2 + i64::from(p.climbing)) as usize)
    };
    let start = Pos { c: i64::from(from.column), r: i64::from(from.row), climbing: from.climbing };
    if !space.valid(start) {
        return None;
    }
    let mut parent: Vec<Option<(usize, SideMove)>> = vec![None; (w * h * 2) as usize];
    let mut seen = vec![false; (w * h * 2) as usize];
    let mut queue = VecDeque::new();
    let first = index(start)?;
    seen[first] = true;
    queue.push_back(start);
    let mut next = Vec::new();
    let decode = |i: usize| {
        let climbing = i % 2 == 1;
        let cell = (i / 2) as i64;
        Pos { c: cell % w, r: cell / w, climbing }
    };
    while let Some(p) = queue.pop_front() {
        if space.touches(p, target) {
            let mut steps = Vec::new();
            let mut i = index(p)?;
            while let Some((prev, how)) = parent[i] {
                let q = decode(i);
                steps
                    .push(RouteStep { how, to: RestPos { column: q.c as u32, row: q.r as u32, climbing: q.climbing } });
                i = prev;
            }
            steps.reverse();
            return Some(steps);
        }
        next.clear();
        space.moves(p, &mut next);
        let from = index(p)?;
        for &(q, how) in &next {
            if let Some(i) = index(q)
                && !seen[i]
            {
                seen[i] = true;
                parent[i] = Some((from, how));
                queue.push_back(q);
            }
        }
    }
    None
}
