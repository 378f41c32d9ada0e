// The C++ side of edgematch's CP-SAT bridge (see include/bridge.h).
//
// OR-Tools ships no header for its C API, so the prototypes are declared here,
// exactly as the library exports them: lengths are `int`, and the response
// buffer is allocated with malloc, to be released with free.
#include "include/bridge.h"

#include <climits>
#include <cstdlib>
#include <stdexcept>

extern "C" {
void* SolveCpNewEnv();
void SolveCpDestroyEnv(void* env);
void SolveCpStopSearch(void* env);
void SolveCpInterruptible(void* env, const void* model, int model_len,
                          const void* params, int params_len, void** response,
                          int* response_len);
}

namespace edgematch {

SolveEnv::SolveEnv() : env_(SolveCpNewEnv()) {
  if (env_ == nullptr) throw std::runtime_error("SolveCpNewEnv returned null");
}

SolveEnv::~SolveEnv() { SolveCpDestroyEnv(env_); }

std::unique_ptr<SolveEnv> new_solve_env() {
  return std::make_unique<SolveEnv>();
}

rust::Vec<std::uint8_t> solve(const SolveEnv& env,
                              rust::Slice<const std::uint8_t> model,
                              rust::Slice<const std::uint8_t> parameters) {
  if (model.size() > static_cast<std::size_t>(INT_MAX) ||
      parameters.size() > static_cast<std::size_t>(INT_MAX)) {
    throw std::length_error("model or parameters exceed 2 GiB, the C API's int length");
  }
  void* buffer = nullptr;
  int length = 0;
  SolveCpInterruptible(env.raw(), model.data(), static_cast<int>(model.size()),
                       parameters.data(), static_cast<int>(parameters.size()),
                       &buffer, &length);
  if (buffer == nullptr && length != 0) {
    throw std::runtime_error("SolveCpInterruptible returned no response buffer");
  }
  rust::Vec<std::uint8_t> response;
  response.reserve(static_cast<std::size_t>(length < 0 ? 0 : length));
  const auto* bytes = static_cast<const std::uint8_t*>(buffer);
  for (int i = 0; i < length; ++i) response.push_back(bytes[i]);
  std::free(buffer);
  return response;
}

void stop(const SolveEnv& env) { SolveCpStopSearch(env.raw()); }

}  // namespace edgematch
