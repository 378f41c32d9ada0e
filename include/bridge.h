// The C++ side of edgematch's CP-SAT bridge: a solve environment around
// OR-Tools' C API, and a bytes-in, bytes-out solve that another thread can stop.
#pragma once

#include <cstdint>
#include <memory>

#include "rust/cxx.h"

namespace edgematch {

// Owns one OR-Tools solve environment (SolveCpNewEnv ... SolveCpDestroyEnv).
// `stop` may be called from any thread, before, during or after `solve`; once
// stopped, the environment stays stopped.
class SolveEnv {
 public:
  SolveEnv();
  ~SolveEnv();
  SolveEnv(const SolveEnv&) = delete;
  SolveEnv& operator=(const SolveEnv&) = delete;

  void* raw() const { return env_; }

 private:
  void* env_;
};

std::unique_ptr<SolveEnv> new_solve_env();

// Solves a serialized CpModelProto with serialized SatParameters and returns
// the serialized CpSolverResponse. Throws (an Err on the Rust side) when a
// length does not fit an `int` or the library returns no buffer.
rust::Vec<std::uint8_t> solve(const SolveEnv& env,
                              rust::Slice<const std::uint8_t> model,
                              rust::Slice<const std::uint8_t> parameters);

// Asks the solve running on `env` to stop as soon as possible.
void stop(const SolveEnv& env);

}  // namespace edgematch
