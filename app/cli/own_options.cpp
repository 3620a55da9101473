// --kernel FILE on `trace` and `render`: a kernel of your own, compiled by NVRTC and run on the
// GPU, or its PTX interpreted on the CPU, recorded as a trace like any other (own/own_trace.h).
#include "../../kernels/algorithms.h"
#include "../core/file_io.h"
#include "../core/input.h"
#include "../core/text.h"
#include "../own/own_check.h"
#include "../own/own_compare.h"
#include "../own/own_trace.h"
#include "commands.h"

namespace rl::cli {
namespace {

std::vector<double> own_input(const RunOptions& o, core::DType type, int block) {
  std::string why;
  const auto spec = core::parse_input_spec(o.input, &why);
  if (!spec) throw UsageError("--input: " + why);
  if (spec->kind == core::InputSpec::Kind::File) {
    auto values = core::read_input_file(spec->path, type, kMaxTraceSize);
    if (!o.size.empty() && values.size() != size_option("--size", o.size, 1))
      throw UsageError("--size " + o.size + " disagrees with the " + std::to_string(values.size()) + " numbers in " +
                       core::printable(spec->path));
    return values;
  }
  const std::size_t n = size_option("--size", o.size, std::size_t(block));
  if (n > kMaxTraceSize) throw UsageError("--size: traces take at most 2^27 elements, got " + o.size);
  return core::generate_input(*spec, n, type);
}

// auto: the GPU where one is usable, else the CPU path.
bool on_gpu(const std::string& backend) {
  if (backend != "auto") return backend == "cuda";
  return backend::select(backend::Choice::Auto).backend->name() == "cuda";
}

}  // namespace

core::Trace record_own(const RunOptions& o, std::ostream* said) {
  if (!o.rows.empty() || !o.cols.empty()) throw UsageError("--rows/--cols: a kernel of your own reduces an array");
  if (o.cluster) throw UsageError("--cluster: a kernel of your own launches no clusters");
  if (o.accumulate != "float") throw UsageError("--accumulate: a kernel of your own adds in its own value_t");
  if (o.block_given && (o.block < 1 || o.block > 1024))
    throw UsageError("--block: a block takes 1 to 1024 threads, got " + std::to_string(o.block));
  std::string source, why;
  if (!core::read_file(o.kernel, core::files::kKernel, &source, &why)) throw UsageError(why);
  const core::DType type = *core::parse_dtype(o.type);
  try {  // the file's faults (its launch lines, its code) end the run with 1, as a compile error does
    const own::OwnLaunch launch = own::parse_launch(source, o.kernel);  // FILE:LINE: what, before the input is made
    const int block = o.block_given ? o.block : 0;
    const std::vector<double> values = own_input(o, type, block ? block : launch.block);
    const own::OwnRequest r =
        own::own_request(std::move(source), o.kernel, type, values, block, unsigned(o.trace_block));
    const core::Op op = *core::parse_op(o.op);
    const std::uint64_t seed = o.no_check ? 0 : own::fresh_seed();  // 0: no checks after the run
    if (!on_gpu(o.backend) || o.no_compare) return own::trace_own(r, on_gpu(o.backend), op, seed);
    own::Compared both = own::trace_on_both(r, op, seed);
    if (said) *said << "reduction-lab: " << both.agreement.text << "\n";
    return std::move(both.trace);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());
  }
}

int report_findings(const core::Trace& t, std::ostream& err) {
  for (const auto& f : t.findings) err << "reduction-lab: " << f.kind << ": " << core::printable(f.text) << "\n";
  return t.findings.empty() ? 0 : 1;
}

}  // namespace rl::cli
