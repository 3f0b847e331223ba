//! The viewers' keys: one table, the only place `modex view` of models, terrain, voxel units and
//! levels reads its bindings from, so the same key does the same thing in every viewer and the
//! lists a person reads cannot drift from what the keys do. `modex view --help` ([`help`]), the
//! README's "Viewer keys" section ([`markdown`], compared by a test) and the F1 overlay
//! ([`overlay_lines`]) are all generated from it, key names included ([`key_name`]).
//!
//! The demo's window and the cutscene player are not viewers and keep their own keys (README,
//! "The demo" and the cutscene player's paragraph).

use modex_desktop::minifb::{Key, KeyRepeat, MouseButton, MouseMode, Window};

/// A viewer: which files it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Viewer {
    /// MDL models and HMP terrain (and GTA Stories models).
    Model,
    /// Westwood voxel units.
    Voxel,
    /// WMB levels.
    Level,
}

impl Viewer {
    /// Every viewer, in the table's column order.
    pub const ALL: [Viewer; 3] = [Viewer::Model, Viewer::Voxel, Viewer::Level];

    /// Its name in the tables.
    pub fn name(self) -> &'static str {
        match self {
            Viewer::Model => "models",
            Viewer::Voxel => "voxels",
            Viewer::Level => "levels",
        }
    }
}

/// Everything a viewer does on a key (or the mouse).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// Close the window.
    Quit,
    /// Show or hide the key list.
    Keys,
    /// Show or hide the statistics.
    Stats,
    /// Next target pixel format.
    Format,
    /// Turn (orbit models and units; turn in levels).
    Turn,
    /// Tilt (orbit up and down; look up and down in levels).
    Tilt,
    /// Turn and tilt with the mouse.
    Drag,
    /// Zoom in and out.
    Zoom,
    /// Wireframe (models) or limb outlines (voxels).
    Wireframe,
    /// Play or pause the animation.
    Play,
    /// Step one animation frame.
    Frame,
    /// Next skin.
    Skin,
    /// Turn a unit.
    Facing,
    /// Turn a unit's turret.
    Turret,
    /// Recoil the barrel.
    Recoil,
    /// Next VXL normal table.
    Normals,
    /// Next voxel lighting.
    Lighting,
    /// Next voxel light source.
    Light,
    /// Orthographic or perspective.
    Projection,
    /// Forward and back.
    Move,
    /// Left and right.
    Strafe,
    /// Up and down (flying).
    Rise,
    /// Run.
    Run,
    /// Walk or fly.
    Walk,
    /// Print the camera.
    Camera,
}

/// How an action's keys act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acts {
    /// Once per press.
    Press,
    /// Every frame while held.
    Hold,
    /// The mouse, not keys.
    Mouse,
}

/// An action's keys and what the lists say of it.
#[derive(Debug, Clone, Copy)]
pub struct Binding {
    /// Its keys; for a pair, the "more" side (right, up, next, closer).
    pub keys: &'static [Key],
    /// A pair's "less" side (left, down, previous, away); empty for a single action.
    pub less: &'static [Key],
    /// Once per press, while held, or the mouse.
    pub acts: Acts,
    /// A short name.
    pub name: &'static str,
    /// What it does (a pair: the less side's effect, then the more side's).
    pub does: &'static str,
    /// The viewers that have it.
    pub viewers: &'static [Viewer],
}

const ALL: &[Viewer] = &Viewer::ALL;
const MODELS_VOXELS: &[Viewer] = &[Viewer::Model, Viewer::Voxel];
const MODELS: &[Viewer] = &[Viewer::Model];
const VOXELS: &[Viewer] = &[Viewer::Voxel];
const LEVELS: &[Viewer] = &[Viewer::Level];

