//! Drawing: the level, its entities and the HUD, into lore-render's batch.

use glam::{Vec2, vec2};
use lore_mazegen::{LevelTile, color_rgb, zone_rgb};
use lore_render::{Batch, Color};

use super::Platformer;

/// Rows of world space kept free above the level for the HUD.
pub(super) const HUD_ROWS: f32 = 4.0;

impl Platformer {
    /// The level, its entities and the HUD (what [`Demo::draw`](lore_render::Demo::draw) shows).
    pub(super) fn draw_scene(&self, batch: &mut Batch) {
        let Some(game) = &self.game else {
            let msg = self.error.as_deref().unwrap_or("no game");
            batch.screen_text(vec2(16.0, 16.0), format!("platformer: {msg}"), 18.0, Color::RED);
            return;
        };
        let level = game.level();
        let side = &level.side;
        let (w, h) = (level.width(), level.height());
        let (view_lo, view_hi) = batch.visible_rect();
        let stone = Color::rgb(86, 92, 116);
        let (cw, ch) = side.cell_size;
        for y in 0..h {
            for x in 0..w {
                let (lo, hi) = level.tile_box((x, y));
                if hi.x < view_lo.x || lo.x > view_hi.x || hi.y < view_lo.y || lo.y > view_hi.y {
                    continue;
                }
                let tile = side.tile(x, y).unwrap_or(LevelTile::Solid);
                // Rooms tinted by their maze zone.
                if tile != LevelTile::Solid && cw > 0 && ch > 0 {
                    let cells_wide = (w - 1) / cw;
                    let cell = (y / ch).min((h - 2) / ch) * cells_wide + (x / cw).min(cells_wide.saturating_sub(1));
                    if let Some(&zone) = side.cell_zones.get(cell as usize) {
                        batch.rect(lo, hi, scaled(zone_rgb(zone), 0.14));
                    }
                }
                match tile {
                    LevelTile::Solid => batch.rect(lo, hi, stone),
                    LevelTile::OneWay => batch.rect(vec2(lo.x, hi.y - 0.18), hi, Color::rgb(176, 128, 72)),
                    LevelTile::Ladder => draw_ladder(batch, lo, hi),
                    LevelTile::SlopeUp => batch.triangle(lo, vec2(hi.x, lo.y), hi, stone),
                    LevelTile::SlopeDown => batch.triangle(lo, vec2(hi.x, lo.y), vec2(lo.x, hi.y), stone),
                    LevelTile::Door(c) | LevelTile::Hatch(c) => {
                        let col = color_rgb(c);
                        if game.holds_key(c) {
                            if matches!(tile, LevelTile::Hatch(_)) {
                                draw_ladder(batch, lo, hi);
                            }
                            batch.rect_outline(lo + 0.06, hi - 0.06, 0.05, rgb(col));
                        } else {
                            batch.rect(lo, hi, rgb(col));
                            batch.rect_outline(lo + 0.1, hi - 0.1, 0.06, scaled(col, 0.55));
                        }
                    }
                    LevelTile::Empty => {}
                }
            }
        }
        // Lifts.
        for (x0, x1, y) in game.lift_surfaces() {
            batch.rect(vec2(x0, y - 0.25), vec2(x1, y), Color::rgb(220, 200, 90));
            batch.rect_outline(vec2(x0, y - 0.25), vec2(x1, y), 0.05, Color::rgb(120, 100, 30));
        }
        // The exit.
        let (elo, ehi) = level.tile_box(side.exit);
        let open = game.pickups().next().is_none();
        batch.rect(vec2(elo.x - 0.3, elo.y), vec2(ehi.x + 0.3, ehi.y + 1.0), Color::rgb(40, 120, 70));
        batch.rect_outline(
            vec2(elo.x - 0.3, elo.y),
            vec2(ehi.x + 0.3, ehi.y + 1.0),
            0.08,
            if open { Color::GREEN } else { Color::rgb(90, 110, 90) },
        );
        batch.text(vec2(elo.x + 0.5, ehi.y + 1.4), "EXIT", 11.0, Color::WHITE);
        // The autopilot's way ahead.
        if self.autopilot {
            let ahead: Vec<Vec2> = std::iter::once(game.player().pos).chain(self.pilot.ahead(game).take(60)).collect();
            batch.polyline(&ahead, false, 0.08, Color::WHITE.with_alpha(90));
        }
        // Keys.
        for key in game.pickups() {
            let c = level.tile_box(key.tile).0 + Vec2::splat(0.5);
            let col = rgb(color_rgb(key.colour));
            batch.ring(c + vec2(-0.15, 0.0), 0.08, 0.2, col);
            batch.rect(c + vec2(0.0, -0.05), c + vec2(0.38, 0.05), col);
            batch.rect(c + vec2(0.26, -0.18), c + vec2(0.33, 0.0), col);
        }
        // Enemies.
        for e in game.enemies() {
            let r = game.enemy_radius(e);
            let (fill, rim) = if e.guard {
                if e.sees_player {
                    (Color::rgb(255, 90, 40), Color::YELLOW)
                } else {
                    (Color::rgb(200, 60, 50), Color::rgb(120, 30, 30))
                }
            } else {
                (Color::rgb(160, 90, 210), Color::rgb(90, 50, 130))
            };
            batch.disk(e.pos, r, fill);
            batch.circle(e.pos, r, 0.05, rim);
            batch.disk(e.pos + vec2(e.dir * r * 0.45, r * 0.25), r * 0.22, Color::WHITE);
        }
        // Shots.
        for s in game.shots() {
            let r = game.kinds().shot.radius;
            batch.line(s.pos - s.vel.normalize_or_zero() * 0.5, s.pos, r, Color::CYAN.with_alpha(110));
            batch.disk(s.pos, r, Color::WHITE);
        }
        // The player: its box or its capsule.
        let p = game.player();
        let half = game.player_size() / 2.0;
        let body = if game.player_hurt_recently() { Color::rgb(255, 120, 120) } else { Color::YELLOW };
        let rim = Color::rgb(90, 70, 10);
        if p.capsule {
            let r = half.x;
            let core = (half.y - r).max(0.0);
            batch.rect(p.pos - vec2(r, core), p.pos + vec2(r, core), body);
            batch.disk(p.pos + vec2(0.0, core), r, body);
            batch.disk(p.pos - vec2(0.0, core), r, body);
        } else {
            batch.rect(p.pos - half, p.pos + half, body);
            batch.rect_outline(p.pos - half, p.pos + half, 0.06, rim);
        }
        let eye = p.pos + vec2(p.facing * half.x * 0.5, half.y * 0.55);
        batch.disk(eye, 0.1, rim);
        // HUD: a line of game state and a line of where the frame's time goes.
        let s = game.stats();
        let line = format!(
            "level {}  seed {}  frame {}   keys {}/{}   enemies {}  hit {}   shots {}   hurt {}   body {}   {}",
            s.level + 1,
            s.seed,
            s.frames,
            game.keys_held().count(),
            side.keys.len(),
            game.enemies().count(),
            s.enemies_hit,
            s.shots_fired,
            s.player_hurt,
            if p.capsule { "capsule" } else { "box" },
            if self.autopilot { "autopilot (a game key takes over)" } else { "F1: keys, p: autopilot" },
        );
        batch.screen_text(vec2(14.0, 10.0), line, 17.0, Color::WHITE);
        let t = self.times;
        let total = t.level + t.controller + t.broadphase + t.pixels + t.game + self.sound.audio_ms;
        let split = format!(
            "frame {total:.3} ms:  mazegen {:.3}   collide2d {:.3}   broadphase {:.3}   pixel-collide {:.3}   audio mix {:.3}   game {:.3}",
            t.level, t.controller, t.broadphase, t.pixels, self.sound.audio_ms, t.game
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
    }
}

fn draw_ladder(batch: &mut Batch, lo: Vec2, hi: Vec2) {
    let col = Color::rgb(150, 110, 60);
    batch.rect(vec2(lo.x + 0.15, lo.y), vec2(lo.x + 0.25, hi.y), col);
    batch.rect(vec2(hi.x - 0.25, lo.y), vec2(hi.x - 0.15, hi.y), col);
    for i in 0..3 {
        let y = lo.y + 0.2 + i as f32 * 0.3;
        batch.rect(vec2(lo.x + 0.15, y), vec2(hi.x - 0.15, y + 0.08), col);
    }
}

fn rgb([r, g, b]: [u8; 3]) -> Color {
    Color::rgb(r, g, b)
}

fn scaled(c: [u8; 3], f: f32) -> Color {
    let s = |v: u8| (f32::from(v) * f).round().clamp(0.0, 255.0) as u8;
    Color::rgb(s(c[0]), s(c[1]), s(c[2]))
}
