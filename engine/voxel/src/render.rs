//! The voxel ray-marcher.
//!
//! For every limb of every unit in the scene it builds a job: the limb's grid-to-world matrix (HVA
//! frame, first-layer translation scale, turret and barrel placement, unit facing and position),
//! the screen outline of the box of its filled cells, and a 256-entry shading table (one entry per
//! normal index, computed once per limb per draw: lighting costs a table lookup per pixel). Then
//! for each pixel under a job's outline the camera ray is taken into the limb's grid space and
//! marched through the occupancy with a 3D DDA that skips empty space ([`LimbVolume::march`]),
//! stopping where the depth already in the buffer would reject any hit; the first filled cell is
//! shaded and depth tested against the shared [`DepthBuffer`], so MDL models drawn by the triangle
//! rasterizer with the same [`Camera`] mix into the same scene.
//!
//! Rows are split into bands drawn in parallel with rayon; every pixel is computed by the same
//! operations in the same limb order whatever the banding, so 1 and N threads give identical frames.
//!
//! Lighting (NOTES-vxl.md, as reverse-engineered by map renderers): the game light is horizontal,
//! `(-1, 0, 0)` rotated 45 degrees about Z for Tiberian Sun and 90 for Red Alert 2 in world space
//! (which is the notes' "rotated by facing - 45 degrees" once expressed in the unit's own frame);
//! `H = normalize(L + Z)`, `page = clamp((max(n.L, 0) + spec(n.H)) * 16)` and the pixel is
//! `vpl[page][colour]`. The true-colour path is ambient + diffuse, `colour * (0.6 + 0.4 max(n.H, 0))`
//! — lit from the half vector so roofs catch light, which the horizontal game light never does.

use glam::{Mat3, Mat4, Vec2, Vec3, Vec4};
use modex::normals::VxlNormalTable;
use modex::{Argb8888, Camera, DepthBuffer, IndexedFrame, Palette, Surface};
use rayon::prelude::*;

use crate::model::{DrawError, TableChoice, VoxelModel};
use crate::volume::{LimbVolume, RayDir};
use crate::vpl::Vpl;

/// The pieces of one unit to draw.
#[derive(Debug, Clone, Copy, Default)]
pub struct Unit<'a> {
    pub body: Option<&'a VoxelModel>,
    pub turret: Option<&'a VoxelModel>,
    pub barrel: Option<&'a VoxelModel>,
}

impl<'a> Unit<'a> {
    /// A unit made of a single model.
    pub fn single(model: &'a VoxelModel) -> Unit<'a> {
        Unit {
            body: Some(model),
            turret: None,
            barrel: None,
        }
    }

    fn pieces(&self) -> impl Iterator<Item = (PieceRole, &'a VoxelModel)> {
        [
            (PieceRole::Body, self.body),
            (PieceRole::Turret, self.turret),
            (PieceRole::Barrel, self.barrel),
        ]
        .into_iter()
        .filter_map(|(r, m)| m.map(|m| (r, m)))
    }

    /// Filled voxels over all pieces.
    pub fn voxel_count(&self) -> usize {
        self.pieces().map(|(_, m)| m.vxl.voxel_count()).sum()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PieceRole {
    Body,
    Turret,
    Barrel,
}

/// Where and how a unit stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pose {
    /// World position of the unit's origin.
    pub position: Vec3,
    /// Facing in the game's 256 steps: 0 = north (+Y), 64 = east (+X), clockwise seen from above.
    /// Fractions are allowed.
    pub facing: f32,
    /// Turret facing relative to the body, same units.
    pub turret_facing: f32,
    /// Where the turret sits on the body, in model units.
    pub turret_offset: Vec3,
    /// Barrel recoil: how far the barrel is pushed back along its own -X, in model units.
    pub recoil: f32,
    /// Animation frame (wraps modulo each piece's frame count).
    pub frame: usize,
}

impl Default for Pose {
    fn default() -> Self {
        Pose {
            position: Vec3::ZERO,
            facing: 0.0,
            turret_facing: 0.0,
            turret_offset: Vec3::ZERO,
            recoil: 0.0,
            frame: 0,
        }
    }
}

impl Pose {
    /// A facing given in degrees (0 = north, 90 = east).
    pub fn facing_from_degrees(deg: f32) -> f32 {
        deg / 360.0 * 256.0
    }

    fn rotation(facing: f32) -> Mat4 {
        // Facing 0 turns the model's +X (its front) to +Y; 64 keeps it on +X.
        Mat4::from_rotation_z((64.0 - facing) * std::f32::consts::TAU / 256.0)
    }

    fn piece_matrix(&self, role: PieceRole) -> Mat4 {
        let body = Mat4::from_translation(self.position) * Self::rotation(self.facing);
        let turret = || {
            body * Mat4::from_translation(self.turret_offset)
                * Mat4::from_rotation_z(-self.turret_facing * std::f32::consts::TAU / 256.0)
        };
        match role {
            PieceRole::Body => body,
            PieceRole::Turret => turret(),
            PieceRole::Barrel => {
                turret() * Mat4::from_translation(Vec3::new(-self.recoil, 0.0, 0.0))
            }
        }
    }
}

/// How voxels are shaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Shading {
    /// The game's VPL pages (8-bit) / ambient + diffuse (8888).
    #[default]
    Game,
    /// Ambient + diffuse in both paths (the 8-bit path picks the VPL page of that brightness).
    Free,
    /// No lighting: colours as stored.
    Unlit,
}

/// Which game's light direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LightSource {
    /// Red Alert 2's light for models shaded with table 4, Tiberian Sun's otherwise.
    #[default]
    Auto,
    TiberianSun,
    RedAlert2,
}

