//! A loaded voxel piece: one VXL with its HVA, assembled the way the game assembles a pair, with the
//! quirks of real files reported instead of crashing.
//!
//! Rules applied here (from `vxl-hva.txt`):
//! - translations of every HVA transform are multiplied by the scale of the model's FIRST layer;
//! - frames are taken modulo the frame count; a file with no frames loads but refuses to draw;
//! - layers are matched to HVA sections by position; a count mismatch is reported;
//! - normals selector 0 = unlit, 1..=4 = lit, and every lit layer is shaded with the FIRST layer's
//!   table; a first-layer selector above 4 is refused (the game would read past its tables).

use std::fmt;

use glam::{Mat3, Mat4, Vec3};
use modex::{FormatError, FormatResult};
use modex_vxl::VxlNormalTable;

use crate::volume::{LimbVolume, LOD_FACTORS};
use modex_vxl::Hva;
use modex_vxl::Vxl;

/// Something odd about a model that the engine works around. `modex info` lists these.
#[derive(Debug, Clone, PartialEq)]
pub enum Quirk {
    /// The HVA has a different number of sections than the VXL has layers.
    SectionCountMismatch {
        /// Layers in the VXL.
        vxl_layers: usize,
        /// Sections in the HVA.
        hva_sections: usize,
    },
    /// The HVA declares no frames: the model loads but cannot be drawn.
    NoFrames,
    /// A layer indexes normals past the end of the table it declares (indices are clamped).
    NormalIndexBeyondTable {
        /// The layer.
        limb: usize,
        /// Its largest normal index.
        max_index: u8,
        /// Entries in the table it is shaded with.
        table_len: usize,
    },
    /// The first layer's mode byte disagrees with the indices the model uses (e.g. mode 4 but every
    /// index below 36, which is the 36-entry Tiberian Sun table).
    ModeDisagreesWithIndices {
        /// The first layer's normals mode.
        declared: u8,
        /// The largest normal index of the lit layers.
        max_index: u8,
        /// The table those indices fit.
        suggested: u8,
    },
    /// A lit layer declares a different table than the first layer; the first layer's is used.
    LitLayerTableDiffers {
        /// The layer.
        limb: usize,
        /// The normals mode it declares.
        selector: u8,
        /// The first layer's normals mode, used instead.
        first: u8,
    },
    /// The first layer is unlit but other layers are lit: the game shades them with whatever model
    /// was drawn before; the engine uses the table chosen by the largest index instead.
    FirstLayerUnlitOthersLit {
        /// The table used: the one the largest index fits.
        fallback: u8,
    },
}

impl fmt::Display for Quirk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Quirk::SectionCountMismatch {
                vxl_layers,
                hva_sections,
            } => write!(
                f,
                "HVA has {hva_sections} sections for {vxl_layers} VXL layers (matched by position)"
            ),
            Quirk::NoFrames => write!(f, "HVA declares no frames: the model cannot be drawn"),
            Quirk::NormalIndexBeyondTable {
                limb,
                max_index,
                table_len,
            } => write!(
                f,
                "layer {limb} uses normal index {max_index} in a {table_len}-entry table (clamped)"
            ),
            Quirk::ModeDisagreesWithIndices {
                declared,
                max_index,
                suggested,
            } => write!(
                f,
                "normals mode {declared} but the largest index is {max_index}: table {suggested} fits"
            ),
            Quirk::LitLayerTableDiffers {
                limb,
                selector,
                first,
            } => write!(
                f,
                "layer {limb} declares normals mode {selector}; shaded with the first layer's {first}"
            ),
            Quirk::FirstLayerUnlitOthersLit { fallback } => write!(
                f,
                "first layer is unlit but others are lit: shaded with table {fallback}"
            ),
        }
    }
}

/// A piece cannot be placed: its motion file declares no frames (the game crashes drawing it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name}: the HVA declares no frames, so the model cannot be drawn")]
pub struct NoFrames {
    /// The base name the model was loaded under.
    pub name: String,
}

/// Which normal table shades a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TableChoice {
    /// The first layer's selector, as the game does.
    #[default]
    Declared,
    /// The table the indices fit (works around a wrong mode byte).
    ByLargestIndex,
    /// A fixed table 1..=4 (viewer).
    Force(u8),
}

/// A VXL + HVA pair ready to draw.
#[derive(Debug, Clone)]
pub struct VoxelModel {
    /// Base name it was loaded under.
    pub name: String,
    /// The decoded model.
    pub vxl: Vxl,
    /// `None` for voxel animations, which load a VXL without a motion file (identity placement).
    pub hva: Option<Hva>,
    volumes: Vec<LimbVolume>,
    /// The coarser levels of each limb ([`VoxelModel::level`]), cells 2 and 4 fine cells wide.
    coarse: Vec<[LimbVolume; 2]>,
    quirks: Vec<Quirk>,
    /// The scale of the first layer: multiplies every HVA translation.
    translation_scale: f32,
    /// Highest normal index of the lit layers, found once at load: [`VoxelModel::normal_table`]
    /// runs for every limb of every draw and would otherwise scan all voxels each time.
    max_lit_normal: u8,
}

