//! `VoxelSet`: the pieces a game type loads, resolved by base name through a [`FileSource`] (files `<name>.vxl`, `<name>.hva`, in any case) and
//! following every loading rule of `vxl-hva.txt`:
//!
//! | piece | looked for when |
//! |---|---|
//! | `<id>` (body) | always |
//! | `<id>TUR`, `<id>BARL` | the type is not a vehicle, or is a vehicle with `Turret=yes` |
//! | `<id>W` | a vehicle without a turret whose rules section is named exactly `APC` |
//!
//! The kind and the Turret setting decide what is looked for, never the files present. A piece loads
//! only when its VXL exists, and then its HVA is required. The set fails when the body VXL is
//! missing, a present piece's HVA is missing, or a present file cannot be read in full; a failed set
//! keeps no body, turret or W model, but keeps a barrel that loaded.
//!
//! Other objects use other rules: [`VoxelSet::load_shape_vehicle`] (barrel only, independent
//! failures), [`VoxelSet::load_structure`] (names given by the caller), [`VoxelSet::load_animation`]
//! (a VXL without a motion file) and [`VoxelSet::load_dpod`] (fixed names, never drawn). A file a
//! user opened is loaded with [`VoxelSet::load_file`] (the viewer's rule).

use std::io;

use modex::{FileSource, FormatError, OpenedFile};

use crate::model::VoxelModel;
use crate::scene::Unit;
use modex_vxl::{hva, vxl};

/// The kind of a game type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    /// A `[VehicleTypes]` entry.
    Vehicle,
    /// An `[AircraftTypes]` entry.
    Aircraft,
    /// An `[InfantryTypes]` entry.
    Infantry,
    /// A `[BuildingTypes]` entry.
    Structure,
    /// A projectile.
    Projectile,
}

/// What the rules say about a `Voxel=yes` type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoxelType {
    /// The rules section name (e.g. `"APC"`).
    pub section: String,
    /// `Image=` (defaults to the section name in the game).
    pub image_id: String,
    /// Which list the type is in.
    pub kind: TypeKind,
    /// `Turret=yes`.
    pub turret: bool,
}

impl VoxelType {
    /// A type whose image is its section name.
    pub fn new(section: &str, kind: TypeKind, turret: bool) -> VoxelType {
        VoxelType {
            section: section.to_string(),
            image_id: section.to_string(),
            kind,
            turret,
        }
    }
}

/// A piece of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// `<id>`: the hull.
    Body,
    /// `<id>TUR`: the turret.
    Turret,
    /// `<id>BARL`: the barrel.
    Barrel,
    /// The `W` model of an `APC`.
    W,
}

impl Piece {
    /// Suffix appended to the image id.
    pub fn suffix(self) -> &'static str {
        match self {
            Piece::Body => "",
            Piece::Turret => "TUR",
            Piece::Barrel => "BARL",
            Piece::W => "W",
        }
    }
}

/// Why a piece or a set failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LoadProblem {
    /// `<id>.VXL` is missing.
    #[error("{name}.VXL is missing")]
    BodyMissing {
        /// The piece's base name.
        name: String,
    },
    /// A VXL is present but its HVA is missing.
    #[error("{name}.VXL is present but {name}.HVA is missing")]
    HvaMissing {
        /// The piece's base name.
        name: String,
    },
    /// A present file could not be read.
    #[error("{file}: cannot be read: {kind}")]
    Unreadable {
        /// The file (`<name>.VXL` or `<name>.HVA`).
        file: String,
        /// What the system said.
        kind: io::ErrorKind,
    },
    /// A present file could not be decoded in full, or its model could not be assembled.
    #[error("{file}: {error}")]
    Invalid {
        /// The file (`<name>.VXL` or `<name>.HVA`).
        file: String,
        /// Where decoding stopped.
        error: FormatError,
    },
}

/// The outcome of looking for one piece.
enum PieceLoad {
    Absent,
    Loaded(VoxelModel),
    Failed(LoadProblem),
}

/// Load one VXL/HVA pair by base name: absent without a VXL; with a VXL the HVA is required (unless
/// `with_hva` is false, for voxel animations).
fn load_piece(source: &dyn FileSource, name: &str, with_hva: bool) -> PieceLoad {
    match source.read(&format!("{name}.vxl")) {
        Ok(None) => PieceLoad::Absent,
        Ok(Some(vxl_bytes)) => assemble_piece(source, name, &vxl_bytes, with_hva),
        Err(e) => PieceLoad::Failed(LoadProblem::Unreadable {
            file: format!("{name}.VXL"),
            kind: e.kind(),
        }),
    }
}

