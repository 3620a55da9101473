// The conformance test (issue 50, item 9): the catalog's own kernels, compiled by NVRTC from their
// source files with the trace probe, run by the PTX interpreter of the CPU path, against the traces
// GPUs recorded (tests/data/golden). The interpreter becomes a third oracle beside the CPU model
// and the GPU; the kernels outside its set are named with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "app/backend/runner.h"
#include "app/own/nvrtc.h"
#include "app/own/ptx_machine.h"
#include "app/own/ptx_module.h"
#include "golden.h"
#include "kernels/model/model.h"
#include "kernels/matrix_shapes.h"
#include "kernels/op_dispatch.h"
#include "own_support.h"
#include "trace_compare.h"

using namespace rl;

namespace {

std::string text_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The CUDA headers NVRTC needs beside the kernels' own (cooperative groups, half, libcu++).
// The kernels' folders, then REDLAB_CUDA_INCLUDE, CMake's list of the toolkit's include folders
// (';' between them); the kernels' host code (the catalog's constexpr rows) as device code.
std::vector<std::string> catalog_options() {
  std::vector<std::string> o = {"-default-device", "-I" + std::string(REDLAB_SOURCE_DIR) + "/kernels/nvrtc",
                                "-I" + std::string(REDLAB_SOURCE_DIR) + "/kernels"};
  std::stringstream list(REDLAB_CUDA_INCLUDE);
  for (std::string dir; std::getline(list, dir, ';');) {
    if (std::filesystem::exists(dir + "/cccl")) o.push_back("-I" + dir + "/cccl");
    o.push_back("-I" + dir);
  }
  return o;
}

// A kernel's name expression: its function (the row's id, '-' as '_'), the block first where the
// kernel takes it as a template parameter (its source says so after the row's "<<<" marker).
// Half and bfloat16 add the elements' type last where it differs from the accumulator's.
std::string name_expression(const kernels::AlgorithmRow& row, int block, const std::string& type, const std::string& op,
                            const std::string& probe, const std::string& in) {
  std::string fn(row.id);
  for (char& c : fn) c = c == '-' ? '_' : c;
  const std::string source = text_of(std::string(REDLAB_SOURCE_DIR) + "/" + std::string(row.source));
  const std::size_t marker = source.find("// <<< " + std::string(row.id) + "\n");
  const std::size_t tmpl = source.find("template <", marker);
  const bool sized = source.compare(tmpl, 14, "template <int ") == 0;
  // bulk-async-streaming: its row's tile bytes and stages, as its launch passes them.
  const std::string tiles =
      row.tile_bytes ? ", " + std::to_string(row.tile_bytes) + ", " + std::to_string(row.stages) : "";
  return "rl::kernels::" + fn + "<" + (sized ? std::to_string(block) + ", " : "") + type + ", rl::ops::" + op + ", " +
         probe + tiles + (in == type ? "" : ", " + in) + ">";
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, narrow::Half>) return "rl::narrow::Half";
  if constexpr (std::is_same_v<T, narrow::Bf16>) return "rl::narrow::Bf16";
  return std::is_same_v<T, int> ? "int" : std::is_same_v<T, float> ? "float" : "double";
}
std::string op_name(core::Op op) { return op == core::Op::Sum ? "Sum" : op == core::Op::Min ? "Min" : "Max"; }

// TraceProbe<T> as the kernel receives it by value (kernels/probe.cuh): the interpreter checks
// its size against the PTX's parameter, the traces check the order of its fields.
struct ProbeArgs {
  std::int32_t traced_block, slots, shared_size;
  std::uint64_t tags, params, shared_count, has_lanes, shared, lanes, active, access, sources;
  std::int32_t load_slots;
  std::uint64_t loads, partials, partial_cap, tickets, ticket_cap;
};

// Device buffers of a TraceProbe in the interpreter's memory, filled as TraceBuffers fills them.
template <class T>
struct InterpretedTrace {
  own::ptx::Machine& m;
  kernels::TraceShape shape;
  int block;
  std::size_t partial_count;
  ProbeArgs args{};

  std::uint64_t buffer(std::size_t bytes, int fill, const char* name) {
    const std::uint64_t at = m.alloc(std::max<std::size_t>(bytes, 1), name);
    std::memset(m.host(at, std::max<std::size_t>(bytes, 1)), fill, std::max<std::size_t>(bytes, 1));
    return at;
  }
  InterpretedTrace(own::ptx::Machine& machine, kernels::TraceShape s, int b, std::size_t partials, int traced)
      : m(machine), shape(s), block(b), partial_count(partials) {
    const std::size_t st = std::size_t(s.stages), cells = st * std::size_t(b);
    const std::size_t slots = std::size_t(std::max(s.slots, 1));
    args.traced_block = traced, args.slots = int(slots), args.shared_size = s.shared_size;
    args.tags = buffer(st * 4, 0xff, "tags"), args.params = buffer(st * 4, 0, "params");
    args.shared_count = buffer(st * 4, 0, "shared_count"), args.has_lanes = buffer(st, 0, "has_lanes");
    args.shared = buffer(st * std::size_t(s.shared_size) * sizeof(T), 0, "shared");
    args.lanes = buffer(cells * sizeof(T), 0, "lanes"), args.active = buffer(cells, 0, "active");
    args.access = buffer(cells * slots * 4, 0xff, "access"), args.sources = 0;
    args.load_slots = s.load_slots;
    args.loads = buffer(cells * std::size_t(s.load_slots) * 8, 0xff, "loads");
    args.partials = buffer(partials * sizeof(T), 0, "partials"), args.partial_cap = partials;
    args.tickets = 0, args.ticket_cap = 0;
  }
  template <class U>
  void read(std::uint64_t at, std::vector<U>& out) {
    if (!out.empty()) std::memcpy(out.data(), m.host(at, out.size() * sizeof(U)), out.size() * sizeof(U));
  }
  void copy_to(kernels::RawTrace<T>& raw) {
    raw.reset(shape, block);
    read(args.tags, raw.tags), read(args.params, raw.params), read(args.shared_count, raw.shared_count);
    read(args.has_lanes, raw.has_lanes), read(args.shared, raw.shared), read(args.lanes, raw.lanes);
    read(args.active, raw.active), read(args.loads, raw.loads);
    if (shape.slots > 0) read(args.access, raw.access);
    raw.partials.resize(partial_count);
    read(args.partials, raw.partials);
  }
};

// Rows whose kernels use what the interpreter does not model: clusters' distributed shared memory
// (mapa, ld.shared::cluster) and bulk reductions (cp.reduce.async.bulk). Bulk copies into a
// block's shared memory and their mbarriers it models (flat-rows).
bool outside_interpreter(const kernels::AlgorithmRow& row) {
  return row.tree == kernels::Tree::Cluster || row.combine == kernels::Combine::BulkReduce;
}

// NVRTC's output and the interpreter's module, once per test run. Compiling is most of this test's
// time (85 requests of about 0.75 s each, 2026-12-04; each further name in a request about 0.07 s),
// so a first pass over the cases only notes the names each source file is asked for (`collecting`:
// built() throws Collected), and each file then compiles once with all of them. A row outside the
// interpreter's set (outside_interpreter) compiles alone (`alone`), so that its refusal stays its
// own; a refusal is kept, not compiled again for each case.
struct Built {
  std::shared_ptr<const own::ptx::Module> module;
  std::map<std::string, std::string> lowered;  // name expression: the kernel's name in the module
};
struct Collected {};
struct Batches {
  bool collecting = false;
  std::map<std::string, std::set<std::string>> names;  // by source
};
Batches& batches() {
  static Batches b;
  return b;
}
// One compile of r's source with the given names.
Built compile_names(own::CompileRequest r, const std::set<std::string>& names) {
  r.name_expression = *names.begin();
  r.more_names.assign(std::next(names.begin()), names.end());
  const own::Compiled c = own::compile(r);
  Built b{own::ptx::parse(c.ptx), {{r.name_expression, c.lowered}}};  // parse throws outside the set
  for (std::size_t i = 0; i < r.more_names.size(); ++i) b.lowered[r.more_names[i]] = c.more_lowered.at(i);
  return b;
}
const Built& built(const own::CompileRequest& r, bool alone = false) {
  static std::map<std::string, Built> cache;
  static std::map<std::string, std::string> refused;  // what NVRTC or the parser said, kept
  std::set<std::string> names = {r.name_expression};
  names.insert(r.more_names.begin(), r.more_names.end());
  if (!alone) {
    std::set<std::string>& batch = batches().names[r.source];
    batch.insert(names.begin(), names.end());
    names = batch;
  }
  if (batches().collecting) throw Collected{};
  std::string key = r.source;
  for (const std::string& n : names) key += "|" + n;
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  if (const auto no = refused.find(key); no != refused.end()) throw std::runtime_error(no->second);
  try {
    return cache.emplace(key, compile_names(r, names)).first->second;
  } catch (const std::exception& e) {
    refused.emplace(key, e.what());
    throw;
  }
}