impl Action {
    /// Every action, in the lists' order.
    pub const ALL: [Action; 25] = [
        Action::Quit,
        Action::Keys,
        Action::Stats,
        Action::Format,
        Action::Turn,
        Action::Tilt,
        Action::Drag,
        Action::Zoom,
        Action::Wireframe,
        Action::Play,
        Action::Frame,
        Action::Skin,
        Action::Facing,
        Action::Turret,
        Action::Recoil,
        Action::Normals,
        Action::Lighting,
        Action::Light,
        Action::Projection,
        Action::Move,
        Action::Strafe,
        Action::Rise,
        Action::Run,
        Action::Walk,
        Action::Camera,
    ];

    /// The action's keys and description: the table.
    pub fn binding(self) -> Binding {
        use Acts::{Hold, Mouse, Press};
        let b = |keys, less, acts, name, does, viewers| Binding {
            keys,
            less,
            acts,
            name,
            does,
            viewers,
        };
        match self {
            Action::Quit => b(
                &[modex_desktop::QUIT_KEY],
                &[],
                Hold,
                "quit",
                "close the window",
                ALL,
            ),
            Action::Keys => b(
                &[Key::F1],
                &[],
                Press,
                "keys",
                "show or hide this list over the picture",
                ALL,
            ),
            Action::Stats => b(
                &[Key::F],
                &[],
                Press,
                "statistics",
                "show or hide the frame rate and what was drawn",
                ALL,
            ),
            Action::Format => b(
                &[Key::Tab],
                &[],
                Press,
                "format",
                "draw in the next pixel format: 8-bit, 565, 4444, 8888",
                ALL,
            ),
            Action::Turn => b(
                &[Key::Right],
                &[Key::Left],
                Hold,
                "turn",
                "orbit left / right (levels: turn)",
                ALL,
            ),
            Action::Tilt => b(
                &[Key::Up],
                &[Key::Down],
                Hold,
                "tilt",
                "orbit lower / higher (levels: look down / up)",
                ALL,
            ),
            Action::Drag => b(
                &[],
                &[],
                Mouse,
                "look",
                "turn and tilt as the arrows do",
                ALL,
            ),
            Action::Zoom => b(
                &[Key::Equal, Key::NumPadPlus],
                &[Key::Minus, Key::NumPadMinus],
                Hold,
                "zoom",
                "move the camera away / closer",
                MODELS,
            ),
            Action::Wireframe => b(
                &[Key::X],
                &[],
                Press,
                "wireframe",
                "triangle edges over the picture (voxels: limb outlines)",
                MODELS_VOXELS,
            ),
            Action::Play => b(
                &[Key::Space],
                &[],
                Press,
                "play",
                "play or pause the animation",
                MODELS_VOXELS,
            ),
            Action::Frame => b(
                &[Key::Period],
                &[Key::Comma],
                Press,
                "frame",
                "previous / next animation frame",
                MODELS_VOXELS,
            ),
            Action::Skin => b(&[Key::K], &[], Press, "skin", "next skin", MODELS),
            Action::Facing => b(
                &[Key::RightBracket],
                &[Key::LeftBracket],
                Hold,
                "facing",
                "turn the unit left / right",
                VOXELS,
            ),
            Action::Turret => b(
                &[Key::Apostrophe],
                &[Key::Semicolon],
                Hold,
                "turret",
                "turn the turret left / right",
                VOXELS,
            ),
            Action::Recoil => b(
                &[Key::R],
                &[],
                Hold,
                "recoil",
                "the barrel recoils while held",
                VOXELS,
            ),
            Action::Normals => b(
                &[Key::T],
                &[],
                Press,
                "normals",
                "next normal table: declared, by largest index, 1 to 4",
                VOXELS,
            ),
            Action::Lighting => b(
                &[Key::L],
                &[],
                Press,
                "lighting",
                "next lighting: the game's, free, unlit",
                VOXELS,
            ),
            Action::Light => b(
                &[Key::V],
                &[],
                Press,
                "light",
                "next light source: auto, Tiberian Sun, Red Alert 2",
                VOXELS,
            ),
            Action::Projection => b(
                &[Key::O],
                &[],
                Press,
                "projection",
                "orthographic (the game's) or perspective",
                VOXELS,
            ),
            Action::Move => b(&[Key::W], &[Key::S], Hold, "move", "back / forward", LEVELS),
            Action::Strafe => b(&[Key::D], &[Key::A], Hold, "strafe", "left / right", LEVELS),
            Action::Rise => b(
                &[Key::E, Key::PageUp],
                &[Key::Q, Key::PageDown],
                Hold,
                "rise",
                "down / up (flying)",
                LEVELS,
            ),
            Action::Run => b(
                &[Key::LeftShift, Key::RightShift],
                &[],
                Hold,
                "run",
                "move three times as fast while held",
                LEVELS,
            ),
            Action::Walk => b(
                &[Key::G],
                &[],
                Press,
                "walk",
                "walk (gravity, steps, walls) or fly (free, through walls), from here",
                LEVELS,
            ),
            Action::Camera => b(
                &[Key::C],
                &[],
                Press,
                "camera",
                "print the camera as a --camera X,Y,Z,PAN,TILT argument",
                LEVELS,
            ),
        }
    }

