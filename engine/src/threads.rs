//! One way to choose how many threads a draw uses.
//!
//! Both renderers split the screen into bands on the current rayon pool; [`with_threads`] runs a
//! closure on a pool of a chosen size so callers (the command line's `--threads`, benches, the
//! tests that compare 1 and N threads) set it without depending on rayon themselves.

/// Whether this build can start threads: not on WebAssembly without shared memory.
const THREADS_AVAILABLE: bool = !cfg!(all(target_family = "wasm", not(target_feature = "atomics")));

/// The thread pool could not be started.
#[derive(Debug, thiserror::Error)]
#[error("cannot start a pool of {threads} threads")]
pub struct ThreadPoolError {
    /// The number of threads asked for (0 = one per core).
    pub threads: usize,
    /// What rayon said.
    #[source]
    pub source: rayon::ThreadPoolBuildError,
}

/// Run `f` on a rayon pool of `threads` threads (0 = one per core), so every draw inside it uses
/// that many.
///
/// Where threads are unavailable (WebAssembly without the atomics feature: the web frontend),
/// rayon already runs every `join` and `par_iter` on the calling thread but cannot build a pool,
/// so `f` runs there directly, whatever `threads` says: one thread draws the same pixels as N.
pub fn with_threads<R: Send>(
    threads: usize,
    f: impl FnOnce() -> R + Send,
) -> Result<R, ThreadPoolError> {
    if !THREADS_AVAILABLE {
        return Ok(f());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|source| ThreadPoolError { threads, source })?;
    Ok(pool.install(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_on_a_pool_of_the_asked_size() {
        assert_eq!(with_threads(3, rayon::current_num_threads).unwrap(), 3);
        assert_eq!(with_threads(1, rayon::current_num_threads).unwrap(), 1);
    }
}
