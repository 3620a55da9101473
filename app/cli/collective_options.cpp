// The family across GPUs on `trace` and `render`: an all-reduce of --gpus buffers of --size values
// each, traced from the CPU model (backend/collective.h).
#include <algorithm>

#include "../../kernels/collectives.h"
#include "../backend/collective.h"
#include "../core/input.h"
#include "../core/text.h"
#include "commands.h"

namespace rl::cli {
namespace {

// Every GPU's buffer: the input's values in turn, --size a GPU (a file: its numbers, split evenly).
std::vector<std::vector<double>> buffers(const RunOptions& o, core::DType type, int gpus) {
  std::string why;
  const auto spec = core::parse_input_spec(o.input, &why);
  if (!spec) throw UsageError("--input: " + why);
  const auto limit = backend::kMaxCollectiveTrace;
  std::vector<double> all;
  std::size_t n = 0;
  if (spec->kind == core::InputSpec::Kind::File) {
    all = core::read_input_file(spec->path, type, limit * std::size_t(gpus));
    n = all.size() / std::size_t(gpus);
    if (all.size() % std::size_t(gpus) != 0 || (!o.size.empty() && n != size_option("--size", o.size, 1)))
      throw UsageError("--input: the " + std::to_string(all.size()) + " numbers in " + core::printable(spec->path) +
                       " are not " + std::to_string(gpus) + " buffers of " + (o.size.empty() ? "one size" : o.size) +
                       " values (--gpus times --size numbers, GPU 0's first)");
  } else {
    n = size_option("--size", o.size, std::size_t(gpus) * kernels::kKeptChunkValues);
    if (n > limit) throw UsageError("--size: an all-reduce's trace takes at most 2^20 values a GPU, got " + o.size);
    all = core::generate_input(*spec, n * std::size_t(gpus), type);
  }
  return backend::split_buffers(all, gpus, "--input");
}

}  // namespace

// auto: the GPUs where there are at least as many as asked (every one present, up to 8, where
// none is asked), else the CPU model; cuda: the GPUs or an error saying why not.
core::Trace record_collective(const RunOptions& o) {
  if (!o.rows.empty() || !o.cols.empty())
    throw UsageError("--rows/--cols: an all-reduce adds --gpus buffers of --size values each");
  if (o.block_given || o.trace_block != 0 || o.cluster != 0)
    throw UsageError("--block/--trace-block/--cluster: " + o.algorithm +
                     " has no block of yours to launch or trace; it takes --gpus and --size");
  backend::CollectiveRequest req;
  req.algorithm = o.algorithm;
  req.op = *core::parse_op(o.op);
  req.type = *core::parse_dtype(o.type);
  const int present = o.backend == "sim" ? 0 : backend::gpus_present();
  const int every = std::min(present, model::all_reduce::kMaxGpus);
  const bool gpu = o.backend == "cuda" ||
                   (o.backend == "auto" && every >= model::all_reduce::kMinGpus && (o.gpus == 0 || o.gpus <= present));
  req.inputs = buffers(o, req.type, o.gpus > 0 ? o.gpus : gpu && every >= 2 ? every : kernels::kModelGpus);
  try {
    return gpu ? backend::trace_collective_gpu(req) : backend::trace_collective(req);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

}  // namespace rl::cli
