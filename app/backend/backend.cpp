#include "backend.h"

#include <algorithm>
#include <utility>
#include <map>
#include <mutex>
#include <stdexcept>

#include "../../kernels/algorithms.h"
#include "../../kernels/collectives.h"
#include "../core/facts.h"
#include "collective.h"
#include "runner.h"

namespace rl::backend {

kernels::Algo kernel_algo(const std::string& id) { return kernel_row(id).algo; }

const kernels::AlgorithmRow& kernel_row(const std::string& id) {
  const auto* row = kernels::find_row(id);
  if (row && !kernels::is_baseline(*row)) return *row;
  if (row) throw std::invalid_argument("'" + id + "' is a baseline: it is timed by `bench`, it has no stages to trace");
  throw std::invalid_argument("unknown algorithm '" + id + "'");
}

core::Trace Backend::race(const TraceRequest& request, int) {
  throw std::runtime_error(request.algorithm + ": the race needs a GPU run. The CPU model runs a block's threads one "
                           "after another in a fixed order, so no read can come before the write it waits for (" +
                           device() + ")");
}

namespace {
// The rows that take half and bfloat16 (their `narrow` column), named from the table.
std::string narrow_rows() {
  std::vector<std::string> ids;
  for (const auto& r : kernels::kAlgorithms)
    if (r.narrow) ids.emplace_back(r.id);
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + ids[i];
  return out;
}

std::string refusal(const kernels::AlgorithmRow& row, core::DType type, core::Op op, core::Accumulate accumulate) {
  const std::string id = "'" + std::string(row.id) + "'", t = core::to_string(type), o = core::to_string(op);
  if (core::is_narrow(type) && !row.narrow)
    return id + " takes no " + t + " yet: half and bf16 run on " + narrow_rows();
  if (core::is_narrow(type) && accumulate == core::Accumulate::Same && op != core::Op::Sum)
    return "--accumulate same changes sums only: the " + o + " of " + t +
           " values rounds nothing, so it is the same in any type (use --accumulate float)";
  if (row.ints_only && type != core::DType::Int)
    return id + " reduces int only, not " + t +
           ": the warp reduce instruction (__reduce_add_sync, redux.sync) takes 32-bit integers";
  if (row.compensated && type == core::DType::Int)
    return id + " adds floats and doubles only, not int: an int sum rounds nothing, so nothing is lost to compensate";
  if (row.compensated && op != core::Op::Sum)
    return id + " takes the sum only, not the " + o + ": a " + o + " rounds nothing, so nothing is lost to compensate";
  if (!kernels::takes(row, type == core::DType::Int, op))
    return id + " takes the " + o + " of int only, not of " + t + ": the bulk reduction (cp.reduce.async.bulk) adds " +
           t + "s but has no " + t + " " + o;
  return "";
}
}  // namespace

std::string type_refusal(const std::string& algorithm, core::DType type, core::Op op, core::Accumulate accumulate) {
  const kernels::AlgorithmRow* row = kernels::find_row(algorithm);
  return row ? refusal(*row, type, op, accumulate) : "";
}

Settled settle(const std::string& algorithm, core::DType type, core::Op op, core::Accumulate accumulate) {
  Settled out{type, op, {}, {}};
  if (kernels::find_collective(algorithm)) {
    if (const std::string why = collective_op_refusal(algorithm, op); !why.empty())
      out.op = core::Op::Sum, out.op_note = why + "; the operator is sum";
    return out;
  }
  const kernels::AlgorithmRow* row = kernels::find_row(algorithm);
  if (!row) return out;
  if (row->ints_only && type != core::DType::Int) {
    out.type = core::DType::Int;
    out.type_note = refusal(*row, type, core::Op::Sum, accumulate) + "; the type is int";
  } else if (const std::string why = refusal(*row, type, core::Op::Sum, accumulate); !why.empty()) {
    out.type = core::DType::Float;  // every row takes float sums
    out.type_note = why + "; the type is float";
  }
  if (const std::string why = refusal(*row, out.type, op, accumulate); !why.empty()) {
    out.op = core::Op::Sum;
    out.op_note = why + "; the operator is sum";
  }
  return out;
}

void check_type(const kernels::AlgorithmRow& row, core::DType type, core::Op op, core::Accumulate accumulate) {
  if (const std::string why = refusal(row, type, op, accumulate); !why.empty()) throw std::invalid_argument(why);
}

kernels::Algo kernel_algo(const TraceRequest& req) {
  const kernels::AlgorithmRow& row = kernel_row(req.algorithm);
  check_type(row, req.type, req.op, req.accumulate);
  return row.algo;
}

kernels::Matrix problem_of(const TraceRequest& req, kernels::Algo algo) {
  if (!kernels::is_matrix(algo)) {
    if (req.rows || req.cols)
      throw std::invalid_argument(req.algorithm + " reduces an array: it takes a size, not rows and columns");
    return {1, req.input.size()};
  }
  if (req.rows == 0 || req.cols == 0 || req.cols > req.input.size() / req.rows ||
      req.rows * req.cols != req.input.size())
    throw std::invalid_argument(req.algorithm + " needs a matrix: --rows and --cols, at least 1 each");
  return {req.rows, req.cols};
}

kernels::Plan plan_for(const TraceRequest& req, kernels::DeviceShape device) {
  const kernels::Algo algo = kernel_algo(req);
  const kernels::Launch asked{req.block, req.grid, req.trace_block, req.tickets.empty() ? nullptr : &req.tickets,
                              req.cluster};
  return kernels::make_plan(algo, problem_of(req, algo), asked, device, core::element_bytes(req.type), true);
}

kernels::Plan plan_as_ran(const kernels::Plan& plan, std::size_t grid) {
  if (grid == 0 || grid == plan.grid.count()) return plan;
  kernels::Plan ran = kernels::recorded_plan(plan.algo(), plan.shape, plan.block, grid, plan.trace_block,
                                             plan.elem_bytes, plan.cluster);
  ran.tickets = plan.tickets;
  return ran;
}

core::Window matrix_window(const TraceRequest& req, const std::vector<std::size_t>& elements) {
  core::Window w;
  w.rows = std::min<std::size_t>(req.rows, 16);
  w.cols = std::min<std::size_t>(req.cols, 32);
  if (!elements.empty()) {  // the block's first element, as near the top left as the matrix allows
    const std::size_t first = *std::min_element(elements.begin(), elements.end());
    w.row = std::min(first / req.cols, req.rows - w.rows);
    w.col = std::min(first % req.cols, req.cols - w.cols);
  }
  std::vector<std::size_t> sorted = elements;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t r = w.row; r < w.row + w.rows; ++r)
    for (std::size_t c = w.col; c < w.col + w.cols; ++c) {
      const std::size_t i = r * req.cols + c;
      w.values.push_back(req.input[i]);
      w.owned.push_back(std::binary_search(sorted.begin(), sorted.end(), i) ? 1 : 0);
    }
  return w;
}

