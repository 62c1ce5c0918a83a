//! The autopilot: plays the game through the same [`Input`] a person gives it.
//!
//! It follows the level's route (the solver's walk through every key in key order, then on to
//! the exit) tile centre by tile centre, pressing the arrow keys towards the next centre, and
//! holds the left mouse button on the nearest enemy it can see within reach.

use glam::Vec2;
use lore_render::{Input, Key, MouseButton};

use crate::game::Game;

/// How close (tiles) to a route tile's centre counts as reaching it.
pub const REACHED: f32 = 0.15;

/// How far (tiles) the autopilot shoots.
pub const SHOOT_RANGE: f32 = 3.5;

/// The autopilot's state: where it is along the route of the current level.
#[derive(Clone, Debug, Default)]
pub struct Autopilot {
    level: u32,
    next: usize,
}

impl Autopilot {
    /// An autopilot at the start of the first level.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Index of the route tile it heads for.
    #[must_use]
    pub fn next_waypoint(&self) -> usize {
        self.next
    }

    /// The input for the next step of `game`. Takes `game` mutably only for its line-of-sight
    /// queries; the game state is unchanged.
    pub fn input(&mut self, game: &mut Game) -> Input {
        let stats = game.stats();
        if stats.level != self.level {
            self.level = stats.level;
            self.next = 0;
        }
        let player = game.player();
        let route_len = game.level().route.len();
        let centre = |g: &Game, i: usize| g.level().map.tile_center(g.level().route[i]);
        while self.next + 1 < route_len && centre(game, self.next).distance(player) < REACHED {
            self.next += 1;
        }
        let mut input = Input::default();
        if route_len > 0 {
            let delta = centre(game, self.next.min(route_len - 1)) - player;
            // Below one step's travel a key press would overshoot: leave that axis alone.
            let dead = 0.75 * game.kinds().player.speed * lore_render::demo::DT;
            if delta.x > dead {
                input.press_key(Key::Right);
            } else if delta.x < -dead {
                input.press_key(Key::Left);
            }
            if delta.y > dead {
                input.press_key(Key::Up);
            } else if delta.y < -dead {
                input.press_key(Key::Down);
            }
        }
        if let Some(target) = self.target(game, player) {
            input.mouse = target;
            input.mouse_in_view = true;
            input.press_button(MouseButton::Left);
        }
        input
    }

    /// The nearest enemy within [`SHOOT_RANGE`] in plain sight.
    fn target(&self, game: &mut Game, player: Vec2) -> Option<Vec2> {
        let mut near: Vec<(f32, Vec2)> = game
            .enemies()
            .map(|e| (e.pos.distance_squared(player), e.pos))
            .filter(|&(d2, _)| d2 <= SHOOT_RANGE * SHOOT_RANGE)
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0));
        near.into_iter().take(4).map(|(_, p)| p).find(|&p| game.clear_line(player, p))
    }
}