// The kernels of one row for one type and operator, traced and untraced, as NVRTC made them.
struct CatalogKernels {
  std::shared_ptr<const own::ptx::Module> module;
  std::string traced, untraced;
};

// The row's two kernels, from one compile of its source file with every name the file is asked
// for (built(); `alone`, and a row outside_interpreter: with these two only). Throws where NVRTC
// or the interpreter's parser refuses (the message says what is outside the set), and Collected
// while batches().collecting.
template <class T, class In = T>
CatalogKernels compile_row(const kernels::AlgorithmRow& row, int block, core::Op op, bool alone = false) {
  own::CompileRequest r;
  const std::string file = std::string(row.source).substr(std::string(row.source).rfind('/') + 1);
  r.source = "#include \"narrow_types.h\"\n#include \"" + file + "\"\n";  // Half and Bf16 for every file
  r.file = "conformance.cu";
  r.options = catalog_options();
  r.cache = false;
  const std::string t = type_name<T>(), in = type_name<In>();
  if (row.tree == kernels::Tree::Halving) {  // its probe is a struct of its own, not a template argument
    r.name_expression = "rl::kernels::global_halving<" + t + ", rl::ops::" + op_name(op) + ">";
  } else {
    r.name_expression = name_expression(row, block, t, op_name(op), "rl::kernels::TraceProbe<" + t + ">", in);
    r.more_names = {name_expression(row, block, t, op_name(op), "rl::kernels::NoProbe", in)};
  }
  const Built& b = built(r, alone || outside_interpreter(row));
  const std::string& traced = b.lowered.at(r.name_expression);
  return {b.module, traced, r.more_names.empty() ? traced : b.lowered.at(r.more_names[0])};
}

std::string findings_of(const own::ptx::Machine& m) {
  std::string s;
  for (const auto& f : m.findings()) s += f.kind + ": " + f.text + "\n";
  return s;
}

// A hand-written kernel k(out) run by one thread: the first `bytes` bytes it stored at out.
std::vector<unsigned char> one_thread(const std::string& ptx, std::size_t bytes) {
  own::ptx::Machine m(own::ptx::parse(ptx));
  const std::uint64_t out = m.alloc(bytes, "out");
  own::ptx::LaunchSpec s;
  s.entry = "k", s.params = {out};
  if (!m.launch(s)) throw std::runtime_error(findings_of(m));
  const unsigned char* p = m.host(out, bytes);
  return {p, p + bytes};
}

// One launch of `grid` blocks of the plan's threads with `params`; throws naming a finding.
void launch(own::ptx::Machine& m, const std::string& entry, const kernels::Plan& plan, std::size_t grid,
            std::vector<own::ptx::Arg> params, std::size_t value_bytes, bool cooperative = false) {
  own::ptx::LaunchSpec s;
  s.entry = entry, s.grid = unsigned(grid), s.block = unsigned(plan.block), s.cooperative = cooperative;
  s.dynamic_shared = std::size_t(plan.block) * value_bytes;  // a cell a thread: what every block kernel takes at most
  s.params = std::move(params);
  if (!m.launch(s)) throw std::runtime_error("the interpreter stopped: " + findings_of(m));
}

// A value of T in the interpreter's memory: the identity of op (a result atomics combine into).
template <class T>
std::uint64_t identity_cell(own::ptx::Machine& m, const kernels::Plan& plan, kernels::OpKind op, const char* name) {
  const std::uint64_t at = m.alloc(sizeof(T), name);
  const T id = kernels::by_op<T, T>(plan.algo(), op, [](auto o) { return decltype(o)::template identity<T>(); });
  std::memcpy(m.host(at, sizeof(T)), &id, sizeof(T));
  return at;
}

// The Reducer's launches (kernels/launch_impl.cuh) for the rows driven here, run by the
// interpreter: its runner for backend::run_trace. Returns where the result is.
template <class T>
std::uint64_t interpreted_launches(own::ptx::Machine& m, const CatalogKernels& k, const kernels::Plan& plan,
                                   kernels::OpKind op, std::uint64_t in, own::ptx::Arg traced) {
  const std::size_t n = plan.size(), grid = plan.passes[0].blocks, per_block = std::size_t(plan.outputs_per_block());
  const kernels::Combine combine = plan.row->combine;
  if (combine == kernels::Combine::LastBlock) {  // partials, then the last block to retire folds them
    const std::uint64_t out = m.alloc(sizeof(T), "the result"), partials = m.alloc(grid * sizeof(T), "partials"),
                        retired = m.alloc(4, "the retirement counter");
    launch(m, k.traced, plan, grid, {in, out, n, traced, partials, retired}, sizeof(T));
    return out;
  }
  if (combine == kernels::Combine::Atomics) {  // one result, the identity before the launch
    const std::uint64_t out = identity_cell<T>(m, plan, op, "the result");
    if (plan.row->tree == kernels::Tree::CgTilesAsync)
      launch(m, k.traced, plan, grid, {in, out, n, traced}, sizeof(T));
    else  // warp-shuffle-vectorized readies the next launch's slot
      launch(m, k.traced, plan, grid, {in, out, n, traced, m.alloc(sizeof(T), "the next slot")}, sizeof(T));
    return out;
  }
  if (combine == kernels::Combine::GridSync) {  // one cooperative launch: the result, then a partial a block
    const std::uint64_t out = m.alloc((1 + grid) * sizeof(T), "the result and partials");
    launch(m, k.traced, plan, grid, {in, out, n, traced}, sizeof(T), true);
    return out;
  }
  // Passes until one value is left (a second kernel: one block over the first pass's grid results).
  const unsigned char no_probe = 0;
  const own::ptx::Arg untraced = own::ptx::Arg::bytes_of(&no_probe, 1);
  std::uint64_t src = m.alloc(grid * per_block * sizeof(T), "partials a"),
                dst = m.alloc(grid * per_block * sizeof(T), "partials b");
  launch(m, k.traced, plan, grid, {in, src, n, traced}, sizeof(T));
  std::vector<kernels::Pass> later(plan.passes.begin() + 1, plan.passes.end());
  if (combine == kernels::Combine::SecondKernel) later = {{grid, 1, 1}};
  for (const kernels::Pass& p : later) {
    launch(m, k.untraced, plan, p.blocks, {src, dst, p.count, untraced}, sizeof(T));
    std::swap(src, dst);
  }
  return src;
}

