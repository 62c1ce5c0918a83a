//! The pygame.mask operations of the CPU twin against naive per-pixel references.

use lore_pixel_collide::{Connectivity, Error, MAX_MASK_PIXELS, Mask, Moments, PixelRect};
use proptest::prelude::*;

/// A mask up to 150 pixels wide (three words a row, so runs and shifts cross word edges),
/// placed anywhere in -80..80, with a random density of set pixels.
fn mask_strategy() -> impl Strategy<Value = Mask> {
    (0u32..150, 0u32..24, -80i32..80, -80i32..80, 0u8..=255).prop_flat_map(|(w, h, x, y, density)| {
        prop::collection::vec(any::<u8>(), (w * h) as usize).prop_map(move |noise| {
            let mut m = Mask::new(x, y, w, h, false).unwrap();
            for (i, n) in noise.iter().enumerate() {
                if *n < density {
                    m.set(x + (i as u32 % w) as i32, y + (i as u32 / w) as i32);
                }
            }
            m
        })
    })
}

fn pixels(r: PixelRect) -> impl Iterator<Item = (i32, i32)> {
    (r.y0..r.y1).flat_map(move |y| (r.x0..r.x1).map(move |x| (x, y)))
}

/// The set pixels of `a AND b`, in row-major order.
fn naive_and(a: &Mask, b: &Mask) -> Vec<(i32, i32)> {
    pixels(a.bounds().intersection(&b.bounds())).filter(|&(x, y)| a.get(x, y) && b.get(x, y)).collect()
}

fn naive_moments(p: &[(i32, i32)]) -> Moments {
    Moments {
        area: p.len() as u64,
        sum_x: p.iter().map(|&(x, _)| i128::from(x)).sum(),
        sum_y: p.iter().map(|&(_, y)| i128::from(y)).sum(),
    }
}

fn neighbours(c: Connectivity) -> &'static [(i32, i32)] {
    match c {
        Connectivity::Four => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
        Connectivity::Eight => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)],
    }
}

/// Naive flood-fill component sizes, in row-major order of their first pixel.
fn naive_component_sizes(m: &Mask, c: Connectivity) -> Vec<u64> {
    let b = m.bounds();
    let mut seen = std::collections::HashSet::new();
    let mut sizes = Vec::new();
    for p in pixels(b) {
        if !m.get(p.0, p.1) || !seen.insert(p) {
            continue;
        }
        let (mut stack, mut n) = (vec![p], 0);
        while let Some((x, y)) = stack.pop() {
            n += 1;
            for &(dx, dy) in neighbours(c) {
                let q = (x + dx, y + dy);
                if m.get(q.0, q.1) && seen.insert(q) {
                    stack.push(q);
                }
            }
        }
        sizes.push(n);
    }
    sizes
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn first_overlap_is_the_first_pixel_of_the_naive_and(a in mask_strategy(), b in mask_strategy()) {
        let and = naive_and(&a, &b);
        prop_assert_eq!(a.first_overlap(&b), and.first().copied());
        prop_assert_eq!(b.first_overlap(&a), and.first().copied());
    }

    #[test]
    fn overlap_moments_equal_the_naive_sums_and_mean(a in mask_strategy(), b in mask_strategy()) {
        let and = naive_and(&a, &b);
        let m = a.overlap_moments(&b);
        prop_assert_eq!(m, naive_moments(&and));
        prop_assert_eq!(m.area, a.overlap_area(&b));
        prop_assert_eq!(b.overlap_moments(&a), m);
        let mean = (!and.is_empty()).then(|| {
            let n = and.len() as f64;
            [and.iter().map(|p| f64::from(p.0)).sum::<f64>() / n, and.iter().map(|p| f64::from(p.1)).sum::<f64>() / n]
        });
        match (m.centroid(), mean) {
            (None, None) => {}
            (Some(c), Some(e)) => prop_assert!((c[0] - e[0]).abs() < 1e-9 && (c[1] - e[1]).abs() < 1e-9, "{:?} vs {:?}", c, e),
            (c, e) => prop_assert!(false, "centroid {:?}, naive {:?}", c, e),
        }
        let own: Vec<_> = pixels(a.bounds()).filter(|&(x, y)| a.get(x, y)).collect();
        prop_assert_eq!(a.moments(), naive_moments(&own));
    }

    #[test]
    fn components_partition_the_set_pixels_and_never_touch(m in mask_strategy(), eight in any::<bool>()) {
        let c = if eight { Connectivity::Eight } else { Connectivity::Four };
        let comps = m.components(c);
        let b = m.bounds();
        // Every set pixel is in exactly one component, and no component holds anything else.
        for (x, y) in pixels(b) {
            let n = comps.iter().filter(|k| k.get(x, y)).count();
            prop_assert_eq!(n, usize::from(m.get(x, y)), "pixel {},{}", x, y);
        }
        prop_assert_eq!(comps.iter().map(Mask::count).sum::<u64>(), m.count());
        // No pixel of one component is a neighbour of another's, and each has tight bounds.
        for (i, k) in comps.iter().enumerate() {
            prop_assert!(k.count() > 0);
            let kb = k.bounds();
            let set: Vec<_> = pixels(kb).filter(|&(x, y)| k.get(x, y)).collect();
            prop_assert!(set.iter().any(|p| p.0 == kb.x0) && set.iter().any(|p| p.0 == kb.x1 - 1));
            prop_assert!(set.iter().any(|p| p.1 == kb.y0) && set.iter().any(|p| p.1 == kb.y1 - 1));
            for (x, y) in pixels(kb).filter(|&(x, y)| k.get(x, y)) {
                for &(dx, dy) in neighbours(c) {
                    for (j, o) in comps.iter().enumerate() {
                        prop_assert!(i == j || !o.get(x + dx, y + dy), "components {} and {} touch at {},{}", i, j, x, y);
                    }
                }
            }
        }
        // Connected within: the same number and sizes, in the same order, as a flood fill.
        prop_assert_eq!(comps.iter().map(Mask::count).collect::<Vec<_>>(), naive_component_sizes(&m, c));
    }

    #[test]
    fn draw_then_erase_clears_exactly_the_drawn_pixels(a in mask_strategy(), b in mask_strategy()) {
        let mut drawn = a.clone();
        drawn.draw(&b);
        prop_assert_eq!(drawn.bounds(), a.bounds());
        for (x, y) in pixels(a.bounds()) {
            prop_assert_eq!(drawn.get(x, y), a.get(x, y) || b.get(x, y));
        }
        let mut erased = drawn.clone();
        erased.erase(&b);
        for (x, y) in pixels(a.bounds()) {
            prop_assert_eq!(erased.get(x, y), a.get(x, y) && !b.get(x, y));
        }
        // Where the original was unset, draw then erase restores it; where b was unset too.
        let mut restored = a.clone();
        restored.erase(&b);
        prop_assert_eq!(&restored, &erased);
        // The padding bits stay clear: counts agree with the pixels.
        prop_assert_eq!(erased.count(), pixels(a.bounds()).filter(|&(x, y)| erased.get(x, y)).count() as u64);
        prop_assert_eq!(drawn.count(), pixels(a.bounds()).filter(|&(x, y)| drawn.get(x, y)).count() as u64);
    }
}

