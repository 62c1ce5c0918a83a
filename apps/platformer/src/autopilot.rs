//! The autopilot: plays the game through the same [`Input`] a person gives it.
//!
//! It follows the level's route ([`lore_mazegen::route_side`]: the moves lore-mazegen's
//! reachability check credits, through every key in key order to the exit) one move at a time:
//! it walks to where a move starts, presses the keys the move needs (run, jump, down to drop
//! through or climb, up to climb) and, in the air, presses run whenever the player falls behind
//! the move's horizontal speed (so half speed is every other frame, as a person taps a key).
//! When a move ends somewhere else than planned, or takes too long, it plans the rest of the
//! leg again from where the player stands ([`lore_mazegen::route_leg`]). It shoots enemies
//! ahead on the player's level.

use glam::{Vec2, vec2};
use lore_mazegen::{RestPos, RouteStep, SideMove, route_leg};
use lore_render::demo::DT;
use lore_render::{Input, Key};

use crate::game::Game;

/// How close (tiles) to a horizontal target counts as there: half a step of running.
const ALIGN: f32 = 0.07;

/// Frames one move may take before the autopilot plans again.
const MOVE_FRAMES: u32 = 420;

/// Re-plans of one leg before the autopilot gives up on the level.
const MAX_REPLANS: u32 = 12;

/// How far (tiles) the autopilot shoots.
pub const SHOOT_RANGE: f32 = 7.0;

#[derive(Clone, Copy, Debug, PartialEq)]
enum Phase {
    /// Getting to where the move starts (or waiting for a lift).
    Prepare,
    /// The move itself, `frames` steps in, `airborne` once it left the ground.
    Act { frames: u32, airborne: bool, x0: f32 },
}

/// The autopilot's state: where it is along the route of the current level.
#[derive(Clone, Debug)]
pub struct Autopilot {
    level: Option<u32>,
    leg: usize,
    steps: Vec<RouteStep>,
    step: usize,
    from: RestPos,
    phase: Phase,
    frames_on_move: u32,
    replans: u32,
    jump_was_down: bool,
    stuck: Option<String>,
    misses: Vec<Miss>,
}

/// A move that did not end where the route said (or took too long), after which the autopilot
/// planned the rest of the leg again.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Miss {
    /// Level number.
    pub level: u32,
    /// The move.
    pub how: SideMove,
    /// Where it was to end.
    pub planned: RestPos,
    /// The tile the player was on instead.
    pub tile: Option<(u32, u32)>,
    /// Whether it took too long rather than ending elsewhere.
    pub timed_out: bool,
}

impl Default for Autopilot {
    fn default() -> Self {
        Self::new()
    }
}

impl Autopilot {
    /// An autopilot at the start of the first level.
    #[must_use]
    pub fn new() -> Self {
        Self {
            level: None,
            leg: 0,
            steps: Vec::new(),
            step: 0,
            from: RestPos { column: 0, row: 0, climbing: false },
            phase: Phase::Prepare,
            frames_on_move: 0,
            replans: 0,
            jump_was_down: false,
            stuck: None,
            misses: Vec::new(),
        }
    }

    /// Every move of the run that did not end where the route said, in order.
    #[must_use]
    pub fn misses(&self) -> &[Miss] {
        &self.misses
    }

    /// Why the autopilot gave up on the current level, if it did (it then stands still).
    #[must_use]
    pub fn stuck(&self) -> Option<&str> {
        self.stuck.as_deref()
    }

    /// The leg of the route it follows (0 is the way to the first key).
    #[must_use]
    pub fn leg(&self) -> usize {
        self.leg
    }

    /// Times it planned a leg again in the current level.
    #[must_use]
    pub fn replans(&self) -> u32 {
        self.replans
    }

    /// The rest positions still ahead on the current leg, as world points (for drawing).
    pub fn ahead<'a>(&'a self, game: &'a Game) -> impl Iterator<Item = Vec2> + 'a {
        self.steps[self.step.min(self.steps.len())..].iter().map(move |s| rest_point(game, s.to))
    }

    /// The input for the next step of `game`.
    pub fn input(&mut self, game: &Game) -> Input {
        let level = game.stats().level;
        if self.level != Some(level) {
            self.level = Some(level);
            self.leg = 0;
            self.replans = 0;
            self.stuck = None;
            self.load_leg(game);
        }
        let mut input = Input::default();
        if self.stuck.is_none() {
            self.drive(game, &mut input);
        }
        self.shoot(game, &mut input);
        self.jump_was_down = input.key_down(Key::Space);
        input
    }

    fn load_leg(&mut self, game: &Game) {
        let route = &game.level().route;
        self.step = 0;
        self.phase = Phase::Prepare;
        self.frames_on_move = 0;
        match route.legs.get(self.leg) {
            Some(leg) => {
                self.steps.clone_from(&leg.steps);
                self.from = if self.leg == 0 {
                    route.start
                } else {
                    route.legs[self.leg - 1].steps.last().map_or(route.start, |s| s.to)
                };
            }
            None => self.steps.clear(),
        }
    }