    /// Whether `viewer` has it.
    pub fn in_viewer(self, viewer: Viewer) -> bool {
        self.binding().viewers.contains(&viewer)
    }

    /// Whether one of its keys was pressed since the last frame (no key repeat).
    pub fn pressed(self, keys: &impl KeyState) -> bool {
        self.binding().keys.iter().any(|&k| keys.pressed(k))
    }

    /// Whether one of its keys is held.
    pub fn held(self, keys: &impl KeyState) -> bool {
        self.binding().keys.iter().any(|&k| keys.down(k))
    }

    /// A held pair: 1 for its "more" keys, -1 for its "less" keys, 0 for both or neither.
    pub fn axis(self, keys: &impl KeyState) -> f32 {
        let b = self.binding();
        let more = b.keys.iter().any(|&k| keys.down(k));
        let less = b.less.iter().any(|&k| keys.down(k));
        more as i32 as f32 - less as i32 as f32
    }

    /// A pressed pair: 1 for its "more" keys, -1 for its "less" keys, 0 for both or neither.
    pub fn step(self, keys: &impl KeyState) -> i32 {
        let b = self.binding();
        let more = b.keys.iter().any(|&k| keys.pressed(k));
        let less = b.less.iter().any(|&k| keys.pressed(k));
        more as i32 - less as i32
    }

    /// Its keys as the lists show them: `Tab`, `Left / Right`, `Q or PgDn / E or PgUp`.
    pub fn keys_label(self) -> String {
        let b = self.binding();
        if b.acts == Acts::Mouse {
            return "left-button drag".to_string();
        }
        let names = |keys: &[Key]| {
            let mut out: Vec<&str> = Vec::new();
            for &k in keys {
                let n = key_name(k);
                if !out.contains(&n) {
                    out.push(n);
                }
            }
            out.join(" or ")
        };
        if b.less.is_empty() {
            names(b.keys)
        } else {
            format!("{} / {}", names(b.less), names(b.keys))
        }
    }
}

/// What a viewer asks of the keyboard: the window's keys, or a test's.
pub trait KeyState {
    /// Whether `key` is held.
    fn down(&self, key: Key) -> bool;
    /// Whether `key` was pressed since the last frame (no key repeat).
    fn pressed(&self, key: Key) -> bool;
}

/// Keys held, and pressed this frame, in a test: every key given is both.
#[cfg(test)]
pub struct Held(pub Vec<Key>);

#[cfg(test)]
impl KeyState for Held {
    fn down(&self, key: Key) -> bool {
        self.0.contains(&key)
    }
    fn pressed(&self, key: Key) -> bool {
        self.0.contains(&key)
    }
}

impl KeyState for Window {
    fn down(&self, key: Key) -> bool {
        self.is_key_down(key)
    }
    fn pressed(&self, key: Key) -> bool {
        self.is_key_pressed(key, KeyRepeat::No)
    }
}

/// The mouse turning the view while its left button is held ([`Action::Drag`]).
#[derive(Debug, Default)]
pub struct Drag {
    last: Option<(f32, f32)>,
}

