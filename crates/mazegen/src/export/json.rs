//! JSON export, written by hand (no serde dependency for one fixed format).

use std::fmt::Write;

use crate::maze::{EdgeKind, Layout, Maze};

/// The maze as JSON:
///
/// ```text
/// {"layout":"points"|{"grid":[w,h]},"root":0,"zones":4,
///  "nodes":[{"x":..,"y":..,"zone":0},..],
///  "edges":[{"a":0,"b":1,"kind":"tree"|"cycle"},..],
///  "doors":[{"edge":3,"a":..,"b":..,"colour":0},..],
///  "keys":[{"colour":0,"node":17},..]}
/// ```
///
/// The format is stable: the keys keep their 0.1 spelling `colour` (the Rust names are `color`
/// since 0.2), so files already written and the tools that read them stay valid.
#[must_use]
pub fn to_json(maze: &Maze) -> String {
    let mut s = String::with_capacity(64 * maze.positions.len() + 1024);
    s.push('{');
    match maze.layout {
        Layout::Points => s.push_str("\"layout\":\"points\""),
        Layout::Grid { width, height } => {
            let _ = write!(s, "\"layout\":{{\"grid\":[{width},{height}]}}");
        }
    }
    let _ = write!(s, ",\"root\":{},\"zones\":{},\"nodes\":[", maze.root, maze.zone_count);
    for (i, p) in maze.positions.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let zone = maze.zone.get(i).copied().unwrap_or(0);
        let _ = write!(s, "{sep}{{\"x\":{},\"y\":{},\"zone\":{zone}}}", num(p.x), num(p.y));
    }
    s.push_str("],\"edges\":[");
    for (i, e) in maze.edges.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let kind = match e.kind {
            EdgeKind::Tree => "tree",
            EdgeKind::Cycle => "cycle",
        };
        let _ = write!(s, "{sep}{{\"a\":{},\"b\":{},\"kind\":\"{kind}\"}}", e.a, e.b);
    }
    s.push_str("],\"doors\":[");
    for (i, (index, e)) in maze.doors().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let color = e.door.unwrap_or(0);
        let _ = write!(s, "{sep}{{\"edge\":{index},\"a\":{},\"b\":{},\"colour\":{color}}}", e.a, e.b);
    }
    s.push_str("],\"keys\":[");
    for (i, k) in maze.keys.iter().enumerate() {
        let sep = if i == 0 { "" } else { "," };
        let _ = write!(s, "{sep}{{\"colour\":{},\"node\":{}}}", k.color, k.node);
    }
    s.push_str("]}");
    s
}

/// JSON has no NaN or infinity; positions from the generator are finite, hand-made ones may not be.
fn num(v: f32) -> String {
    if v.is_finite() { format!("{v}") } else { "null".to_owned() }
}