    /// Plans the rest of the current leg from where the player is.
    fn replan(&mut self, game: &Game, why: &str) {
        self.replans += 1;
        if let Some(step) = self.steps.get(self.step) {
            self.misses.push(Miss {
                level: game.stats().level,
                how: step.how,
                planned: step.to,
                tile: game.level().tile_of(game.player().pos),
                timed_out: why.contains("too long"),
            });
        }
        let route = &game.level().route;
        let Some(leg) = route.legs.get(self.leg) else { return };
        if self.replans > MAX_REPLANS * (self.leg as u32 + 1) {
            let tile = game.level().tile_of(game.player().pos);
            self.stuck = Some(format!("stuck at tile {tile:?} on leg {} ({why})", self.leg));
            return;
        }
        let held: Vec<u8> = game.keys_held().collect();
        for from in rest_candidates(game) {
            if let Some(steps) = route_leg(&game.level().side, from, &held, leg.target) {
                self.steps = steps;
                self.step = 0;
                self.from = from;
                self.phase = Phase::Prepare;
                self.frames_on_move = 0;
                return;
            }
        }
        // Not at a rest position (in the air, say): try again next frame.
        self.phase = Phase::Prepare;
        self.frames_on_move = 0;
    }

    fn next_move(&mut self, game: &Game) {
        if let Some(s) = self.steps.get(self.step) {
            self.from = s.to;
        }
        self.step += 1;
        self.phase = Phase::Prepare;
        self.frames_on_move = 0;
        if self.step >= self.steps.len() {
            self.leg += 1;
            self.load_leg(game);
        }
    }

    fn drive(&mut self, game: &Game, input: &mut Input) {
        let p = *game.player();
        let Some(&step) = self.steps.get(self.step) else {
            // The leg is done (or empty): the next leg, or stand still at the end.
            if self.leg < game.level().route.legs.len() {
                self.leg += 1;
                self.load_leg(game);
            }
            return;
        };
        self.frames_on_move += 1;
        if self.frames_on_move > MOVE_FRAMES {
            self.replan(game, "a move took too long");
            return;
        }
        let from_x = self.from.column as f32 + 0.5;
        let to = rest_point(game, step.to);
        let feet = p.pos.y - game.player_size().y / 2.0;
        match step.how {
            SideMove::Walk => {
                if self.phase == Phase::Prepare && lift_stop(game, step.to).is_some_and(|ok| !ok) {
                    return; // wait for the lift to be there
                }
                self.phase = Phase::Act { frames: 0, airborne: false, x0: p.pos.x };
                let dx = to.x - p.pos.x;
                if dx.abs() > ALIGN {
                    run(input, dx);
                } else if p.grounded && (feet - to.y).abs() < 0.3 {
                    self.next_move(game);
                }
            }
            SideMove::Grab => {
                if p.climbing {
                    self.next_move(game);
                } else if step.to.row > self.from.row {
                    input.press_key(Key::Down);
                } else {
                    input.press_key(Key::Up);
                }
            }
            SideMove::Climb => {
                let dy = to.y - feet;
                if !p.climbing {
                    self.replan(game, "fell off a ladder");
                } else if dy.abs() > 0.035 {
                    input.press_key(if dy > 0.0 { Key::Up } else { Key::Down });
                } else {
                    self.next_move(game);
                }
            }
            SideMove::ClimbOff => {
                if !p.climbing && p.grounded {
                    self.check_arrival(game, step.to);
                } else if step.to.row < self.from.row {
                    input.press_key(Key::Up);
                } else {
                    input.press_key(Key::Down);
                }
            }
            SideMove::Lift { .. } => {
                // At the other stop: on the lift resting there, or on the floor the lower stop
                // lies on (no lift needed there).
                if p.grounded && (feet - to.y).abs() < 0.05 && lift_stop(game, step.to) != Some(false) {
                    self.next_move(game);
                }
            }
            SideMove::Jump { from, vx } => self.arc(game, input, from, vx, Launch::Jump),
            // Walked off from the column's centre at the move's speed: the box leaves the ground
            // where the move says it does.
            SideMove::WalkOff { vx, .. } => self.arc(game, input, from_x, vx, Launch::Walk),
            SideMove::Drop { vx } => self.arc(game, input, from_x, vx, Launch::Drop),
            SideMove::LetGo { vx } => self.arc(game, input, from_x, vx, Launch::LetGo),
        }
    }

