//! WMB7 levels: the four shared LotterShock levels' facts, each checked against the header
//! independently of the decoder (every interpreted list's declared length equals the bytes its
//! records take, the lightmap list is a whole number of pages, every texture's mip offsets match its
//! level sizes), typed errors on damaged files, and writer round trips.

use std::path::PathBuf;

use glam::{Vec2, Vec3};
use modex::ErrorKind;
use modex_mdl::wmb::object::{
    ENTITY_SIZE, INFO_SIZE, LIGHT_SIZE, OLD_ENTITY_SIZE, PATH_EDGE_SIZE, PATH_HEADER_SIZE,
    PATH_NODE_SIZE, POSITION_SIZE, REGION_SIZE, SOUND_SIZE,
};
use modex_mdl::wmb::{
    encode::encode, read_header, Block, BlockSkin, BlockTriangle, BlockVertex, Entity, EntityKind,
    Info, ListKind, Object, SkinType, TerrainLightmap, WmbFile,
};
use proptest::prelude::*;

fn level(name: &str) -> Option<(Vec<u8>, WmbFile)> {
    let dir: PathBuf = modex_testkit::samples_dir("wmb")?;
    let bytes = std::fs::read(dir.join("lottershock/Game/Level").join(name)).unwrap();
    let f = WmbFile::parse(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
    Some((bytes, f))
}

/// Bytes an object's record takes, from its kind and contents (not from the decoder's spans).
fn object_size(o: &Object) -> usize {
    match o {
        Object::Position { .. } => POSITION_SIZE,
        Object::Light { .. } => LIGHT_SIZE,
        Object::Entity(e) if e.kind == EntityKind::Old => OLD_ENTITY_SIZE,
        Object::Entity(_) => ENTITY_SIZE,
        Object::Sound { .. } => SOUND_SIZE,
        Object::Info(_) => INFO_SIZE,
        Object::Path(p) => {
            PATH_HEADER_SIZE + PATH_NODE_SIZE * p.nodes.len() + PATH_EDGE_SIZE * p.edges.len()
        }
        Object::Region { .. } => REGION_SIZE,
        Object::Unknown { bytes, .. } => 4 + bytes.len(),
    }
}

/// The independent checks: each interpreted list is consumed exactly by its records.
/// `object_padding` is the zero bytes a level holds between its object offsets and its first
/// object (testlevel has 4).
fn check_lengths(bytes: &[u8], f: &WmbFile, object_padding: usize) {
    let h = read_header(bytes).unwrap();
    // An empty list may be absent (length 0) or hold a zero count word.
    let len = |k: ListKind| match h.list(k).length as usize {
        0 => 4,
        n => n,
    };
    // Blocks: count word + each block's header, vertices, triangles and skins.
    let blocks: usize = f
        .blocks
        .iter()
        .map(|b| 40 + 28 * b.vertices.len() + 12 * b.triangles.len() + 20 * b.skins.len())
        .sum();
    assert_eq!(len(ListKind::Blocks), 4 + blocks, "blocks list length");
    // Textures: count word, offsets, then each header and its levels.
    let textures: usize = f.textures.iter().map(|t| 40 + t.data.len()).sum();
    assert_eq!(
        len(ListKind::Textures),
        4 + 4 * f.textures.len() + textures,
        "textures list length"
    );
    for t in &f.textures {
        // Level sizes from width, height and format alone.
        let bpp = match t.kind & 7 {
            2 => 2,
            4 => 3,
            5 => 4,
            k => panic!("texture {} has format {k}", t.name),
        };
        let (w, h) = (t.width as usize, t.height as usize);
        let sizes: Vec<usize> = (0..4).map(|i| (w >> i) * (h >> i) * bpp).collect();
        assert!(t.kind & 8 != 0, "{}: samples have mipmaps", t.name);
        assert_eq!(t.data.len(), sizes.iter().sum::<usize>(), "{}", t.name);
        // legacy[i] is the offset of level i+1 from the texture record's start.
        let mut at = 40;
        for (i, s) in sizes.iter().take(3).enumerate() {
            at += s;
            assert_eq!(t.legacy[i] as usize, at, "{} mip offset {i}", t.name);
        }
    }
    // Materials: 64 bytes each.
    assert_eq!(
        h.list(ListKind::Materials).length as usize,
        64 * f.materials.len()
    );
    // Objects: count word, offsets and the records.
    let objects: usize = f.objects.iter().map(object_size).sum();
    assert_eq!(
        len(ListKind::Objects),
        4 + 4 * f.objects.len() + object_padding + objects,
        "objects list length"
    );
    let first = h.list(ListKind::Objects).offset as usize + 4 + 4 * f.objects.len();
    assert!(bytes[first..first + object_padding].iter().all(|&b| b == 0));
    // Lightmaps: a whole number of pages of the INFO object's size.
    let info = f.info().expect("every sample has INFO");
    let dim = 256usize << info.lightmap_size;
    let page = 3 * dim * dim;
    let lightmaps = h.list(ListKind::Lightmaps).length as usize;
    assert_eq!(lightmaps % page, 0, "whole pages");
    assert_eq!(f.lightmaps.len(), lightmaps / page);
    assert_eq!(f.lightmap_dim, dim);
}

struct Facts {
    file: &'static str,
    blocks: usize,
    triangles: usize,
    lightmap_dim: usize,
    entities: usize,
    object_padding: usize,
    textures: &'static [(&'static str, u32, u32, u32)],
}

