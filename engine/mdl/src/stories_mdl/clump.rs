//! The object graph: clump, its ring of atomics, each atomic's geometry, materials and skin
//! (librwgta `rsl.h` layouts, 32-bit pointers).
//!
//! ```text
//! RslObject (8)       u8 type, subType, flags, privateFlags; parent ptr
//! clump (0x10)        object; atomicList {next, prev}                      (type 2)
//! atomic (0x30)       object; node link {next, prev}; sync; geometry 0x14; clump 0x18;
//!                     link {next, prev} 0x1C; renderCallBack 0x24; s16 modelInfoId 0x28;
//!                     u16 visIdFlag 0x2A; hier 0x2C                        (type 1)
//! geometry (0x20)     object; s16 refCount, pad; materials ptr 0x0C, i32 count 0x10, space 0x14;
//!                     skin ptr 0x18; pad                                   (PS2 geometry follows)
//! material (0x10)     texname ptr; RGBA colour; refCount; matfx ptr
//! matfx (0x10)        env {frame ptr, texname ptr, f32 intensity}; i32 effectType
//! skin                u32 numBones, numUsedBones; usedBones ptr; invMatrices ptr (64 bytes each)
//! ```

use std::collections::HashSet;

use modex::{ErrorKind, FormatError, FormatResult};

use super::container::{Image, HEADER_SIZE};
use super::{invalid, vif, Atomic, Geometry, Material, SkinInfo, FORMAT};

/// Object type of a clump (`RslElementGroup`).
pub const TYPE_CLUMP: u8 = 2;
/// Object type of an atomic (`RslElement`).
pub const TYPE_ATOMIC: u8 = 1;
/// Size of an atomic.
pub const ATOMIC_SIZE: usize = 0x30;
/// Offset of the clump's list link inside an atomic.
pub const ATOMIC_LINK: usize = 0x1C;
/// Offset of the atomic list head inside a clump.
pub const CLUMP_LIST: usize = 0x08;
/// Size of the geometry object before the PS2 geometry.
pub const GEOMETRY_SIZE: usize = 0x20;
/// Size of a material.
pub const MATERIAL_SIZE: usize = 0x10;
/// Texture names are copied into 32-byte fields by librwgta; longer names are cut there.
pub const TEXTURE_NAME_MAX: usize = 32;

/// Read the clump at the start of the data and every atomic on its ring list.
pub(crate) fn read_clump(image: &Image) -> FormatResult<(usize, Vec<Atomic>)> {
    let clump = HEADER_SIZE;
    let kind = image.reader_at(clump, "clump.type")?.u8("clump.type")?;
    if kind != TYPE_CLUMP {
        return Err(FormatError::unsupported(
            FORMAT,
            "clump.type",
            clump,
            format!(
                "root object type {kind}: only models whose root is a clump (type 2) are read, \
                 not vehicle, ped or atomic-array files"
            ),
        ));
    }
    let head = clump + CLUMP_LIST;
    // Each atomic takes 0x30 bytes of the file, so a ring longer than this loops without
    // returning to the head.
    let most = image.bytes().len() / ATOMIC_SIZE;
    let mut atomics = Vec::new();
    let mut seen = HashSet::new();
    let mut link = image.required_pointer(head, "clump.atomic_list.next")?;
    while link != head {
        let field = format!("atomic[{}]", atomics.len());
        let atomic = link.checked_sub(ATOMIC_LINK).filter(|&a| a >= HEADER_SIZE);
        let Some(atomic) = atomic else {
            return Err(invalid(
                format!("{field}.link"),
                link,
                "list link lies before any atomic could start",
            ));
        };
        if !seen.insert(link) || atomics.len() >= most {
            return Err(invalid(
                format!("{field}.link"),
                link,
                "the atomic list loops without returning to the clump",
            ));
        }
        image.spend(1, &format!("{field}.link"), link)?;
        atomics.push(read_atomic(image, atomic, &field)?);
        link = image.required_pointer(link, &format!("{field}.link.next"))?;
    }
    Ok((clump, atomics))
}

fn read_atomic(image: &Image, at: usize, field: &str) -> FormatResult<Atomic> {
    let mut r = image.reader_at(at, field)?;
    r.check_count(1, ATOMIC_SIZE, field)?;
    let kind = r.u8(&format!("{field}.type"))?;
    if kind != TYPE_ATOMIC {
        return Err(FormatError::out_of_range(
            FORMAT,
            format!("{field}.type"),
            at,
            kind.into(),
            TYPE_ATOMIC.into(),
            TYPE_ATOMIC.into(),
        ));
    }
    r.seek(at + 0x28, field)?;
    let model_info_id = r.i16(&format!("{field}.model_info_id"))?;
    let visibility_flags = r.u16(&format!("{field}.visibility_flags"))?;
    let geometry_at = image.required_pointer(at + 0x14, &format!("{field}.geometry"))?;
    let geometry = read_geometry(image, geometry_at, &format!("{field}.geometry"))?;
    Ok(Atomic {
        offset: at,
        model_info_id,
        visibility_flags,
        geometry,
    })
}