/// The piece `name` whose VXL bytes are in hand: its HVA (when `with_hva`) from `source`, then the
/// model assembled.
fn assemble_piece(
    source: &dyn FileSource,
    name: &str,
    vxl_bytes: &[u8],
    with_hva: bool,
) -> PieceLoad {
    let invalid = |ext: &str, error: FormatError| {
        PieceLoad::Failed(LoadProblem::Invalid {
            file: format!("{name}.{ext}"),
            error,
        })
    };
    let hva = if with_hva {
        match source.read(&format!("{name}.hva")) {
            Ok(None) => {
                return PieceLoad::Failed(LoadProblem::HvaMissing {
                    name: name.to_string(),
                })
            }
            Ok(Some(b)) => match hva::decode(&b) {
                Ok(h) => Some(h),
                Err(e) => return invalid("HVA", e),
            },
            Err(e) => {
                return PieceLoad::Failed(LoadProblem::Unreadable {
                    file: format!("{name}.HVA"),
                    kind: e.kind(),
                })
            }
        }
    } else {
        None
    };
    let vxl = match vxl::decode(vxl_bytes) {
        Ok(v) => v,
        Err(e) => return invalid("VXL", e),
    };
    match VoxelModel::new(name, vxl, hva) {
        Ok(m) => PieceLoad::Loaded(m),
        Err(e) => invalid("VXL", e),
    }
}

/// The voxel models of one type.
#[derive(Debug, Clone, Default)]
pub struct VoxelSet {
    /// The body, if it loaded (and the set did not fail).
    pub body: Option<VoxelModel>,
    /// The turret, if it loaded (and the set did not fail).
    pub turret: Option<VoxelModel>,
    /// The barrel, if it loaded (kept even when the set failed).
    pub barrel: Option<VoxelModel>,
    /// The `W` model of an `APC`, if it loaded (and the set did not fail).
    pub w: Option<VoxelModel>,
    /// Whether the turret is drawn from voxels (false for a shape vehicle, whose turret comes from
    /// its shapes even when a TUR model loaded).
    pub draws_turret: bool,
    /// Base names looked for, in order.
    pub looked_for: Vec<String>,
    /// Why the set failed, if it did (the first problem found).
    pub failure: Option<LoadProblem>,
    /// Every problem found, including those of pieces whose failure affects nothing else.
    pub problems: Vec<LoadProblem>,
}

impl VoxelSet {
    /// Which pieces a type looks for: decided by its kind, Turret setting and section name, never by
    /// the files present.
    pub fn pieces_for(t: &VoxelType) -> Vec<Piece> {
        let mut p = vec![Piece::Body];
        let vehicle = t.kind == TypeKind::Vehicle;
        if !vehicle || t.turret {
            p.push(Piece::Turret);
            p.push(Piece::Barrel);
        }
        if vehicle && !t.turret && t.section == "APC" {
            p.push(Piece::W);
        }
        p
    }

    /// Load a `Voxel=yes` type's set.
    pub fn load(t: &VoxelType, source: &dyn FileSource) -> VoxelSet {
        let mut set = VoxelSet {
            draws_turret: true,
            ..VoxelSet::default()
        };
        for piece in Self::pieces_for(t) {
            let name = format!("{}{}", t.image_id, piece.suffix());
            set.looked_for.push(name.clone());
            match load_piece(source, &name, true) {
                PieceLoad::Absent if piece == Piece::Body => {
                    set.fail(LoadProblem::BodyMissing { name });
                }
                PieceLoad::Absent => {}
                PieceLoad::Failed(p) => set.fail(p),
                PieceLoad::Loaded(m) => match piece {
                    Piece::Body => set.body = Some(m),
                    Piece::Turret => set.turret = Some(m),
                    Piece::Barrel => set.barrel = Some(m),
                    Piece::W => set.w = Some(m),
                },
            }
        }
        if set.failure.is_some() {
            // A failed set keeps no body, turret or W model; a loaded barrel is kept.
            set.body = None;
            set.turret = None;
            set.w = None;
        }
        set
    }

    fn fail(&mut self, p: LoadProblem) {
        log::warn!("voxel set: {p}");
        if self.failure.is_none() {
            self.failure = Some(p.clone());
        }
        self.problems.push(p);
    }

    /// Load turret and barrel pieces that stand alone, under the names given: each is looked for
    /// and kept when it loads; a failure is only reported (in [`VoxelSet::problems`]).
    fn load_turret_and_barrel(
        &mut self,
        turret: Option<&str>,
        barrel: Option<&str>,
        source: &dyn FileSource,
    ) {
        for (name, is_turret) in [(turret, true), (barrel, false)] {
            let Some(name) = name else { continue };
            self.looked_for.push(name.to_string());
            match load_piece(source, name, true) {
                PieceLoad::Loaded(m) if is_turret => self.turret = Some(m),
                PieceLoad::Loaded(m) => self.barrel = Some(m),
                PieceLoad::Failed(p) => self.problems.push(p),
                PieceLoad::Absent => {}
            }
        }
    }