const FACTS: [Facts; 4] = [
    Facts {
        file: "testlevel.wmb",
        object_padding: 4,
        blocks: 11,
        triangles: 4536,
        lightmap_dim: 512,
        entities: 2,
        textures: &[("#default", 128, 128, 10)],
    },
    Facts {
        file: "menue.wmb",
        object_padding: 0,
        blocks: 6,
        triangles: 12,
        lightmap_dim: 256,
        entities: 13,
        textures: &[("black_fc", 256, 256, 10), ("black", 256, 256, 10)],
    },
    Facts {
        file: "testlevel_doors.wmb",
        object_padding: 0,
        blocks: 0,
        triangles: 0,
        lightmap_dim: 256,
        entities: 13,
        textures: &[],
    },
    Facts {
        file: "bestiary.wmb",
        object_padding: 0,
        blocks: 0,
        triangles: 0,
        lightmap_dim: 256,
        entities: 44,
        textures: &[],
    },
];

#[test]
fn shared_levels_have_their_facts_and_consume_their_lists_exactly() {
    for facts in &FACTS {
        let Some((bytes, f)) = level(facts.file) else {
            return;
        };
        check_lengths(&bytes, &f, facts.object_padding);
        assert_eq!(f.blocks.len(), facts.blocks, "{}", facts.file);
        let tris: usize = f.blocks.iter().map(|b| b.triangles.len()).sum();
        assert_eq!(tris, facts.triangles, "{}", facts.file);
        assert_eq!(f.lightmap_dim, facts.lightmap_dim, "{}", facts.file);
        assert_eq!(f.entities().count(), facts.entities, "{}", facts.file);
        let tex: Vec<_> = f
            .textures
            .iter()
            .map(|t| (t.name.as_str(), t.width, t.height, t.kind))
            .collect();
        assert_eq!(tex, facts.textures, "{}", facts.file);
        let info = f.info().unwrap();
        assert!((info.version - 7.35).abs() < 1e-4, "compiler 7.35");
        for b in &f.blocks {
            assert_eq!(b.content, 0xFFFF_FF80);
        }
        // Decoding the first level of every texture fills it.
        for t in &f.textures {
            let (w, h, rgba) = t.rgba(0).unwrap();
            assert_eq!(rgba.len(), w * h * 4);
        }
        // Writing the decoded level and reading it back gives the same level.
        let again = WmbFile::parse(&encode(&f)).unwrap();
        assert_eq!(again, f, "{} round trip", facts.file);
    }
}

#[test]
fn bestiary_places_fifteen_distinct_files_from_both_entity_records() {
    let Some((_, f)) = level("bestiary.wmb") else {
        return;
    };
    let mut files: Vec<String> = f.entities().map(|e| e.file.to_lowercase()).collect();
    files.sort();
    files.dedup();
    assert_eq!(files.len(), 15, "{files:?}");
    // Old records whose filename overflows its 13-byte slot read it whole.
    assert!(f
        .entities()
        .any(|e| e.kind == EntityKind::Old && e.file == "corridor_01_end.mdl"));
    assert!(f.entities().any(|e| e.file == "poster01.tga"));
    assert!(f.entities().all(|e| e.scale.min_element() > 0.0));
}