impl LightSource {
    /// Direction towards the light in world space.
    pub fn direction(self, table_mode: u8) -> Vec3 {
        let ra2 = match self {
            LightSource::Auto => table_mode == 4,
            LightSource::TiberianSun => false,
            LightSource::RedAlert2 => true,
        };
        let angle = if ra2 { 90f32 } else { 45f32 }.to_radians();
        Mat3::from_rotation_z(angle) * Vec3::new(-1.0, 0.0, 0.0)
    }
}

/// The games' view: orthographic, 30 degrees above the horizon, looking from the south-east so north
/// points to the upper right of the screen, `view_height` world units tall, centred on `target`.
pub fn game_camera(target: Vec3, view_height: f32, width: usize, height: usize) -> Camera {
    let mut c = Camera::orbit(
        target,
        1000.0,
        45f32.to_radians(),
        30f32.to_radians(),
        1.0,
        width,
        height,
    );
    c.projection = modex::Projection::Orthographic {
        height: view_height,
    };
    c.near = 1.0;
    c.far = 4000.0;
    c
}

/// A camera framing everything `instances` draw: `base` with its target moved to the centre of the
/// scene's bounds and, for orthographic projections, its view height fitted to them (with margin).
/// Perspective cameras keep their direction and back off until the bounds fit.
pub fn frame_scene(instances: &[Instance<'_>], base: &Camera) -> Result<Camera, DrawError> {
    let Some((lo, hi)) = world_bounds(instances)? else {
        return Ok(*base);
    };
    let centre = (lo + hi) * 0.5;
    let radius = ((hi - lo) * 0.5).length().max(1e-3);
    let dir = (base.eye - base.target).normalize_or(Vec3::NEG_Y);
    let mut c = *base;
    c.target = centre;
    match c.projection {
        modex::Projection::Orthographic { .. } => {
            c.eye = centre + dir * (radius * 4.0).max(100.0);
            c.near = 0.1;
            c.far = (radius * 8.0).max(400.0);
            // Fit the box's corners as seen along the view, with a 10 % margin.
            let view = c.view();
            let (mut hx, mut hy) = (0f32, 0f32);
            for i in 0..8 {
                let p = Vec3::new(
                    if i & 1 != 0 { hi.x } else { lo.x },
                    if i & 2 != 0 { hi.y } else { lo.y },
                    if i & 4 != 0 { hi.z } else { lo.z },
                );
                let v = view.transform_point3(p) - view.transform_point3(centre);
                hx = hx.max(v.x.abs());
                hy = hy.max(v.y.abs());
            }
            let h = (2.0 * hy).max(2.0 * hx / c.aspect()).max(1e-3) * 1.1;
            c.projection = modex::Projection::Orthographic { height: h };
        }
        modex::Projection::Perspective { fov_y } => {
            let half = (fov_y * 0.5).tan().max(1e-3) * c.aspect().min(1.0);
            let dist = radius * 1.1 / half + radius;
            c.eye = centre + dir * dist;
            c.near = (dist - radius * 2.0).max(0.05);
            c.far = dist + radius * 2.0;
        }
    }
    Ok(c)
}

/// Render settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RenderOptions {
    pub shading: Shading,
    pub table: TableChoice,
    pub light: LightSource,
    /// Direction towards a light in world space that replaces the game's fixed light (`light`):
    /// scenes with a moving sun, like the demo's.
    pub sun: Option<Vec3>,
    /// Draw row bands in parallel on the current rayon pool.
    pub parallel: bool,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            shading: Shading::Game,
            table: TableChoice::Declared,
            light: LightSource::Auto,
            sun: None,
            parallel: true,
        }
    }
}

