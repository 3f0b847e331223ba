//! Westwood voxels: a VXL with the HVA beside it, HVA motion and VPL lighting files.

use modex::FormatResult;
use modex_voxel::VoxelModel;
use modex_vxl::{hva, vpl, vxl};
use serde_json::json;

use super::{Description, InfoError, Subject};

/// `modex info` for an HVA file.
pub fn describe_hva(bytes: &[u8]) -> FormatResult<Description> {
    let h = hva::decode(bytes)?;
    let text = format!(
        "HVA motion: {} frames x {} sections ({})\nname field: {:?}",
        h.frame_count(),
        h.section_count(),
        h.section_names.join(", "),
        h.name
    );
    Ok(Description {
        json: json!({
            "format": "hva",
            "name": h.name,
            "frames": h.frame_count(),
            "sections": h.section_count(),
            "section_names": h.section_names,
        }),
        text,
    })
}

/// `modex info` for a VPL file.
pub fn describe_vpl(bytes: &[u8]) -> FormatResult<Description> {
    let v = vpl::decode(bytes)?;
    Ok(Description {
        json: json!({
            "format": "vpl",
            "remap_start": v.remap_start,
            "remap_end": v.remap_end,
            "pages": v.page_count(),
        }),
        text: format!(
            "VPL lighting: {} pages, remap {}..={}",
            v.page_count(),
            v.remap_start,
            v.remap_end
        ),
    })
}

/// The name of the HVA that goes with the VXL `name` (same stem, in the same folder).
fn hva_name(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    format!("{stem}.hva")
}

/// `modex info` for a VXL file: its layers, and the HVA beside it with the quirks of the
/// assembled pair (what the viewer will do about them).
pub fn describe_vxl(file: &Subject) -> Result<Description, InfoError> {
    let v = vxl::decode(file.bytes)?;
    let limbs: Vec<_> = v
        .limbs
        .iter()
        .map(|l| {
            json!({
                "name": l.name,
                "size": l.size,
                "normals_mode": l.normals_mode,
                "voxels": l.voxel_count(),
                "scale": l.scale,
                "min": l.min.to_array(),
                "max": l.max.to_array(),
                "max_normal_index": l.max_normal_index(),
            })
        })
        .collect();
    let mut text = format!(
        "VXL model: {} layers, {} voxels, {} palette(s), {} info records\n",
        v.limbs.len(),
        v.voxel_count(),
        v.palette_count,
        v.tailer_count
    );
    for (i, l) in v.limbs.iter().enumerate() {
        text += &format!(
            "layer {i} {:?}: {}x{}x{}, {} voxels, normals mode {} (largest index {}), scale {}\n",
            l.name,
            l.size[0],
            l.size[1],
            l.size[2],
            l.voxel_count(),
            l.normals_mode,
            l.max_normal_index(),
            l.scale
        );
    }
    let mut j = json!({
        "format": "vxl",
        "limbs": limbs,
        "voxels": v.voxel_count(),
        "palette_count": v.palette_count,
        "info_records": v.tailer_count,
    });
    // The HVA beside it: frames, sections, and the quirks of the assembled pair.
    let name = hva_name(file.name);
    let read = file
        .folder
        .read(&name)
        .map_err(|source| InfoError::Sibling {
            name: name.clone(),
            source,
        })?;
    let hva = match read {
        Some(bytes) => {
            let h = hva::decode(&bytes).map_err(|source| InfoError::SiblingFormat {
                name: name.clone(),
                source,
            })?;
            j["hva_frames"] = json!(h.frame_count());
            j["hva_sections"] = json!(h.section_count());
            text += &format!(
                "HVA {name}: {} frames x {} sections\n",
                h.frame_count(),
                h.section_count()
            );
            Some(h)
        }
        None => {
            text += "no HVA beside it\n";
            None
        }
    };
    match VoxelModel::new("info", v, hva) {
        Ok(m) => {
            let quirks: Vec<String> = m.quirks().iter().map(|q| q.to_string()).collect();
            for q in &quirks {
                text += &format!("quirk: {q}\n");
            }
            j["quirks"] = json!(quirks);
        }
        Err(e) => {
            text += &format!("cannot be drawn: {e}\n");
            j["drawable"] = json!(false);
            j["error"] = json!(e.to_string());
        }
    }
    Ok(Description {
        json: j,
        text: text.trim_end().to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hva_is_named_after_the_vxl_without_its_folder() {
        assert_eq!(hva_name("../units/HMEC.VXL"), "HMEC.hva");
        assert_eq!(hva_name(r"C:\RA2\hmec.vxl"), "hmec.hva");
        assert_eq!(hva_name("noext"), "noext.hva");
    }
}