impl Drag {
    /// How far the mouse moved with the button held since the last frame, pixels (x right, y
    /// down); zero when the button is up.
    pub fn moved(&mut self, window: &Window) -> (f32, f32) {
        let pos = window.get_mouse_pos(MouseMode::Pass);
        match (pos, window.get_mouse_down(MouseButton::Left)) {
            (Some(now), true) => {
                let was = self.last.replace(now).unwrap_or(now);
                (now.0 - was.0, now.1 - was.1)
            }
            _ => {
                self.last = None;
                (0.0, 0.0)
            }
        }
    }
}

/// A key's name in the lists.
pub fn key_name(key: Key) -> &'static str {
    match key {
        Key::Escape => "Esc",
        Key::F1 => "F1",
        Key::Tab => "Tab",
        Key::Space => "Space",
        Key::Left => "Left",
        Key::Right => "Right",
        Key::Up => "Up",
        Key::Down => "Down",
        Key::PageUp => "PgUp",
        Key::PageDown => "PgDn",
        Key::Equal | Key::NumPadPlus => "+",
        Key::Minus | Key::NumPadMinus => "-",
        Key::Period => ".",
        Key::Comma => ",",
        Key::LeftBracket => "[",
        Key::RightBracket => "]",
        Key::Semicolon => ";",
        Key::Apostrophe => "'",
        Key::LeftShift | Key::RightShift => "Shift",
        Key::A => "A",
        Key::C => "C",
        Key::D => "D",
        Key::E => "E",
        Key::F => "F",
        Key::G => "G",
        Key::K => "K",
        Key::L => "L",
        Key::O => "O",
        Key::Q => "Q",
        Key::R => "R",
        Key::S => "S",
        Key::T => "T",
        Key::V => "V",
        Key::W => "W",
        Key::X => "X",
        _ => "?",
    }
}

