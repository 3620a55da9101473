// The conformance test (issue 50, item 9): the catalog's own kernels, compiled by NVRTC from their
// source files with the trace probe, run by the PTX interpreter of the CPU path, against the traces
// GPUs recorded (tests/data/golden). The interpreter becomes a third oracle beside the CPU model
// and the GPU; the kernels outside its set are named with the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "app/backend/runner.h"
#include "app/own/nvrtc.h"
#include "app/own/ptx_machine.h"
#include "app/own/ptx_module.h"
#include "golden.h"
#include "kernels/model/model.h"
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
  return "rl::kernels::" + fn + "<" + (sized ? std::to_string(block) + ", " : "") + type + ", rl::ops::" + op + ", " +
         probe + (in == type ? "" : ", " + in) + ">";
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

// The kernels of one row for one type and operator, traced and untraced, as NVRTC made them.
struct CatalogKernels {
  std::shared_ptr<const own::ptx::Module> module;
  std::string traced, untraced;
};

// Compiles the row's source file with its two kernels; throws where NVRTC or the interpreter's
// parser refuses (the message says what is outside the set).
template <class T, class In = T>
CatalogKernels compile_row(const kernels::AlgorithmRow& row, int block, core::Op op) {
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
  const own::Compiled c = own::compile(r);
  return {own::ptx::parse(c.ptx), c.lowered, c.more_lowered.empty() ? c.lowered : c.more_lowered[0]};
}

std::string findings_of(const own::ptx::Machine& m) {
  std::string s;
  for (const auto& f : m.findings()) s += f.kind + ": " + f.text + "\n";
  return s;
}

// One launch of `grid` blocks of the plan's threads with `params`; throws naming a finding.
void launch(own::ptx::Machine& m, const std::string& entry, const kernels::Plan& plan, std::size_t grid,
            std::vector<own::ptx::Arg> params, std::size_t value_bytes) {
  own::ptx::LaunchSpec s;
  s.entry = entry, s.grid = unsigned(grid), s.block = unsigned(plan.block);
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

// Why a golden case lies outside what this test drives, or "" where it is inside.
std::string outside(const test::GoldenCase& c) {
  const kernels::AlgorithmRow& row = backend::kernel_row(c.algorithm);
  if (row.shape == kernels::Shape::Matrix) return "a matrix kernel: its launches are not driven here yet";
  using C = kernels::Combine;
  if (row.indexing == kernels::Indexing::Tickets) return "its tickets' hand-out is the GPU's timing";
  if (row.combine == C::GridSync) return "a cooperative launch: the interpreter runs blocks one after another";
  if (row.combine == C::BulkReduce) return "its launches are not driven here yet";
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
  own::ptx::Machine m(own::ptx::parse(ptx));
  const std::uint64_t out = m.alloc(36, "out");
  own::ptx::LaunchSpec s;
  s.entry = "k", s.params = {out};
  ASSERT_TRUE(m.launch(s)) << findings_of(m);
  std::uint16_t h[10];
  std::memcpy(h, m.host(out, 20), 20);
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
  std::memcpy(w, m.host(out + 20, 16), 16);
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
  own::ptx::Machine m(own::ptx::parse(ptx));
  const std::uint64_t out = m.alloc(24, "out");
  own::ptx::LaunchSpec s;
  s.entry = "k", s.params = {out};
  ASSERT_TRUE(m.launch(s)) << findings_of(m);
  std::uint32_t w[4];
  std::memcpy(w, m.host(out, 16), 16);
  EXPECT_EQ(w[0], 0x0Fu);        // bits 4..11 of 0xF0F0F0F0
  EXPECT_EQ(w[1], 0xFFFFFFFFu);  // the field 0xF, its top bit extended
  EXPECT_EQ(w[2], 0u);           // a field of no bits
  EXPECT_EQ(w[3], 0x1234AB78u);  // 0xAB into bits 8..15
  std::uint64_t d;
  std::memcpy(&d, m.host(out + 16, 8), 8);
  EXPECT_EQ(d, 0xF000000000000000ull);  // 8 bits at 60: the 4 that fit
}

TEST(Conformance, CatalogKernelsInterpretedReproduceTheirGoldenGpuTraces) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  std::map<std::string, std::string> refused;  // the kernels the interpreter refuses, and why
  std::set<std::string> passed, not_driven;
  int narrow = 0;  // cases of half or bfloat16 elements
  // Under the sanitizers (scripts/test.sh's second round) one small case a kernel: the
  // interpreter runs there some ten times slower.
  const bool sanitized = std::getenv("REDLAB_SANITIZED") != nullptr;
  std::set<std::string> tried;
  for (const test::GoldenCase& c : test::golden_cases()) {
    if (sanitized && (c.n > (std::size_t(1) << 17) || !tried.insert(c.algorithm).second)) continue;
    if (!outside(c).empty()) {
      not_driven.insert(c.algorithm + " (" + outside(c) + ")");
      continue;
    }
    SCOPED_TRACE(c.name);
    const test::GoldenFile file = test::read_golden(c);
    const core::Trace& g = file.trace;
    const auto req = test::golden_request(c, g.trace_block, g.grid, g.tickets);
    const kernels::AlgorithmRow& row = backend::kernel_row(c.algorithm);
    const kernels::Plan plan = backend::plan_for(req, kernels::DeviceShape(model::kModelSmCount));
    core::Trace t;
    bool compiled = false;
    const auto run = [&]<class T, class In>() {
      const CatalogKernels k = compile_row<T, In>(row, c.block, c.op);
      compiled = true;
      return backend::run_trace<T, In>(
          req, plan, [&](const kernels::Plan& p, kernels::OpKind op, const In* in, kernels::RawTrace<T>* raw) {
            return interpreted_run<T, In>(k, p, op, in, raw);
          });
    };
    try {
      t = backend::with_types(req, run);
    } catch (const std::exception& e) {
      if (!compiled) {
        refused[c.algorithm] = e.what();
        continue;
      }
      ADD_FAILURE() << "the interpreted run failed: " << e.what();
      continue;
    }
    t.backend = "cuda";  // expect_identical asks the recording's side for it
    test::expect_identical(test::with_words_of(g, t), t, !test::atomic_float_sum(c.algorithm, c.type, c.op),
                           test::sum_tolerance(c.type, req.input));
    passed.insert(c.algorithm);
    narrow += core::is_narrow(c.type) ? 1 : 0;
  }
  std::string report = "conforming: ";
  for (const auto& a : passed) report += a + " ";
  report += "\nrefused by the interpreter:\n";
  for (const auto& [a, why] : refused) report += "  " + a + ": " + why.substr(0, 300) + "\n";
  report += "not driven by this test:\n";
  for (const auto& a : not_driven) report += "  " + a + "\n";
  std::printf("%s", report.c_str());
  // Clusters' distributed shared memory (mapa, ld.shared::cluster) is outside the interpreter's set.
  std::set<std::string> refused_ids;
  for (const auto& [a, why] : refused) refused_ids.insert(a);
  EXPECT_EQ(refused_ids, std::set<std::string>{"cluster-dsmem"}) << report;
  // The 20 that conform (18 of them have a case of at most 2^17: the sanitizers' round).
  EXPECT_GE(passed.size(), sanitized ? 18u : 20u) << report;
  EXPECT_GE(narrow, sanitized ? 1 : 4) << report;  // sequential, warp-shuffle, warp-shuffle-vectorized
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
    const CatalogKernels k = compile_row<float>(backend::kernel_row(id), 256, core::Op::Sum);
    const kernels::Plan plan = backend::plan_for(req, kernels::DeviceShape(model::kModelSmCount));
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
