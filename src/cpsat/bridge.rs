//! The cxx bridge to OR-Tools' CP-SAT C API: serialized model in, serialized response out.

#[allow(unreachable_pub)]
#[cxx::bridge(namespace = "edgematch")]
mod ffi {
    // Shared types: none; only bytes cross.

    // extern "Rust": nothing is called back from C++.

    unsafe extern "C++" {
        include!("edgematch/include/bridge.h");

        /// One OR-Tools solve environment; `stop` on it interrupts its solve.
        type SolveEnv;

        /// A fresh, not yet stopped environment.
        fn new_solve_env() -> Result<UniquePtr<SolveEnv>>;

        /// Solves a serialized `CpModelProto` under serialized `SatParameters`.
        fn solve(env: &SolveEnv, model: &[u8], parameters: &[u8]) -> Result<Vec<u8>>;

        /// Asks the solve on `env` to stop; callable from any thread.
        fn stop(env: &SolveEnv);
    }
}

// SAFETY: the environment is a heap object whose stop flag OR-Tools reads and
// writes atomically (SolveCpStopSearch is documented for use from another
// thread while SolveCpInterruptible runs); nothing else in it is touched from
// Rust.
unsafe impl Send for ffi::SolveEnv {}
// SAFETY: as above; `solve` and `stop` are the only operations and both are
// safe to call concurrently on one environment.
unsafe impl Sync for ffi::SolveEnv {}

use std::sync::Arc;

use crate::error::Error;

/// A solve environment shared between the solving thread and whoever may stop it.
#[derive(Clone)]
pub struct SolveEnv(Arc<cxx::UniquePtr<ffi::SolveEnv>>);

/// A handle that stops the solve of its [`SolveEnv`], from any thread.
#[derive(Clone)]
pub struct Stopper(Arc<cxx::UniquePtr<ffi::SolveEnv>>);

impl SolveEnv {
    /// Creates an environment.
    pub fn new() -> Result<Self, Error> {
        let env = ffi::new_solve_env().map_err(|e| Error::Bridge(e.what().to_owned()))?;
        Ok(Self(Arc::new(env)))
    }

    /// A handle to stop this environment's solve.
    pub fn stopper(&self) -> Stopper {
        Stopper(Arc::clone(&self.0))
    }

    /// Runs the solver on well-formed serialized messages.
    ///
    /// The bytes must come from `prost` encoding of the generated types: the C
    /// API aborts the process on bytes it cannot parse, so arbitrary input must
    /// never reach this function (hence it is crate-private).
    pub(crate) fn solve_bytes(&self, model: &[u8], parameters: &[u8]) -> Result<Vec<u8>, Error> {
        ffi::solve(&self.0, model, parameters).map_err(|e| Error::Bridge(e.what().to_owned()))
    }
}

impl Stopper {
    /// Asks the solve to stop as soon as possible; it then returns its best state.
    pub fn stop(&self) {
        ffi::stop(&self.0);
    }
}
