//! glibc's allocator tuned for the solvers' threads: freed memory is kept for reuse, not trimmed and faulted in again.
//!
//! CaDiCaL allocates and frees millions of small blocks while it loads a seam
//! encoding (850,000 clauses on a 14×14 board), and the native search and its
//! estimator allocate per run. With glibc's defaults (128 KiB), a solver on a
//! thread of its own (a portfolio arm, or any solve from Python) has its arena
//! trimmed and regrown over and over, and every regrown page faults in again.
//! Measured on em_14_7_3 under `--solver auto`: 0.35 s with the defaults
//! against 0.26 s with these settings; from Python, the README's 12×12 board
//! took 1.17× the command line's time with the defaults and 1.02× with them
//! (`results/python/`).

/// Tells glibc's allocator to grow its heaps in 64 MiB steps and to hand freed
/// memory back to the kernel only above 1 GiB of free heap top. Blocks of
/// 128 KiB and more are still mapped on their own and returned when freed.
/// Does nothing on other C libraries.
pub fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` only sets allocator tunables, under the main arena's lock.
    unsafe {
        libc::mallopt(libc::M_TOP_PAD, 64 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
    }
}
