//! The page's state: the dropped files, the file shown, the last picture and message.

use std::borrow::Cow;
use std::path::Path;

use modex_assets::{Family, Format, PaletteFile};
use modex_view::info;

use crate::cutscene::ShownCutscene;
use crate::error::ShowError;
use crate::files::Dropped;
use crate::level::ShownLevel;
use crate::shown::{Action, Canvas, ShownModel, ShownUnit};
use crate::view::View;

/// The file shown.
#[allow(clippy::large_enum_variant)] // one value per page, never moved in a loop
enum Shown {
    Model(ShownModel),
    Unit(ShownUnit),
    Level(ShownLevel),
    Cutscene(ShownCutscene),
}

/// Everything the page holds between calls.
#[derive(Default)]
pub struct Page {
    /// The files dropped since the last [`Page::clear`].
    pub dropped: Dropped,
    shown: Option<Shown>,
    /// The name of the file shown.
    pub name: String,
    /// The last picture, RGBA8, `size` of the view it was drawn for.
    pub rgba: Vec<u8>,
    /// The last picture's size.
    pub rgba_size: (usize, usize),
    /// The target and depth buffer the views are drawn in, kept between draws.
    canvas: Canvas,
    /// What the page shows in `#info` for the file shown.
    pub info: String,
    /// The view drawn last (where a walk through a level begins).
    pub last_view: View,
    /// The dropped file chosen as the palette (`--palette`), if any.
    pub palette: Option<String>,
}

impl Page {
    /// Forget every file.
    pub fn clear(&mut self) {
        *self = Page::default();
    }

    /// Choose the dropped file `name` as the palette of the files shown next (`--palette`; empty:
    /// none), checked by reading it now.
    pub fn set_palette(&mut self, name: &str) -> Result<(), ShowError> {
        if name.is_empty() {
            self.palette = None;
            return Ok(());
        }
        let bytes = self
            .dropped
            .get(name)
            .ok_or_else(|| ShowError::NoPalette(name.to_string()))?;
        PaletteFile::read(Path::new(name), bytes)?;
        self.palette = Some(name.to_string());
        Ok(())
    }

    /// The palette chosen, read.
    fn given(&self) -> Result<Option<PaletteFile>, ShowError> {
        let Some(name) = &self.palette else {
            return Ok(None);
        };
        let bytes = self.dropped.get(name).unwrap_or_default();
        Ok(Some(PaletteFile::read(Path::new(name), bytes)?))
    }

    /// Decode `name` among the dropped files, or the script of the install's archive the page
    /// lists as `name` (the first showable one when `name` is empty).
    pub fn open(&mut self, name: &str) -> Result<(), ShowError> {
        self.shown = None;
        self.info.clear();
        let showable = self.dropped.showable();
        let Some(chosen) = showable
            .into_iter()
            .find(|s| name.is_empty() || s.name.eq_ignore_ascii_case(name))
        else {
            let first = self.dropped.names().first().cloned().unwrap_or_default();
            let bytes = self.dropped.get(&first).unwrap_or_default();
            if bytes.is_empty() {
                return Err(ShowError::Empty(first));
            }
            return Err(ShowError::Unknown {
                name: first,
                first: bytes[..bytes.len().min(8)].to_vec(),
            });
        };
        let (name, format) = (chosen.name, chosen.format);
        self.name = name.clone();
        // The picture and `#info` decode the same bytes, the dropped ones uncopied.
        let bytes: Cow<[u8]> = match &chosen.script {
            Some(s) => Cow::Owned(self.dropped.script_bytes(s.number)?),
            None => Cow::Borrowed(self.dropped.get(&name).unwrap_or_default()),
        };
        let dropped = &self.dropped;
        let given = self.given()?;
        let palette = given.as_ref().map(|f| f.palette.clone());
        let shown = match format.family() {
            Family::Model if format == Format::Wmb => {
                Shown::Level(ShownLevel::load(&name, &bytes, dropped, palette.as_ref())?)
            }
            Family::Model => Shown::Model(ShownModel::load(
                &name,
                format,
                &bytes,
                dropped,
                palette.as_ref(),
            )?),
            Family::Voxel => Shown::Unit(ShownUnit::load(
                &name,
                &bytes,
                dropped,
                given.map(PaletteFile::into_vpl),
            )?),
            _ => Shown::Cutscene(ShownCutscene::load(&name, &bytes, dropped)?),
        };
        self.info = describe(&name, format, &bytes, dropped);
        self.shown = Some(shown);
        Ok(())
    }