#[test]
fn menue_entities_read_skills_after_the_pad_byte() {
    let Some((_, f)) = level("menue.wmb") else {
        return;
    };
    let first = f.entities().next().unwrap();
    assert_eq!(first.kind, EntityKind::New);
    assert_eq!(first.name, "flamemother_mdl_000");
    assert_eq!(first.file, "flamemother.mdl");
    assert_eq!(first.action, "MainmenuRotator");
    assert_eq!(first.skills.len(), 20);
    assert_eq!(first.skills[0], 0.5);
    assert_eq!(first.material, "matWeaponBasic");
    assert_eq!(first.albedo, 50.0);
    let info = f.info().unwrap();
    assert_eq!(info.lightmap_size, 0);
    assert_eq!(f.lightmaps.len(), 2);
}

#[test]
fn testlevel_old_entity_keeps_its_action_and_skills() {
    let Some((_, f)) = level("testlevel.wmb") else {
        return;
    };
    let e: Vec<&Entity> = f.entities().collect();
    assert_eq!(e[1].file, "warlock.MDL");
    assert_eq!(e[1].action, "Splattertest");
    assert_eq!(e[1].skills[..2], [100.0, 1000.0]);
    assert_eq!(f.lightmaps.len(), 4);
    let skins: Vec<SkinType> = f
        .blocks
        .iter()
        .flat_map(|b| b.skins.iter().map(BlockSkin::kind))
        .collect();
    assert!(skins.iter().all(|&k| k == SkinType::Shaded), "{skins:?}");
}

fn small_level() -> WmbFile {
    let v = |x: f32, y: f32| BlockVertex {
        position: Vec3::new(x, y, 0.0),
        texture_uv: Vec2::new(x / 64.0, y / 64.0),
        lightmap_uv: Vec2::new(x / 256.0, y / 256.0),
    };
    WmbFile {
        textures: Vec::new(),
        materials: Vec::new(),
        blocks: vec![Block {
            mins: Vec3::ZERO,
            maxs: Vec3::new(64.0, 64.0, 0.0),
            content: 0xFFFF_FF80,
            vertices: vec![v(0.0, 0.0), v(64.0, 0.0), v(64.0, 64.0)],
            triangles: vec![BlockTriangle {
                vertices: [0, 1, 2],
                skin: 0,
                face: 0,
            }],
            skins: vec![BlockSkin {
                texture: 0,
                lightmap: 0,
                material: 0,
                ambient: 0.0,
                albedo: 50.0,
                flags: 0,
            }],
        }],
        objects: vec![Object::Info(Info {
            flags: 0x23,
            ..modex_testkit::level::info(0x939393, 0x303030)
        })],
        lightmap_dim: 256,
        lightmaps: vec![vec![7; 3 * 256 * 256]],
        terrain_lightmaps: Vec::new(),
        other_lists: Vec::new(),
        warnings: Vec::new(),
    }
}

#[test]
fn triangle_naming_a_missing_vertex_is_a_typed_error_at_its_offset() {
    let mut f = small_level();
    f.blocks[0].triangles[0].vertices[2] = 3;
    let bytes = encode(&f);
    let e = WmbFile::parse(&bytes).unwrap_err();
    assert_eq!(e.field, "block[0].triangle[0].v");
    let blocks = read_header(&bytes).unwrap().list(ListKind::Blocks).offset as usize;
    assert_eq!(e.offset, blocks + 4 + 40 + 3 * 28);
}

#[test]
fn lightmaps_that_are_not_whole_pages_are_refused() {
    let mut f = small_level();
    f.lightmaps[0].pop();
    let e = WmbFile::parse(&encode(&f)).unwrap_err();
    assert_eq!(e.field, "lightmaps.length");
}