// global-halving as launch_impl.cuh's Reducer::halving runs it: a launch a halving over the live
// part, launches as barriers, the trace filled from the buffers between launches (HalvingProbe:
// a thread's active flag and three access slots).
template <class T>
std::vector<T> halving_run(const CatalogKernels& k, const kernels::Plan& plan, const T* host_in,
                           kernels::RawTrace<T>* raw) {
  own::ptx::Machine m(k.module);
  const std::size_t n = plan.size();
  const std::uint64_t in = m.alloc(n * sizeof(T), "the input"), x = m.alloc((n + 1) / 2 * sizeof(T), "x"),
                      active = m.alloc(n, "active"), access = m.alloc(3 * n * 4, "access");
  std::memcpy(m.host(in, n * sizeof(T)), host_in, n * sizeof(T));
  raw->reset({kernels::trace_shape(plan.algo(), plan.block, n).stages, 3, int(n)}, int(n));
  raw->grid = 1, raw->tags[0] = kernels::kTagInput, raw->shared_count[0] = int(n);
  std::copy(host_in, host_in + n, raw->shared.begin());
  std::fill(raw->active.begin(), raw->active.begin() + std::ptrdiff_t(n), 1);
  if (n == 1) return {host_in[0]};
  std::uint64_t src = in;
  for (std::size_t live = n, step = 1; live > 1; ++step) {
    const std::size_t half = (live + 1) / 2, at = step * n;
    std::memset(m.host(active, n), 0, n);
    std::memset(m.host(access, 3 * n * 4), 0xff, 3 * n * 4);
    const std::uint64_t probe[2] = {active, access};
    launch(m, k.traced, plan, (half + std::size_t(plan.block) - 1) / std::size_t(plan.block),
           {src, x, live, half, own::ptx::Arg::bytes_of(probe, sizeof probe)}, 0);
    src = x;
    raw->tags[step] = kernels::kTagHalving, raw->params[step] = int(half), raw->shared_count[step] = int(half);
    std::memcpy(raw->shared.data() + at, m.host(x, half * sizeof(T)), half * sizeof(T));
    std::memcpy(raw->active.data() + at, m.host(active, half), half);
    std::memcpy(raw->access.data() + 3 * at, m.host(access, 3 * half * 4), 3 * half * 4);
    live = half;
  }
  if (!m.findings().empty()) throw std::runtime_error("a finding in a catalog kernel: " + findings_of(m));
  T value;
  std::memcpy(&value, m.host(x, sizeof(T)), sizeof(T));
  return {value};
}

template <class T, class In = T>
std::vector<T> interpreted_run(const CatalogKernels& k, const kernels::Plan& plan, kernels::OpKind op,
                               const In* host_in, kernels::RawTrace<T>* raw) {
  if constexpr (std::is_same_v<T, In>)
    if (plan.row->tree == kernels::Tree::Halving) return halving_run<T>(k, plan, host_in, raw);
  own::ptx::Machine m(k.module);
  const std::size_t n = plan.size(), grid = plan.passes[0].blocks;
  const std::uint64_t in = m.alloc(std::max<std::size_t>(n, 1) * sizeof(In), "the input");
  std::memcpy(m.host(in, n * sizeof(In)), host_in, n * sizeof(In));
  const std::size_t partials =
      kernels::records_partials(plan.algo()) ? grid * std::size_t(plan.outputs_per_block()) : 0;
  InterpretedTrace<T> trace(m, kernels::trace_shape(plan.algo(), plan.block, n), plan.block,
                            std::min(partials, kernels::kMaxPartials), plan.trace_block);
  const std::uint64_t result =
      interpreted_launches<T>(m, k, plan, op, in, own::ptx::Arg::bytes_of(&trace.args, sizeof trace.args));
  // Our kernels race nowhere: a finding (a race in shared or global memory) is the checker's error.
  if (!m.findings().empty()) throw std::runtime_error("a finding in a catalog kernel: " + findings_of(m));
  trace.copy_to(*raw);
  raw->grid = grid;
  T value;
  std::memcpy(&value, m.host(result, sizeof(T)), sizeof(T));
  return {value};
}

// ---- the matrix kernels ---------------------------------------------------------------------

// One launch of a matrix kernel as its entry in the launch table makes it (kernels/matrix.cuh,
// short_rows.cuh, flat_rows.cuh, shuffle_launch.cuh): the kernel's template (PROBE where the probe's type goes),
// the 2D shape, its dynamic shared memory and its parameters.
struct MatrixCall {
  std::string kernel;
  unsigned gx = 1, gy = 1, bx = 1, by = 1;
  std::size_t shared = 0;
  std::vector<own::ptx::Arg> params;
  bool cooperative = false;  // batched-rows-vectorized's first-waits: every block resident
};

// A kernel's name expression over T and Op: "NAME<T, Op, PROBE>", or the template's own order.
template <class T, class In>
std::string matrix_template(const std::string& fn, const std::string& op, const std::string& extra = "") {
  const std::string t = type_name<T>(), in = type_name<In>();
  if (!extra.empty()) return "rl::kernels::" + fn + "<" + t + ", rl::ops::" + op + ", " + extra + ", PROBE>";
  return "rl::kernels::" + fn + "<" + t + ", rl::ops::" + op + ", PROBE" + (in == t ? "" : ", " + in) + ">";
}

// The first pass (probe: the trace's, or none), into `out`; outputs and tickets for the kernels
// that fold their rows in the same launch. The one switch on the algorithm: where kernels launch.
template <class T, class In>
MatrixCall first_matrix_call(const kernels::Plan& p, const std::string& op, std::uint64_t in, std::uint64_t out,
                             std::uint64_t outputs, std::uint64_t tickets, own::ptx::Arg probe,
                             std::optional<std::uint64_t> words = std::nullopt) {
  using kernels::Algo;
  const kernels::Matrix m = p.shape;
  const auto gx = unsigned(p.grid.x), gy = unsigned(p.grid.y), bx = unsigned(p.block_x), by = unsigned(p.block_y);
  const std::size_t cells = std::size_t(bx) * by * sizeof(T), warps = bx / 32 * sizeof(T);
  const auto named = [&](const std::string& fn, const std::string& extra = "") {
    return matrix_template<T, In>(fn, op, extra);
  };
  switch (p.algo()) {
    case Algo::BatchedRows: return {named("batched_rows"), gx, gy, bx, by, cells, {in, out, m.cols, probe}};
    case Algo::BatchedRowsSplit:
      if (gx == 1) return {named("batched_rows"), gx * gy, 1, bx, by, cells, {in, out, m.cols, probe}};
      return {named("batched_rows_split"),
              gx * gy,
              1,
              bx,
              by,
              cells,
              {in, out, m.cols, kernels::split_chunk_cols(m, gx), gx, probe}};
    case Algo::ColumnSums:
      return {named("column_sums"),
              gx,
              gy,
              bx,
              by,
              cells,
              {in, out, m.rows, m.cols, kernels::column_chunk_rows(m, p.block, gy), probe}};
    case Algo::ColumnSumsVectorized:
      return {named("column_sums_vectorized", bx * by <= unsigned(kernels::kDeepColumnBlock) ? "true" : "false"),
              gx,
              gy,
              bx,
              by,
              kernels::kVectorColumns * cells,
              {in, out, m.rows, m.cols, kernels::column_chunk_rows(m, p.block, gy), probe}};
    case Algo::ColumnSumsNaive:
      return {named("column_sums_naive"), gx, gy, bx, by, 0, {in, out, m.rows, m.cols, probe}};
    case Algo::Block2d: return {named("block_2d"), gx, gy, bx, by, cells, {in, out, m.rows, m.cols, probe}};
    case Algo::BatchedRowsShuffle:
      return {named("batched_rows_shuffle"), gx, gy, bx, by, warps, {in, out, m.cols, probe}};
    case Algo::BatchedRowsVectorized:
      if (words)  // the row's first block waits (shuffle_launch.cuh's first_waits_shared: its results after the warps')
        return {"rl::kernels::batched_rows_vectorized<" + type_name<T>() + ", rl::ops::" + op + ", PROBE, " +
                    type_name<In>() + ", true>",
                gx * gy,
                1,
                bx,
                by,
                ((bx / 32 + 3) / 4 + (gx + 3) / 4) * 4 * sizeof(T),
                {in, out, m.cols, kernels::split_chunk_cols(m, gx), gx, probe, outputs, tickets, *words},
                true};
      return {named("batched_rows_vectorized"),
              gx * gy,
              1,
              bx,
              by,
              warps,
              {in, out, m.cols, kernels::split_chunk_cols(m, gx), gx, probe, outputs, tickets,
               std::uint64_t(0)}};  // no words: the ticket
    case Algo::WarpPerRow: return {named("warp_per_row"), gx, gy, bx, by, 0, {in, out, m.rows, m.cols, probe}};
    case Algo::LanesPerRow:
      return {named("lanes_per_row"), gx, gy, bx, by, 0, {in, out, m.rows, m.cols, std::uint64_t(p.lanes), probe}};
    case Algo::ThreadPerRow:
      return {named("thread_per_row"),
              gx,
              gy,
              bx,
              by,
              std::size_t(kernels::row_tile_pitch(p.tile_cols)) * cells,
              {in, out, m.rows, m.cols, std::uint64_t(p.tile_cols), probe}};
    case Algo::FlatRows:
      return {named("flat_rows"),
              gx,
              gy,
              bx,
              by,
              std::size_t(kernels::kFlatTileBytes) * kernels::kFlatStages,
              {in, out, m.rows, m.cols, std::uint64_t(p.lanes), std::uint64_t(0), probe}};
    default: throw std::invalid_argument(std::string(p.row->id) + ": no matrix launch here");
  }
}

