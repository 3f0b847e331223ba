//! The criterion benchmarks of modex live in `benches/benches/`; the scenes and files they share
//! with the tests are built by `modex_testkit::models`.