impl VoxelModel {
    /// Assemble a pair. Refuses a first layer whose normals selector is above 4.
    pub fn new(name: impl Into<String>, vxl: Vxl, hva: Option<Hva>) -> FormatResult<VoxelModel> {
        let name = name.into();
        // The decoder refuses models without layers, so limbs[0] exists.
        let Some(first) = vxl.limbs.first() else {
            return Err(FormatError::invalid(
                "VXL",
                "header.limb_count",
                20,
                "a model needs at least one layer",
            ));
        };
        if first.normals_mode > 4 {
            return Err(FormatError::out_of_range(
                "VXL",
                format!("layer[0].normals_mode ({name})"),
                0,
                first.normals_mode as i64,
                0,
                4,
            ));
        }
        let translation_scale = first.scale;
        let volumes: Vec<LimbVolume> = vxl.limbs.iter().map(LimbVolume::from_limb).collect();
        let coarse = volumes
            .iter()
            .map(|v| LOD_FACTORS.map(|f| v.coarsened(f)))
            .collect();
        let mut m = VoxelModel {
            name,
            vxl,
            hva,
            volumes,
            coarse,
            quirks: Vec::new(),
            translation_scale,
            max_lit_normal: 0,
        };
        m.max_lit_normal = m.max_lit_normal_index();
        m.quirks = m.find_quirks();
        Ok(m)
    }

    fn find_quirks(&self) -> Vec<Quirk> {
        let mut q = Vec::new();
        if let Some(h) = &self.hva {
            if h.section_count() != self.vxl.limbs.len() {
                q.push(Quirk::SectionCountMismatch {
                    vxl_layers: self.vxl.limbs.len(),
                    hva_sections: h.section_count(),
                });
            }
            if h.frame_count() == 0 {
                q.push(Quirk::NoFrames);
            }
        }
        let first = self.vxl.limbs[0].normals_mode;
        for (i, l) in self.vxl.limbs.iter().enumerate() {
            if l.normals_mode == 0 {
                continue;
            }
            if i > 0 && first != 0 && l.normals_mode != first {
                q.push(Quirk::LitLayerTableDiffers {
                    limb: i,
                    selector: l.normals_mode,
                    first,
                });
            }
            if let Some(t) =
                VxlNormalTable::for_mode(if first == 0 { l.normals_mode } else { first })
            {
                let max_index = l.max_normal_index();
                if max_index as usize >= t.len() {
                    q.push(Quirk::NormalIndexBeyondTable {
                        limb: i,
                        max_index,
                        table_len: t.len(),
                    });
                }
            }
        }
        let max_index = self.max_lit_normal_index();
        let suggested = table_for_indices(first, max_index);
        if first != 0 && suggested != first {
            q.push(Quirk::ModeDisagreesWithIndices {
                declared: first,
                max_index,
                suggested,
            });
        }
        if first == 0 && self.vxl.limbs.iter().any(|l| l.normals_mode != 0) {
            q.push(Quirk::FirstLayerUnlitOthersLit {
                fallback: suggested,
            });
        }
        q
    }

    fn max_lit_normal_index(&self) -> u8 {
        self.vxl
            .limbs
            .iter()
            .filter(|l| l.normals_mode != 0)
            .map(|l| l.max_normal_index())
            .max()
            .unwrap_or(0)
    }

    /// What is odd about this model.
    pub fn quirks(&self) -> &[Quirk] {
        &self.quirks
    }

    /// One occupancy volume per layer.
    pub fn volumes(&self) -> &[LimbVolume] {
        &self.volumes
    }

    /// Limb `limb` at level of detail `level`: 0 is the limb as loaded, 1 and 2 its copies with
    /// cells 2 and 4 fine cells wide (the rule is in `volume/lod.rs`; levels above 2 give the
    /// coarsest). `None` for a limb the model does not have.
    pub fn level(&self, limb: usize, level: usize) -> Option<&LimbVolume> {
        match level {
            0 => self.volumes.get(limb),
            l => self.coarse.get(limb).map(|c| &c[l.min(2) - 1]),
        }
    }

    /// The factor applied to every HVA translation: the first layer's scale.
    pub fn translation_scale(&self) -> f32 {
        self.translation_scale
    }

    /// Frames of the animation (1 for a model without a motion file, 0 when the HVA has none).
    pub fn frame_count(&self) -> usize {
        self.hva.as_ref().map_or(1, Hva::frame_count)
    }

    /// Whether a layer is lit (selector not 0).
    pub fn limb_is_lit(&self, limb: usize) -> bool {
        self.vxl
            .limbs
            .get(limb)
            .is_some_and(|l| l.normals_mode != 0)
    }

