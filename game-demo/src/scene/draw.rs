//! Drawing the battlefield: terrain and props through the triangle rasterizer, units through the
//! voxel ray-marcher, into one frame with one shared depth buffer and one camera, so the two
//! renderers occlude each other correctly. The units go through one voxel draw cache kept across
//! frames ([`modex_voxel::DrawCache`]), which blits them from sprites when the view is
//! orthographic ([`ViewControl::orthographic`]: a hit on a key's steps is the direct draw's
//! picture) and draws them directly under the default perspective view (the cache serves
//! orthographic cameras only: its module docs say why).

use std::time::Instant;

use anyhow::Context;
use glam::Vec3;
use modex::{Argb8888, Camera, DepthBuffer, DrawStats, IndexedFrame, Surface, Target};
use modex_mdl::Model;
use modex_raster::{Entity, Light, PreparedModel, Renderer};
use modex_voxel::{
    DrawCache, DrawError, Instance, Lod, Pose, RenderOptions, Shading, Unit, VoxelPixel,
};
use modex_vxl::Vpl;

use super::assets::Assets;
use super::ground::{Ground, GroundKey};
use super::world::{total_order_key, UnitKind, World};

/// Which pixel path draws the frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrawPath {
    /// The 8-bit mode-X frame: palette indices, shade tables and VPL pages.
    Indexed,
    /// A true-colour 8888 surface: the same scene lit by multiplication.
    TrueColour,
}

/// What one frame cost and drew.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct FrameStats {
    /// Milliseconds for terrain and props (rasterizer).
    pub raster_ms: f32,
    /// Milliseconds for the units (ray-marcher).
    pub voxel_ms: f32,
    /// What both renderers did, added up over the frame (triangles, limbs, rays).
    pub drawn: DrawStats,
    /// Filled voxels of the units drawn.
    pub voxels: usize,
}

/// The orbiting camera the player steers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ViewControl {
    /// Point looked at.
    pub target: Vec3,
    /// Radians around Z.
    pub yaw: f32,
    /// Radians above the horizon.
    pub pitch: f32,
    /// Eye distance from the target.
    pub distance: f32,
    /// Look through an orthographic camera (the Westwood games' projection) instead of the
    /// perspective one: same orbit, and the height the field of view shows at the target.
    pub orthographic: bool,
}

impl Default for ViewControl {
    fn default() -> Self {
        ViewControl {
            target: Vec3::new(0.0, 0.0, 20.0),
            yaw: 0.6,
            pitch: 0.62,
            distance: 340.0,
            orthographic: false,
        }
    }
}

/// The demo camera's vertical field of view in degrees.
pub const FOV_DEGREES: f32 = 50.0;

impl ViewControl {
    /// The camera of this view for a `width` x `height` frame.
    pub fn camera(&self, width: usize, height: usize) -> Camera {
        self.camera_with_fov(width, height, FOV_DEGREES)
    }

    /// The camera with another vertical field of view (degrees), as a plugin's zoom sets it.
    pub fn camera_with_fov(&self, width: usize, height: usize, fov_degrees: f32) -> Camera {
        let mut c = Camera::orbit(
            self.target,
            self.distance,
            self.yaw,
            self.pitch,
            fov_degrees.to_radians(),
            width,
            height,
        );
        c.near = 1.0;
        c.far = 4000.0;
        if self.orthographic {
            c.projection = modex::Projection::Orthographic {
                height: 2.0 * self.distance * (fov_degrees.to_radians() * 0.5).tan(),
            };
        }
        c
    }
}

/// How one drawn thing differs from what the simulation says.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Look<T> {
    /// As the world has it.
    #[default]
    Same,
    /// Drawn like this instead.
    Replace(T),
    /// Not drawn.
    Hidden,
}

impl<T: Copy> Look<T> {
    fn apply(&self, world: T) -> Option<T> {
        match self {
            Look::Same => Some(world),
            Look::Replace(t) => Some(*t),
            Look::Hidden => None,
        }
    }
}

/// Changes to a frame that do not come from the simulation (the demo's plugins: entities they
/// moved, rolled, scaled or removed, models they spawned, the camera's zoom). The default changes
/// nothing.
#[derive(Debug, Clone, Default)]
pub struct Overrides<'m> {
    /// The terrain.
    pub terrain: Look<Entity>,
    /// Props by index into `World::props` (missing = `Same`).
    pub props: Vec<Look<Entity>>,
    /// Units by index into `World::units` (missing = `Same`); voxel units take position, facing
    /// (pan), tilt, roll, scale and frame; their skin is the unit's palette and is not changed.
    pub units: Vec<Look<Pose>>,
    /// Extra models to draw.
    pub extra: Vec<(&'m Model, Entity)>,
    /// Vertical field of view in degrees instead of [`FOV_DEGREES`].
    pub fov_degrees: Option<f32>,
}