/// One unit of a scene.
#[derive(Debug, Clone, Copy)]
pub struct Instance<'a> {
    pub unit: Unit<'a>,
    pub pose: Pose,
}

/// Counters of one draw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DrawStats {
    /// Limbs that had something on screen.
    pub limbs: usize,
    /// Rays marched (pixels under the outlines of the limbs' occupied boxes, with a 1-pixel margin).
    pub rays: usize,
}

/// A limb prepared for marching.
struct Job<'a> {
    volume: &'a LimbVolume,
    /// NDC (x, y, z, 1) to grid-space homogeneous coordinates.
    ndc_to_grid: Mat4,
    /// Screen rectangle: x0, y0, x1, y1 (exclusive).
    rect: [usize; 4],
    /// The 12 edges of the projected box as (y, x) at both ends, upper end first, when the whole
    /// box is in front of the eye. The box's screen footprint is the convex hull of its projected
    /// corners, whose outline is made of these edges: each row marches only the x-interval between
    /// them instead of the whole rectangle ([`Job::row_span`]).
    edges: Option<[[f32; 4]; 12]>,
    lit: bool,
    /// VPL page per normal index (8-bit path).
    page: [u8; 256],
    /// Brightness per normal index in 1/256 (true-colour path).
    gain: [u16; 256],
    /// Orthographic cameras: grid-space ray origin at pixel (0, 0), its change per pixel in x and
    /// in y, and the (constant) direction. Saves two matrix products and divisions per ray.
    affine: Option<[Vec3; 4]>,
    /// The constants of the affine rays' common direction.
    ray_dir: RayDir,
}

impl Job<'_> {
    /// Pixels `x0..x1` of row `y` whose rays may meet the limb's occupied box.
    ///
    /// Conservative by one pixel on every side: the interval is the hull's extent over the strip of
    /// rows `y - 1 ..= y + 1` (pixel centres), widened by one pixel, so rounding differences between
    /// this projection and the per-pixel rays never lose a hit.
    #[inline]
    fn row_span(&self, y: usize) -> (usize, usize) {
        let Some(edges) = &self.edges else {
            return (self.rect[0], self.rect[2]);
        };
        let yc = y as f32 + 0.5;
        let (s0, s1) = (yc - 1.0, yc + 1.0);
        let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
        for &[ya, xa, yb, xb] in edges {
            if yb < s0 || ya > s1 {
                continue;
            }
            let (xc, xd) = if yb > ya {
                let k = (xb - xa) / (yb - ya);
                (xa + (ya.max(s0) - ya) * k, xa + (yb.min(s1) - ya) * k)
            } else {
                (xa, xb)
            };
            lo = lo.min(xc.min(xd));
            hi = hi.max(xc.max(xd));
        }
        if lo > hi {
            return (0, 0);
        }
        // Pixel x's ray passes through x + 0.5.
        let x0 = (lo - 1.5).floor().max(self.rect[0] as f32) as usize;
        let x1 = ((hi + 0.5).floor() + 1.0).min(self.rect[2] as f32) as usize;
        (x0, x1)
    }
}

