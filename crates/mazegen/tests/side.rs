//! Side-scroller levels: every generated level passes the reachability check, and the check
//! rejects levels broken on purpose (a gap wider than the jump, a ledge higher than it, a key
//! behind its own door, a missing ladder or lift).

use lore_mazegen::{
    Climb, Config, Error, LevelTile, Lift, Movement, MovementField, SideConfig, SideGenerator, SideLevel, SideStep,
    Unbeatable, check_side, generate_side,
};
use proptest::prelude::*;

/// A floor with a pit `gap` tiles wide and 6 deep (deeper than any jump climbs back out of),
/// the start on the left of it and the exit on the right.
fn gap_level(gap: usize) -> String {
    let width = 8 + gap + 6;
    let row = |f: &dyn Fn(usize) -> char| (0..width).map(f).collect::<String>() + "\n";
    let wall = |x: usize| if x == 0 || x == width - 1 { '#' } else { ' ' };
    let mut text = row(&|_| '#');
    for _ in 0..6 {
        text += &row(&wall);
    }
    text += &row(&|x| match x {
        2 => '@',
        _ if x == 8 + gap + 3 => '!',
        _ => wall(x),
    });
    for _ in 0..6 {
        text += &row(&|x| if (8..8 + gap).contains(&x) { ' ' } else { '#' });
    }
    text + &row(&|_| '#')
}

/// A floor with a solid pillar `rise` tiles high and the exit on top of it.
fn ledge_level(rise: usize) -> String {
    let height = rise + 9;
    let mut text = String::new();
    for y in 0..height {
        let floor = height - 1;
        let line: String = (0..14)
            .map(|x| {
                if y == 0 || y == floor || x == 0 || x == 13 {
                    '#'
                } else if y == floor - 1 && x == 2 {
                    '@'
                } else if x >= 7 && y >= floor - rise {
                    '#'
                } else if x == 9 && y == floor - rise - 1 {
                    '!'
                } else {
                    ' '
                }
            })
            .collect();
        text += &line;
        text.push('\n');
    }
    text
}

/// The maze's own staged search: the key colors reachable at each stage with the keys of the
/// stages before (doors of held colors open), ending with an empty stage.
fn maze_stages(maze: &lore_mazegen::Maze) -> Vec<Vec<u8>> {
    let n = maze.node_count();
    let mut next: Vec<Vec<(u32, Option<u8>)>> = vec![Vec::new(); n];
    for e in &maze.edges {
        next[e.a as usize].push((e.b, e.door));
        next[e.b as usize].push((e.a, e.door));
    }
    let mut held = [false; 256];
    let mut stages = Vec::new();
    loop {
        let mut seen = vec![false; n];
        let mut stack = vec![maze.root];
        seen[maze.root as usize] = true;
        while let Some(v) = stack.pop() {
            for &(u, door) in &next[v as usize] {
                if !seen[u as usize] && door.is_none_or(|c| held[usize::from(c)]) {
                    seen[u as usize] = true;
                    stack.push(u);
                }
            }
        }
        let mut found: Vec<u8> = maze
            .keys
            .iter()
            .filter(|k| seen[k.node as usize] && !held[usize::from(k.color)])
            .map(|k| k.color)
            .collect();
        found.sort_unstable();
        found.dedup();
        for &c in &found {
            held[usize::from(c)] = true;
        }
        let done = found.is_empty();
        stages.push(found);
        if done {
            return stages;
        }
    }
}

fn level(text: &str) -> SideLevel {
    SideLevel::from_ascii(text, Movement::default()).unwrap()
}

#[test]
fn a_gap_within_the_jump_is_crossed_and_one_past_it_is_not() {
    // Jump distance 5, width 0.8: from the rim of the floor, a 5-tile gap needs 4.2 tiles of
    // flight, a 6-tile one 5.2.
    for gap in [1, 3, 5] {
        assert!(check_side(&level(&gap_level(gap))).is_ok(), "gap {gap}:\n{}", gap_level(gap));
    }
    for gap in [6, 8] {
        assert!(
            matches!(check_side(&level(&gap_level(gap))), Err(Error::Unbeatable(Unbeatable::ExitUnreachable { .. }))),
            "gap {gap}"
        );
    }
    // A longer jump crosses the wider gap.
    let far = Movement { jump_distance: 7.0, ..Movement::default() };
    assert!(check_side(&SideLevel::from_ascii(&gap_level(6), far).unwrap()).is_ok());
}

