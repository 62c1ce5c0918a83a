//! The ray walk through the cells: column by column along the axis the ray moves most on.

use super::lists::{BIG_CELLS, Cells};
use super::map::CellMap;
use crate::id::ProxyId;
use crate::stats::QueryStats;
use lore_geom::Ray;

impl<M: CellMap> Cells<M> {
    /// Visits, in order of increasing `t`, the cells along `ray` and offers each proxy met
    /// (once) to `visit(id, t_entry)`; `visit` returns the `t` past which nothing more is
    /// wanted (infinity to see everything). Falls back to a scan of all boxes when the walk
    /// would cross more cells than there are boxes.
    pub(super) fn walk_ray(&mut self, ray: &Ray, stats: &mut QueryStats, visit: &mut dyn FnMut(ProxyId, f32) -> f32) {
        self.reindex_for_queries();
        let Some(bounds) = self.bounds() else { return };
        let mut cutoff = f32::INFINITY;
        for &s in &self.big {
            stats.candidates += 1;
            if let Some(t) = self.slots.aabbs[s as usize].ray_entry(ray) {
                cutoff = cutoff.min(visit(self.slots.id(s), t));
            }
        }
        let Some((t0, t1)) = bounds.ray_span(ray) else { return };
        // March along the axis the ray moves most on, one column of cells at a time.
        let m = if ray.dir().x.abs() >= ray.dir().y.abs() { 0 } else { 1 };
        let n = 1 - m;
        let (lim_lo, lim_hi) = self.map.limits(m);
        let (nlo, nhi) = self.map.limits(n);
        let step: i32 = if ray.dir()[m] > 0.0 { 1 } else { -1 };
        // A margin of `eps` (world units) at both ends and on both sides of each column: a box
        // is listed in the cell of its entry point (the cells of a closed box contain every
        // point of it, and cell coordinates grow with the point), and the ray's computed points
        // and column times are off from the true ones by at most a few units in the last place
        // of the coordinates and of `t·dir`, which `eps` bounds with room to spare. Near the
        // origin that is a sliver of a cell; far from it, it can be several cells.
        let reach = ray.origin().abs().max_element() + ray.dir().abs().max_element() * t0.abs().max(t1.abs());
        let eps = (reach + self.map.cell_size()) * (16.0 * f32::EPSILON);
        let ahead = eps.copysign(ray.dir()[m]);
        let c0 = self.map.coord(ray.at(t0)[m] - ahead, m).clamp(lim_lo, lim_hi);
        let c1 = self.map.coord(ray.at(t1)[m] + ahead, m).clamp(lim_lo, lim_hi);
        let columns = (i64::from(c1) - i64::from(c0)).unsigned_abs() + 1;
        let slope = (ray.dir()[n] / ray.dir()[m]).abs();
        let rows = (slope + 2.0 + 2.0 * eps * self.map.inv_cell()).min(1.0e9) as u64;
        if columns.saturating_mul(rows) > 2 * self.slots.len() as u64 + BIG_CELLS {
            for s in 0..self.slots.capacity() as u32 {
                if !self.slots.is_live(s) || self.is_big[s as usize] {
                    continue;
                }
                stats.candidates += 1;
                if let Some(t) = self.slots.aabbs[s as usize].ray_entry(ray) {
                    visit(self.slots.id(s), t);
                }
            }
            stats.visited += stats.candidates;
            return;
        }
        let stamp = self.next_stamp();
        let inv = 1.0 / ray.dir()[m];
        // A column's computed entry time is off by at most this.
        let t_eps = eps * inv.abs();
        let mut c = c0;
        loop {
            let (lo, hi) = self.map.span(c, m);
            let (ta, tb) = ((lo - ray.origin()[m]) * inv, (hi - ray.origin()[m]) * inv);
            let (ta, tb) = (ta.min(tb).clamp(t0, t1), ta.max(tb).clamp(t0, t1));
            // Every box met from here on is entered past the cutoff: stop.
            if ta > cutoff + t_eps {
                break;
            }
            let (na, nb) = (ray.at(ta)[n], ray.at(tb)[n]);
            let r0 = self.map.coord(na.min(nb) - eps, n).max(nlo);
            let r1 = self.map.coord(na.max(nb) + eps, n).min(nhi);
            for r in r0..=r1 {
                stats.visited += 1;
                let (x, y) = if m == 0 { (c, r) } else { (r, c) };
                let (start, end) = self.bucket_span(self.map.bucket(x, y));
                for k in start..end {
                    let item = self.items[k];
                    let st = &mut self.stamps[item.slot as usize];
                    if *st == stamp {
                        continue;
                    }
                    *st = stamp;
                    stats.candidates += 1;
                    if let Some(t) = self.slots.aabbs[item.slot as usize].ray_entry(ray) {
                        cutoff = cutoff.min(visit(self.slots.id(item.slot), t));
                    }
                }
            }
            if c == c1 {
                break;
            }
            c += step;
        }
    }
}