// The second pass over the first's partials, where the plan has one (the entries' fold).
template <class T>
std::optional<MatrixCall> fold_matrix_call(const kernels::Plan& p, const std::string& op, std::uint64_t partials,
                                           std::uint64_t outputs, own::ptx::Arg none) {
  using kernels::Algo;
  if (p.pass_count < 2) return std::nullopt;
  const auto gx = unsigned(p.grid.x), gy = unsigned(p.grid.y), threads = unsigned(p.block);
  kernels::Plan b = p;  // the entries' reshaped arguments
  switch (p.algo()) {
    case Algo::BatchedRowsSplit:
      return MatrixCall{
          matrix_template<T, T>("batched_rows", op),   unsigned(p.shape.rows), 1, threads, 1, threads * sizeof(T),
          {partials, outputs, std::uint64_t(gx), none}};
    case Algo::ColumnSums:
    case Algo::ColumnSumsVectorized:
      b.shape = {gy, p.shape.cols}, b.grid = {gx, 1};
      return first_matrix_call<T, T>(b, op, partials, outputs, 0, 0, none);
    case Algo::Block2d:
      b.shape = {1, p.grid.count()}, b.grid = {1, 1}, b.block_x = int(threads), b.block_y = 1;
      return first_matrix_call<T, T>(b, op, partials, outputs, 0, 0, none);
    default: return std::nullopt;  // one launch
  }
}

// A matrix run as kernels/matrix_launch.cuh's MatrixReducer makes it, on the interpreter.
// ends: batched-rows-vectorized's rows end with their first block waiting (first-waits, a cooperative
// launch), and ends says how they ended; else its ticket.
template <class T, class In>
std::vector<T> interpreted_matrix_run(const kernels::Plan& p, core::Op op, const In* host_in, kernels::RawTrace<T>* raw,
                                      bool* parsed, kernels::RowEnds* ends = nullptr) {
  const std::string o = op_name(op), probe_type = "rl::kernels::TraceProbe<" + type_name<T>() + ">";
  const unsigned char no_probe = 0;
  const own::ptx::Arg none = own::ptx::Arg::bytes_of(&no_probe, 1);
  // The names first, with dummy addresses: the kernels compile once, with every name they take.
  const std::optional<std::uint64_t> no_words = ends ? std::optional<std::uint64_t>(0) : std::nullopt;
  const MatrixCall shape_of_first = first_matrix_call<T, In>(p, o, 0, 0, 0, 0, none, no_words);
  const auto fold_shape = fold_matrix_call<T>(p, o, 0, 0, none);
  const auto with = [](std::string name, const std::string& probe) {
    return name.replace(name.find("PROBE"), 5, probe);
  };
  own::CompileRequest r;
  const std::string file = std::string(p.row->source).substr(std::string(p.row->source).rfind('/') + 1);
  r.source = "#include \"narrow_types.h\"\n#include \"" + file + "\"\n";
  r.file = "conformance.cu", r.options = catalog_options(), r.cache = false;
  r.name_expression = with(shape_of_first.kernel, probe_type);
  if (fold_shape) r.more_names = {with(fold_shape->kernel, "rl::kernels::NoProbe")};
  const Built& b = built(r, outside_interpreter(*p.row));
  own::ptx::Machine m(b.module);
  *parsed = true;

  const std::size_t n = p.size();
  const std::uint64_t in = m.alloc(std::max<std::size_t>(n, 1) * sizeof(In), "the input");
  std::memcpy(m.host(in, n * sizeof(In)), host_in, n * sizeof(In));
  const std::uint64_t outputs = m.alloc(p.outputs * sizeof(T), "the outputs");
  const bool second = p.pass_count > 1;  // partials, folded by a second launch or by the row's last block
  const std::uint64_t partials = second ? m.alloc(p.passes[0].outputs * sizeof(T), "partials") : 0;
  const bool counters = second && p.row->combine == kernels::Combine::LastBlock;
  const std::uint64_t tickets = counters ? m.alloc(p.shape.rows * 4, "tickets") : 0;
  InterpretedTrace<T> trace(m, kernels::matrix_trace_shape(p.algo(), p.block, p.shape, sizeof(In)), p.block,
                            std::min(p.passes[0].outputs, kernels::kMaxPartials), p.trace_block);
  const auto run = [&](const MatrixCall& call, const std::string& entry) {
    own::ptx::LaunchSpec s;
    s.entry = entry, s.grid = call.gx, s.grid_y = call.gy, s.block = call.bx, s.block_y = call.by;
    s.dynamic_shared = call.shared, s.params = call.params, s.cooperative = call.cooperative;
    if (!m.launch(s)) throw std::runtime_error("the interpreter stopped: " + findings_of(m));
  };
  const own::ptx::Arg traced = own::ptx::Arg::bytes_of(&trace.args, sizeof trace.args);
  const std::size_t blocks = p.grid.count();
  const std::uint64_t words = ends ? m.alloc(blocks * 8, "the rows' words") : 0;
  run(first_matrix_call<T, In>(p, o, in, second ? partials : outputs, outputs, tickets, traced,
                               ends ? std::optional<std::uint64_t>(words) : std::nullopt),
      b.lowered.at(r.name_expression));
  if (ends) {
    const unsigned char* w = m.host(words, blocks * 8);
    ends->first_waits = true;
    for (std::size_t k = 0; k < blocks; ++k)
      ends->words_left += std::any_of(w + 8 * k, w + 8 * k + 8, [](unsigned char c) { return c != 0; });
  }
  if (fold_shape) run(*fold_matrix_call<T>(p, o, partials, outputs, none), b.lowered.at(r.more_names[0]));
  if (!m.findings().empty()) throw std::runtime_error("a finding in a catalog kernel: " + findings_of(m));
  trace.copy_to(*raw);
  raw->grid = p.grid.count();
  raw->first_waits = ends != nullptr;
  std::vector<T> out(p.outputs);
  std::memcpy(out.data(), m.host(outputs, out.size() * sizeof(T)), out.size() * sizeof(T));
  return out;
}

// Why a golden case lies outside what this test drives, or "" where it is inside.
std::string outside(const test::GoldenCase& c) {
  const kernels::AlgorithmRow& row = backend::kernel_row(c.algorithm);
  if (row.indexing == kernels::Indexing::Tickets) return "its tickets' hand-out is the GPU's timing";
  return "";
}

}  // namespace

