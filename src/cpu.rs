//! CPU time of a thread or of the process: the per-cube and total CPU seconds a cube run reports, the walks' and completions' CPU in a score run.

/// CPU seconds (user + system) used so far by the calling thread.
pub fn thread_seconds() -> f64 {
    clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

/// CPU seconds (user + system) used so far by the whole process, all threads.
pub fn process_seconds() -> f64 {
    clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

fn clock(id: libc::clockid_t) -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the clock ids are the POSIX CPU-time clocks.
    if unsafe { libc::clock_gettime(id, &mut ts) } != 0 {
        return 0.0;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_time_grows_with_work() {
        let (t0, p0) = (thread_seconds(), process_seconds());
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(i));
        }
        assert!(thread_seconds() > t0 && process_seconds() > p0 && x != 1);
    }
}
