//! The platformer course: one `CharacterController` (disk, box or capsule, switched with K) on
//! slopes of loose pieces, stairs, one-way platforms, a platform moving sideways and a lift.
//! The controller reads the obstacles from a lore-broadphase tree through [`TreeSource`], the
//! adapter of the collide2d guide.

use lore_broadphase::{ProxyId, ProxyMap, SpatialIndex, Tree};
use lore_collide2d::{
    Aabb, CharacterController, CharacterMove, CharacterShape, Collider, Obstacle, ObstacleInfo, ObstacleSource,
    Segment, Shape,
};
use lore_render::demo::DT;
use lore_render::glam::{Vec2, vec2};
use lore_render::{Batch, Color, Input, Key};

/// Height of the course's ground.
pub const GROUND_Y: f32 = 1.0;
/// Colour of one-way platforms.
pub const ONE_WAY: Color = Color::rgb(250, 200, 60);
/// Colour of moving platforms.
pub const MOVING: Color = Color::rgb(200, 90, 240);
/// Colour of the character.
pub const CHARACTER: Color = Color::ORANGE;

const GRAVITY: f32 = -20.0;
const WALK: f32 = 4.0;
const JUMP: f32 = 10.0;

/// The three bodies the character can have, in the order K cycles through them.
pub const SHAPES: [CharacterShape; 3] = [
    CharacterShape::Disk { radius: 0.5 },
    CharacterShape::Aabb { half_extents: Vec2::new(0.4, 0.5) },
    CharacterShape::Capsule { half_height: 0.3, radius: 0.35 },
];

/// Id of the platform moving sideways.
pub const SIDEWAYS: u64 = 900;
/// Id of the lift.
pub const LIFT: u64 = 901;

/// The obstacles of the course as a collide2d obstacle source: a broadphase tree of their
/// boxes (a moving platform's box covers where it is and where it will be this step), and the
/// obstacle behind each proxy.
#[derive(Debug)]
pub struct TreeSource<'a> {
    index: &'a mut Tree,
    found: &'a mut Vec<ProxyId>,
    proxies: &'a ProxyMap<usize>,
    obstacles: &'a [Obstacle<Collider>],
}

impl<'a> ObstacleSource<'a> for TreeSource<'a> {
    type Shape = Collider;
    fn query(self, area: &Aabb, mut visit: impl FnMut(&'a Collider, ObstacleInfo)) {
        self.index.query_aabb(area, self.found);
        for id in self.found.iter() {
            if let Some(&i) = self.proxies.get(*id) {
                visit(&self.obstacles[i].shape, self.obstacles[i].info);
            }
        }
    }
}

/// The course and its character.
#[derive(Debug, Clone)]
pub struct Course {
    /// Every obstacle: the static pieces, then the two moving platforms (updated each step).
    pub obstacles: Vec<Obstacle<Collider>>,
    index: Tree,
    proxies: ProxyMap<usize>,
    /// The proxies of the two moving platforms.
    moving: [ProxyId; 2],
    found: Vec<ProxyId>,
    shape: usize,
    /// Centre and velocity of the character.
    pub body: (Vec2, Vec2),
    dir: f32,
    time: f32,
    steps: u64,
    last: Option<CharacterMove>,
    /// Steps carried by a moving platform, landed on a one-way platform, crushed.
    pub rides: u64,
    /// Steps spent standing on a one-way platform.
    pub one_way_steps: u64,
    /// Steps reported crushed.
    pub crushed: u64,
}

fn pieces(from: Vec2, to: Vec2, len: f32, out: &mut Vec<Obstacle<Collider>>) {
    let n = ((to - from).length() / len).ceil().max(1.0) as usize;
    for i in 0..n {
        let a = from.lerp(to, i as f32 / n as f32);
        let b = from.lerp(to, (i + 1) as f32 / n as f32);
        let id = out.len() as u64;
        out.push(Obstacle { shape: Collider::Segment(Segment { a, b }), info: ObstacleInfo::new(id) });
    }
}

fn one_way(a: Vec2, b: Vec2, id: u64) -> Obstacle<Collider> {
    Obstacle {
        shape: Collider::Segment(Segment { a, b }),
        info: ObstacleInfo { one_way: Some(Vec2::Y), ..ObstacleInfo::new(id) },
    }
}

