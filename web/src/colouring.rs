//! The format and palette of a view, as `modex render` chooses them without `--palette`
//! (`modex_view::colours::choose`), with the 8-bit palette kept once built: the page draws a view
//! per mouse move, and a palette built from a level's textures takes a while.

use modex::{Palette, TargetFormat};
use modex_mdl::Model;
use modex_view::colours::{choose, Colours};

/// What a shown file's views are drawn in.
pub struct Colouring {
    colours: Colours,
    /// The palette the user chose (`--palette`), if any.
    given: Option<Palette>,
    /// The palette of the file's 8-bit views, once one was asked for.
    palette_8bit: Option<Palette>,
}

impl Colouring {
    /// For content of `colours`, with the palette the user chose (`--palette`), if any.
    pub fn new(colours: Colours, given: Option<Palette>) -> Colouring {
        Colouring {
            colours,
            given,
            palette_8bit: None,
        }
    }

    /// The format of a view that asks for `asked` (`None`: the content's) and the palette it is
    /// drawn with: the chosen palette, else the Quake palette (8-bit skins decode through it), or
    /// for an 8-bit view the
    /// palette `choose` picks from the file's `own` palette and its `models`, logged once as
    /// `name: 8-bit through ...`.
    pub fn pick<'a>(
        &mut self,
        name: &str,
        asked: Option<TargetFormat>,
        own: impl FnOnce() -> Option<Palette>,
        models: impl IntoIterator<Item = &'a Model>,
    ) -> (TargetFormat, Palette) {
        let format = asked.unwrap_or(self.colours.format());
        let base = self.given.clone().unwrap_or_else(Palette::quake);
        if format != TargetFormat::Indexed8 {
            return (format, base);
        }
        let colours = self.colours;
        let given = self.given.is_some();
        let palette = self.palette_8bit.get_or_insert_with(|| {
            let choice = choose(Some(format), colours, &base, given, own(), models);
            for line in &choice.said {
                log::info!("{name}: {line}");
            }
            choice.palette
        });
        (format, palette.clone())
    }
}