/// Everything needed to draw frames of the scene.
pub struct SceneRenderer<'a> {
    assets: &'a Assets,
    renderer: Renderer,
    terrain: PreparedModel<'a>,
    windmill: PreparedModel<'a>,
    flag: PreparedModel<'a>,
    vpl: Vpl,
    /// The 8-bit frame the indexed path draws into.
    pub frame: IndexedFrame,
    /// The true-colour surface the 8888 path draws into.
    pub surface: Surface<Argb8888>,
    depth: DepthBuffer,
    /// The camera the player steers.
    pub view: ViewControl,
    /// The units' sprites, kept across frames.
    cache: DrawCache<'a>,
    /// The terrain as last drawn, kept across frames.
    ground: Ground,
    /// Whether far units are drawn from their coarser levels of detail (off at start: the
    /// exact picture, which the goldens hold; the binary turns it on unless `--lod off`).
    pub lod: Lod,
}

/// Palette index the 8-bit frame is cleared to (sky).
const SKY_INDEX: u8 = 213;
/// Sky colour of the true-colour path.
const SKY_RGB: [u8; 3] = [47, 47, 159];

impl<'a> SceneRenderer<'a> {
    /// A renderer of `width` x `height` frames of `assets`, with the default view.
    pub fn new(assets: &'a Assets, width: usize, height: usize) -> SceneRenderer<'a> {
        let renderer = Renderer::new(&assets.palette);
        SceneRenderer {
            terrain: renderer.prepare(&assets.terrain.model),
            windmill: renderer.prepare(&assets.windmill.model),
            flag: renderer.prepare(&assets.flag.model),
            renderer,
            vpl: Vpl::from_palette(&assets.palette, 32),
            assets,
            frame: IndexedFrame::new(width, height),
            surface: Surface::new(width, height),
            depth: DepthBuffer::new(width, height),
            view: ViewControl::default(),
            cache: DrawCache::new(),
            ground: Ground::default(),
            lod: Lod::Off,
        }
    }

    /// Give the units' draw cache a memory budget of `bytes` (it starts with
    /// [`modex_voxel::DEFAULT_BUDGET_BYTES`]; 0 draws every unit directly). Only orthographic
    /// views use it.
    pub fn set_cache(&mut self, bytes: usize) {
        self.cache = std::mem::take(&mut self.cache).with_budget(bytes);
    }

    /// What the units' draw cache did in the last frame.
    pub fn cache_stats(&self) -> modex_voxel::CacheStats {
        self.cache.stats()
    }

    /// The depth buffer the last frame left: levers meant to be exact are checked on it as well
    /// as on the pixels (`examples/bench_frames`).
    pub fn depths(&self) -> &[f32] {
        self.depth.values()
    }

    /// The camera of the current view.
    pub fn camera(&self) -> Camera {
        self.view.camera(self.frame.width(), self.frame.height())
    }

    /// Draw `world` along `path`; the picture is left in [`Self::frame`] or [`Self::surface`].
    pub fn draw(&mut self, world: &World, path: DrawPath) -> anyhow::Result<FrameStats> {
        self.draw_with(world, path, &Overrides::default())
    }

    /// [`Self::draw`] with `overrides` applied.
    pub fn draw_with(
        &mut self,
        world: &World,
        path: DrawPath,
        overrides: &Overrides<'_>,
    ) -> anyhow::Result<FrameStats> {
        let camera = match overrides.fov_degrees {
            Some(fov) => self
                .view
                .camera_with_fov(self.frame.width(), self.frame.height(), fov),
            None => self.camera(),
        };
        let mut stats = FrameStats::default();
        self.renderer.light = Light {
            direction: -world.sun(),
            ambient: 0.45,
            diffuse: 1.2,
        };

        let start = Instant::now();
        let extra: Vec<PreparedModel> = overrides
            .extra
            .iter()
            .map(|(m, _)| self.renderer.prepare(m))
            .collect();
        let mut draws: Vec<(&PreparedModel, Entity)> = Vec::new();
        // An opaque terrain comes from the kept layer when it was drawn with this frame's camera
        // and light (`ground`); a translucent one is drawn with the other translucent models.
        let mut ground = None;
        match overrides.terrain.apply(Entity::default()) {
            Some(e) if e.alpha.is_opaque() => {
                ground = Some(GroundKey {
                    camera,
                    light: self.renderer.light,
                    entity: e,
                    true_colour: path == DrawPath::TrueColour,
                })
            }
            Some(e) => draws.push((&self.terrain, e)),
            None => {}
        }
        for (i, p) in world.props.iter().enumerate() {
            let model = if p.is_windmill {
                &self.windmill
            } else {
                &self.flag
            };
            let entity = Entity {
                position: p.position,
                pan: p.pan,
                frame: p.frame,
                albedo: 80.0,
                ..Entity::default()
            };
            let look = overrides.props.get(i).copied().unwrap_or_default();
            if let Some(e) = look.apply(entity) {
                draws.push((model, e));
            }
        }
        for (m, (_, e)) in extra.iter().zip(&overrides.extra) {
            draws.push((m, *e));
        }
        // Opaque models now; translucent ones (plugins' TRANSPARENT entities) after the units,
        // far to near, since they neither hide what is behind them nor write depth.
        let (mut translucent, opaque): (Vec<_>, Vec<_>) =
            draws.into_iter().partition(|(_, e)| !e.alpha.is_opaque());
        let distance = |e: &Entity| (e.position - camera.eye).length();
        translucent.sort_by(|a, b| distance(&b.1).total_cmp(&distance(&a.1)));
        let mut clear = Clear::First;
        if let Some(key) = ground {
            let targets = (&mut self.frame, &mut self.surface, &mut self.depth);
            if !self.ground.restore(&key, targets) {
                let terrain = [(&self.terrain, key.entity)];
                let targets = (&mut self.frame, &mut self.surface, &mut self.depth);
                draw_models(
                    &self.renderer,
                    targets,
                    &terrain,
                    path,
                    &camera,
                    clear,
                    &mut stats,
                )?;
                self.ground
                    .keep(key, (&self.frame, &self.surface, &self.depth));
            }
            clear = Clear::No;
        }
        let targets = (&mut self.frame, &mut self.surface, &mut self.depth);
        draw_models(
            &self.renderer,
            targets,
            &opaque,
            path,
            &camera,
            clear,
            &mut stats,
        )?;
        stats.raster_ms = start.elapsed().as_secs_f32() * 1000.0;

        let start = Instant::now();
        let mut instances: Vec<Instance> = self
            .instances(world)
            .into_iter()
            .enumerate()
            .filter_map(|(i, mut inst)| {
                let look = overrides.units.get(i).copied().unwrap_or_default();
                inst.pose = look.apply(inst.pose)?;
                Some(inst)
            })
            .collect();
        front_to_back(&mut instances, &camera);
        stats.voxels = instances.iter().map(|i| i.unit.voxel_count()).sum();
        let opts = RenderOptions {
            shading: Shading::Game,
            sun: Some(world.sun()),
            lod: self.lod,
            ..RenderOptions::default()
        };
        // A budget of 0 turns the cache off: every unit drawn directly (the bench's baseline).
        // Perspective views go through the cache too: it draws them directly itself, and its
        // stats then say so.
        let cache = (self.cache.budget() > 0).then_some(&mut self.cache);
        let s = match path {
            DrawPath::Indexed => draw_units(
                cache,
                (&instances, &camera, &self.vpl, &opts),
                &mut self.frame,
                &mut self.depth,
            ),
            DrawPath::TrueColour => draw_units(
                cache,
                (&instances, &camera, &self.vpl, &opts),
                &mut self.surface,
                &mut self.depth,
            ),
        }
        .context("voxel draw")?;
        stats.drawn += s;
        stats.voxel_ms = start.elapsed().as_secs_f32() * 1000.0;
        let start = Instant::now();
        let targets = (&mut self.frame, &mut self.surface, &mut self.depth);
        draw_models(
            &self.renderer,
            targets,
            &translucent,
            path,
            &camera,
            Clear::No,
            &mut stats,
        )?;
        stats.raster_ms += start.elapsed().as_secs_f32() * 1000.0;
        Ok(stats)
    }

    /// The units of `world` alone, drawn directly (no cache) with levels of detail `lod` into a
    /// cleared 8-bit frame and depth buffer of this renderer's size, in the order and light of
    /// [`Self::draw`]: what the bench's `LODERROR` line compares (covered pixels are those whose
    /// depth is finite).
    pub fn unit_layer(
        &self,
        world: &World,
        lod: Lod,
    ) -> anyhow::Result<(IndexedFrame, DepthBuffer)> {
        let camera = self.camera();
        let mut instances = self.instances(world);
        front_to_back(&mut instances, &camera);
        let opts = RenderOptions {
            shading: Shading::Game,
            sun: Some(world.sun()),
            lod,
            ..RenderOptions::default()
        };
        let mut frame = IndexedFrame::new(self.frame.width(), self.frame.height());
        let mut depth = DepthBuffer::new(self.frame.width(), self.frame.height());
        modex_voxel::draw(
            &instances, &camera, &self.vpl, &opts, &mut frame, &mut depth,
        )
        .context("voxel draw")?;
        Ok((frame, depth))
    }

    /// The lighting pages and palette the units are drawn with.
    pub fn vpl(&self) -> &Vpl {
        &self.vpl
    }

    fn instances(&self, world: &World) -> Vec<Instance<'a>> {
        let a = self.assets;
        world
            .units
            .iter()
            .map(|u| {
                let unit: Unit<'a> = match u.kind {
                    UnitKind::Tank => a.tank.unit(),
                    UnitKind::Apc => a.apc.unit(),
                    UnitKind::Heli => a.heli.unit(),
                };
                Instance {
                    unit,
                    pose: Pose {
                        position: u.position,
                        facing: u.facing,
                        turret_facing: u.turret,
                        turret_offset: world.turret_offset(),
                        recoil: u.recoil,
                        frame: u.frame,
                        ..Pose::default()
                    },
                }
            })
            .collect()
    }
}

