//! Input as a demo sees it: lore's own small type, independent of the windowing library.

use glam::Vec2;

/// A keyboard key a demo can react to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    /// Left arrow.
    Left,
    /// Right arrow.
    Right,
    /// Up arrow.
    Up,
    /// Down arrow.
    Down,
    /// Space bar.
    Space,
    /// Enter / Return.
    Enter,
    /// Escape.
    Escape,
    /// Tab.
    Tab,
    /// Backspace.
    Backspace,
    /// Either Shift key.
    Shift,
    /// Either Control key.
    Control,
    /// A letter (always lowercase) or digit key.
    Char(char),
}

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MouseButton {
    /// The primary (usually left) button.
    Left,
    /// The secondary (usually right) button.
    Right,
    /// The middle button / wheel click.
    Middle,
}

/// The input for one fixed step.
///
/// "Down" means held during the step; "pressed" means it went down since the previous step
/// (an edge, seen by exactly one step). Keys typed while an egui widget has focus do not
/// reach the demo. A headless run steps with `Input::default()`: nothing held, the mouse at the
/// world origin and `mouse_in_view == false`, so demos that want motion headless drive it
/// themselves (an autopilot, a scripted path).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Input {
    /// Mouse position in world coordinates (y up).
    pub mouse: Vec2,
    /// Whether the pointer is over the scene (not over a panel, not outside the window).
    pub mouse_in_view: bool,
    /// Wheel movement this step in lines (positive away from the user). The runner already
    /// uses the wheel to zoom unless the demo asks for it (see `Demo::wants_wheel`).
    pub wheel: f32,
    keys_down: Vec<Key>,
    keys_pressed: Vec<Key>,
    buttons_down: Vec<MouseButton>,
    buttons_pressed: Vec<MouseButton>,
}

impl Input {
    /// Whether `key` is held.
    #[must_use]
    pub fn key_down(&self, key: Key) -> bool {
        self.keys_down.contains(&key)
    }

    /// Whether `key` went down since the previous step.
    #[must_use]
    pub fn key_pressed(&self, key: Key) -> bool {
        self.keys_pressed.contains(&key)
    }

    /// Whether mouse `button` is held.
    #[must_use]
    pub fn button_down(&self, button: MouseButton) -> bool {
        self.buttons_down.contains(&button)
    }

    /// Whether mouse `button` went down since the previous step.
    #[must_use]
    pub fn button_pressed(&self, button: MouseButton) -> bool {
        self.buttons_pressed.contains(&button)
    }

    /// The arrow keys (or WASD) as a direction with components in `-1..=1`, y up.
    #[must_use]
    pub fn arrows(&self) -> Vec2 {
        let axis = |neg: bool, pos: bool| f32::from(u8::from(pos)) - f32::from(u8::from(neg));
        Vec2::new(
            axis(
                self.key_down(Key::Left) || self.key_down(Key::Char('a')),
                self.key_down(Key::Right) || self.key_down(Key::Char('d')),
            ),
            axis(
                self.key_down(Key::Down) || self.key_down(Key::Char('s')),
                self.key_down(Key::Up) || self.key_down(Key::Char('w')),
            ),
        )
    }

    /// Marks `key` held (and pressed, if it was not held before). Used by runners and by
    /// tests that script input.
    pub fn press_key(&mut self, key: Key) {
        if !self.keys_down.contains(&key) {
            self.keys_down.push(key);
            self.keys_pressed.push(key);
        }
    }

    /// Marks `key` released.
    pub fn release_key(&mut self, key: Key) {
        self.keys_down.retain(|&k| k != key);
    }

    /// Marks mouse `button` held (and pressed, if it was not held before).
    pub fn press_button(&mut self, button: MouseButton) {
        if !self.buttons_down.contains(&button) {
            self.buttons_down.push(button);
            self.buttons_pressed.push(button);
        }
    }

    /// Marks mouse `button` released.
    pub fn release_button(&mut self, button: MouseButton) {
        self.buttons_down.retain(|&b| b != button);
    }

    /// Releases everything (e.g. when the window loses focus).
    pub fn release_all(&mut self) {
        self.keys_down.clear();
        self.buttons_down.clear();
    }

    /// Ends a step: clears the edges ("pressed") and the wheel, keeps what is held.
    pub fn end_step(&mut self) {
        self.keys_pressed.clear();
        self.buttons_pressed.clear();
        self.wheel = 0.0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pressed_is_an_edge() {
        let mut input = Input::default();
        input.press_key(Key::Space);
        assert!(input.key_pressed(Key::Space) && input.key_down(Key::Space));
        input.end_step();
        assert!(!input.key_pressed(Key::Space) && input.key_down(Key::Space));
        input.press_key(Key::Space); // auto-repeat: still held, no new edge
        assert!(!input.key_pressed(Key::Space));
        input.release_key(Key::Space);
        assert!(!input.key_down(Key::Space));
    }

    #[test]
    fn arrows_direction() {
        let mut input = Input::default();
        input.press_key(Key::Left);
        input.press_key(Key::Char('w'));
        assert_eq!(input.arrows(), Vec2::new(-1.0, 1.0));
    }
}