/// Where the moving platforms are at `t` seconds: the sideways one's left end and the lift's top.
fn platforms_at(t: f32) -> (Vec2, f32) {
    let tri = |period: f32| {
        let u = (t / period).fract();
        if u < 0.5 { 2.0 * u } else { 2.0 - 2.0 * u }
    };
    (vec2(15.0 + 5.0 * tri(6.0), 3.6), GROUND_Y + 4.5 * tri(5.0))
}

fn platform_shapes(t: f32) -> [Collider; 2] {
    let (side, lift) = platforms_at(t);
    [
        Collider::Aabb(lore_collide2d::Aabb::covering(side, side + vec2(3.0, 0.3))),
        Collider::Aabb(lore_collide2d::Aabb::covering(vec2(23.0, lift - 0.3), vec2(25.5, lift))),
    ]
}

impl Course {
    /// The course, the character (a disk) at the start.
    #[must_use]
    pub fn new() -> Self {
        let mut o = Vec::new();
        let g = GROUND_Y;
        // Ground of loose half-unit pieces, with a 20 degree ramp, a plateau and a 35 degree
        // slope down, then stairs up and down (0.15 each), then flat to the far wall.
        pieces(vec2(0.5, g), vec2(3.0, g), 0.5, &mut o);
        let up = vec2(3.0, g) + vec2(20f32.to_radians().cos(), 20f32.to_radians().sin()) * 3.0;
        pieces(vec2(3.0, g), up, 0.5, &mut o);
        pieces(up, up + vec2(1.0, 0.0), 0.5, &mut o);
        let down_end = vec2(up.x + 1.0 + (up.y - g) / 35f32.to_radians().tan(), g);
        pieces(up + vec2(1.0, 0.0), down_end, 0.5, &mut o);
        let mut x = down_end.x;
        pieces(vec2(x, g), vec2(x + 1.0, g), 0.5, &mut o);
        x += 1.0;
        let mut y = g;
        for dy in [0.15, 0.15, 0.15, -0.15, -0.15, -0.15] {
            pieces(vec2(x, y), vec2(x, y + dy), 1.0, &mut o);
            y += dy;
            pieces(vec2(x, y), vec2(x + 0.8, y), 0.5, &mut o);
            x += 0.8;
        }
        pieces(vec2(x, g), vec2(31.5, g), 0.5, &mut o);
        // Walls at both ends.
        pieces(vec2(0.5, g), vec2(0.5, 17.0), 4.0, &mut o);
        pieces(vec2(31.5, g), vec2(31.5, 17.0), 4.0, &mut o);
        // One-way platforms: over the ramp, and two by the lift.
        let base = o.len() as u64;
        o.push(one_way(vec2(1.5, 3.2), vec2(5.0, 3.2), base));
        o.push(one_way(vec2(26.0, 5.5), vec2(31.5, 5.5), base + 1));
        o.push(one_way(vec2(19.0, 7.0), vec2(22.5, 7.0), base + 2));
        let [side, lift] = platform_shapes(0.0);
        o.push(Obstacle { shape: side, info: ObstacleInfo::new(SIDEWAYS) });
        o.push(Obstacle { shape: lift, info: ObstacleInfo { one_way: Some(Vec2::Y), ..ObstacleInfo::new(LIFT) } });
        let mut index = Tree::new();
        let mut proxies = ProxyMap::new();
        let mut moving = Vec::new();
        for (i, ob) in o.iter().enumerate() {
            let id = index.insert(ob.shape.bounds()).expect("finite boxes");
            proxies.insert(id, i);
            if ob.info.id >= SIDEWAYS {
                moving.push(id);
            }
        }
        let mut c = Self {
            obstacles: o,
            index,
            proxies,
            moving: [moving[0], moving[1]],
            found: Vec::new(),
            shape: 0,
            body: (Vec2::ZERO, Vec2::ZERO),
            dir: 1.0,
            time: 0.0,
            steps: 0,
            last: None,
            rides: 0,
            one_way_steps: 0,
            crushed: 0,
        };
        c.reset(0);
        c
    }

    /// Back to the start; the seed shifts the starting place a little.
    pub fn reset(&mut self, seed: u64) {
        let s = (seed % 5) as f32 * 0.2;
        let shape = SHAPES[self.shape];
        self.body = (vec2(1.5 + s, GROUND_Y + shape.extent(Vec2::Y) + 0.01), Vec2::ZERO);
        self.dir = 1.0;
        self.time = 0.0;
        self.steps = 0;
        self.last = None;
        self.rides = 0;
        self.one_way_steps = 0;
        self.crushed = 0;
        self.set_platforms();
    }

    /// The character's controller.
    #[must_use]
    pub fn controller(&self) -> CharacterController {
        CharacterController::with_shape(SHAPES[self.shape]).expect("the shapes are valid")
    }