// What the catalog's kernels brought into the interpreter's set, against values worked by hand:
// redux.sync's six integer forms over one warp (v = 3 * lane - 40), mov's packing and splitting
// forms, a struct parameter read through its address, a function's own __shared__ variable.
TEST(Conformance, InstructionsTheCatalogNeedsGiveHandWorkedValues) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(
	.param .u64 k_param_0,
	.param .align 8 .b8 k_param_1[16]
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<20>;
	.reg .b64 %rd<10>;
	.shared .align 4 .b32 _ZZ1kE4flag;
	mov.u32 %r1, %tid.x;
	ld.param.u64 %rd1, [k_param_0];
	mov.b64 %rd2, k_param_1;
	ld.param.u32 %r2, [%rd2+8];
	mul.lo.s32 %r3, %r1, %r2;
	sub.s32 %r4, %r3, 40;
	redux.sync.add.s32 %r5, %r4, -1;
	redux.sync.min.s32 %r6, %r4, -1;
	redux.sync.max.u32 %r7, %r4, -1;
	redux.sync.and.b32 %r8, %r3, -1;
	redux.sync.or.b32 %r9, %r3, -1;
	redux.sync.xor.b32 %r10, %r3, -1;
	mov.b64 %rd3, {%r5, %r6};
	mov.b64 {%r11, %r12}, %rd3;
	setp.ne.u32 %p1, %r1, 0;
	@%p1 bra $L_wait;
	st.shared.u32 [_ZZ1kE4flag], %r2;
$L_wait:
	bar.sync 0;
	@%p1 bra $L_done;
	ld.shared.u32 %r13, [_ZZ1kE4flag];
	st.global.u32 [%rd1], %r5;
	st.global.u32 [%rd1+4], %r6;
	st.global.u32 [%rd1+8], %r7;
	st.global.u32 [%rd1+12], %r8;
	st.global.u32 [%rd1+16], %r9;
	st.global.u32 [%rd1+20], %r10;
	st.global.u32 [%rd1+24], %r11;
	st.global.u32 [%rd1+28], %r12;
	st.global.u64 [%rd1+32], %rd3;
	st.global.u32 [%rd1+40], %r13;
$L_done:
	ret;
}
)";
  own::ptx::Machine m(own::ptx::parse(ptx));
  const std::uint64_t out = m.alloc(44, "out");
  const std::uint32_t probe[4] = {0, 0, 3, 0};  // the struct: its third word is the multiplier
  own::ptx::LaunchSpec s;
  s.entry = "k", s.grid = 1, s.block = 32;
  s.params = {out, own::ptx::Arg::bytes_of(probe, sizeof probe)};
  ASSERT_TRUE(m.launch(s)) << findings_of(m);
  std::int32_t got[11];
  std::memcpy(got, m.host(out, 44), 44);
  EXPECT_EQ(got[0], 208);  // the sum of 3 * lane - 40 over 32 lanes
  EXPECT_EQ(got[1], -40);  // signed min
  EXPECT_EQ(got[2], -1);   // unsigned max: -1 is 0xffffffff, above every other value
  EXPECT_EQ(got[3], 0);    // and (lane 0's 0)
  EXPECT_EQ(got[4], 127);  // or of 0, 3, ..., 93
  EXPECT_EQ(got[5], 32);   // xor of the same
  EXPECT_EQ(got[6], 208);  // the split: low half first
  EXPECT_EQ(got[7], -40);
  EXPECT_EQ(got[8], 208);  // the packed 64-bit value, stored little-endian: low word first
  EXPECT_EQ(got[9], -40);
  EXPECT_EQ(got[10], 3);               // the function's __shared__ variable, written by lane 0 before the barrier
  s.params = {out, std::uint64_t(3)};  // a number where the kernel takes a struct: refused in words
  EXPECT_NE(error_of([&] { m.launch(s); }).find("is a struct of 16 bytes"), std::string::npos);
}

// What the PTX reader cannot take is refused as std::invalid_argument naming its line, never
// another exception or a crash: numbers past their range or with trailing characters, a '}'
// with none open, and what follows an entry's last '}' on its line (each found by fuzz_own).
TEST(Conformance, PtxTheReaderCannotTakeIsRefusedNamingItsLine) {
  const std::string head = ".version 8.0\n.target sm_90\n.address_size 64\n";
  const std::string entry = ".visible .entry k(\n.param .u64 k_param_0\n)\n{\n.reg .b32 %r<3>;\n";
  const std::pair<std::string, std::string> cases[] = {
      {head + ".global .align 4 .b8 big[99999999999999999999];\n", "PTX line 4: an array's length"},
      {head + ".global .align 4 .b8 big[2305843009213693952];\n", "PTX line 4: an array's length"},
      {head + ".global .align 99999 .b8 a[4];\n", "PTX line 4: an alignment"},
      {head + ".file 99999999999 \"k.cu\"\n", "PTX line 4: a .file's number"},
      {head + entry + ".loc 1 x 3\n}\n", "PTX line 9: a .loc's line"},
      {head + entry + "mov.b32 %r1, 0fZZZZZZZZ;\n}\n", "PTX line 9: an immediate not understood: 0fZZZZZZZZ"},
      {head + entry + "mov.b32 %r1, 12abc;\n}\n", "PTX line 9: an immediate not understood: 12abc"},
      {head + entry + "ld.param.u64 %r1, [k_param_0+99999999999999999999];\n}\n", "PTX line 9: an immediate"},
      {head + ".visible .entry k(\n.param .u64 k_param_0\n)\n}\n", "PTX line 7: a '}' with no '{' open"},
      {head + entry + "} mov.b32 %r1, 1;\n", "PTX line 9: a module directive not modelled"},
      {head + entry + "mov.b32 %r1, 0f-0000001;\n}\n", "PTX line 9: an immediate not understood"},
      {head + entry + "mov.b32 %r1, 08;\n}\n", "PTX line 9: an immediate not understood"},  // not octal
      {head + ".global .b8 a[1073741824];\n.global .b8 b[1];\n", "PTX line 5: the module's variables past 1 GiB"},
      {head + ".visible .entry k(\n.param .align 8 .b8 k_param_0[99999]\n)\n", "PTX line 5: a parameter's length"},
      {head + ".visible .entry k(\n.param .align 8x .b8 k_param_0[16]\n)\n", "PTX line 5: a parameter's alignment"},
      {head + ".visible .entry k(\n.param .align 8 .b8 k_param_0[0]\n)\n",
       "PTX line 5: a kernel parameter not modelled"},
  };
  for (const auto& [ptx, says] : cases) {
    std::string what = "(no exception)";
    try {
      own::ptx::parse(ptx);
    } catch (const std::invalid_argument& e) {
      what = e.what();
    } catch (const std::exception& e) {
      what = std::string("another exception: ") + e.what();
    }
    EXPECT_EQ(what.rfind(says, 0), 0u) << what << "\nfor:\n" << ptx;
  }
  // The literals the PTX ISA writes: decimal, hex, octal, binary, a U suffix, negatives, bits.
  const std::pair<std::string, std::uint64_t> literals[] = {{"42", 42},
                                                            {"0x3f80U", 0x3f80},
                                                            {"017", 15},
                                                            {"0b101", 5},
                                                            {"-1", ~0ull},
                                                            {"-0x10", ~0ull - 15},
                                                            {"0f3F800000", 0x3F800000},
                                                            {"0d3FF0000000000000", 0x3FF0000000000000}};
  for (const auto& [literal, bits] : literals) {
    const auto m = own::ptx::parse(head + entry + "mov.b32 %r1, " + literal + ";\n}\n");
    EXPECT_EQ(m->entries.at(0).code.at(0).args.at(1).imm, bits) << literal;
  }
}