#[test]
fn a_ledge_within_the_jump_height_is_climbed_and_one_past_it_is_not() {
    // Jump height 3.2.
    for rise in [1, 2, 3] {
        assert!(check_side(&level(&ledge_level(rise))).is_ok(), "rise {rise}:\n{}", ledge_level(rise));
    }
    for rise in [4, 5] {
        assert!(
            matches!(
                check_side(&level(&ledge_level(rise))),
                Err(Error::Unbeatable(Unbeatable::ExitUnreachable { .. }))
            ),
            "rise {rise}"
        );
    }
    let high = Movement { jump_height: 4.5, ..Movement::default() };
    assert!(check_side(&SideLevel::from_ascii(&ledge_level(4), high).unwrap()).is_ok());
}

#[test]
fn a_key_moved_behind_its_door_is_caught() {
    let config = SideConfig::default().seed(11);
    let level = generate_side(&config).unwrap();
    let maze = lore_mazegen::generate(&config.maze).unwrap();
    assert_eq!(check_side(&level).unwrap().keys_per_stage, maze_stages(&maze));
    // The exit lies in the last zone, behind every door: key 0 there cannot be had.
    let mut broken = level.clone();
    let key = broken.keys.iter_mut().find(|(c, _)| *c == 0).unwrap();
    key.1 = broken.exit;
    match check_side(&broken) {
        Err(Error::Unbeatable(Unbeatable::KeyUnreachable { color: 0, held, .. })) => assert!(held.is_empty()),
        other => panic!("{other:?}"),
    }
    // Without any key 0 the check names the missing key.
    let mut keyless = level.clone();
    keyless.keys.retain(|(c, _)| *c != 0);
    assert_eq!(check_side(&keyless), Err(Error::Unbeatable(Unbeatable::NoKey { color: 0 })));
}

#[test]
fn a_fast_fall_never_steps_through_a_thin_floor() {
    // The strongest gravity the limits allow (a 16-tile jump over 2 tiles): a fall of eight
    // tiles ends on the one-tile floor, never in the room under it.
    let air = "#          #\n";
    let text = format!(
        "############\n{air}{air}#@         #\n####       #\n{}############\n{air}#      !   #\n############\n",
        air.repeat(7)
    );
    let fast =
        Movement { jump_height: 16.0, jump_distance: 2.0, run_speed: 8.0, size: lore_mazegen::Vec2::new(0.25, 0.25) };
    let level = SideLevel::from_ascii(&text, fast).unwrap();
    assert!(matches!(check_side(&level), Err(Error::Unbeatable(Unbeatable::ExitUnreachable { .. }))));
    // With the exit on that floor, the same fall is credited.
    let mut on_floor = level.clone();
    on_floor.exit = (7, 11);
    assert!(check_side(&on_floor).is_ok());
}

#[test]
fn one_way_platforms_are_passed_from_below_and_solid_ones_are_not() {
    let text = "\
##########
#        #
#        #
#        #
#    !   #
#  ----  #
#        #
#        #
#  ----  #
#        #
# @      #
##########
";
    assert!(check_side(&level(text)).is_ok());
    assert!(matches!(check_side(&level(&text.replace('-', "#"))), Err(Error::Unbeatable(_))));
    // Dropping through: the exit below a one-way floor.
    let down = "\
##########
#        #
#        #
# @      #
#--------#
#        #
#      ! #
##########
";
    assert!(check_side(&level(down)).is_ok());
    assert!(matches!(check_side(&level(&down.replace('-', "#"))), Err(Error::Unbeatable(_))));
}