    /// `<id>TUR` and `<id>BARL`, standing alone.
    fn turret_names(image_id: &str) -> (String, String) {
        (
            format!("{image_id}{}", Piece::Turret.suffix()),
            format!("{image_id}{}", Piece::Barrel.suffix()),
        )
    }

    /// A vehicle drawn from shapes with `Turret=yes` whose shape file was found: loads `<id>TUR` and
    /// `<id>BARL` and draws only the barrel. A failing piece affects nothing else.
    pub fn load_shape_vehicle(image_id: &str, source: &dyn FileSource) -> VoxelSet {
        let mut set = VoxelSet::default();
        let (turret, barrel) = Self::turret_names(image_id);
        set.load_turret_and_barrel(Some(&turret), Some(&barrel), source);
        set
    }

    /// A structure with `TurretAnimIsVoxel`/`BarrelAnimIsVoxel`: turret and barrel pairs under names
    /// the caller derived from the turret animation or `VoxelBarrelFile`. Each piece stands alone.
    pub fn load_structure(
        turret: Option<&str>,
        barrel: Option<&str>,
        source: &dyn FileSource,
    ) -> VoxelSet {
        let mut set = VoxelSet {
            draws_turret: true,
            ..VoxelSet::default()
        };
        set.load_turret_and_barrel(turret, barrel, source);
        set
    }

    /// A voxel animation type: `<id>.VXL` alone, with no motion file (placed by identity).
    pub fn load_animation(image_id: &str, source: &dyn FileSource) -> VoxelSet {
        let mut set = VoxelSet {
            looked_for: vec![image_id.to_string()],
            ..VoxelSet::default()
        };
        match load_piece(source, image_id, false) {
            PieceLoad::Loaded(m) => set.body = Some(m),
            PieceLoad::Failed(p) => set.fail(p),
            PieceLoad::Absent => set.fail(LoadProblem::BodyMissing {
                name: image_id.to_string(),
            }),
        }
        set
    }

    /// `DPOD.VXL` and `DPOD.HVA`, loaded once at startup under fixed names. Nothing draws them.
    pub fn load_dpod(source: &dyn FileSource) -> Option<VoxelModel> {
        match load_piece(source, "DPOD", true) {
            PieceLoad::Loaded(m) => Some(m),
            _ => None,
        }
    }

    /// Load a unit from a file the user opened, the way `modex view unit.vxl` does: the body from
    /// the file's bytes (not read again) and its HVA beside it, plus `<stem>tur` and `<stem>barl`
    /// when present in its folder. See [`VoxelSet::load_unit_from`] for the rule.
    pub fn load_file(file: &OpenedFile) -> Result<VoxelSet, LoadProblem> {
        VoxelSet::load_unit_from(file.stem(), file.bytes(), file.folder())
    }

    /// Load the unit `stem` whose body VXL is `vxl_bytes`, its other files from `siblings`. The
    /// turret pieces follow the game's per-piece rule (VXL present requires its HVA) but, unlike a
    /// rules-driven type, their failure does not drop the body: a viewer shows what it can and
    /// reports the rest in [`VoxelSet::problems`]. Fails when the body cannot be assembled.
    pub fn load_unit_from(
        stem: &str,
        vxl_bytes: &[u8],
        siblings: &dyn FileSource,
    ) -> Result<VoxelSet, LoadProblem> {
        let mut set = VoxelSet {
            draws_turret: true,
            looked_for: vec![stem.to_string()],
            ..VoxelSet::default()
        };
        match assemble_piece(siblings, stem, vxl_bytes, true) {
            PieceLoad::Loaded(m) => set.body = Some(m),
            PieceLoad::Failed(p) => return Err(p),
            PieceLoad::Absent => {
                return Err(LoadProblem::BodyMissing {
                    name: stem.to_string(),
                })
            }
        }
        let (turret, barrel) = Self::turret_names(stem);
        set.load_turret_and_barrel(Some(&turret), Some(&barrel), siblings);
        Ok(set)
    }

    /// Whether anything can be drawn.
    pub fn is_empty(&self) -> bool {
        self.body.is_none() && self.turret.is_none() && self.barrel.is_none() && self.w.is_none()
    }

    /// The pieces to draw: body (W when there is no body... never both), turret when drawn from
    /// voxels, barrel.
    pub fn unit(&self) -> Unit<'_> {
        Unit {
            body: self.body.as_ref(),
            turret: if self.draws_turret {
                self.turret.as_ref()
            } else {
                None
            },
            barrel: self.barrel.as_ref(),
        }
    }
}