#[test]
fn new_rejects_far_edges_past_i32_and_huge_masks() {
    assert!(matches!(Mask::new(i32::MAX - 4, 0, 4, 1, true), Ok(m) if m.count() == 4));
    for (x, y, w, h) in [(i32::MAX - 4, 0, 5, 1), (0, i32::MAX, 1, 1), (0, 0, 1 << 17, 1 << 16)] {
        let e = Mask::new(x, y, w, h, false).unwrap_err();
        assert_eq!(e, Error::BadMaskSize { x, y, width: w, height: h });
        assert!(e.to_string().contains("invalid"), "{e}");
    }
    assert_eq!(u64::from(1u32 << 16) * u64::from(1u32 << 16), MAX_MASK_PIXELS);
    let empty = Mask::new(5, 5, 0, 7, true).unwrap();
    assert_eq!((empty.count(), empty.moments().centroid()), (0, None));
    assert!(empty.components(Connectivity::Eight).is_empty());
}

#[test]
fn first_overlap_prefers_the_top_row_over_the_left_column() {
    let mut a = Mask::new(0, 0, 130, 4, false).unwrap();
    a.set(129, 1);
    a.set(0, 2);
    let b = Mask::new(-10, -10, 200, 200, true).unwrap();
    assert_eq!(a.first_overlap(&b), Some((129, 1)));
}

#[test]
fn a_ring_is_one_component_with_eight_and_four_and_its_hole_is_not_counted() {
    let mut ring = Mask::new(0, 0, 70, 70, true).unwrap();
    ring.erase(&Mask::new(5, 5, 60, 60, true).unwrap());
    assert_eq!(ring.count(), 70 * 70 - 60 * 60);
    for c in [Connectivity::Four, Connectivity::Eight] {
        let comps = ring.components(c);
        assert_eq!(comps.len(), 1);
        assert_eq!(comps[0], ring);
    }
    // A diagonal staircase: one component with 8-connectivity, one per pixel with 4.
    let mut stairs = Mask::new(0, 0, 100, 100, false).unwrap();
    for i in 0..100 {
        stairs.set(i, i);
    }
    assert_eq!(stairs.components(Connectivity::Eight).len(), 1);
    assert_eq!(stairs.components(Connectivity::Four).len(), 100);
    assert_eq!(stairs.moments().centroid(), Some([49.5, 49.5]));
}