#[test]
fn a_terrain_lightmap_of_4g_by_4g_texels_is_refused_without_overflow() {
    // The fuzzer's find (wmb_surface): width x height x 3 overflowed a u64 and panicked.
    let mut f = small_level();
    f.terrain_lightmaps.push(TerrainLightmap {
        object: 0,
        width: u32::MAX,
        height: u32::MAX,
        bgr: Vec::new(),
    });
    let e = WmbFile::parse(&encode(&f)).unwrap_err();
    assert!(e.field.ends_with("width"), "{e}");
    assert!(
        matches!(
            e.kind,
            ErrorKind::TooLarge {
                value: u64::MAX,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn counts_beyond_their_list_are_refused_before_allocating() {
    let bytes = encode(&small_level());
    let blocks = read_header(&bytes).unwrap().list(ListKind::Blocks).offset as usize;
    let mut bad = bytes.clone();
    // num_verts of block 0 = 0x40000000.
    bad[blocks + 4 + 28..blocks + 4 + 32].copy_from_slice(&0x4000_0000u32.to_le_bytes());
    let e = WmbFile::parse(&bad).unwrap_err();
    assert_eq!(e.field, "block[0].num_verts");
    assert!(matches!(e.kind, ErrorKind::TooLarge { .. }), "{e}");
    // The blocks list's declared length ends the block: its skins cannot be read from the next list.
    let mut short = bytes.clone();
    let len_at = 4 + 8 * ListKind::Blocks.index() + 4;
    let len = u32::from_le_bytes(short[len_at..len_at + 4].try_into().unwrap());
    short[len_at..len_at + 4].copy_from_slice(&(len - 1).to_le_bytes());
    let e = WmbFile::parse(&short).unwrap_err();
    assert!(e.field.starts_with("block[0].num_skins"), "{e}");
    // A list running past the file.
    let mut past = bytes;
    past[len_at..len_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    let e = WmbFile::parse(&past).unwrap_err();
    assert_eq!(e.field, "blocks");
    assert_eq!(e.offset, blocks);
    assert!(matches!(e.kind, ErrorKind::Truncated { .. }), "{e}");
}

#[test]
fn names_are_windows_1252_and_written_back_as_such() {
    let mut f = small_level();
    f.objects.push(Object::Entity(Entity {
        name: "rüstung_1".into(),
        ..modex_testkit::level::entity("")
    }));
    let Some(Object::Entity(e)) = f.objects.last_mut() else {
        unreachable!()
    };
    e.file = "Rüstung.mdl".into();
    e.action = "zerstöre".into();
    let bytes = encode(&f);
    // The file holds the code page's bytes, one per character, never UTF-8.
    let at = bytes
        .windows(11)
        .position(|w| w == b"R\xfcstung.mdl")
        .expect("1252 bytes in the file");
    assert_eq!(bytes[at + 11], 0);
    assert!(!bytes.windows(2).any(|w| w == "ü".as_bytes()));
    let back = WmbFile::parse(&bytes).unwrap();
    let e = back.entities().next().unwrap();
    assert_eq!(
        (e.file.as_str(), e.action.as_str()),
        ("Rüstung.mdl", "zerstöre")
    );
}

#[test]
fn wrong_magic_is_refused() {
    let mut bytes = encode(&small_level());
    bytes[3] = b'6';
    let e = WmbFile::parse(&bytes).unwrap_err();
    assert_eq!(e.field, "magic");
    assert!(matches!(e.kind, ErrorKind::BadMagic { .. }));
}

/// Names with Windows-1252 letters beyond ASCII (one byte each in the file).
fn name() -> impl Strategy<Value = String> {
    "[A-Za-z0-9_.äöüßÄÖÜé€]{0,19}"
}

fn finite() -> impl Strategy<Value = f32> {
    -1.0e6f32..1.0e6
}

fn vec3() -> impl Strategy<Value = Vec3> {
    (finite(), finite(), finite()).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

fn entity() -> impl Strategy<Value = Entity> {
    (
        any::<bool>(),
        (vec3(), vec3(), vec3()),
        (name(), "[a-z0-9_üß]{0,32}", name()),
        prop::collection::vec(finite(), 20),
        (any::<u32>(), finite(), finite(), any::<u32>(), any::<u32>()),
        (name(), name(), name()),
    )
        .prop_map(
            |(old, (origin, angle, scale), (n, file, action), skills, nums, strings)| {
                let (flags, ambient, albedo, path, entity2) = nums;
                if old {
                    // The old record: 8 skills, a filename of up to 32 bytes, and an action only
                    // where the filename leaves its slot free.
                    let action = if file.chars().count() < 13 {
                        action
                    } else {
                        String::new()
                    };
                    Entity {
                        kind: EntityKind::Old,
                        origin,
                        angle,
                        scale,
                        name: n,
                        file,
                        action,
                        skills: skills[..8].to_vec(),
                        flags,
                        ambient,
                        albedo: 0.0,
                        path: 0,
                        entity2: 0,
                        material: String::new(),
                        string1: String::new(),
                        string2: String::new(),
                    }
                } else {
                    Entity {
                        kind: EntityKind::New,
                        origin,
                        angle,
                        scale,
                        name: n,
                        file,
                        action,
                        skills,
                        flags,
                        ambient,
                        albedo,
                        path,
                        entity2,
                        material: strings.0,
                        string1: strings.1,
                        string2: strings.2,
                    }
                }
            },
        )
}

fn block() -> impl Strategy<Value = Block> {
    (1usize..12, 1usize..4).prop_flat_map(|(verts, skins)| {
        (
            vec3(),
            vec3(),
            prop::collection::vec(
                (vec3(), finite(), finite(), finite(), finite()).prop_map(|(p, a, b, c, d)| {
                    BlockVertex {
                        position: p,
                        texture_uv: Vec2::new(a, b),
                        lightmap_uv: Vec2::new(c, d),
                    }
                }),
                verts,
            ),
            prop::collection::vec(
                (
                    prop::array::uniform3(0..verts as u16),
                    0..skins as u16,
                    any::<u32>(),
                )
                    .prop_map(|(vertices, skin, face)| BlockTriangle {
                        vertices,
                        skin,
                        face,
                    }),
                0..20,
            ),
            prop::collection::vec(
                (
                    any::<u16>(),
                    any::<u16>(),
                    any::<u32>(),
                    finite(),
                    finite(),
                    any::<u32>(),
                )
                    .prop_map(
                        |(texture, lightmap, material, ambient, albedo, flags)| BlockSkin {
                            texture,
                            lightmap,
                            material,
                            ambient,
                            albedo,
                            flags,
                        },
                    ),
                skins,
            ),
        )
            .prop_map(|(mins, maxs, vertices, triangles, skins)| Block {
                mins,
                maxs,
                content: 0xFFFF_FF80,
                vertices,
                triangles,
                skins,
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any level the writer can express reads back as itself, and writing it again gives the
    /// same bytes.
    #[test]
    fn written_levels_read_back_as_themselves(
        blocks in prop::collection::vec(block(), 0..4),
        entities in prop::collection::vec(entity(), 0..6),
        pos in (vec3(), vec3(), name()),
        pages in 0usize..3,
    ) {
        let mut f = small_level();
        f.blocks = blocks;
        f.objects.extend(entities.into_iter().map(Object::Entity));
        f.objects.push(Object::Position { origin: pos.0, angle: pos.1, unused: [0, 0], name: pos.2 });
        f.lightmaps = (0..pages).map(|p| vec![p as u8; 3 * 256 * 256]).collect();
        let bytes = encode(&f);
        let back = WmbFile::parse(&bytes).unwrap();
        check_lengths(&bytes, &back, 0);
        prop_assert_eq!(&back, &f);
        prop_assert_eq!(encode(&back), bytes);
    }

    /// Damaged levels give an error or a level, never a panic.
    #[test]
    fn damaged_levels_never_panic(flips in prop::collection::vec((any::<usize>(), any::<u8>()), 1..8)) {
        let mut bytes = encode(&small_level());
        for (at, v) in flips {
            let i = at % bytes.len();
            bytes[i] = v;
        }
        let _ = WmbFile::parse(&bytes);
    }
}

#[test]
fn errors_name_the_record_and_field_they_happened_in() {
    // Fields are read with static names and the record named only on error: the names must
    // still say where. Cut the objects list two bytes into the INFO object's ambient colour
    // (count, one offset, then the record: ambient at +40).
    let bytes = encode(&small_level());
    let len_at = 4 + 8 * ListKind::Objects.index() + 4;
    let mut cut = bytes.clone();
    cut[len_at..len_at + 4].copy_from_slice(&(4 + 4 + 40 + 2u32).to_le_bytes());
    let e = WmbFile::parse(&cut).unwrap_err();
    assert_eq!(e.field, "object[0].ambient_color");
    // A record running past its list's end: the list is too short, the file is not.
    assert!(
        e.to_string()
            .contains("needs 4 bytes, but the `objects` list (50 bytes from offset"),
        "{e}"
    );
    // A list's own words keep the list's name.
    let mut past = bytes;
    past[len_at..len_at + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(WmbFile::parse(&past).unwrap_err().field, "objects");
}

/// Where list `kind`'s `{offset, length}` entry sits in the header.
fn list_entry(kind: ListKind) -> usize {
    4 + 8 * kind.index()
}

/// `bytes` with list `kind` declared at `offset` with `length` bytes.
fn with_list(mut bytes: Vec<u8>, kind: ListKind, offset: usize, length: u32) -> Vec<u8> {
    let at = list_entry(kind);
    bytes[at..at + 4].copy_from_slice(&(offset as u32).to_le_bytes());
    bytes[at + 4..at + 8].copy_from_slice(&length.to_le_bytes());
    bytes
}

#[test]
fn a_terrain_lightmap_list_too_short_for_its_count_is_absent_with_one_warning() {
    // As in four levels of a published game: 4 bytes of lightmap-like data (0x02020202) where the
    // count is, past the end of every other list. Only a count of 0 fits in 4 bytes.
    let mut bytes = encode(&small_level());
    let at = bytes.len();
    bytes.extend_from_slice(&[2, 2, 2, 2]);
    let bytes = with_list(bytes, ListKind::LightmapsTerrain, at, 4);
    let f = WmbFile::parse(&bytes).unwrap();
    assert!(f.terrain_lightmaps.is_empty());
    assert_eq!(f.warnings.len(), 1, "{:?}", f.warnings);
    let w = &f.warnings[0];
    assert_eq!(
        (w.list, w.offset as usize),
        (ListKind::LightmapsTerrain, at)
    );
    assert_eq!(
        w.to_string(),
        format!(
            "WMB: list `lightmaps_terrain` at byte offset {at} treated as absent: its count reads \
             33686018 (0x2020202) but its 4 bytes hold at most 0"
        )
    );
    // Everything else was read as without it.
    assert_eq!(f.blocks, small_level().blocks);
    assert_eq!(f.lightmaps, small_level().lightmaps);
}

#[test]
fn a_terrain_lightmap_list_inside_the_lightmaps_is_absent_with_one_warning() {
    let bytes = encode(&small_level());
    let lm = read_header(&bytes).unwrap().list(ListKind::Lightmaps);
    let inside = lm.offset as usize + 12;
    let bytes = with_list(bytes, ListKind::LightmapsTerrain, inside, 4);
    let f = WmbFile::parse(&bytes).unwrap();
    assert!(f.terrain_lightmaps.is_empty());
    assert_eq!(f.warnings.len(), 1);
    let text = f.warnings[0].to_string();
    assert!(text.contains("lie inside the `lightmaps` list"), "{text}");
    // A well-formed level has no warnings.
    assert!(WmbFile::parse(&encode(&small_level()))
        .unwrap()
        .warnings
        .is_empty());
}

#[test]
fn a_terrain_lightmap_whose_pixels_run_past_its_list_stays_an_error() {
    // The count fits; the record after it does not: that is a damaged list, not an absent one.
    let mut bytes = encode(&small_level());
    let at = bytes.len();
    for word in [1u32, 0, 64, 64] {
        bytes.extend_from_slice(&word.to_le_bytes());
    }
    let bytes = with_list(bytes, ListKind::LightmapsTerrain, at, 16);
    let e = WmbFile::parse(&bytes).unwrap_err();
    assert!(e.field.starts_with("lightmaps_terrain[0]"), "{e}");
}

#[test]
fn a_level_cut_short_says_how_many_bytes_its_list_needs_and_the_file_has() {
    let bytes = encode(&small_level());
    let header = read_header(&bytes).unwrap();
    let lm = header.list(ListKind::Lightmaps);
    let cut = &bytes[..lm.offset as usize + 1000];
    let e = WmbFile::parse(cut).unwrap_err();
    // Said of the list reaching furthest: offset + needed is the size the file should have.
    let (kind, last) = ListKind::ALL
        .iter()
        .map(|&k| (k, header.list(k)))
        .max_by_key(|(_, l)| l.offset as usize + l.length as usize)
        .unwrap();
    let start = (last.offset as usize).min(cut.len());
    assert_eq!(
        e.to_string(),
        format!(
            "WMB: truncated: field `{}` needs {} bytes at offset {start} (0x{start:x}), the file \
             has {}",
            kind.name(),
            last.offset as usize + last.length as usize - start,
            cut.len()
        )
    );
    assert_eq!(
        start + (last.offset + last.length) as usize - start,
        bytes.len()
    );
    // Cut inside the header: still a level, and still how short.
    let e = WmbFile::parse(&bytes[..10]).unwrap_err();
    assert!(e.to_string().starts_with("WMB: truncated: "), "{e}");
    assert!(e.to_string().ends_with("the file has 10"), "{e}");
}