    /// The frames of the file shown (cutscenes: ticks).
    pub fn frames(&self) -> usize {
        match &self.shown {
            Some(Shown::Model(m)) => m.frames(),
            Some(Shown::Unit(u)) => u.frames(),
            Some(Shown::Level(_)) => 1,
            Some(Shown::Cutscene(c)) => c.length() as usize,
            None => 0,
        }
    }

    /// Whether a cutscene is shown (the page then plays it instead of drawing views).
    pub fn is_cutscene(&self) -> bool {
        matches!(self.shown, Some(Shown::Cutscene(_)))
    }

    /// Draw `view` of the model, unit or level shown into [`Page::rgba`].
    pub fn draw(&mut self, view: &View) -> Result<(), ShowError> {
        let (out, canvas) = (&mut self.rgba, &mut self.canvas);
        // One thread: the web has no other (with_threads then runs the closure directly).
        let r = modex::with_threads(1, || match &mut self.shown {
            Some(Shown::Model(m)) => m.draw(view, canvas, out),
            Some(Shown::Unit(u)) => u.draw(view, canvas, out),
            Some(Shown::Level(l)) => l.draw(view, canvas, out),
            Some(Shown::Cutscene(_)) | None => Err(ShowError::NothingShown),
        });
        r.map_err(|e| ShowError::Threads(e.to_string()))??;
        self.rgba_size = view.size;
        self.last_view = *view;
        Ok(())
    }

    /// The yaw and pitch a view of the file shown is drawn at when none is given.
    pub fn default_angles(&self) -> (f32, f32) {
        match &self.shown {
            Some(Shown::Model(m)) => m.default_angles(),
            Some(Shown::Level(l)) => l.default_angles(),
            _ => (modex_view::DEFAULT_YAW, modex_view::DEFAULT_PITCH),
        }
    }

    /// The actions of the model shown (a unit's HVA frames are one action; nothing else has any).
    pub fn actions(&self) -> Vec<Action> {
        match &self.shown {
            Some(Shown::Model(m)) => m.actions(),
            Some(Shown::Unit(u)) => vec![Action {
                name: "frame".to_string(),
                first: 0,
                count: u.frames(),
            }],
            _ => Vec::new(),
        }
    }

    /// The level shown, if one is.
    pub fn level(&mut self) -> Option<&mut ShownLevel> {
        match &mut self.shown {
            Some(Shown::Level(l)) => Some(l),
            _ => None,
        }
    }

    /// The cutscene shown, if one is.
    pub fn cutscene(&mut self) -> Option<&mut ShownCutscene> {
        match &mut self.shown {
            Some(Shown::Cutscene(c)) => Some(c),
            _ => None,
        }
    }
}

/// The `#info` text of the file shown: what `modex info NAME` prints, run in the folder the files
/// came from (the same `modex_view::info`, with a level's entity files looked for among the
/// dropped files). A file the page can show but `info` refuses (a clip whose later pictures are
/// damaged) shows the error where the summary would be.
fn describe(name: &str, format: Format, bytes: &[u8], dropped: &Dropped) -> String {
    let file = info::Subject {
        name,
        format,
        bytes,
        folder: dropped.source(),
    };
    match info::describe(&file, None, dropped) {
        Ok(d) => info::listing(name, &d),
        Err(e) => format!("{name}:\n  error: {e}\n"),
    }
}