    /// The character's body.
    #[must_use]
    pub fn shape(&self) -> CharacterShape {
        SHAPES[self.shape]
    }

    /// The last move's report.
    #[must_use]
    pub fn last(&self) -> Option<&CharacterMove> {
        self.last.as_ref()
    }

    /// Switches to the next body, standing on the same floor.
    pub fn next_shape(&mut self) {
        let foot = SHAPES[self.shape].extent(Vec2::Y);
        self.shape = (self.shape + 1) % SHAPES.len();
        let grow = SHAPES[self.shape].extent(Vec2::Y) - foot;
        if grow > 0.0 {
            self.body.0.y += grow;
        }
    }

    /// The moving platforms at the current time, with the velocity that takes them to the
    /// next step's place.
    fn set_platforms(&mut self) {
        let now = platform_shapes(self.time);
        let next = platform_shapes(self.time + DT);
        let n = self.obstacles.len();
        for (k, (a, b)) in now.into_iter().zip(next).enumerate() {
            let v = (b.bounds().center() - a.bounds().center()) / DT;
            let swept = a.bounds().union(&b.bounds());
            let o = &mut self.obstacles[n - 2 + k];
            o.shape = a;
            o.info.velocity = v;
            self.index.update(self.moving[k], swept).expect("a live proxy, finite box");
        }
    }

    /// One step: steering (arrows; untouched, an autopilot walks back and forth and jumps
    /// now and then), Up or Space jumps, Down drops through one-way platforms.
    pub fn step(&mut self, input: &Input) {
        if input.key_pressed(Key::Char('k')) {
            self.next_shape();
        }
        let ctl = self.controller();
        let (p, mut v) = self.body;
        let steer = f32::from(u8::from(input.key_down(Key::Right))) - f32::from(u8::from(input.key_down(Key::Left)));
        let auto = steer == 0.0 && !input.key_down(Key::Up) && !input.key_down(Key::Down);
        let on_floor = self.last.as_ref().is_some_and(CharacterMove::on_floor);
        if auto {
            if p.x > 30.0 {
                self.dir = -1.0;
            } else if p.x < 2.0 {
                self.dir = 1.0;
            }
            // Jump every two seconds, onto the one-way platforms and the lift.
            if on_floor && self.steps % 120 == 60 {
                v.y = JUMP;
            }
        } else if on_floor && (input.key_pressed(Key::Up) || input.key_pressed(Key::Space)) {
            v.y = JUMP;
        }
        let dir = if auto { self.dir } else { steer };
        v.x = dir * WALK;
        v.y += GRAVITY * DT;
        let drop = input.key_down(Key::Down);
        let source = TreeSource {
            index: &mut self.index,
            found: &mut self.found,
            proxies: &self.proxies,
            obstacles: &self.obstacles,
        };
        if let Ok(m) = ctl.move_and_slide_with(p, v, DT, source, drop, |_| true) {
            if m.floor.is_some_and(|f| f.velocity != Vec2::ZERO) {
                self.rides += 1;
            }
            if m.floor.is_some_and(|f| self.obstacles.iter().any(|o| o.info.id == f.id && o.info.one_way.is_some())) {
                self.one_way_steps += 1;
            }
            self.crushed += u64::from(m.crushed);
            self.body = (m.position, m.velocity);
            // Fell out (never expected): back to the start.
            if m.position.y < 0.0 {
                self.reset(0);
            }
            self.last = Some(m);
        }
        // The platforms move after the character (the controller's convention).
        self.time += DT;
        self.steps += 1;
        self.set_platforms();
    }

