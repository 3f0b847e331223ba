//! Rewrites `data/demo/` (terrain, voxel units, props) from the demo's generators.
//! `cargo run -p modex-demo --example make_demo_data`
fn main() -> anyhow::Result<()> {
    let dir = modex_demo::scene::assets::data_dir();
    modex_demo::scene::assets::write_all(&dir)?;
    println!("wrote the demo assets to {}", dir.display());
    Ok(())
}
