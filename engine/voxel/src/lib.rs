//! # modex-voxel — Westwood VXL/HVA/VPL voxels and the ray-marcher
//!
//! Decoders for VXL models, HVA motion and VPL lighting pages, the game's loading rules, and the
//! ray-marched renderer.
