//! `VoxelSet`: the pieces a game type loads, resolved by base name through a [`VoxelSource`] and
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
//! (a VXL without a motion file) and [`VoxelSet::load_dpod`] (fixed names, never drawn).

use std::fmt;
use std::path::{Path, PathBuf};

use crate::model::VoxelModel;
use crate::{hva, vxl};

/// Where the files come from: a directory today, a MIX archive later. Names are base names without
/// extension (e.g. `"HMEC"`, `"HMECTUR"`); `ext` is `"vxl"` or `"hva"`.
pub trait VoxelSource {
    /// `Ok(None)` when the file does not exist, `Err` when it exists but cannot be read.
    fn read(&self, base_name: &str, ext: &str) -> std::io::Result<Option<Vec<u8>>>;
}

/// Files loose in one directory, matched without regard to case (game names are upper case, files
/// on disk are often lower case).
#[derive(Debug, Clone)]
pub struct DirSource {
    dir: PathBuf,
}

impl DirSource {
    pub fn new(dir: impl Into<PathBuf>) -> DirSource {
        DirSource { dir: dir.into() }
    }

    /// The file's path, if present.
    pub fn find(&self, base_name: &str, ext: &str) -> Option<PathBuf> {
        let want = format!("{base_name}.{ext}");
        let exact = self.dir.join(&want);
        if exact.is_file() {
            return Some(exact);
        }
        std::fs::read_dir(&self.dir)
            .ok()?
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                p.is_file()
                    && p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.eq_ignore_ascii_case(&want))
            })
    }
}

impl VoxelSource for DirSource {
    fn read(&self, base_name: &str, ext: &str) -> std::io::Result<Option<Vec<u8>>> {
        match self.find(base_name, ext) {
            None => Ok(None),
            Some(p) => std::fs::read(p).map(Some),
        }
    }
}

/// Files held in memory by name, for tests and for archives already read.
#[derive(Debug, Clone, Default)]
pub struct MemorySource {
    files: Vec<(String, Vec<u8>)>,
}

impl MemorySource {
    pub fn new() -> MemorySource {
        MemorySource::default()
    }

    /// Add or replace `name` (e.g. `"HMEC.VXL"`; names compare without regard to case).
    pub fn insert(&mut self, name: &str, bytes: Vec<u8>) -> &mut Self {
        self.files.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.files.push((name.to_string(), bytes));
        self
    }
}

impl VoxelSource for MemorySource {
    fn read(&self, base_name: &str, ext: &str) -> std::io::Result<Option<Vec<u8>>> {
        let want = format!("{base_name}.{ext}");
        Ok(self
            .files
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(&want))
            .map(|(_, b)| b.clone()))
    }
}

/// The kind of a game type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TypeKind {
    Vehicle,
    Aircraft,
    Infantry,
    Structure,
    Projectile,
}

/// What the rules say about a `Voxel=yes` type.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoxelType {
    /// The rules section name (e.g. `"APC"`).
    pub section: String,
    /// `Image=` (defaults to the section name in the game).
    pub image_id: String,
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
    Body,
    Turret,
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
#[derive(Debug, Clone, PartialEq)]
pub enum LoadProblem {
    /// `<id>.VXL` is missing.
    BodyMissing { name: String },
    /// A VXL is present but its HVA is missing.
    HvaMissing { name: String },
    /// A present file could not be read or decoded in full.
    Unreadable { file: String, error: String },
}

impl fmt::Display for LoadProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadProblem::BodyMissing { name } => write!(f, "{name}.VXL is missing"),
            LoadProblem::HvaMissing { name } => {
                write!(f, "{name}.VXL is present but {name}.HVA is missing")
            }
            LoadProblem::Unreadable { file, error } => write!(f, "{file}: {error}"),
        }
    }
}

/// The outcome of looking for one piece.
enum PieceLoad {
    Absent,
    Loaded(VoxelModel),
    Failed(LoadProblem),
}

/// Load one VXL/HVA pair by base name: absent without a VXL; with a VXL the HVA is required (unless
/// `with_hva` is false, for voxel animations).
fn load_piece(source: &dyn VoxelSource, name: &str, with_hva: bool) -> PieceLoad {
    let unreadable =
        |file: String, error: String| PieceLoad::Failed(LoadProblem::Unreadable { file, error });
    let vxl_bytes = match source.read(name, "vxl") {
        Ok(None) => return PieceLoad::Absent,
        Ok(Some(b)) => b,
        Err(e) => return unreadable(format!("{name}.VXL"), e.to_string()),
    };
    let hva = if with_hva {
        match source.read(name, "hva") {
            Ok(None) => {
                return PieceLoad::Failed(LoadProblem::HvaMissing {
                    name: name.to_string(),
                })
            }
            Ok(Some(b)) => match hva::decode(&b) {
                Ok(h) => Some(h),
                Err(e) => return unreadable(format!("{name}.HVA"), e.to_string()),
            },
            Err(e) => return unreadable(format!("{name}.HVA"), e.to_string()),
        }
    } else {
        None
    };
    let vxl = match vxl::decode(&vxl_bytes) {
        Ok(v) => v,
        Err(e) => return unreadable(format!("{name}.VXL"), e.to_string()),
    };
    match VoxelModel::new(name, vxl, hva) {
        Ok(m) => PieceLoad::Loaded(m),
        Err(e) => unreadable(format!("{name}.VXL"), e.to_string()),
    }
}