#[test]
fn ladders_hatches_and_lifts_carry_the_character() {
    let ladder = "\
##########
#        #
#        #
#  !     #
#####H####
#    H   #
#    H   #
#    H   #
#    H   #
# @  H   #
##########
";
    assert!(check_side(&level(ladder)).is_ok());
    let mut cut = level(ladder);
    cut.set(5, 7, LevelTile::Empty);
    cut.set(5, 8, LevelTile::Empty);
    assert!(matches!(check_side(&cut), Err(Error::Unbeatable(Unbeatable::ExitUnreachable { .. }))));
    // A hatch of color 0 on top of the ladder: locked without the key, open with it.
    let mut hatch = level(ladder);
    hatch.set(5, 4, LevelTile::Hatch(0));
    assert_eq!(check_side(&hatch), Err(Error::Unbeatable(Unbeatable::NoKey { color: 0 })));
    hatch.keys.push((0, (7, 9)));
    assert_eq!(check_side(&hatch).unwrap().keys_per_stage, vec![vec![0], vec![]]);
    // A lift up a shaft too tall to jump.
    let mut lift = level(&ladder.replace('H', " "));
    assert!(check_side(&lift).is_err());
    lift.lifts.push(Lift { x: 5, width: 1, top: 4, bottom: 10, period: 4.0, dwell: 1.0 });
    assert!(check_side(&lift).is_ok());
    assert_eq!(lift.lifts[0].surface_at(0.5), 10.0);
    assert_eq!(lift.lifts[0].surface_at(2.5), 4.0);
    assert_eq!(lift.lifts[0].path(lift.height), [glam_vec(5.5, 7.0), glam_vec(5.5, 1.0)]);
}

fn glam_vec(x: f32, y: f32) -> lore_mazegen::Vec2 {
    lore_mazegen::Vec2::new(x, y)
}

#[test]
fn slopes_are_walked_where_no_jump_fits() {
    // A ceiling too low for any jump: the bump is crossed on its slopes only.
    let slopes = "\
##############
#            #
#            #
# @   /#\\   !#
##############
";
    assert!(check_side(&level(slopes)).is_ok());
    assert!(matches!(check_side(&level(&slopes.replace('/', "#"))), Err(Error::Unbeatable(_))));
}

#[test]
fn bad_movement_and_bad_levels_are_typed_errors() {
    for (movement, field) in [
        (Movement { jump_height: f32::NAN, ..Movement::default() }, MovementField::JumpHeight),
        (Movement { jump_distance: 1.0, ..Movement::default() }, MovementField::JumpDistance),
        (Movement { run_speed: 0.0, ..Movement::default() }, MovementField::RunSpeed),
        (Movement { size: lore_mazegen::Vec2::new(1.5, 1.0), ..Movement::default() }, MovementField::Width),
        (Movement { size: lore_mazegen::Vec2::new(0.5, 9.0), ..Movement::default() }, MovementField::Height),
    ] {
        match generate_side(&SideConfig::new(Config::grid(4, 4), movement)) {
            Err(Error::Movement(e)) => assert_eq!(e.field, field),
            other => panic!("{other:?}"),
        }
    }
    assert!(matches!(generate_side(&SideConfig::new(Config::points(40), Movement::default())), Err(Error::Config(_))));
    assert!(matches!(
        generate_side(&SideConfig::new(Config::grid(5000, 5000), Movement::default())),
        Err(Error::Config(_))
    ));
    let mut short = level(&gap_level(2));
    short.tiles.pop();
    assert!(matches!(check_side(&short), Err(Error::Malformed(_))));
    let mut outside = level(&gap_level(2));
    outside.exit = (999, 0);
    assert!(matches!(check_side(&outside), Err(Error::Malformed(_))));
    let mut bad_lift = level(&gap_level(2));
    bad_lift.lifts.push(Lift { x: 1, width: 1, top: 5, bottom: 2, period: 1.0, dwell: 0.0 });
    assert!(matches!(check_side(&bad_lift), Err(Error::Malformed(_))));
    let mut buried = level(&gap_level(2));
    buried.start = (0, 0);
    assert_eq!(check_side(&buried), Err(Error::Unbeatable(Unbeatable::StartBlocked { at: (0, 0) })));
    assert!(SideLevel::from_ascii("#@#\n#~!\n", Movement::default()).is_err());
    assert!(SideLevel::from_ascii("# #\n", Movement::default()).is_err());
}

