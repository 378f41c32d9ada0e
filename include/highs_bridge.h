// The C++ side of edgematch's HiGHS bridge: one MIP solve through HiGHS' C
// API, stoppable from another thread through HiGHS' interrupt callbacks.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "rust/cxx.h"

namespace edgematch {

struct MipProblem;
struct MipResult;
struct Incumbents;

// A stop flag that the running solve's interrupt callbacks read.
class MipEnv {
 public:
  std::atomic<bool> stopped{false};
};

std::unique_ptr<MipEnv> new_mip_env();

// Solves a MIP given column-wise, from its start when it has one, handing
// each improving incumbent to `incumbents`; throws (an Err on the Rust side)
// when HiGHS rejects the model.
MipResult solve_mip(const MipEnv& env, const MipProblem& problem, const Incumbents& incumbents);

// Asks the solve on `env` to stop at its next interrupt check.
void stop_mip(const MipEnv& env);

struct LpFileResult;

// Reads a model file (HiGHS picks the reader by extension: .lp, .mps) and
// solves it; throws when HiGHS cannot read it.
LpFileResult solve_model_file(rust::Str path, double time_limit);

}  // namespace edgematch