// Half and bfloat16 as the PTX ISA rounds them (to nearest, ties to even, once), against values
// worked by hand: the overflow and subnormal edges, ties, a bfloat16 fma whose product is a tie
// that a tiny addend must break upwards (rounding the exact result to double first would land on
// the tie and round down to 1.265625), a NaN operand of max, a pair, and back to int and float.
TEST(Conformance, HalfAndBf16RoundOnceToNearestEven) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .pred %p<3>;
	.reg .b16 %rs<40>;
	.reg .b32 %r<10>;
	.reg .f32 %f<12>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	mov.b32 %f1, 0f477FF000;
	cvt.rn.f16.f32 %rs1, %f1;
	mov.b32 %f2, 0f477FEF00;
	cvt.rn.f16.f32 %rs2, %f2;
	mov.b32 %f3, 0f33000000;
	cvt.rn.f16.f32 %rs3, %f3;
	mov.b32 %f4, 0f33400000;
	cvt.rn.f16.f32 %rs4, %f4;
	mov.b32 %f5, 0f3F808000;
	cvt.rn.bf16.f32 %rs5, %f5;
	mov.b32 %f6, 0f3F818000;
	cvt.rn.bf16.f32 %rs6, %f6;
	mov.b16 %rs10, 0x3F82;
	mov.b16 %rs11, 0x3FA0;
	mov.b16 %rs12, 0x0D80;
	fma.rn.bf16 %rs7, %rs10, %rs11, %rs12;
	mov.b16 %rs13, 0x3C00;
	mov.b16 %rs14, 0x1000;
	add.f16 %rs8, %rs13, %rs14;
	mov.b16 %rs15, 0x3C01;
	add.rn.f16 %rs9, %rs15, %rs14;
	mov.b16 %rs16, 0x7FC0;
	mov.b16 %rs17, 0x3F80;
	max.bf16 %rs18, %rs16, %rs17;
	mov.b16 %rs19, 0x0001;
	cvt.f32.f16 %f7, %rs19;
	mov.b32 %r1, 0x40003C00;
	mov.b32 %r2, 0x38003C00;
	add.rn.f16x2 %r3, %r1, %r2;
	mov.b16 %rs20, 0xC500;
	cvt.rzi.s32.f16 %r4, %rs20;
	setp.lt.bf16 %p1, %rs12, %rs17;
	selp.u32 %r5, 1, 0, %p1;
	st.global.b16 [%rd1], %rs1;
	st.global.b16 [%rd1+2], %rs2;
	st.global.b16 [%rd1+4], %rs3;
	st.global.b16 [%rd1+6], %rs4;
	st.global.b16 [%rd1+8], %rs5;
	st.global.b16 [%rd1+10], %rs6;
	st.global.b16 [%rd1+12], %rs7;
	st.global.b16 [%rd1+14], %rs8;
	st.global.b16 [%rd1+16], %rs9;
	st.global.b16 [%rd1+18], %rs18;
	st.global.f32 [%rd1+20], %f7;
	st.global.b32 [%rd1+24], %r3;
	st.global.b32 [%rd1+28], %r4;
	st.global.b32 [%rd1+32], %r5;
	ret;
}
)";
  const std::vector<unsigned char> out = one_thread(ptx, 36);
  std::uint16_t h[10];
  std::memcpy(h, out.data(), 20);
  EXPECT_EQ(h[0], 0x7c00);  // 65520: halfway past 65504, to infinity
  EXPECT_EQ(h[1], 0x7bff);  // 65519: 65504
  EXPECT_EQ(h[2], 0x0000);  // 2^-25: halfway to the least subnormal, to the even zero
  EXPECT_EQ(h[3], 0x0001);  // 1.5 x 2^-25: to the least subnormal 2^-24
  EXPECT_EQ(h[4], 0x3f80);  // 1 + 2^-8 in bfloat16: a tie, to the even 1
  EXPECT_EQ(h[5], 0x3f82);  // 1 + 3 x 2^-8: a tie, to the even 1 + 2^-6
  EXPECT_EQ(h[6], 0x3fa3);  // 1.015625 x 1.25 + 2^-100: 1.2734375, not the tie's 1.265625
  EXPECT_EQ(h[7], 0x3c00);  // 1 + 2^-11 in half: a tie, to 1
  EXPECT_EQ(h[8], 0x3c02);  // (1 + 2^-10) + 2^-11: a tie, to the even 1 + 2^-9
  EXPECT_EQ(h[9], 0x3f80);  // max(NaN, 1) = 1
  std::uint32_t w[4];
  std::memcpy(w, out.data() + 20, 16);
  EXPECT_EQ(w[0], 0x33800000u);  // the least subnormal half, exactly 2^-24
  EXPECT_EQ(w[1], 0x41004000u);  // {2 + 0.5, 1 + 1}: the first source's pair in the upper half
  EXPECT_EQ(std::int32_t(w[2]), -5);
  EXPECT_EQ(w[3], 1u);  // 2^-100 < 1 in bfloat16
}

// bfe and bfi (rl_lanes' byte copy of a half becomes a bfi.b64), against values worked by hand
// from the PTX ISA's pseudo-code: a field past the top bit is cut there, .s32 extends its sign.
TEST(Conformance, BitFieldsExtractAndInsertAsThePtxIsaSays) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .b32 %r<12>;
	.reg .b64 %rd<6>;
	ld.param.u64 %rd1, [k_param_0];
	mov.b32 %r1, 0xF0F0F0F0;
	bfe.u32 %r2, %r1, 4, 8;
	mov.b32 %r3, 0x00000F00;
	bfe.s32 %r4, %r3, 8, 4;
	bfe.u32 %r5, %r1, 4, 0;
	mov.b32 %r6, 0x12345678;
	bfi.b32 %r7, 0xAB, %r6, 8, 8;
	mov.b64 %rd2, 0;
	mov.b64 %rd3, 0xFFFF;
	bfi.b64 %rd4, %rd3, %rd2, 60, 8;
	st.global.b32 [%rd1], %r2;
	st.global.b32 [%rd1+4], %r4;
	st.global.b32 [%rd1+8], %r5;
	st.global.b32 [%rd1+12], %r7;
	st.global.b64 [%rd1+16], %rd4;
	ret;
}
)";
  const std::vector<unsigned char> out = one_thread(ptx, 24);
  std::uint32_t w[4];
  std::memcpy(w, out.data(), 16);
  EXPECT_EQ(w[0], 0x0Fu);        // bits 4..11 of 0xF0F0F0F0
  EXPECT_EQ(w[1], 0xFFFFFFFFu);  // the field 0xF, its top bit extended
  EXPECT_EQ(w[2], 0u);           // a field of no bits
  EXPECT_EQ(w[3], 0x1234AB78u);  // 0xAB into bits 8..15
  std::uint64_t d;
  std::memcpy(&d, out.data() + 16, 8);
  EXPECT_EQ(d, 0xF000000000000000ull);  // 8 bits at 60: the 4 that fit
}

// What the golden cases came to: the kernels that conformed, those the interpreter refused (and
// why), those this test does not drive, and the cases of half or bfloat16 elements.
struct Conformed {
  std::map<std::string, std::string> refused;
  std::set<std::string> passed, not_driven;
  int narrow = 0;
};

// One golden case on the interpreter against its GPU recording. While batches().collecting, it
// only notes the kernels' names (built() throws Collected) and records nothing.
void conform(const test::GoldenCase& c, Conformed& out) {
  if (!outside(c).empty()) {
    out.not_driven.insert(c.algorithm + " (" + outside(c) + ")");
    return;
  }
  SCOPED_TRACE(c.name);
  const test::GoldenFile file = test::read_golden(c);
  const core::Trace& g = file.trace;
  const auto req = test::golden_request(c, g.trace_block, g.grid, g.tickets);
  const kernels::AlgorithmRow& row = backend::kernel_row(c.algorithm);
  const kernels::Plan plan = backend::plan_for(req, model::kModelDevice);
  core::Trace t;
  bool compiled = false;
  const auto run = [&]<class T, class In>() {
    if (row.shape == kernels::Shape::Matrix)
      return backend::run_trace<T, In>(
          req, plan, [&](const kernels::Plan& p, kernels::OpKind, const In* in, kernels::RawTrace<T>* raw) {
            return interpreted_matrix_run<T, In>(p, c.op, in, raw, &compiled);
          });
    const CatalogKernels k = compile_row<T, In>(row, c.block, c.op);
    compiled = true;
    return backend::run_trace<T, In>(
        req, plan, [&](const kernels::Plan& p, kernels::OpKind op, const In* in, kernels::RawTrace<T>* raw) {
          return interpreted_run<T, In>(k, p, op, in, raw);
        });
  };
  try {
    t = backend::with_types(req, run);
  } catch (const Collected&) {
    return;
  } catch (const std::exception& e) {
    if (batches().collecting) return;  // the second pass meets it again and records it
    if (!compiled) {
      out.refused[c.algorithm] = e.what();
      return;
    }
    ADD_FAILURE() << "the interpreted run failed: " << e.what();
    return;
  }
  t.backend = "cuda";  // expect_identical asks the recording's side for it
  test::expect_identical(test::with_words_of(g, t), t, !test::atomic_float_sum(c.algorithm, c.type, c.op),
                         test::sum_tolerance(c.type, req.input));
  out.passed.insert(c.algorithm);
  out.narrow += core::is_narrow(c.type) ? 1 : 0;
}