#[test]
fn stepping_gives_the_one_shot_level_and_every_kind_of_climb() {
    let config = SideConfig::new(Config::grid(16, 8).zones(5).cycles(20).bias(0.3).seed(4), Movement::default());
    let mut generator = SideGenerator::new(&config).unwrap();
    let mut climbs = std::collections::HashSet::new();
    let mut maze_steps = 0;
    let mut last = None;
    for step in generator.by_ref() {
        match step {
            SideStep::Maze(_) => maze_steps += 1,
            SideStep::Passage { climb, .. } => {
                climbs.insert(std::mem::discriminant(&climb));
            }
            SideStep::Fallback | SideStep::Unbeatable => panic!("{step:?}"),
            _ => {}
        }
        last = Some(step);
    }
    assert_eq!(last, Some(SideStep::Checked { keys: 4 }));
    assert_eq!(maze_steps, lore_mazegen::Generator::new(&config.maze).unwrap().count());
    let maze = lore_mazegen::generate(&config.maze).unwrap();
    assert_eq!(generator.solution().unwrap().keys_per_stage, maze_stages(&maze));
    let level = generator.finish().unwrap();
    assert_eq!(level, generate_side(&config).unwrap());
    for climb in [Climb::Walk, Climb::Door(0), Climb::Ladder, Climb::Platforms, Climb::Ledges, Climb::Lift] {
        assert!(climbs.contains(&std::mem::discriminant(&climb)), "{climb:?} never built");
    }
    // The maze underneath is the one `generate` makes.
    assert_eq!(level.cell_zones, maze.zone);
    assert!(level.tiles.iter().any(|t| matches!(t, LevelTile::SlopeUp)));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    /// Every generated level is beatable, stage by stage with the same keys as its maze (the
    /// lock-and-key order holds), its first build passes (no ladder fallback), and its lifts'
    /// holes are within the jump.
    #[test]
    fn generated_levels_are_beatable_in_key_order(
        seed in any::<u64>(), w in 1u32..14, h in 1u32..7, zones in 1u16..6, cycles in 0u32..20,
        bias in -0.5f32..=1.0, jump_height in 1.5f32..6.0, jump_distance in 2.0f32..9.0,
        width in 0.25f32..=1.0, height in 0.25f32..3.0,
    ) {
        let zones = zones.min((w * h) as u16).max(1);
        let movement = Movement { jump_height, jump_distance, run_speed: 8.0, size: lore_mazegen::Vec2::new(width, height) };
        let config = SideConfig::new(Config::grid(w, h).zones(zones).cycles(cycles).bias(bias).seed(seed), movement);
        let mut generator = SideGenerator::new(&config).unwrap();
        // The first build passes: the ladder fallback is a safety net, not a habit.
        prop_assert!(generator.by_ref().all(|s| s != SideStep::Fallback));
        let level = generator.finish().unwrap();
        prop_assert_eq!(&level, &generate_side(&config).unwrap());
        let solution = check_side(&level).unwrap();
        let maze = lore_mazegen::generate(&config.maze).unwrap();
        prop_assert_eq!(&solution.keys_per_stage, &maze_stages(&maze));
        let mut order = solution.key_order.clone();
        order.sort_unstable();
        prop_assert_eq!(order, (0..zones - 1).map(|c| c as u8).collect::<Vec<_>>());
        prop_assert_eq!(level.keys.len(), usize::from(zones) - 1);
        for lift in &level.lifts {
            prop_assert!(lift.width as f32 + width <= jump_distance);
        }
        prop_assert_eq!(level.zone_count(), zones);
    }
}

/// The long run: many seeds of the default size (release mode, `--ignored`).
#[test]
#[ignore = "long: run with --release -- --ignored"]
fn thousand_default_levels_are_beatable() {
    let mut fallbacks = 0;
    for seed in 0..1000 {
        let mut generator = SideGenerator::new(&SideConfig::default().seed(seed)).unwrap();
        fallbacks += generator.by_ref().filter(|s| *s == SideStep::Fallback).count();
        let level = generator.finish().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let maze = lore_mazegen::generate(&SideConfig::default().seed(seed).maze).unwrap();
        assert_eq!(check_side(&level).unwrap().keys_per_stage, maze_stages(&maze), "seed {seed}");
    }
    println!("1,000 default levels, {fallbacks} needed the ladder fallback");
    assert_eq!(fallbacks, 0, "levels needed the ladder fallback");
}
