//! Shared scene builders for the criterion benches in `benches/benches/`.
