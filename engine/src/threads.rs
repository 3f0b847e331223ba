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
    // Already on a pool of that size (a frontend that draws many frames inside one pool): run
    // there, rather than start and join new threads for every call.
    if rayon::current_thread_index().is_some() && rayon::current_num_threads() == threads {
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

    #[test]
    fn a_call_on_a_pool_of_the_same_size_stays_on_it() {
        let outer = with_threads(2, || {
            let pool_thread = std::thread::current().id();
            let same = with_threads(2, || std::thread::current().id()).unwrap();
            let other = with_threads(1, rayon::current_num_threads).unwrap();
            (pool_thread == same, other)
        })
        .unwrap();
        assert_eq!(outer, (true, 1));
    }
}