Selection select(Choice choice) {
  Selection sel;
  if (choice == Choice::Sim) {
    sel.backend = make_sim_backend();
    return sel;
  }
  std::string why;
  sel.backend = make_cuda_backend(&why);
  if (sel.backend) return sel;
  if (choice == Choice::Cuda) throw std::runtime_error("the cuda backend cannot run: " + why);
  sel.backend = make_sim_backend();
  sel.fallback_reason = why;
  return sel;
}

std::string status_line(const Selection& sel) {
  if (!sel.backend) return "no backend";
  if (sel.backend->name() == "cuda") return "GPU: " + sel.backend->device();
  return "CPU model: " + (sel.fallback_reason.empty() ? std::string("chosen by the user")
                                                       : sel.fallback_reason);
}

// The CPU model's run of one block of `block` threads over 1..block (a matrix: 8 rows).
static const core::Trace* model_run(const core::AlgorithmInfo& info, int block) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, int>, std::optional<core::Trace>> runs;
  std::lock_guard lock(mutex);
  auto it = runs.find({info.id, block});
  if (it == runs.end()) {
    const std::size_t rows = info.matrix ? 8 : 0, n = std::size_t(block) * std::max<std::size_t>(rows, 1);
    std::vector<double> iota(n);
    for (std::size_t i = 0; i < n; ++i) iota[i] = double(i + 1);
    TraceRequest req{info.id, core::Op::Sum, core::DType::Int, block, 0, iota};
    req.rows = rows, req.cols = info.matrix ? std::size_t(block) : 0;
    std::optional<core::Trace> run;
    for (const core::DType type : {core::DType::Int, core::DType::Float}) {  // compensated adds floats alone
      try {
        req.type = type;
        run = make_sim_backend()->trace(req);
        break;
      } catch (const std::exception&) {
        // a block or type this kernel cannot take: the Look does not show there
      }
    }
    it = runs.emplace(std::pair{info.id, block}, std::move(run)).first;
  }
  return it->second ? &*it->second : nullptr;
}

core::AlgorithmInfo with_numbers(core::AlgorithmInfo info) {
  const auto needs = [](const std::string& text) { return text.find('{') != std::string::npos; };
  const bool look = info.look && needs(info.look->text);
  if (info.kind == core::Kind::Baseline || !(needs(info.lesson) || needs(info.brief) || needs(info.detail) || look))
    return info;
  // One model run per algorithm (model_run keeps it): the window asks every frame until its own trace is on screen.
  const core::Trace* run = model_run(info, 256);
  if (!run)
    throw std::runtime_error("the CPU model cannot run " + info.id + " at 256 threads for its lesson's numbers");
  return core::fill_lessons(std::move(info), *run);
}

// Whether the pointed stage's accesses conflict at all (the banks view's point).
static std::optional<bool> conflicts_at(const core::Trace& trace, const core::Pointer& look) {
  const int stage = core::pointed_stage(trace, look);
  if (stage < 0) return std::nullopt;
  return trace.stages[std::size_t(stage)].bank_conflicts.value_or(1) > 1;
}

std::optional<int> look_block(const core::AlgorithmInfo& info, int block) {
  if (!info.look) return std::nullopt;
  return look_block(info, *info.look, block);
}

std::optional<int> look_block(const core::AlgorithmInfo& info, const core::Pointer& look, int block) {
  if (info.kind == core::Kind::Baseline) return std::nullopt;
  std::optional<bool> wanted;
  if (look.view == "banks")
    if (const auto* reference = model_run(info, 256)) wanted = conflicts_at(*reference, look);
  for (int b = 32; b <= 1024; b *= 2) {
    if (b < block) continue;
    const auto* run = model_run(info, b);
    if (!run || core::pointed_stage(*run, look) < 0) continue;
    if (wanted && conflicts_at(*run, look) != wanted) continue;
    return b;
  }
  return std::nullopt;
}

}  // namespace rl::backend
