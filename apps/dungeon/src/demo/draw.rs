//! Drawing: the level, its entities and the HUD, into lore-render's batch.

use glam::{Vec2, vec2};
use lore_mazegen::{Tile, color_rgb, zone_rgb};
use lore_render::{Batch, Color};

use super::Dungeon;

/// Rows of world space kept free above the maze for the HUD.
pub(super) const HUD_ROWS: f32 = 1.6;

impl Dungeon {
    /// The level, its entities and the HUD (what [`Demo::draw`](lore_render::Demo::draw) shows).
    pub(super) fn draw_scene(&self, batch: &mut Batch) {
        let Some(game) = &self.game else {
            let msg = self.error.as_deref().unwrap_or("no game");
            batch.screen_text(vec2(16.0, 16.0), format!("dungeon: {msg}"), 18.0, Color::RED);
            return;
        };
        let level = game.level();
        let map = &level.map;
        let (w, h) = (map.width(), map.height());
        // Floors tinted by zone, walls as stone.
        let cells_wide = level.config.width;
        for y in 0..h {
            for x in 0..w {
                let tile = map.tile(x, y).unwrap_or(Tile::Wall);
                let c = map.tile_center((x, y));
                let (lo, hi) = (c - Vec2::splat(0.5), c + Vec2::splat(0.5));
                match tile {
                    Tile::Wall => batch.rect(lo, hi, Color::rgb(74, 82, 104)),
                    Tile::Door(colour) => {
                        let col = color_rgb(colour);
                        if game.holds_key(colour) {
                            batch.rect(lo, hi, scaled(col, 0.18));
                            batch.rect_outline(lo + 0.06, hi - 0.06, 0.05, rgb(col));
                        } else {
                            batch.rect(lo, hi, rgb(col));
                            batch.rect_outline(lo + 0.1, hi - 0.1, 0.06, scaled(col, 0.55));
                        }
                    }
                    _ => {
                        // The zone of the nearest cell (passages take the cell to their left/above).
                        let node = (y.saturating_sub(1) / 2) * cells_wide + x.saturating_sub(1) / 2;
                        let zone = level.solution.zone.get(node as usize).copied().unwrap_or(0);
                        batch.rect(lo, hi, scaled(zone_rgb(zone), 0.16));
                    }
                }
            }
        }
        // The exit.
        let exit = map.tile_center(level.exit);
        batch.rect(exit - 0.45, exit + 0.45, Color::rgb(40, 120, 70));
        batch.rect_outline(exit - 0.4, exit + 0.4, 0.07, Color::GREEN);
        batch.text(exit, "EXIT", 11.0, Color::WHITE);
        // The autopilot's way ahead.
        if self.autopilot {
            let next = self.pilot.next_waypoint().min(level.route.len());
            let ahead: Vec<Vec2> = std::iter::once(game.player())
                .chain(level.route[next..].iter().take(40).map(|&t| map.tile_center(t)))
                .collect();
            batch.polyline(&ahead, false, 0.05, Color::WHITE.with_alpha(70));
        }
        // Keys.
        for key in game.pickups() {
            let col = rgb(color_rgb(key.colour));
            batch.ring(key.pos + vec2(-0.12, 0.0), 0.07, 0.16, col);
            batch.rect(key.pos + vec2(0.0, -0.04), key.pos + vec2(0.3, 0.04), col);
            batch.rect(key.pos + vec2(0.2, -0.14), key.pos + vec2(0.26, 0.0), col);
        }
        // Enemies.
        for e in game.enemies() {
            let r = game.enemy_kind(e).radius;
            let (fill, rim) = if e.chaser {
                if e.sees_player {
                    (Color::rgb(255, 90, 40), Color::YELLOW)
                } else {
                    (Color::rgb(200, 60, 50), Color::rgb(120, 30, 30))
                }
            } else {
                (Color::rgb(160, 90, 210), Color::rgb(90, 50, 130))
            };
            batch.disk(e.pos, r, fill);
            batch.circle(e.pos, r, 0.035, rim);
        }
        // Bullets.
        for b in game.bullets() {
            let r = game.kinds().bullet.radius;
            batch.line(b.pos - b.vel.normalize_or_zero() * 0.25, b.pos, r, Color::CYAN.with_alpha(110));
            batch.disk(b.pos, r, Color::WHITE);
        }
        // The player.
        let p = game.player();
        let r = game.kinds().player.radius;
        let body = if game.player_hurt_recently() { Color::rgb(255, 120, 120) } else { Color::YELLOW };
        batch.disk(p, r, body);
        batch.circle(p, r, 0.05, Color::rgb(90, 70, 10));
        batch.line(p, p + game.facing() * r * 1.4, 0.07, Color::rgb(90, 70, 10));
        // HUD: a line of game state and a line of where the frame's time goes.
        let s = game.stats();
        let keys_total = level.keys.len();
        let held = (0..=255u8).filter(|&c| game.holds_key(c)).count();
        let line = format!(
            "level {}  seed {}  frame {}   keys {}/{}   enemies {}  hit {}   bullets {}   hurt {}   {}",
            s.level + 1,
            s.seed,
            s.frames,
            held,
            keys_total,
            game.enemies().count(),
            s.enemies_hit,
            s.bullets_fired,
            s.player_hurt,
            if self.autopilot {
                "autopilot (arrows take over)"
            } else {
                "arrows move, mouse or space shoots, p: autopilot"
            },
        );
        batch.screen_text(vec2(14.0, 10.0), line, 17.0, Color::WHITE);
        let t = self.times;
        let total = t.level + t.movement + t.broadphase + t.pixels + t.game + self.sound.audio_ms;
        let split = format!(
            "frame {total:.3} ms:  mazegen {:.3}   collide2d {:.3}   broadphase {:.3}   pixel-collide {:.3}   audio mix {:.3}   game {:.3}",
            t.level, t.movement, t.broadphase, t.pixels, self.sound.audio_ms, t.game
        );
        let split = if self.count_allocations {
            format!("{split}   heap allocations/frame {:.1}", self.allocations_per_frame)
        } else {
            split
        };
        let split = if s.gpu_pairs > 0 || game.has_gpu() {
            format!("{split}   gpu {}/{} agree", s.gpu_agree, s.gpu_pairs)
        } else {
            format!("{split}   cpu twin: {} pairs", s.pixel_pairs)
        };
        batch.screen_text(vec2(14.0, 32.0), split, 15.0, Color::rgb(170, 180, 200));
        if let Some(e) = self.kinds_error() {
            batch.screen_text(vec2(14.0, 52.0), e.to_owned(), 15.0, Color::RED);
        } else if let Some(e) = game.gpu_error() {
            batch.screen_text(vec2(14.0, 52.0), format!("gpu pixel path: {e}; the cpu twin decides"), 15.0, Color::RED);
        }
        // Key colours held, as swatches after the text.
        for (i, (colour, _)) in level.keys.iter().enumerate() {
            let col = color_rgb(*colour);
            let at = vec2(w as f32 - 0.6 - i as f32 * 0.7, h as f32 + 0.9);
            if game.holds_key(*colour) {
                batch.rect(at - 0.25, at + 0.25, rgb(col));
            } else {
                batch.rect_outline(at - 0.25, at + 0.25, 0.05, rgb(col));
            }
        }
    }
}

fn rgb([r, g, b]: [u8; 3]) -> Color {
    Color::rgb(r, g, b)
}

fn scaled(c: [u8; 3], f: f32) -> Color {
    let s = |v: u8| (f32::from(v) * f).round().clamp(0.0, 255.0) as u8;
    Color::rgb(s(c[0]), s(c[1]), s(c[2]))
}
