//! What every normal table shares: finding the entry nearest a direction. The tables themselves
//! live with their formats: the 162 MDL normals in `modex-mdl`, the four Westwood VXL tables in
//! `modex-vxl`.

/// Index of the entry of `table` nearest in direction to `n` (largest dot product; the lowest index
/// wins ties). Tools that write MDL or VXL files bake normals with it.
pub fn nearest_index(table: &[[f32; 3]], n: [f32; 3]) -> usize {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, t) in table.iter().enumerate() {
        let d = t[0] * n[0] + t[1] * n[1] + t[2] * n[2];
        if d > best.1 {
            best = (i, d);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_index_picks_the_largest_dot_product_and_the_lowest_index_on_ties() {
        let table = [
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        assert_eq!(nearest_index(&table, [0.1, 0.9, 0.0]), 1);
        assert_eq!(nearest_index(&table, [0.0, 0.0, -1.0]), 0);
        assert_eq!(nearest_index(&table, [0.2, 0.0, 0.9]), 3);
        assert_eq!(nearest_index(&[], [0.0, 0.0, 1.0]), 0);
    }
}