/// The 12 edges of a box as pairs of corner indices of [`box_corners`] (corners one bit apart),
/// in the order the outlines have always listed them.
const BOX_EDGES: [(usize, usize); 12] = [
    (0, 1),
    (0, 2),
    (0, 4),
    (1, 3),
    (1, 5),
    (2, 3),
    (2, 6),
    (3, 7),
    (4, 5),
    (4, 6),
    (5, 7),
    (6, 7),
];

/// Grid-space box corners of a limb.
fn grid_corners(size: [usize; 3]) -> [Vec3; 8] {
    box_corners([0; 3], size)
}

/// Grid-space corners of the cell box `lo..hi`; corner `i` takes `hi` on the axes of its set bits.
fn box_corners(lo: [usize; 3], hi: [usize; 3]) -> [Vec3; 8] {
    std::array::from_fn(|i| {
        Vec3::from(std::array::from_fn(|a| {
            (if i & (1 << a) != 0 { hi[a] } else { lo[a] }) as f32
        }))
    })
}

/// Every drawable limb of the scene with its grid-to-world matrix, in draw order.
fn limbs_of<'a>(
    instances: &[Instance<'a>],
) -> Result<Vec<(&'a VoxelModel, usize, Mat4)>, DrawError> {
    let mut out = Vec::new();
    for inst in instances {
        for (role, model) in inst.unit.pieces() {
            let piece = inst.pose.piece_matrix(role);
            for limb in 0..model.vxl.limbs.len() {
                if let Some(m) = model.limb_matrix(limb, inst.pose.frame)? {
                    out.push((model, limb, piece * m));
                }
            }
        }
    }
    Ok(out)
}