    /// The normal table that shades every lit layer, or `None` when nothing is lit.
    pub fn normal_table(&self, choice: TableChoice) -> Option<VxlNormalTable> {
        let first = self.vxl.limbs[0].normals_mode;
        if !self.vxl.limbs.iter().any(|l| l.normals_mode != 0) {
            return None;
        }
        let mode = match choice {
            TableChoice::Force(m) => m,
            TableChoice::Declared if first != 0 => first,
            // First layer unlit (declared choice) or an explicit request: fit the indices.
            _ => table_for_indices(first, self.max_lit_normal),
        };
        VxlNormalTable::for_mode(mode)
    }

    /// Grid space of `limb` (cell (x, y, z) covers `[x, x+1)` etc.) to model space for `frame`
    /// (wrapped). `Ok(None)` for a layer the motion file has no transform for (the game would read
    /// unrelated memory; the layer is not drawn). Errors when the motion file has no frames.
    pub fn limb_matrix(&self, limb: usize, frame: usize) -> Result<Option<Mat4>, NoFrames> {
        let Some(l) = self.vxl.limbs.get(limb) else {
            return Ok(None);
        };
        let hva = match &self.hva {
            None => modex_vxl::hva::IDENTITY,
            Some(h) if h.frame_count() == 0 => {
                return Err(NoFrames {
                    name: self.name.clone(),
                })
            }
            Some(h) => match h.game_transform(frame, limb) {
                Some(m) => m,
                None => return Ok(None),
            },
        };
        let s = self.translation_scale;
        let rot = Mat3::from_cols(
            Vec3::new(hva[0], hva[4], hva[8]),
            Vec3::new(hva[1], hva[5], hva[9]),
            Vec3::new(hva[2], hva[6], hva[10]),
        );
        let t = Vec3::new(hva[3], hva[7], hva[11]) * s;
        let placement = Mat4::from_mat3(rot);
        let placement = Mat4::from_translation(t) * placement;
        // The format places a layer's voxel (x, y, z) at min + (x, y, z) * (max - min) / size:
        // voxel i's centre sits at min + i * extent, so cell [i, i+1) maps to
        // min + (g - 0.5) * extent.
        let ext = l.voxel_extent();
        let grid = Mat4::from_translation(l.min - 0.5 * ext) * Mat4::from_scale(ext);
        let m = placement * grid;
        Ok(m.is_finite().then_some(m))
    }
}

/// The table whose size fits `max_index`, keeping the declared one when it is 1 or 3 and fits.
/// Tiberian Sun (2, 36 entries) and Red Alert 2 (4, 244 entries) are what real files use; a mode-4
/// file with every index below 36 is a Tiberian Sun model with a wrong mode byte.
pub(crate) fn table_for_indices(declared: u8, max_index: u8) -> u8 {
    match declared {
        1 if max_index < 16 => 1,
        3 if (36..64).contains(&max_index) => 3,
        _ if max_index < 36 => 2,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use modex_vxl::encode::{LimbSpec, VxlSpec};

    #[test]
    fn table_choice_by_largest_index() {
        assert_eq!(table_for_indices(4, 35), 2);
        assert_eq!(table_for_indices(2, 35), 2);
        assert_eq!(table_for_indices(2, 200), 4);
        assert_eq!(table_for_indices(1, 15), 1);
        assert_eq!(table_for_indices(3, 50), 3);
    }

    #[test]
    fn wrong_mode_byte_is_reported_and_can_be_overridden() {
        let mut l = LimbSpec::filled_box([1, 1, 1], 5, 30);
        l.normals_mode = 4;
        let v = modex_vxl::vxl::decode(&VxlSpec::single(l).encode()).unwrap();
        let m = VoxelModel::new("buoy", v, None).unwrap();
        assert!(m
            .quirks()
            .iter()
            .any(|q| matches!(q, Quirk::ModeDisagreesWithIndices { suggested: 2, .. })));
        assert_eq!(m.normal_table(TableChoice::Declared).unwrap().mode, 4);
        assert_eq!(m.normal_table(TableChoice::ByLargestIndex).unwrap().mode, 2);
        assert_eq!(m.normal_table(TableChoice::Force(3)).unwrap().mode, 3);
    }

    #[test]
    fn normal_index_beyond_table_is_reported_and_clamped() {
        let l = LimbSpec::filled_box([1, 1, 1], 5, 200);
        let v = modex_vxl::vxl::decode(&VxlSpec::single(l).encode()).unwrap();
        let m = VoxelModel::new("x", v, None).unwrap();
        assert!(m
            .quirks()
            .iter()
            .any(|q| matches!(q, Quirk::NormalIndexBeyondTable { max_index: 200, .. })));
        let t = m.normal_table(TableChoice::Declared).unwrap();
        assert_eq!(t.get(200), t.entries[35]);
    }
}