/// Draw the units into `target`: through `cache` when given, else directly.
fn draw_units<'m, T: Target>(
    cache: Option<&mut DrawCache<'m>>,
    (instances, camera, vpl, opts): (&[Instance<'m>], &Camera, &Vpl, &RenderOptions),
    target: &mut T,
    depth: &mut DepthBuffer,
) -> Result<DrawStats, DrawError>
where
    T::Px: VoxelPixel,
{
    match cache {
        Some(cache) => modex_voxel::draw_cached(cache, instances, camera, vpl, opts, target, depth),
        None => modex_voxel::draw(instances, camera, vpl, opts, target, depth),
    }
}

/// Whether [`draw_models`] clears the frame and depth to the sky first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clear {
    /// Clear, inside the first model's draw when there is one ([`Renderer::clear_and_draw`]: each
    /// band is cleared by the job that then draws into it, while its rows are in cache, instead of
    /// a serial pass over the whole frame first; at 1920x1080 the serial clears were 8 % of a
    /// 13-unit frame).
    First,
    /// Draw over what is there.
    No,
}

/// Draw models with the rasterizer into the path's target.
fn draw_models(
    renderer: &Renderer,
    (frame, surface, depth): (&mut IndexedFrame, &mut Surface<Argb8888>, &mut DepthBuffer),
    draws: &[(&PreparedModel, Entity)],
    path: DrawPath,
    camera: &Camera,
    mut clear: Clear,
    stats: &mut FrameStats,
) -> anyhow::Result<()> {
    let sky = Argb8888(u32::from_be_bytes([
        255, SKY_RGB[0], SKY_RGB[1], SKY_RGB[2],
    ]));
    for (model, entity) in draws {
        let s = match (path, clear) {
            (DrawPath::Indexed, Clear::First) => {
                renderer.clear_and_draw(frame, depth, camera, model, entity, SKY_INDEX)
            }
            (DrawPath::TrueColour, Clear::First) => {
                renderer.clear_and_draw(surface, depth, camera, model, entity, sky)
            }
            (DrawPath::Indexed, Clear::No) => renderer.draw(frame, depth, camera, model, entity),
            (DrawPath::TrueColour, Clear::No) => {
                renderer.draw(surface, depth, camera, model, entity)
            }
        }
        .context("model draw")?;
        stats.drawn += s;
        clear = Clear::No;
    }
    if clear == Clear::First {
        depth.clear();
        match path {
            DrawPath::Indexed => frame.clear(SKY_INDEX),
            DrawPath::TrueColour => surface.clear(sky),
        }
    }
    Ok(())
}

