// The C++ side of edgematch's HiGHS bridge (see include/highs_bridge.h).
//
// The wheel ships libhighs.so.1 without headers, so the few C API functions
// used are declared here, as HiGHS 1.12 exports them (HighsInt is a 32-bit
// int in this build; the Rust side checks Highs_getSizeofHighsInt).
#include "include/highs_bridge.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "edgematch/src/mip/bridge.rs.h"

extern "C" {
typedef void (*HighsCallback)(int, const char*, const void*, void*, void*);
void* Highs_create(void);
void Highs_destroy(void* highs);
int Highs_getSizeofHighsInt(const void* highs);
int Highs_passMip(void* highs, int num_col, int num_row, int num_nz, int a_format, int sense,
                  double offset, const double* col_cost, const double* col_lower,
                  const double* col_upper, const double* row_lower, const double* row_upper,
                  const int* a_start, const int* a_index, const double* a_value,
                  const int* integrality);
int Highs_setDoubleOptionValue(void* highs, const char* option, double value);
int Highs_setBoolOptionValue(void* highs, const char* option, int value);
int Highs_setIntOptionValue(void* highs, const char* option, int value);
int Highs_setStringOptionValue(void* highs, const char* option, const char* value);
int Highs_setCallback(void* highs, HighsCallback callback, void* user_data);
const void* Highs_getCallbackDataOutItem(const void* data_out, const char* item_name);
int Highs_setSolution(void* highs, const double* col_value, const double* row_value,
                      const double* col_dual, const double* row_dual);
int Highs_addRow(void* highs, double lower, double upper, int num_new_nz, const int* index,
                 const double* value);
int Highs_startCallback(void* highs, int callback_type);
int Highs_run(void* highs);
int Highs_getModelStatus(const void* highs);
int Highs_getSolution(const void* highs, double* col_value, double* col_dual, double* row_value,
                      double* row_dual);
int Highs_getIntInfoValue(const void* highs, const char* info, int* value);
int Highs_getDoubleInfoValue(const void* highs, const char* info, double* value);
int Highs_readModel(void* highs, const char* filename);
int Highs_getNumCol(const void* highs);
int Highs_getNumRow(const void* highs);
int Highs_getColName(const void* highs, int col, char* name);
}

namespace edgematch {
namespace {

constexpr int kStatusError = -1;
constexpr int kMatrixColwise = 1;
constexpr int kSenseMaximize = -1;
// Interrupt callbacks of HiGHS 1.12: simplex, IPM, MIP.
constexpr int kInterruptCallbacks[] = {1, 2, 6};
// kHighsCallbackMipImprovingSolution in HiGHS 1.12.
constexpr int kImprovingSolution = 4;

// What the callback needs: the stop flag, where incumbents go, the column count.
struct CallbackData {
  const MipEnv* env;
  const Incumbents* incumbents;
  std::size_t num_col;
};

// Reads a double* item of the callback's output by name (HiGHS' own accessor,
// so the bridge does not depend on the struct's layout); null when absent.
const double* item(const void* data_out, const char* name) {
  return data_out == nullptr ? nullptr
                             : static_cast<const double*>(Highs_getCallbackDataOutItem(data_out, name));
}

// Called by HiGHS at its interrupt checks (`data_in` starts with `int
// user_interrupt`) and with each improving MIP incumbent.
void callback(int type, const char*, const void* data_out, void* data_in, void* user_data) {
  const auto* data = static_cast<const CallbackData*>(user_data);
  if (type == kImprovingSolution) {
    const double* values = item(data_out, "mip_solution");
    const double* objective = item(data_out, "objective_function_value");
    if (values != nullptr && objective != nullptr) {
      data->incumbents->offer(*objective, rust::Slice<const double>(values, data->num_col));
    }
    return;
  }
  if (data_in != nullptr && data->env->stopped.load()) *static_cast<int*>(data_in) = 1;
}

// Owns one Highs instance.
class Highs {
 public:
  Highs() : h_(Highs_create()) {
    if (h_ == nullptr) throw std::runtime_error("Highs_create returned null");
  }
  ~Highs() { Highs_destroy(h_); }
  Highs(const Highs&) = delete;
  Highs& operator=(const Highs&) = delete;
  void* get() const { return h_; }