TEST(Conformance, CatalogKernelsInterpretedReproduceTheirGoldenGpuTraces) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  // Under the sanitizers (scripts/test.sh's second round) one small case a kernel: the
  // interpreter runs there some ten times slower.
  const bool sanitized = test::sanitized();
  Conformed result;
  // The first pass notes the kernels' names (built()), the second compiles and runs.
  for (const bool collecting : {true, false}) {
    batches().collecting = collecting;
    std::set<std::string> tried;
    for (const test::GoldenCase& c : test::golden_cases())
      if (!sanitized || (c.n <= (std::size_t(1) << 17) && tried.insert(c.algorithm).second)) conform(c, result);
  }
  batches().collecting = false;
  const auto& [refused, passed, not_driven, narrow] = result;
  std::string report = "conforming: ";
  for (const auto& a : passed) report += a + " ";
  report += "\nrefused by the interpreter:\n";
  for (const auto& [a, why] : refused) report += "  " + a + ": " + why.substr(0, 300) + "\n";
  report += "not driven by this test:\n";
  for (const auto& a : not_driven) report += "  " + a + "\n";
  std::printf("%s", report.c_str());
  // Clusters' distributed shared memory (mapa, ld.shared::cluster) and bulk-async's bulk
  // reductions are outside the interpreter's set, refused in words.
  std::set<std::string> refused_ids, outside_set;
  for (const auto& [a, why] : refused) refused_ids.insert(a);
  for (const test::GoldenCase& c : test::golden_cases())
    if (outside_interpreter(backend::kernel_row(c.algorithm))) outside_set.insert(c.algorithm);
  if (!sanitized) {
    EXPECT_EQ(refused_ids, outside_set) << report;  // each refused, and only those
  }
  for (const auto& a : refused_ids) EXPECT_TRUE(outside_set.count(a)) << a << " refused\n" << report;
  for (const auto& [a, why] : refused)
    EXPECT_TRUE(why.find("not modelled on the CPU") != std::string::npos) << a << ": " << why;
  // The 34 that conform, the 12 matrix kernels (flat-rows' bulk copies) and cg-grid-sync's
  // cooperative launch among them (30 or more have a case of at most 2^17: the sanitizers' round).
  EXPECT_GE(passed.size(), sanitized ? 30u : 34u) << report;
  EXPECT_GE(narrow, sanitized ? 1 : 6) << report;  // work-queue's alone is outside
}

// Blocks that wait for each other, as a cooperative launch lets them: grid.sync(), and a flag a
// block that the first block spins on. Launched cooperatively the interpreter runs the blocks in
// turns (block 0 first; their warps in turn, or interleaved at random) and the waits end; otherwise grid.sync() traps
// and a spin runs out of steps, each said in words. The race check between blocks takes the PTX memory model's
// orderings: a fence or a release before the flag's store, and a fence after its load or an acquiring load; without
// either side, the value's read is a race.
TEST(Conformance, ACooperativeLaunchsBlocksMayWaitForEachOther) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  own::CompileRequest r;
  r.file = "cooperative.cu", r.options = catalog_options(), r.cache = false;
  r.source = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void synced(unsigned* out) {
  if (threadIdx.x == 0) out[1 + blockIdx.x] = 3 * blockIdx.x + 1;
  cg::this_grid().sync();
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  unsigned s = 0;
  for (unsigned b = 0; b < gridDim.x; ++b) s += out[1 + b];
  out[0] = s;
}
// kRelease 0: a relaxed store of the flag alone, 1: a fence before it, 2: a release store.
// kAcquire 0: a relaxed load alone, 1: a fence after it, 2: an acquiring load, 3: a release after
// it (a store's release orders what came before it, not what follows).
template <int kRelease, int kAcquire>
__global__ void flags(unsigned* values, unsigned* flag, unsigned* out) {
  if (threadIdx.x != 0) return;
  const unsigned b = blockIdx.x;
  if (b != 0) {
    values[b] = 7 * b + 2;
    if (kRelease == 1) __threadfence();
    if (kRelease == 2) asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(flag + b), "r"(1u) : "memory");
    else asm volatile("st.relaxed.gpu.u32 [%0], %1;" ::"l"(flag + b), "r"(1u) : "memory");
    return;
  }
  unsigned s = 0;
  for (unsigned k = 1; k < gridDim.x; ++k) {
    unsigned f = 0;
    while (!f) {
      if (kAcquire == 2) asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(f) : "l"(flag + k) : "memory");
      else asm volatile("ld.relaxed.gpu.u32 %0, [%1];" : "=r"(f) : "l"(flag + k) : "memory");
    }
    if (kAcquire == 1) __threadfence();
    if (kAcquire == 3) asm volatile("st.release.gpu.u32 [%0], %1;" ::"l"(out + 1), "r"(k) : "memory");
    s += values[k];
  }
  out[0] = s;
}
)";
  const std::set<std::string> names = {"synced",      "flags<0, 1>", "flags<1, 0>",
                                       "flags<1, 1>", "flags<2, 2>", "flags<1, 3>"};
  const Built b = compile_names(r, names);
  std::mt19937_64 draw(seed);
  const unsigned grid = 2 + unsigned(draw() % 8), block = 32 * (1 + unsigned(draw() % 4));
  SCOPED_TRACE("grid " + std::to_string(grid) + " block " + std::to_string(block));
  unsigned expect_synced = 0, expect_flags = 0;
  for (unsigned k = 0; k < grid; ++k) expect_synced += 3 * k + 1, expect_flags += k ? 7 * k + 2 : 0;
  for (const std::uint64_t schedule : {std::uint64_t(0), draw() | 1}) {
    SCOPED_TRACE("schedule " + std::to_string(schedule));
    own::ptx::Machine m(b.module);
    const std::uint64_t out = m.alloc(4 * (1 + grid), "out");
    own::ptx::LaunchSpec s;
    s.entry = b.lowered.at("synced"), s.grid = grid, s.block = block, s.params = {out}, s.schedule = schedule;
    s.cooperative = true;
    for (int launch = 0; launch < 2; ++launch) {  // the barrier's word, left as the driver's, serves the next
      std::memset(m.host(out, 4), 0, 4);
      ASSERT_TRUE(m.launch(s)) << findings_of(m);
      EXPECT_TRUE(m.findings().empty()) << findings_of(m);
      unsigned got = 0;
      std::memcpy(&got, m.host(out, 4), 4);
      EXPECT_EQ(got, expect_synced) << "launch " << launch;
    }
    s.cooperative = false;
    ASSERT_FALSE(m.launch(s));
    ASSERT_FALSE(m.findings().empty());
    EXPECT_EQ(m.findings().back().kind, "trap");
    EXPECT_NE(m.findings().back().text.find("grid.sync() traps outside a cooperative launch"), std::string::npos)
        << m.findings().back().text;
  }
  const auto run_flags = [&](const std::string& name, bool cooperative) {
    auto m = std::make_unique<own::ptx::Machine>(b.module);
    own::ptx::LaunchSpec s;
    s.entry = b.lowered.at(name), s.grid = grid, s.block = block, s.cooperative = cooperative;
    s.params = {m->alloc(4 * grid, "values"), m->alloc(4 * grid, "flags"), m->alloc(8, "out")};
    s.step_budget = std::uint64_t(1) << 20;
    const bool ran = m->launch(s);
    unsigned got = 0;
    std::memcpy(&got, m->host(s.params[2].bits, 4), 4);
    return std::make_tuple(ran, got, std::move(m));
  };
  for (const char* ordered : {"flags<1, 1>", "flags<2, 2>"}) {
    SCOPED_TRACE(ordered);
    const auto [ran, got, m] = run_flags(ordered, true);
    EXPECT_TRUE(ran && m->findings().empty()) << findings_of(*m);
    EXPECT_EQ(got, expect_flags);
  }
  for (const char* unordered : {"flags<0, 1>", "flags<1, 0>", "flags<1, 3>"}) {
    SCOPED_TRACE(unordered);
    const auto [ran, got, m] = run_flags(unordered, true);
    EXPECT_TRUE(ran) << "a race is a finding; the run goes on";
    EXPECT_EQ(got, expect_flags);
    ASSERT_EQ(m->findings().size(), 1u) << findings_of(*m);
    EXPECT_EQ(m->findings()[0].kind, "race");
    EXPECT_NE(m->findings()[0].text.find("block 1 thread 0 stores global byte 4 of values"), std::string::npos)
        << m->findings()[0].text;
    EXPECT_NE(m->findings()[0].text.find("block 0 thread 0 reads it"), std::string::npos) << m->findings()[0].text;
  }
  const auto [ran, got, m] = run_flags("flags<1, 1>", false);  // block 0 spins first, and alone
  EXPECT_FALSE(ran);
  ASSERT_EQ(m->findings().size(), 1u);
  EXPECT_EQ(m->findings()[0].kind, "step-budget");
  EXPECT_NE(m->findings()[0].text.find("outside a cooperative launch blocks run one after another"), std::string::npos)
      << m->findings()[0].text;
}