/// World-space bounding box of everything the scene draws (for framing a camera).
pub fn world_bounds(instances: &[Instance<'_>]) -> Result<Option<(Vec3, Vec3)>, DrawError> {
    let mut lo = Vec3::splat(f32::INFINITY);
    let mut hi = Vec3::splat(f32::NEG_INFINITY);
    for (model, limb, m) in limbs_of(instances)? {
        let vol = &model.volumes()[limb];
        if vol.voxel_count() == 0 {
            continue;
        }
        for c in grid_corners(vol.size()) {
            let p = m.transform_point3(c);
            lo = lo.min(p);
            hi = hi.max(p);
        }
    }
    Ok(lo.is_finite().then_some((lo, hi)))
}

/// Screen outlines (12 edges) of every limb's box, for the viewer's "show bounds".
pub fn limb_outlines(
    instances: &[Instance<'_>],
    camera: &Camera,
) -> Result<Vec<[(Vec2, Vec2); 12]>, DrawError> {
    let mut out = Vec::new();
    for (model, limb, m) in limbs_of(instances)? {
        let corners = grid_corners(model.volumes()[limb].size());
        let projected: Option<Vec<Vec2>> = corners
            .iter()
            .map(|&c| camera.project(m.transform_point3(c)).map(|p| p.truncate()))
            .collect();
        let Some(p) = projected else { continue };
        out.push(BOX_EDGES.map(|(i, j)| (p[i], p[j])));
    }
    Ok(out)
}

/// Draw a line into an 8-bit frame (clipped per pixel).
pub fn draw_line(frame: &mut IndexedFrame, a: Vec2, b: Vec2, colour: u8) {
    let steps = (b - a).abs().max_element().ceil().clamp(1.0, 16384.0) as usize;
    for i in 0..=steps {
        let p = a + (b - a) * (i as f32 / steps as f32);
        if p.x >= 0.0 && p.y >= 0.0 {
            frame.set(p.x as usize, p.y as usize, colour);
        }
    }
}

/// The VPL page of brightness `b` in the game's pages (inverse of the page brightness ramp).
fn page_for_brightness(b: f32, pages: usize) -> u8 {
    let unit = 8.0 * pages as f32 / 32.0;
    let p = if b <= 1.0 {
        (b - 0.67) / 0.33 * unit
    } else {
        unit + (b - 1.0) / 0.85 * ((pages as f32 - 1.0) - unit)
    };
    p.round().clamp(0.0, pages.saturating_sub(1) as f32) as u8
}

/// Shading tables of one limb: VPL page and true-colour gain per normal index.
fn shade_tables(
    table: Option<VxlNormalTable>,
    linear: Mat3,
    opts: &RenderOptions,
    page_count: usize,
) -> ([u8; 256], [u16; 256]) {
    let mut page = [8u8; 256];
    let mut gain = [256u16; 256];
    let Some(table) = table else {
        return (page, gain);
    };
    let l = opts
        .sun
        .unwrap_or_else(|| opts.light.direction(table.mode))
        .normalize_or(Vec3::Z);
    let h = (l + Vec3::Z).normalize();
    // Normals transform by the inverse transpose; for the rotations real files use this is the
    // rotation itself.
    let normal_matrix = if linear.determinant().abs() > 1e-12 {
        linear.inverse().transpose()
    } else {
        linear
    };
    let top = page_count.saturating_sub(1) as f32;
    // Only the table's real entries need computing: indices past it clamp to its last entry (and
    // 253..255 are special in the game path), so they copy that entry's result below.
    let real = table.len().min(256);
    for i in 0..real {
        let n = (normal_matrix * Vec3::from(table.get(i as u8))).normalize_or_zero();
        let d = n.dot(l).max(0.0);
        let nh = n.dot(h);
        let free = 0.6 + 0.4 * nh.max(0.0);
        page[i] = match opts.shading {
            Shading::Game => {
                let spec = (nh / (3.0 - 3.0 * nh + nh)).max(0.0);
                ((d + spec) * 16.0).clamp(0.0, top) as u8
            }
            Shading::Free => page_for_brightness(free, page_count),
            Shading::Unlit => 8,
        };
        gain[i] = (free * 256.0).round() as u16;
    }
    for i in real..256 {
        page[i] = page[real - 1];
        gain[i] = gain[real - 1];
    }
    if opts.shading == Shading::Game {
        page[253..].fill(16f32.min(top) as u8);
    }
    (page, gain)
}

fn prepare<'a>(
    instances: &[Instance<'a>],
    camera: &Camera,
    opts: &RenderOptions,
    page_count: usize,
) -> Result<Vec<Job<'a>>, DrawError> {
    let vp = camera.view_projection();
    let view = camera.view();
    let inv_vp = vp.inverse();
    let (w, h) = (camera.width, camera.height);
    let limbs = limbs_of(instances)?;
    // One job per limb, built in parallel (a scene of 100 units has 1300 limbs) and collected in
    // scene order, so the draw order never depends on the thread count.
    let build = |&(model, limb, m): &(&'a VoxelModel, usize, Mat4)| -> Option<Job<'a>> {
        let volume = &model.volumes()[limb];
        if volume.voxel_count() == 0 {
            return None;
        }
        let world_to_grid = m.inverse();
        if !world_to_grid.is_finite() || m.determinant().abs() < 1e-20 {
            return None;
        }
        // Screen rectangle of the projected box of the filled cells (files pad their boxes); the
        // whole screen when a corner is behind the eye.
        let mut lo = Vec2::splat(f32::INFINITY);
        let mut hi = Vec2::splat(f32::NEG_INFINITY);
        let mut behind = false;
        let (cell_lo, cell_hi) = volume.bounds();
        let mut screen = [Vec2::ZERO; 8];
        // Camera::project, with the camera's matrices built once per draw instead of per corner.
        for (k, c) in box_corners(cell_lo, cell_hi).into_iter().enumerate() {
            let p = m.transform_point3(c);
            let clip = vp * p.extend(1.0);
            if clip.w <= 0.0 || -(view.transform_point3(p).z) < camera.near {
                behind = true;
                continue;
            }
            let ndc = clip.truncate() / clip.w;
            let s = Vec2::new(
                (ndc.x + 1.0) * 0.5 * w as f32,
                (1.0 - ndc.y) * 0.5 * h as f32,
            );
            lo = lo.min(s);
            hi = hi.max(s);
            screen[k] = s;
        }
        let edges = (!behind).then(|| {
            BOX_EDGES.map(|(i, j)| {
                let (mut a, mut b) = (screen[i], screen[j]);
                if a.y > b.y {
                    std::mem::swap(&mut a, &mut b);
                }
                [a.y, a.x, b.y, b.x]
            })
        });
        let rect = if behind {
            [0, 0, w, h]
        } else {
            let x0 = lo.x.floor().clamp(0.0, w as f32) as usize;
            let y0 = lo.y.floor().clamp(0.0, h as f32) as usize;
            let x1 = (hi.x.ceil() + 1.0).clamp(0.0, w as f32) as usize;
            let y1 = (hi.y.ceil() + 1.0).clamp(0.0, h as f32) as usize;
            [x0, y0, x1, y1]
        };
        if rect[0] >= rect[2] || rect[1] >= rect[3] {
            return None;
        }
        let lit = opts.shading != Shading::Unlit && model.limb_is_lit(limb);
        // The linear part that turns limb-space normals into world space, without the grid scale.
        let ext = model.vxl.limbs[limb].voxel_extent();
        let inv_ext = Vec3::new(
            if ext.x != 0.0 { 1.0 / ext.x } else { 0.0 },
            if ext.y != 0.0 { 1.0 / ext.y } else { 0.0 },
            if ext.z != 0.0 { 1.0 / ext.z } else { 0.0 },
        );
        let linear = Mat3::from_mat4(m) * Mat3::from_diagonal(inv_ext);
        let (page, gain) = shade_tables(model.normal_table(opts.table), linear, opts, page_count);
        let ndc_to_grid = world_to_grid * inv_vp;
        let affine = matches!(camera.projection, modex::Projection::Orthographic { .. })
            .then(|| {
                let at = |x: f32, y: f32, z: f32| {
                    let nx = (x + 0.5) / w as f32 * 2.0 - 1.0;
                    let ny = 1.0 - (y + 0.5) / h as f32 * 2.0;
                    ndc_to_grid * Vec4::new(nx, ny, z, 1.0)
                };
                let (o, ox, oy, f) = (
                    at(0.0, 0.0, 0.0),
                    at(1.0, 0.0, 0.0),
                    at(0.0, 1.0, 0.0),
                    at(0.0, 0.0, 1.0),
                );
                let unit_w = [o, ox, oy, f].iter().all(|v| (v.w - 1.0).abs() < 1e-5);
                unit_w.then(|| {
                    [
                        o.truncate(),
                        ox.truncate() - o.truncate(),
                        oy.truncate() - o.truncate(),
                        f.truncate() - o.truncate(),
                    ]
                })
            })
            .flatten();
        let ray_dir = RayDir::new(affine.map_or(Vec3::ZERO, |a| a[3]));
        Some(Job {
            volume,
            affine,
            ray_dir,
            ndc_to_grid,
            rect,
            edges,
            lit,
            page,
            gain,
        })
    };
    Ok(if opts.parallel {
        limbs.par_iter().filter_map(build).collect()
    } else {
        limbs.iter().filter_map(build).collect()
    })
}

/// Per-pixel inputs shared by all jobs: NDC of pixel centres and the view-depth mapping.
struct Screen {
    width: usize,
    height: usize,
    /// NDC to view-space homogeneous (for depth on hit).
    ndc_to_view: Mat4,
}

impl Screen {
    fn new(camera: &Camera) -> Screen {
        Screen {
            width: camera.width,
            height: camera.height,
            ndc_to_view: camera.view() * camera.view_projection().inverse(),
        }
    }

    #[inline]
    fn ndc(&self, x: usize, y: usize) -> (f32, f32) {
        (
            (x as f32 + 0.5) / self.width as f32 * 2.0 - 1.0,
            1.0 - (y as f32 + 0.5) / self.height as f32 * 2.0,
        )
    }

    /// View depth at NDC (x, y) and ray parameter t between the near (t = 0) and far (t = 1) planes.
    #[inline]
    fn depth(&self, nx: f32, ny: f32, t: f32) -> f32 {
        let (za, zb) = self.depth_ends(nx, ny);
        za + t * (zb - za)
    }

    /// View depth at NDC (x, y) on the near and the far plane.
    #[inline]
    fn depth_ends(&self, nx: f32, ny: f32) -> (f32, f32) {
        let a = self.ndc_to_view * Vec4::new(nx, ny, 0.0, 1.0);
        let b = self.ndc_to_view * Vec4::new(nx, ny, 1.0, 1.0);
        (-a.z / a.w, -b.z / b.w)
    }

    /// The ray parameter past which every hit at pixel NDC (x, y) fails the depth test against
    /// `depth` (1 when the pixel is empty): rays over pixels already covered by something nearer
    /// stop there instead of marching the rest of the limb.
    ///
    /// A hit at `t` is drawn only if `za + t (zb - za) < depth`, which is increasing in `t`. The
    /// margin, far above the rounding of both sides, keeps this exact: a hit beyond the returned
    /// `t` would have been rejected, and hits before it are found and tested as before.
    #[inline]
    fn t_limit(&self, nx: f32, ny: f32, depth: f32) -> f32 {
        if !depth.is_finite() {
            return 1.0;
        }
        let (za, zb) = self.depth_ends(nx, ny);
        let range = zb - za;
        if range.is_nan() || range <= 0.0 {
            return 1.0;
        }
        let margin = 1e-5 + 1e-5 * (za.abs() + zb.abs() + depth.abs()) / range;
        let t = (depth - za) / range + margin;
        if t.is_nan() {
            1.0
        } else {
            t.min(1.0)
        }
    }
}

/// March one band of rows `y0..` for every job, calling `put(index_in_band, job, colour, normal)`
/// for each pixel whose hit passes the depth test.
fn march_band<P: Copy>(
    screen: &Screen,
    jobs: &[Job<'_>],
    y0: usize,
    pixels: &mut [P],
    depth: &mut [f32],
    shade: &(impl Fn(&Job<'_>, u8, u8) -> P + Sync),
) -> usize {
    let rows = pixels.len() / screen.width.max(1);
    let y1 = y0 + rows;
    let mut rays = 0;
    for job in jobs {
        let ys = job.rect[1].max(y0)..job.rect[3].min(y1);
        for y in ys {
            let (x0, x1) = job.row_span(y);
            for x in x0..x1 {
                rays += 1;
                let i = (y - y0) * screen.width + x;
                let (nx, ny) = screen.ndc(x, y);
                let t_max = screen.t_limit(nx, ny, depth[i]);
                let hit = match &job.affine {
                    Some([o, dx, dy, _]) => {
                        let origin = *o + *dx * x as f32 + *dy * y as f32;
                        job.volume.march_dir(origin, &job.ray_dir, 0.0, t_max)
                    }
                    None => {
                        let a = job.ndc_to_grid * Vec4::new(nx, ny, 0.0, 1.0);
                        let b = job.ndc_to_grid * Vec4::new(nx, ny, 1.0, 1.0);
                        if a.w == 0.0 || b.w == 0.0 {
                            continue;
                        }
                        let (oa, ob) = (a.truncate() / a.w, b.truncate() / b.w);
                        job.volume.march(oa, ob - oa, 0.0, t_max)
                    }
                };
                let Some(hit) = hit else {
                    continue;
                };
                let z = screen.depth(nx, ny, hit.t);
                if z < depth[i] {
                    depth[i] = z;
                    pixels[i] = shade(job, hit.colour, hit.normal);
                }
            }
        }
    }
    rays
}

/// Run `f` on a rayon pool of `threads` threads (0 = one per core), so callers choose the thread
/// count of [`draw_indexed`] / [`draw_argb`] without depending on rayon themselves.
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> Result<T, String> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| e.to_string())?;
    Ok(pool.install(f))
}

/// Rows per parallel band.
const BAND_ROWS: usize = 8;

fn draw_generic<P: Copy + Send>(
    instances: &[Instance<'_>],
    camera: &Camera,
    opts: &RenderOptions,
    page_count: usize,
    pixels: &mut [P],
    depth: &mut DepthBuffer,
    shade: impl Fn(&Job<'_>, u8, u8) -> P + Sync,
) -> Result<DrawStats, DrawError> {
    let (w, h) = (camera.width, camera.height);
    if pixels.len() != w * h || depth.width() != w || depth.height() != h {
        return Err(DrawError::SizeMismatch(format!(
            "camera {w}x{h}, target {} pixels, depth {}x{}",
            pixels.len(),
            depth.width(),
            depth.height()
        )));
    }
    let jobs = prepare(instances, camera, opts, page_count)?;
    let screen = Screen::new(camera);
    let band = BAND_ROWS * w.max(1);
    let rays = if opts.parallel {
        pixels
            .par_chunks_mut(band)
            .zip(depth.values_mut().par_chunks_mut(band))
            .enumerate()
            .map(|(i, (p, d))| march_band(&screen, &jobs, i * BAND_ROWS, p, d, &shade))
            .sum()
    } else {
        pixels
            .chunks_mut(band)
            .zip(depth.values_mut().chunks_mut(band))
            .enumerate()
            .map(|(i, (p, d))| march_band(&screen, &jobs, i * BAND_ROWS, p, d, &shade))
            .sum()
    };
    Ok(DrawStats {
        limbs: jobs.len(),
        rays,
    })
}

/// Draw a scene into an 8-bit frame: lit voxels through the VPL page of their normal, unlit ones as
/// stored. The frame, depth buffer and camera must have the same size.
pub fn draw_indexed(
    instances: &[Instance<'_>],
    camera: &Camera,
    vpl: &Vpl,
    opts: &RenderOptions,
    frame: &mut IndexedFrame,
    depth: &mut DepthBuffer,
) -> Result<DrawStats, DrawError> {
    draw_generic(
        instances,
        camera,
        opts,
        vpl.page_count(),
        frame.pixels_mut(),
        depth,
        |job, colour, normal| {
            if job.lit {
                vpl.page(job.page[normal as usize] as usize)[colour as usize]
            } else {
                colour
            }
        },
    )
}

/// Draw a scene into a true-colour surface: palette colour times ambient + diffuse.
pub fn draw_argb(
    instances: &[Instance<'_>],
    camera: &Camera,
    palette: &Palette,
    opts: &RenderOptions,
    surface: &mut Surface<Argb8888>,
    depth: &mut DepthBuffer,
) -> Result<DrawStats, DrawError> {
    draw_generic(
        instances,
        camera,
        opts,
        32,
        surface.pixels_mut(),
        depth,
        |job, colour, normal| {
            let [r, g, b] = palette.colors[colour as usize];
            let k = if job.lit {
                job.gain[normal as usize] as u32
            } else {
                256
            };
            let f = |c: u8| ((c as u32 * k) >> 8).min(255) as u8;
            Argb8888(u32::from_be_bytes([255, f(r), f(g), f(b)]))
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facing_turns_the_front_clockwise_from_north() {
        let front = |f: f32| Pose::rotation(f).transform_vector3(Vec3::X);
        assert!((front(0.0) - Vec3::Y).length() < 1e-5);
        assert!((front(64.0) - Vec3::X).length() < 1e-5);
        assert!((front(128.0) + Vec3::Y).length() < 1e-5);
        assert_eq!(Pose::facing_from_degrees(90.0), 64.0);
    }

    #[test]
    fn box_edges_join_every_pair_of_corners_one_axis_apart() {
        let mut expected = Vec::new();
        for i in 0..8usize {
            for bit in [1usize, 2, 4] {
                if i & bit == 0 {
                    expected.push((i, i | bit));
                }
            }
        }
        assert_eq!(BOX_EDGES.to_vec(), expected);
    }

    #[test]
    fn brightness_page_round_trip() {
        assert_eq!(page_for_brightness(1.0, 32), 8);
        assert_eq!(page_for_brightness(0.6, 32), 0);
        assert_eq!(page_for_brightness(1.85, 32), 31);
    }
}