fn read_geometry(image: &Image, at: usize, field: &str) -> FormatResult<Geometry> {
    let r = image.reader_at(at, field)?;
    r.check_count(1, GEOMETRY_SIZE, field)?;
    let materials = read_materials(image, at, field)?;
    let skin = match image.pointer(at + 0x18, &format!("{field}.skin"))? {
        Some(s) => Some(read_skin(image, s, &format!("{field}.skin"))?),
        None => None,
    };
    let ps2 = vif::read_ps2_geometry(
        image,
        at + GEOMETRY_SIZE,
        field,
        materials.len(),
        skin.is_some(),
    )?;
    Ok(Geometry {
        offset: at,
        flags: ps2.flags,
        declared_vertices: ps2.declared_vertices,
        bound: ps2.bound,
        scale: ps2.scale,
        pos: ps2.pos,
        materials,
        meshes: ps2.meshes,
        skin,
    })
}

fn read_materials(image: &Image, geometry: usize, field: &str) -> FormatResult<Vec<Material>> {
    let count_at = geometry + 0x10;
    let count = image
        .reader_at(count_at, field)?
        .count_i32(&format!("{field}.material_count"))?;
    let Some(list) = image.pointer(geometry + 0x0C, &format!("{field}.materials"))? else {
        if count > 0 {
            return Err(invalid(
                format!("{field}.materials"),
                geometry + 0x0C,
                format!("NULL material list for {count} materials"),
            ));
        }
        return Ok(Vec::new());
    };
    image
        .reader_at(list, field)?
        .check_count(count, 4, &format!("{field}.material_count"))
        .map_err(|e| FormatError {
            offset: count_at,
            ..e
        })?;
    image.spend(count, &format!("{field}.material_count"), count_at)?;
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let mfield = format!("{field}.material[{i}]");
        let m = image.required_pointer(list + 4 * i, &mfield)?;
        out.push(read_material(image, m, &mfield)?);
    }
    Ok(out)
}

fn read_material(image: &Image, at: usize, field: &str) -> FormatResult<Material> {
    let mut r = image.reader_at(at, field)?;
    r.check_count(1, MATERIAL_SIZE, field)?;
    r.skip(4, field)?;
    let colour = r.array::<4>(&format!("{field}.colour"))?;
    let texture = match image.pointer(at, &format!("{field}.texture"))? {
        Some(name) => Some(read_name(image, name, &format!("{field}.texture"))?),
        None => None,
    };
    let matfx = match image.pointer(at + 0x0C, &format!("{field}.matfx"))? {
        Some(fx) => Some(
            image
                .reader_at(fx + 0x0C, &format!("{field}.matfx"))?
                .i32(&format!("{field}.matfx.effect_type"))?,
        ),
        None => None,
    };
    Ok(Material {
        texture,
        colour,
        matfx,
    })
}

/// A NUL-terminated name; the NUL must be inside the file. Kept to its first 32 bytes.
fn read_name(image: &Image, at: usize, field: &str) -> FormatResult<String> {
    let bytes = &image.bytes()[at..];
    let Some(end) = bytes.iter().position(|&b| b == 0) else {
        return Err(FormatError::new(
            FORMAT,
            field,
            at,
            ErrorKind::Truncated {
                needed: bytes.len() + 1,
                available: bytes.len(),
            },
        ));
    };
    let name = &bytes[..end.min(TEXTURE_NAME_MAX)];
    Ok(String::from_utf8_lossy(name).into_owned())
}

fn read_skin(image: &Image, at: usize, field: &str) -> FormatResult<SkinInfo> {
    let mut r = image.reader_at(at, field)?;
    let bones = r.u32(&format!("{field}.bones"))?;
    let inverse_matrices = match image.pointer(at + 0x0C, &format!("{field}.inverse_matrices"))? {
        None => Vec::new(),
        Some(m) => {
            let mut r = image.reader_at(m, field)?;
            r.check_count(bones as usize, 64, &format!("{field}.bones"))
                .map_err(|e| FormatError { offset: at, ..e })?;
            image.spend(bones as usize, &format!("{field}.bones"), at)?;
            let mut out = Vec::with_capacity(bones as usize);
            for b in 0..bones {
                let mut mat = [0f32; 16];
                for v in &mut mat {
                    *v = r.f32(&format!("{field}.inverse_matrix[{b}]"))?;
                }
                out.push(mat);
            }
            out
        }
    };
    Ok(SkinInfo {
        bones,
        inverse_matrices,
    })
}