    /// Draws the course and the character.
    pub fn draw(&self, batch: &mut Batch) {
        let px = batch.pixel();
        for o in &self.obstacles {
            match (&o.shape, o.info.one_way.is_some(), o.info.id >= SIDEWAYS) {
                (Collider::Aabb(b), one_way, _) => {
                    batch.rect(b.min(), b.max(), MOVING);
                    if one_way {
                        batch.line(vec2(b.min().x, b.max().y), b.max(), 4.0 * px, ONE_WAY);
                    }
                }
                (Collider::Segment(s), true, _) => batch.line(s.a, s.b, 5.0 * px, ONE_WAY),
                (Collider::Segment(s), false, _) => {
                    let c = if o.info.id % 2 == 0 { Color::CYAN } else { Color::BLUE };
                    batch.line(s.a, s.b, 4.0 * px, c);
                    batch.disk(s.a, 2.5 * px, Color::WHITE);
                }
                _ => {}
            }
        }
        let p = self.body.0;
        match self.shape() {
            CharacterShape::Disk { radius } => {
                batch.disk(p, radius, CHARACTER);
                batch.circle(p, radius, 2.0 * px, Color::WHITE);
            }
            CharacterShape::Aabb { half_extents } => {
                batch.rect(p - half_extents, p + half_extents, CHARACTER);
                batch.rect_outline(p - half_extents, p + half_extents, 2.0 * px, Color::WHITE);
            }
            CharacterShape::Capsule { half_height, radius } => {
                let h = vec2(0.0, half_height);
                batch.rect(p - h - vec2(radius, 0.0), p + h + vec2(radius, 0.0), CHARACTER);
                batch.disk(p - h, radius, CHARACTER);
                batch.disk(p + h, radius, CHARACTER);
            }
        }
        if let Some(m) = &self.last {
            for t in m.touches() {
                batch.arrow(t.point, t.point + t.normal * 0.8, 3.0 * px, Color::YELLOW);
            }
            let name = match self.shape() {
                CharacterShape::Disk { .. } => "disk",
                CharacterShape::Aabb { .. } => "box",
                CharacterShape::Capsule { .. } => "capsule",
            };
            let mut flags = String::new();
            for (on, what) in [
                (m.on_floor(), "floor"),
                (m.on_wall(), "wall"),
                (m.on_ceiling(), "ceiling"),
                (m.stepped, "stepped"),
                (m.snapped, "snapped"),
                (m.crushed, "crushed"),
            ] {
                if on {
                    flags.push(' ');
                    flags.push_str(what);
                }
            }
            batch.text(vec2(16.0, 17.0), format!("course: {name} |{flags}"), 22.0, Color::WHITE);
        }
        batch.text(
            vec2(16.0, 15.8),
            "K shape  arrows/Up: walk, jump  Down: drop through  P: seams scene",
            14.0,
            Color::GREY,
        );
    }
}

impl Default for Course {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deepest penetration of the character into a static two-way obstacle.
    fn depth(c: &Course) -> f32 {
        let p = c.body.0;
        let mut d = 0.0f32;
        for o in c.obstacles.iter().filter(|o| o.info.one_way.is_none() && o.info.velocity == Vec2::ZERO) {
            let k = match c.shape() {
                CharacterShape::Disk { radius } => o.shape.disk_contact(p, radius),
                CharacterShape::Aabb { half_extents } => {
                    let r = 0.01 * half_extents.min_element();
                    o.shape.box_contact(p, half_extents - r, r)
                }
                CharacterShape::Capsule { half_height, radius } => {
                    o.shape.box_contact(p, vec2(0.0, half_height), radius)
                }
            };
            d = d.max(k.map_or(0.0, |k| k.depth));
        }
        d
    }

    #[test]
    fn autopilot_runs_the_course_with_every_shape() {
        for shape in 0..3 {
            let mut c = Course::new();
            for _ in 0..shape {
                c.next_shape();
            }
            c.reset(0);
            let mut max_x: f32 = 0.0;
            for _ in 0..2400 {
                c.step(&Input::default());
                max_x = max_x.max(c.body.0.x);
                assert!(depth(&c) < 1e-3, "{:?} inside at {}", c.shape(), c.body.0);
                assert!(c.body.0.y > GROUND_Y, "{:?} below the ground at {}", c.shape(), c.body.0);
            }
            assert!(max_x > 29.0, "{:?} reached the far end: {max_x}", c.shape());
            assert!(c.rides > 0, "{:?} rode a moving platform", c.shape());
            assert!(c.one_way_steps > 0, "{:?} stood on a one-way platform", c.shape());
        }
    }

    #[test]
    fn shape_key_cycles_the_bodies() {
        let mut c = Course::new();
        let mut k = Input::default();
        k.press_key(Key::Char('k'));
        let mut seen = Vec::new();
        for _ in 0..3 {
            c.step(&k);
            seen.push(c.shape());
            // Steered (held Left: no autopilot jumps), it lands and stands.
            let mut left = Input::default();
            left.press_key(Key::Left);
            let mut landed = false;
            for _ in 0..30 {
                c.step(&left);
                landed |= c.last().is_some_and(CharacterMove::on_floor);
            }
            assert!(landed, "{:?} stands on the floor", c.shape());
        }
        assert_eq!(seen, [SHAPES[1], SHAPES[2], SHAPES[0]]);
    }
}