/// Which viewers have `action`, as the tables say it.
fn viewers_label(action: Action) -> String {
    let viewers = action.binding().viewers;
    if viewers.len() == Viewer::ALL.len() {
        "all".to_string()
    } else {
        viewers
            .iter()
            .map(|v| v.name())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The table in Markdown, as the README's "Viewer keys" section holds it (a test compares them).
#[cfg(test)]
pub fn markdown() -> String {
    let mut out = String::from("| key | action | what it does | viewers |\n|---|---|---|---|\n");
    for a in Action::ALL {
        let b = a.binding();
        out += &format!(
            "| {} | {} | {} | {} |\n",
            a.keys_label(),
            b.name,
            b.does,
            viewers_label(a)
        );
    }
    out
}

/// The table as plain text for `modex view --help`.
pub fn help() -> String {
    let width = Action::ALL
        .iter()
        .map(|a| a.keys_label().len())
        .max()
        .unwrap_or(0);
    let mut out = String::from("Keys (F1 shows them over the picture):\n");
    for a in Action::ALL {
        let b = a.binding();
        out += &format!(
            "  {:<width$}  {}: {} [{}]\n",
            a.keys_label(),
            b.name,
            b.does,
            viewers_label(a)
        );
    }
    out
}

/// The lines F1 shows over `viewer`'s picture: its own keys.
pub fn overlay_lines(viewer: Viewer) -> Vec<String> {
    let actions: Vec<Action> = Action::ALL
        .into_iter()
        .filter(|a| a.in_viewer(viewer))
        .collect();
    let width = actions
        .iter()
        .map(|a| a.keys_label().len())
        .max()
        .unwrap_or(0);
    actions
        .into_iter()
        .map(|a| format!("{:<width$} {}", a.keys_label(), a.binding().does))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn no_key_does_two_things_in_one_viewer() {
        for viewer in Viewer::ALL {
            let mut seen: HashSet<Key> = HashSet::new();
            for a in Action::ALL.into_iter().filter(|a| a.in_viewer(viewer)) {
                let b = a.binding();
                for &k in b.keys.iter().chain(b.less) {
                    assert!(
                        seen.insert(k),
                        "{k:?} is bound twice in the {viewer:?} viewer"
                    );
                }
            }
        }
    }

    #[test]
    fn every_action_is_listed_once_with_named_keys() {
        let unique: HashSet<_> = Action::ALL.iter().collect();
        assert_eq!(unique.len(), Action::ALL.len());
        for a in Action::ALL {
            let b = a.binding();
            assert!(!b.viewers.is_empty(), "{a:?}");
            assert_eq!(b.acts == Acts::Mouse, b.keys.is_empty(), "{a:?}");
            for &k in b.keys.iter().chain(b.less) {
                assert_ne!(key_name(k), "?", "{k:?} has no name");
            }
            // A pair says what each side does.
            assert_eq!(!b.less.is_empty(), b.does.contains(" / "), "{a:?}");
        }
        // The window closes on the key the table lists.
        assert_eq!(Action::Quit.binding().keys, [modex_desktop::QUIT_KEY]);
    }

    #[test]
    fn labels_name_the_keys() {
        assert_eq!(Action::Format.keys_label(), "Tab");
        assert_eq!(Action::Frame.keys_label(), ", / .");
        assert_eq!(Action::Rise.keys_label(), "Q or PgDn / E or PgUp");
        assert_eq!(Action::Zoom.keys_label(), "- / +");
        assert_eq!(Action::Run.keys_label(), "Shift");
        assert_eq!(Action::Drag.keys_label(), "left-button drag");
    }

    #[test]
    fn pairs_read_as_minus_and_plus() {
        let keys = Held(vec![Key::Left, Key::PageUp, Key::W, Key::S]);
        assert_eq!(Action::Turn.axis(&keys), -1.0);
        assert_eq!(Action::Rise.axis(&keys), 1.0);
        // Both sides held cancel.
        assert_eq!(Action::Move.axis(&keys), 0.0);
        assert_eq!(Action::Frame.step(&Held(vec![Key::Comma])), -1);
        assert!(Action::Run.held(&Held(vec![Key::RightShift])));
        assert!(!Action::Walk.pressed(&keys));
    }

    /// The table under the README's "## Viewer keys" heading: its lines from the first `|` to
    /// the last consecutive one.
    fn readme_table() -> String {
        let readme = include_str!("../../../../README.md");
        let section = readme
            .split("\n## Viewer keys\n")
            .nth(1)
            .expect("README.md has a \"## Viewer keys\" section");
        section
            .lines()
            .skip_while(|l| !l.starts_with('|'))
            .take_while(|l| l.starts_with('|'))
            .map(|l| format!("{l}\n"))
            .collect()
    }

    #[test]
    fn the_readme_lists_the_keys_of_the_table() {
        let expected = markdown();
        assert!(
            readme_table() == expected,
            "README.md's \"Viewer keys\" table differs from the key table; it should be:\n{expected}"
        );
    }

    #[test]
    fn view_help_lists_the_keys_of_the_table() {
        use clap::CommandFactory;
        let mut cli = crate::cli::Cli::command();
        let view = cli.find_subcommand_mut("view").expect("the view command");
        let help = view.render_long_help().to_string();
        for a in Action::ALL {
            let line = format!("{}: {}", a.binding().name, a.binding().does);
            assert!(help.contains(&line), "--help lacks \"{line}\":\n{help}");
            assert!(help.contains(&a.keys_label()), "{a:?}");
        }
    }

    #[test]
    fn the_overlay_lists_each_viewers_own_keys() {
        let levels = overlay_lines(Viewer::Level);
        assert!(levels.iter().any(|l| l.starts_with("G ")));
        assert!(!levels.iter().any(|l| l.contains("skin")));
        let models = overlay_lines(Viewer::Model);
        assert!(models
            .iter()
            .any(|l| l.starts_with("K ") && l.contains("skin")));
        // Every line fits a 640-pixel window in the 6-pixel font.
        for line in levels
            .iter()
            .chain(&models)
            .chain(&overlay_lines(Viewer::Voxel))
        {
            assert!(line.len() * 6 + 8 <= 640, "{line}");
        }
    }
}