    /// An arc: get to `from` (for a jump), leave the ground, then keep up with `vx` until the
    /// player stands again.
    fn arc(&mut self, game: &Game, input: &mut Input, from: f32, vx: f32, launch: Launch) {
        let p = *game.player();
        let step = self.steps[self.step];
        match self.phase {
            Phase::Prepare => {
                if lift_stop(game, step.to).is_some_and(|ok| !ok) {
                    return;
                }
                let start = match launch {
                    Launch::Jump => from,
                    _ => self.from.column as f32 + 0.5,
                };
                let dx = start - p.pos.x;
                if launch != Launch::LetGo && dx.abs() > ALIGN {
                    run(input, dx);
                    return;
                }
                if launch == Launch::Jump && self.jump_was_down {
                    return; // release the key for a frame first
                }
                self.phase = Phase::Act { frames: 0, airborne: false, x0: p.pos.x };
                self.act(game, input, vx, launch);
            }
            Phase::Act { .. } => self.act(game, input, vx, launch),
        }
    }

    fn act(&mut self, game: &Game, input: &mut Input, vx: f32, launch: Launch) {
        let p = *game.player();
        let Phase::Act { frames, airborne, x0 } = self.phase else { return };
        let airborne = airborne || !p.grounded && !p.climbing;
        if airborne && (p.grounded || p.climbing) && frames > 0 {
            let to = self.steps[self.step].to;
            self.check_arrival(game, to);
            return;
        }
        // Where the move's constant horizontal speed would have the player by the end of this
        // step: run whenever pressing gets it closer.
        let ideal = x0 + vx * (frames + 1) as f32 * DT;
        let dx = ideal - p.pos.x;
        let run_step = game.level().side.movement.run_speed * DT;
        if dx.abs() > 0.5 * run_step {
            run(input, dx);
        }
        match launch {
            Launch::Jump if frames == 0 => input.press_key(Key::Space),
            Launch::Drop if !airborne => input.press_key(Key::Down),
            Launch::LetGo if frames == 0 && vx != 0.0 => run(input, vx),
            _ => {}
        }
        self.phase = Phase::Act { frames: frames + 1, airborne, x0 };
    }

    /// The player came to rest: on to the next move if it is where the move ends, else plan
    /// again.
    fn check_arrival(&mut self, game: &Game, to: RestPos) {
        if rest_candidates(game).contains(&to) {
            self.next_move(game);
        } else {
            self.replan(game, "a move ended elsewhere");
        }
    }

    /// Holds the shoot key when an enemy is ahead on the player's level, within range.
    fn shoot(&self, game: &Game, input: &mut Input) {
        let p = game.player();
        let ahead = game.enemies().any(|e| {
            let d = e.pos - p.pos;
            d.x * p.facing > 0.0 && d.x.abs() < SHOOT_RANGE && d.y.abs() < game.player_size().y / 2.0
        });
        if ahead {
            input.press_key(Key::Char('x'));
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Launch {
    Jump,
    Walk,
    Drop,
    LetGo,
}

fn run(input: &mut Input, dx: f32) {
    input.press_key(if dx > 0.0 { Key::Right } else { Key::Left });
}

/// The world point of a rest position: its column's centre, its feet's height.
fn rest_point(game: &Game, p: RestPos) -> Vec2 {
    vec2(p.column as f32 + 0.5, (game.level().height() - p.row - 1) as f32)
}

/// The rest positions the player may be at now, the likeliest first (its column, then the
/// ones beside it).
fn rest_candidates(game: &Game) -> Vec<RestPos> {
    let p = game.player();
    let h = game.level().height() as f32;
    let feet = p.pos.y - game.player_size().y / 2.0;
    let row = h - 1.0 - feet.round();
    let col = p.pos.x.floor();
    let mut out = Vec::new();
    if row < 0.0 || row >= h || col < 0.0 {
        return out;
    }
    let near_row = (feet - feet.round()).abs() < 0.2;
    for dc in [0.0, if p.pos.x - col < 0.5 { -1.0 } else { 1.0 }] {
        let c = col + dc;
        if c < 0.0 || !near_row {
            continue;
        }
        out.push(RestPos { column: c as u32, row: row as u32, climbing: p.climbing });
    }
    out
}

/// For a rest position held up by a lift at one of its stops (and nothing else): whether the
/// lift is there now, resting for at least half a second more. `None` when no lift holds it.
fn lift_stop(game: &Game, at: RestPos) -> Option<bool> {
    let side = &game.level().side;
    let below = side.tile(at.column, at.row + 1);
    if matches!(below, Some(t) if t != lore_mazegen::LevelTile::Empty) {
        return None;
    }
    let feet_row = at.row + 1;
    let lift = side
        .lifts
        .iter()
        .find(|l| (l.x..l.x + l.width).contains(&at.column) && (l.top == feet_row || l.bottom == feet_row))?;
    let t = ((game.level_frame() as f64 * f64::from(DT)) % f64::from(lift.period)) as f32;
    let travel = (lift.period - 2.0 * lift.dwell) / 2.0;
    let margin = 0.5;
    let ok = if feet_row == lift.bottom {
        t < lift.dwell - margin
    } else {
        t >= lift.dwell + travel && t < 2.0 * lift.dwell + travel - margin
    };
    Some(ok)
}
