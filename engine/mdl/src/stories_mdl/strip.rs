//! Triangle strips to triangles.
//!
//! Triangle `i` of a mesh's strip is `(i, i+1, i+2)`, with the first two corners swapped when `i`
//! is odd, so every triangle has the winding of triangle 0. Parity restarts at each mesh-table
//! entry (each is its own strip). Strips are stitched with repeated vertices; a triangle with two
//! equal corners is such a stitching degenerate and is dropped. "Equal" is librwgta's rule: it
//! merges vertices whose every attribute is equal (`findVertexSkin`) and then drops triangles with
//! two equal indices, so two corners are equal here when their stored attributes are.

/// Which way a strip's triangles face. A strip has one winding (triangle 0's), but no real file
/// is public to say whether RenderWare's PS2 strips start counter-clockwise seen from outside,
/// so the strip is judged by the property every model format here is held to: the side its
/// surface faces. The stored normals say it (they light the model in the game, so they point
/// out): when most of them point to the backs of the strip's triangles, the strip is turned round
/// ([`crate::facing::Orientation`]). A strip without normals keeps triangle 0's winding as the
/// front, RenderWare's convention.
pub fn face_out(vertices: &[super::Vertex], triangles: &mut [[u32; 3]]) {
    if vertices.iter().any(|v| v.normal.is_none()) {
        return;
    }
    let positions: Vec<glam::Vec3> = vertices.iter().map(|v| v.position).collect();
    let normals: Vec<glam::Vec3> = vertices.iter().filter_map(|v| v.normal).collect();
    let side = crate::facing::Orientation::count(
        &positions,
        &normals,
        triangles.iter().map(|t| t.map(|i| i as usize)),
    );
    if side.points_back() {
        for t in triangles {
            t.swap(1, 2);
        }
    }
}

/// A vertex's stored attributes, compared to find stitching degenerates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct VertexKey {
    /// Raw s16 position.
    pub position: [i16; 3],
    /// Raw u8 UV.
    pub uv: [u8; 2],
    /// Raw pre-light word (0 without pre-light).
    pub prelight: u16,
    /// Raw s8 normal (zero without normals).
    pub normal: [i8; 3],
    /// Raw skin words (zero without a skin).
    pub weights: [u32; 4],
}

/// The triangles of one strip whose vertices have the stored attributes `keys`.
pub fn triangles(keys: &[VertexKey]) -> Vec<[u32; 3]> {
    let mut out = Vec::with_capacity(keys.len().saturating_sub(2));
    for i in 0..keys.len().saturating_sub(2) {
        let [a, b, c] = [i, i + 1, i + 2];
        if keys[a] == keys[b] || keys[b] == keys[c] || keys[a] == keys[c] {
            continue;
        }
        let t = if i % 2 == 1 { [b, a, c] } else { [a, b, c] };
        out.push(t.map(|v| v as u32));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(x: i16) -> VertexKey {
        VertexKey {
            position: [x, 0, 0],
            ..VertexKey::default()
        }
    }

    #[test]
    fn odd_triangles_swap_their_first_two_corners() {
        let keys: Vec<_> = (0..5).map(key).collect();
        assert_eq!(triangles(&keys), vec![[0, 1, 2], [2, 1, 3], [2, 3, 4]]);
    }

    #[test]
    fn stitching_degenerates_are_dropped() {
        // 0 1 2 2 3 4: the repeated 2 makes triangles 1 and 2 degenerate.
        let keys: Vec<_> = [0, 1, 2, 2, 3, 4].into_iter().map(key).collect();
        assert_eq!(triangles(&keys), vec![[0, 1, 2], [4, 3, 5]]);
        assert!(triangles(&keys[..2]).is_empty());
        assert!(triangles(&[]).is_empty());
    }
}