 private:
  void* h_;
};

void check(int status, const char* what) {
  if (status == kStatusError) throw std::runtime_error(std::string("HiGHS: ") + what + " failed");
}

}  // namespace

std::unique_ptr<MipEnv> new_mip_env() { return std::make_unique<MipEnv>(); }

void stop_mip(const MipEnv& env) { const_cast<MipEnv&>(env).stopped.store(true); }

MipResult solve_mip(const MipEnv& env, const MipProblem& p, const Incumbents& incumbents) {
  Highs highs;
  if (Highs_getSizeofHighsInt(highs.get()) != static_cast<int>(sizeof(int))) {
    throw std::runtime_error("this libhighs uses 64-bit HighsInt; the bridge expects 32-bit");
  }
  const int num_col = static_cast<int>(p.col_cost.size());
  const int num_row = static_cast<int>(p.row_lower.size());
  const int num_nz = static_cast<int>(p.a_index.size());
  if (p.col_lower.size() != p.col_cost.size() || p.col_upper.size() != p.col_cost.size() ||
      p.integrality.size() != p.col_cost.size() || p.row_upper.size() != p.row_lower.size() ||
      p.a_start.size() != p.col_cost.size() + 1 || p.a_value.size() != p.a_index.size() ||
      (!p.start.empty() && p.start.size() != p.col_cost.size())) {
    throw std::invalid_argument("inconsistent MIP arrays");
  }
  check(Highs_setBoolOptionValue(highs.get(), "output_flag", p.log ? 1 : 0), "output_flag");
  if (p.time_limit > 0) {
    check(Highs_setDoubleOptionValue(highs.get(), "time_limit", p.time_limit), "time_limit");
  }
  check(Highs_setIntOptionValue(highs.get(), "random_seed", p.seed), "random_seed");
  // No presolve: on the placement MIP it removes about 2% of the columns, and
  // on a 16x16 board it ran 12 s without looking at the time limit or the
  // interrupt callbacks (measured with HiGHS 1.12, results/time-limits.md).
  check(Highs_setStringOptionValue(highs.get(), "presolve", "off"), "presolve");
  check(Highs_passMip(highs.get(), num_col, num_row, num_nz, kMatrixColwise, kSenseMaximize, 0.0,
                      p.col_cost.data(), p.col_lower.data(), p.col_upper.data(),
                      p.row_lower.data(), p.row_upper.data(), p.a_start.data(), p.a_index.data(),
                      p.a_value.data(), p.integrality.data()),
        "passMip");
  if (p.objective_floor > -std::numeric_limits<double>::infinity()) {
    // One row: the objective's columns, weighted as in the objective, at least the floor.
    std::vector<int> index;
    std::vector<double> value;
    for (int col = 0; col < num_col; ++col) {
      if (p.col_cost[col] != 0.0) {
        index.push_back(col);
        value.push_back(p.col_cost[col]);
      }
    }
    check(Highs_addRow(highs.get(), p.objective_floor, std::numeric_limits<double>::infinity(),
                       static_cast<int>(index.size()), index.data(), value.data()),
          "addRow (the objective floor)");
  }
  if (!p.start.empty()) {
    check(Highs_setSolution(highs.get(), p.start.data(), nullptr, nullptr, nullptr), "setSolution (the start)");
  }
  CallbackData data{&env, &incumbents, static_cast<std::size_t>(num_col)};
  check(Highs_setCallback(highs.get(), callback, &data), "setCallback");
  for (int type : kInterruptCallbacks) check(Highs_startCallback(highs.get(), type), "startCallback");
  check(Highs_startCallback(highs.get(), kImprovingSolution), "startCallback (improving solutions)");

  check(Highs_run(highs.get()), "run");

  MipResult result;
  result.model_status = Highs_getModelStatus(highs.get());
  int primal_status = 0;
  Highs_getIntInfoValue(highs.get(), "primal_solution_status", &primal_status);
  result.has_solution = primal_status == 2;  // kHighsSolutionStatusFeasible
  Highs_getDoubleInfoValue(highs.get(), "objective_function_value", &result.objective);
  Highs_getDoubleInfoValue(highs.get(), "mip_dual_bound", &result.dual_bound);
  if (result.has_solution) {
    std::vector<double> col_value(num_col), col_dual(num_col), row_value(num_row), row_dual(num_row);
    check(Highs_getSolution(highs.get(), col_value.data(), col_dual.data(), row_value.data(),
                            row_dual.data()),
          "getSolution");
    result.col_value.reserve(col_value.size());
    for (double v : col_value) result.col_value.push_back(v);
  }
  return result;
}

LpFileResult solve_model_file(rust::Str path, double time_limit) {
  Highs highs;
  if (Highs_getSizeofHighsInt(highs.get()) != static_cast<int>(sizeof(int))) {
    throw std::runtime_error("this libhighs uses 64-bit HighsInt; the bridge expects 32-bit");
  }
  const std::string file(path);
  check(Highs_setBoolOptionValue(highs.get(), "output_flag", 0), "output_flag");
  if (time_limit > 0) check(Highs_setDoubleOptionValue(highs.get(), "time_limit", time_limit), "time_limit");
  check(Highs_readModel(highs.get(), file.c_str()), ("reading " + file).c_str());
  check(Highs_run(highs.get()), "run");
  LpFileResult result;
  result.model_status = Highs_getModelStatus(highs.get());
  int primal_status = 0;
  Highs_getIntInfoValue(highs.get(), "primal_solution_status", &primal_status);
  result.has_solution = primal_status == 2;  // kHighsSolutionStatusFeasible
  const int num_col = Highs_getNumCol(highs.get());
  const int num_row = Highs_getNumRow(highs.get());
  if (result.has_solution && num_col > 0) {
    std::vector<double> col_value(num_col), col_dual(num_col), row_value(num_row), row_dual(num_row);
    check(Highs_getSolution(highs.get(), col_value.data(), col_dual.data(), row_value.data(),
                            row_dual.data()),
          "getSolution");
    // kHighsMaximumStringLength is 512 in HiGHS 1.12.
    std::vector<char> name(513, '\0');
    for (int col = 0; col < num_col; ++col) {
      check(Highs_getColName(highs.get(), col, name.data()), "getColName");
      result.names.push_back(rust::String(name.data()));
      result.values.push_back(col_value[col]);
    }
  }
  return result;
}

}  // namespace edgematch