/// Order `instances` nearest first along the camera's forward axis (stable, so equal depths keep
/// the world's order).
///
/// The ray-marcher stops each ray where the depth already in the buffer would reject any hit, so
/// units drawn behind nearer ones march only up to the nearer surface: with hundreds of units
/// overlapping on screen this saves most of the occluded rays' steps. Where two hits have exactly
/// the same depth the first drawn keeps the pixel, so the order can change such a tie; the golden
/// frames and the bench's pixel check show it does not in the demo's scenes.
///
/// Each unit's depth is worked out once (`sort_by_cached_key`, stable too), not twice per
/// comparison: the comparisons' transforms were ~1.2 M instructions of the 1000-unit frame,
/// serial before the parallel draw.
fn front_to_back(instances: &mut [Instance<'_>], camera: &Camera) {
    let view = camera.view();
    instances.sort_by_cached_key(|i| total_order_key(-view.transform_point3(i.pose.position).z));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::assets::generate;

    /// Drawing the units nearest first gives the same pixels and depths as the world's order, in a
    /// crowded scene where many units overlap.
    #[test]
    fn front_to_back_order_draws_the_same_frame() {
        let assets = Assets::from_files(&generate()).unwrap();
        let mut world = World::demo(&assets, 300);
        for _ in 0..30 {
            world.step();
        }
        let scene = SceneRenderer::new(&assets, 360, 240);
        let camera = scene.camera();
        let opts = RenderOptions {
            shading: Shading::Game,
            sun: Some(world.sun()),
            ..RenderOptions::default()
        };
        let draw = |instances: &[Instance<'_>]| {
            let mut frame = IndexedFrame::new(360, 240);
            let mut depth = DepthBuffer::new(360, 240);
            modex_voxel::draw(
                instances, &camera, &scene.vpl, &opts, &mut frame, &mut depth,
            )
            .unwrap();
            (frame, depth.values().to_vec())
        };
        let in_world_order = scene.instances(&world);
        let mut sorted = in_world_order.clone();
        front_to_back(&mut sorted, &camera);
        assert_ne!(
            sorted.iter().map(|i| i.pose.position).collect::<Vec<_>>(),
            in_world_order
                .iter()
                .map(|i| i.pose.position)
                .collect::<Vec<_>>(),
            "the sort reorders this scene"
        );
        let (a, da) = draw(&in_world_order);
        let (b, db) = draw(&sorted);
        assert_eq!(da, db);
        assert!(a.pixels() == b.pixels(), "frames differ");
        assert!(a.pixels().iter().filter(|&&p| p != 0).count() > 10_000);
    }

    /// The scene draws at the bench's wide sizes with the same framing rule as the default frame:
    /// the sky above, the battlefield across the middle and units drawn. Set `MODEX_DEMO_SHOTS` to
    /// a folder to get the frames as PNGs to look at.
    #[test]
    fn draws_at_wide_sizes() {
        let assets = Assets::from_files(&generate()).unwrap();
        let world = World::demo(&assets, 100);
        for (w, h) in [(1280, 720), (1920, 1080)] {
            let mut scene = SceneRenderer::new(&assets, w, h);
            let stats = scene.draw(&world, DrawPath::Indexed).unwrap();
            // Every unit's limbs are drawn (marched or, at these sizes, mostly splatted).
            assert!(
                stats.drawn.limbs > 200,
                "{w}x{h}: {} limbs",
                stats.drawn.limbs
            );
            let px = scene.frame.pixels();
            assert_eq!(px[w / 2], SKY_INDEX, "{w}x{h}: sky at the top");
            let middle = &px[(h / 2) * w..(h / 2 + 1) * w];
            let ground = middle.iter().filter(|&&p| p != SKY_INDEX).count();
            assert!(
                ground > w * 9 / 10,
                "{w}x{h}: battlefield across the middle row"
            );
            if let Some(dir) = std::env::var_os("MODEX_DEMO_SHOTS") {
                let file = std::path::Path::new(&dir).join(format!("demo_{w}x{h}.png"));
                modex::pngio::save_indexed(&file, &scene.frame, &assets.palette).unwrap();
            }
        }
    }

    /// Which views blit from the draw cache: orthographic ones, unless the budget is 0; a
    /// perspective frame is the direct draw, whatever the budget.
    #[test]
    fn the_cache_serves_the_views_it_is_set_for() {
        let assets = Assets::from_files(&generate()).unwrap();
        let mut world = World::demo(&assets, 40);
        let frames = |orthographic: bool, budget: usize, world: &mut World| {
            let mut scene = SceneRenderer::new(&assets, 360, 240);
            scene.view.orthographic = orthographic;
            scene.set_cache(budget);
            let mut hits = 0;
            let mut shots = Vec::new();
            for _ in 0..3 {
                world.step();
                scene.draw(world, DrawPath::Indexed).unwrap();
                hits += scene.cache_stats().hits;
                shots.push(scene.frame.pixels().to_vec());
            }
            (hits, shots)
        };
        let start = world.clone();
        let (hits, default) = frames(false, modex_voxel::DEFAULT_BUDGET_BYTES, &mut world);
        assert_eq!(hits, 0, "perspective draws directly");
        world = start.clone();
        let (_, direct) = frames(false, 0, &mut world);
        assert!(
            default == direct,
            "the perspective frame is the direct draw"
        );
        world = start.clone();
        let (hits, _) = frames(true, modex_voxel::DEFAULT_BUDGET_BYTES, &mut world);
        assert!(hits > 0, "orthographic views blit");
        world = start;
        let (hits, _) = frames(true, 0, &mut world);
        assert_eq!(hits, 0, "a budget of 0 turns the cache off");
    }

    /// A frame that starts from the kept terrain is the frame a new renderer draws, pixels and
    /// depths, in both views and paths: across light steps, a camera that moves and stops again,
    /// and the terrain moved by a plugin; and the kept terrain is used (fewer triangles drawn)
    /// exactly on the frames whose camera, light and terrain did not change (once the camera
    /// has stood still for a frame).
    #[test]
    fn a_kept_terrain_draws_the_frame_a_new_renderer_draws() {
        let assets = Assets::from_files(&generate()).unwrap();
        for orthographic in [true, false] {
            for path in [DrawPath::Indexed, DrawPath::TrueColour] {
                let mut world = World::demo(&assets, crate::scene::world::DEFAULT_UNITS);
                let mut kept = SceneRenderer::new(&assets, 160, 120);
                kept.view.orthographic = orthographic;
                // Units drawn directly in both renderers: a warm draw cache's depths may differ
                // from a cold one's by rounding (its module docs), and this test is about the
                // terrain.
                kept.set_cache(0);
                let mut counts = Vec::new();
                for frame in 0..24u64 {
                    if frame > 0 {
                        world.step();
                    }
                    if frame == 13 || frame == 14 {
                        kept.view.yaw += 0.1;
                    }
                    let mut overrides = Overrides::default();
                    if frame == 16 {
                        overrides.terrain = Look::Replace(Entity {
                            position: Vec3::new(0.0, 0.0, -4.0),
                            ..Entity::default()
                        });
                    }
                    let stats = kept.draw_with(&world, path, &overrides).unwrap();
                    let mut fresh = SceneRenderer::new(&assets, 160, 120);
                    fresh.view = kept.view;
                    fresh.set_cache(0);
                    fresh.draw_with(&world, path, &overrides).unwrap();
                    let what = format!("ortho {orthographic} {path:?} frame {frame}");
                    assert!(
                        kept.depth.values() == fresh.depth.values(),
                        "{what}: depths"
                    );
                    match path {
                        DrawPath::Indexed => {
                            assert!(kept.frame.pixels() == fresh.frame.pixels(), "{what}")
                        }
                        DrawPath::TrueColour => {
                            assert!(kept.surface.pixels() == fresh.surface.pixels(), "{what}")
                        }
                    }
                    // Drawn again where something the terrain depends on changed since the last
                    // frame: the first frame, the light steps (10, 20), the camera's moves (13,
                    // 14), the moved terrain (16) and the frame after it (17); and on the frame
                    // after the first and after the moves (1, 15), since a terrain is kept only
                    // once the camera has stood still for a frame (so 14, a moving camera's
                    // frame, kept nothing for 15). A kept terrain's triangles are not drawn; the
                    // props' are, the same number every frame.
                    let drawn_again = matches!(frame, 0 | 1 | 10 | 13 | 14 | 15 | 16 | 17 | 20);
                    counts.push((drawn_again, stats.drawn.triangles));
                }
                let all = counts[0].1;
                let props = counts.iter().find(|c| !c.0).expect("a kept frame").1;
                assert!(
                    props < all,
                    "ortho {orthographic} {path:?}: {props} of {all}"
                );
                for (frame, &(drawn_again, n)) in counts.iter().enumerate() {
                    let want = if drawn_again { all } else { props };
                    assert_eq!(n, want, "ortho {orthographic} {path:?} frame {frame}");
                }
            }
        }
    }
}