// A block's own mbarriers and bulk copies, as flat-rows uses them: a phase completes when its
// arrivals and its bytes are in, try_wait.parity says which phase has, the copy lands in shared
// memory. An mbarrier used before mbarrier.init, and a copy whose size is not a multiple of 16,
// are findings.
TEST(Conformance, MbarriersCompleteOnTheirArrivalsAndBytes) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  own::CompileRequest r;
  r.file = "bulk.cu", r.options = catalog_options(), r.cache = false;
  r.source = R"(#include <cuda/ptx>
namespace ptx = cuda::ptx;
// out[t] = in[t] through shared memory; out[32 + t]: phase 0 done before the arrivals, after both
// arrivals with the bytes still due, and phase 1 done after.
template <bool kInit>
__global__ void bulk(const int* in, int* out, unsigned bytes) {
  __shared__ alignas(16) int buf[32];
  __shared__ unsigned long long bar;
  const unsigned t = threadIdx.x;
  if (kInit && t == 0) ptx::mbarrier_init(&bar, 2), ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  const bool before = ptx::mbarrier_try_wait_parity(&bar, 0);
  if (t == 1) (void)ptx::mbarrier_arrive(&bar);
  __syncthreads();
  if (t == 0) (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &bar, bytes);
  __syncthreads();
  const bool one = ptx::mbarrier_try_wait_parity(&bar, 0);
  __syncthreads();
  if (t == 0) ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf, in, bytes, &bar);
  while (!ptx::mbarrier_try_wait_parity(&bar, 0)) {
  }
  out[t] = buf[t];
  out[32 + t] = int(before) + 2 * int(one) + 4 * int(ptx::mbarrier_try_wait_parity(&bar, 1));
}
)";
  const Built b = compile_names(r, {"bulk<true>", "bulk<false>"});
  std::mt19937_64 draw(seed);
  std::vector<std::int32_t> in(32);
  for (auto& v : in) v = std::int32_t(draw());
  const auto run = [&](const std::string& name, unsigned bytes, std::vector<std::int32_t>* got) {
    own::ptx::Machine m(b.module);
    const std::uint64_t src = m.alloc(128, "in"), dst = m.alloc(256, "out");
    std::memcpy(m.host(src, 128), in.data(), 128);
    own::ptx::LaunchSpec s;
    s.entry = b.lowered.at(name), s.grid = 1, s.block = 32, s.params = {src, dst, bytes};
    const bool ran = m.launch(s);
    if (got) got->resize(64), std::memcpy(got->data(), m.host(dst, 256), 256);
    return ran ? std::string() : findings_of(m);
  };
  std::vector<std::int32_t> got;
  ASSERT_EQ(run("bulk<true>", 128, &got), "");
  for (unsigned t = 0; t < 32; ++t) {
    EXPECT_EQ(got[t], in[t]) << "thread " << t;
    EXPECT_EQ(got[32 + t], 0) << "phase 0 not done before or after the first arrival, phase 1 not done after";
  }
  EXPECT_NE(run("bulk<false>", 128, nullptr).find("uninitialised-read: thread 0 of block 0"), std::string::npos);
  EXPECT_NE(run("bulk<true>", 120, nullptr).find("a bulk copy of 120 bytes"), std::string::npos);
}

// batched-rows-vectorized's rows ending with their first block waiting for the others' results
// (first-waits: a cooperative launch, whose blocks the interpreter runs in turns) record what its
// ticket and the CPU model record, bit for bit, and leave the words empty; at the fewest chunks
// that wait, at a block's threads of them, with halves adding in float, odd and random shapes.
TEST(Conformance, RowsWhoseFirstBlockWaitsEndAsTheTicketAndTheModelDo) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 draw(seed);
  struct Case {
    std::size_t rows, cols, chunks;
    int block;
    core::DType type;
    core::Op op;
  };
  const std::size_t fewest = kernels::kFirstWaitsMinChunks;
  // A chunk is at least kRowChunkElements a thread, in whole 64-column steps (row_chunks): 1088
  // columns at a block of 32 where chunks k leave a row of k * 1088 less up to 15.
  std::vector<Case> cases = {{3, 40003, fewest, 32, core::DType::Float, core::Op::Sum},
                             {1, 33797, 32, 32, core::DType::Float, core::Op::Max},
                             {1, 34819, 17, 64, core::DType::Half, core::Op::Sum},
                             {2, 21755, 20, 32, core::DType::Int, core::Op::Min}};
  if (test::sanitized()) {  // the interpreter runs some ten times slower there: one short row
    cases = {{1, fewest * 1088 - 1, fewest, 32, core::DType::Float, core::Op::Sum}};
  } else {  // a drawn shape: 1 to 3 rows, fewest to 32 chunks
    const std::size_t k = fewest + draw() % (33 - fewest);
    cases.push_back({1 + draw() % 3, k * 1088 - 1 - draw() % 15, k, 32, core::DType::Float, core::Op::Sum});
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + " chunks " + std::to_string(c.chunks) +
                 " block " + std::to_string(c.block) + " " + core::to_string(c.type));
    backend::TraceRequest req{"batched-rows-vectorized",
                              c.op,
                              c.type,
                              c.block,
                              0,
                              test::random_values(c.rows * c.cols, c.type, seed + c.cols)};
    req.rows = c.rows, req.cols = c.cols, req.grid = c.rows * c.chunks;
    const kernels::Plan plan = backend::plan_for(req, model::kModelDevice);
    ASSERT_EQ(plan.grid.x, c.chunks);
    ASSERT_TRUE(kernels::first_waits_shape(plan.grid.x, unsigned(plan.block_x), unsigned(plan.block_y), 4));
    kernels::RowEnds ends;
    bool compiled = false;
    const auto run_with = [&](kernels::RowEnds* e) {
      return backend::with_types(req, [&]<class T, class In>() {
        return backend::run_trace<T, In>(
            req, plan, [&](const kernels::Plan& p, kernels::OpKind, const In* in, kernels::RawTrace<T>* raw) {
              return interpreted_matrix_run<T, In>(p, c.op, in, raw, &compiled, e);
            });
      });
    };
    core::Trace waited = run_with(&ends), ticket = run_with(nullptr);
    EXPECT_TRUE(waited.first_block_waits);
    EXPECT_FALSE(ticket.first_block_waits);
    EXPECT_TRUE(ends.first_waits);
    EXPECT_EQ(ends.words_left, 0u) << "words the run left set";
    waited.backend = "cuda";  // expect_identical's first side is the recorded one
    test::expect_identical(waited, ticket, true, 0);
    test::expect_identical(waited, backend::make_sim_backend()->trace(req), true, 0);
  }
}

// The catalog's two pitfalls race, and the interpreter's happens-before check names each: a
// barrier missing in the loop, and the last warp's steps without __syncwarp() (their GPU
// recordings show the stale reads: docs/classroom.md).
TEST(Conformance, TheCatalogsPitfallsAreNamedAsRaces) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* id : {"missing-syncthreads", "legacy-warp-synchronous"}) {
    SCOPED_TRACE(id);
    backend::TraceRequest req;
    req.algorithm = id, req.block = 256, req.type = core::DType::Float;
    req.input = test::random_values(4096 + 3, core::DType::Float, seed);
    const CatalogKernels k = compile_row<float>(backend::kernel_row(id), 256, core::Op::Sum, true);
    const kernels::Plan plan = backend::plan_for(req, model::kModelDevice);
    const std::string e = error_of([&] {
      backend::run_trace<float, float>(
          req, plan, [&](const kernels::Plan& p, kernels::OpKind op, const float* in, kernels::RawTrace<float>* raw) {
            return interpreted_run<float>(k, p, op, in, raw);
          });
    });
    // (legacy-warp-synchronous races in the blocks it does not trace: the traced block's probe
    // copies shared memory between the steps, behind barriers of its own.)
    EXPECT_NE(e.find("a finding in a catalog kernel: race: block "), std::string::npos) << e;
    EXPECT_NE(e.find("with no barrier between them"), std::string::npos) << e;
  }
}