/// The voxel models of one type.
#[derive(Debug, Clone, Default)]
pub struct VoxelSet {
    pub body: Option<VoxelModel>,
    pub turret: Option<VoxelModel>,
    pub barrel: Option<VoxelModel>,
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
    pub fn load(t: &VoxelType, source: &dyn VoxelSource) -> VoxelSet {
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

    /// A vehicle drawn from shapes with `Turret=yes` whose shape file was found: loads `<id>TUR` and
    /// `<id>BARL` and draws only the barrel. A failing piece affects nothing else.
    pub fn load_shape_vehicle(image_id: &str, source: &dyn VoxelSource) -> VoxelSet {
        let mut set = VoxelSet::default();
        for piece in [Piece::Turret, Piece::Barrel] {
            let name = format!("{image_id}{}", piece.suffix());
            set.looked_for.push(name.clone());
            match load_piece(source, &name, true) {
                PieceLoad::Loaded(m) if piece == Piece::Turret => set.turret = Some(m),
                PieceLoad::Loaded(m) => set.barrel = Some(m),
                PieceLoad::Failed(p) => set.problems.push(p),
                PieceLoad::Absent => {}
            }
        }
        set
    }

    /// A structure with `TurretAnimIsVoxel`/`BarrelAnimIsVoxel`: turret and barrel pairs under names
    /// the caller derived from the turret animation or `VoxelBarrelFile`. Each piece stands alone.
    pub fn load_structure(
        turret: Option<&str>,
        barrel: Option<&str>,
        source: &dyn VoxelSource,
    ) -> VoxelSet {
        let mut set = VoxelSet {
            draws_turret: true,
            ..VoxelSet::default()
        };
        for (name, is_turret) in [(turret, true), (barrel, false)] {
            let Some(name) = name else { continue };
            set.looked_for.push(name.to_string());
            match load_piece(source, name, true) {
                PieceLoad::Loaded(m) if is_turret => set.turret = Some(m),
                PieceLoad::Loaded(m) => set.barrel = Some(m),
                PieceLoad::Failed(p) => set.problems.push(p),
                PieceLoad::Absent => {}
            }
        }
        set
    }

    /// A voxel animation type: `<id>.VXL` alone, with no motion file (placed by identity).
    pub fn load_animation(image_id: &str, source: &dyn VoxelSource) -> VoxelSet {
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
    pub fn load_dpod(source: &dyn VoxelSource) -> Option<VoxelModel> {
        match load_piece(source, "DPOD", true) {
            PieceLoad::Loaded(m) => Some(m),
            _ => None,
        }
    }

    /// Load a unit from a file path the way `modex view unit.vxl` does: the body from the file and
    /// its HVA beside it, plus `<name>tur` and `<name>barl` when present. The turret pieces follow
    /// the game's per-piece rule (VXL present requires its HVA) but, unlike a rules-driven type,
    /// their failure does not drop the body: a viewer shows what it can and reports the rest.
    pub fn load_beside(path: &Path) -> Result<VoxelSet, LoadProblem> {
        let dir = path.parent().unwrap_or(Path::new("."));
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let source = DirSource::new(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        });
        let mut set = VoxelSet {
            draws_turret: true,
            ..VoxelSet::default()
        };
        for piece in [Piece::Body, Piece::Turret, Piece::Barrel] {
            let name = format!("{stem}{}", piece.suffix());
            set.looked_for.push(name.clone());
            match load_piece(&source, &name, true) {
                PieceLoad::Loaded(m) => match piece {
                    Piece::Body => set.body = Some(m),
                    Piece::Turret => set.turret = Some(m),
                    _ => set.barrel = Some(m),
                },
                PieceLoad::Failed(p) if piece == Piece::Body => return Err(p),
                PieceLoad::Absent if piece == Piece::Body => {
                    return Err(LoadProblem::BodyMissing { name })
                }
                PieceLoad::Failed(p) => set.problems.push(p),
                PieceLoad::Absent => {}
            }
        }
        Ok(set)
    }

    /// Whether anything can be drawn.
    pub fn is_empty(&self) -> bool {
        self.body.is_none() && self.turret.is_none() && self.barrel.is_none() && self.w.is_none()
    }

    /// The pieces to draw: body (W when there is no body... never both), turret when drawn from
    /// voxels, barrel.
    pub fn unit(&self) -> crate::render::Unit<'_> {
        crate::render::Unit {
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
