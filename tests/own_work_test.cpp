// What the CPU path records of who worked and where in a kernel of your own, against the
// catalog's twins of the starters. Skips, visibly, where NVRTC does not load.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/backend/backend.h"
#include "app/core/embedded.h"
#include "app/own/own_run.h"
#include "app/own/own_trace.h"
#include "kernels/stage_tags.h"
#include "own_support.h"
#include "test_support.h"

namespace rl {
namespace {

// Who worked and where, as the CPU path records it: each barrier's stage of a starter holds the
// threads the catalog's twin records as working, their shared cells (reads and writes), the
// elements they loaded, and so its divergent warps and bank conflicts, the views' inputs.
TEST(OwnCpu, StartersRecordWhoWorkedAndWhereAsTheirTwinsDo) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<std::pair<std::string, std::string>> pairs = {{"reduce0", "interleaved-divergent"},
                                                                  {"reduce1", "interleaved-bank-conflicts"},
                                                                  {"reduce2", "sequential"},
                                                                  {"reduce3", "first-add-on-load"}};
  for (const auto& [file, id] : pairs)
    for (const std::size_t n : {std::size_t(1), std::size_t(777)}) {
      SCOPED_TRACE(file + " n=" + std::to_string(n));
      const std::vector<double> input = test::random_values(n, core::DType::Float, seed + n);
      backend::TraceRequest req;
      req.algorithm = id, req.block = 128, req.input = input, req.type = core::DType::Float;
      req.trace_block = n > 300 ? 1 : 0;
      const core::Trace model = backend::make_sim_backend()->trace(req);
      own::OwnRequest r;
      r.source = std::string(embedded::own_file(file)), r.file = file + ".cu", r.value_type = "float";
      r.input = own::bytes_of(input, "float"), r.block = 128, r.trace_block = unsigned(req.trace_block);
      const core::Trace t = own::own_trace(r, own::run_on_cpu(r), core::Op::Sum);
      ASSERT_TRUE(core::records_work(t));
      ASSERT_EQ(t.stages.size(), model.stages.size());
      for (std::size_t k = 0; k < t.stages.size(); ++k) {
        SCOPED_TRACE("stage " + std::to_string(k));
        const core::Stage &a = t.stages[k], &b = model.stages[k];
        EXPECT_EQ(a.active, b.active);
        ASSERT_EQ(a.accesses.size(), b.accesses.size());
        for (std::size_t i = 0; i < a.accesses.size(); ++i) {
          SCOPED_TRACE("access of thread " + std::to_string(b.accesses[i].thread));
          EXPECT_EQ(a.accesses[i].thread, b.accesses[i].thread);
          // The same cells; their order is the PTX's, which may load sdata[i + s] first.
          std::vector<int> ra = a.accesses[i].reads, rb = b.accesses[i].reads;
          std::sort(ra.begin(), ra.end()), std::sort(rb.begin(), rb.end());
          EXPECT_EQ(ra, rb);
          EXPECT_EQ(a.accesses[i].writes, b.accesses[i].writes);
        }
        // The CPU path also sees lanes that ran apart (split_warps): at n = 1 the load's bounds
        // check is a branch in the PTX that warp 0's lanes take apart; elsewhere a warp that ran
        // apart also had lanes idle, which the catalog counts too.
        if (n == 1 && k == 0) {
          EXPECT_EQ(a.split_warps, std::vector<int>{0});
        }
        core::Stage split = b;
        split.split_warps = a.split_warps;
        EXPECT_EQ(a.divergent_warps, core::divergent_warps(split, 128));
        if (n != 1 || k != 0) {
          EXPECT_EQ(a.divergent_warps, b.divergent_warps);
        }
        EXPECT_EQ(a.bank_conflicts, b.bank_conflicts);
        ASSERT_EQ(a.loads.size(), b.loads.size());
        for (std::size_t i = 0; i < a.loads.size(); ++i) EXPECT_EQ(a.loads[i].elements, b.loads[i].elements);
      }
    }
}

// 1000 ints drawn from seed, as a kernel reads them, and their exact sum.
struct DrawnInts {
  std::vector<unsigned char> bytes;
  double sum = 0;
};
DrawnInts drawn_ints(std::uint64_t seed) {
  const std::vector<double> values = test::random_values(1000, core::DType::Int, seed);
  DrawnInts d{own::bytes_of(values, "int"), 0};
  for (double v : values) d.sum += v;
  return d;
}

// Blocks that add into out[0] with a plain load and store race, though blocks run one after
// another here and the sum comes out right: the CPU path names both blocks and the line. With
// atomicAdd the same kernel is race-free and exact.
TEST(OwnCpu, BlocksStoringOneCellWithoutAnAtomicRace) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const std::string racy =
      "#include \"reduction_lab.cuh\"\n//! kernel: k\n//! block: 128\n//! grid: (n + block - 1) / block\n"
      "//! shared: block * sizeof(value_t)\n//! passes: one\n"
      "__global__ void k(const value_t* in, value_t* out, unsigned int n) {\n"
      "  extern __shared__ value_t sdata[];\n"
      "  const unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;\n"
      "  sdata[tid] = i < n ? in[i] : value_t(0);\n"
      "  __syncthreads();\n"
      "  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
      "    if (tid < s) sdata[tid] += sdata[tid + s];\n"
      "    __syncthreads();\n"
      "  }\n"
      "  if (tid == 0) out[0] += sdata[0];\n"  // line 16
      "}\n";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const DrawnInts drawn = drawn_ints(seed);
  own::OwnRequest r;
  r.source = racy, r.file = "racy.cu", r.value_type = "int", r.input = drawn.bytes;
  const own::OwnRun run = own::run_on_cpu(r);
  ASSERT_EQ(run.findings.size(), 1u);
  EXPECT_EQ(run.findings[0].kind, "race");
  EXPECT_EQ(run.findings[0].line, 16);
  EXPECT_NE(run.findings[0].text.find("block 0 thread 0 stores global byte 0 of out at line 16 and block 1 thread 0"),
            std::string::npos)
      << run.findings[0].text;
  EXPECT_EQ(own::value_at(run.result.data(), "int"), drawn.sum);  // right here, by the blocks' order alone
  std::string atomic = racy;
  atomic.replace(atomic.find("out[0] += sdata[0]"), 18, "atomicAdd(out, sdata[0])");
  r.source = atomic;
  const own::OwnRun fixed = own::run_on_cpu(r);
  EXPECT_TRUE(fixed.findings.empty()) << fixed.findings[0].text;
  EXPECT_EQ(own::value_at(fixed.result.data(), "int"), drawn.sum);
}

// The last block to retire reads the others' partials: ordered by a __threadfence() after each
// store and the atomic counter (the CUDA Programming Guide's own example), racing without the
// fence; and a block's plain read of a cell another block then updates races in the other
// direction. Line 17 stores the partial, line 23 reads them.
TEST(OwnCpu, ReadsOfAnotherBlocksStoreRaceUnlessAFenceAndAnAtomicOrderThem) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const std::string last_block =
      "#include \"reduction_lab.cuh\"\n//! kernel: k\n//! block: 128\n//! grid: (n + block - 1) / block\n"
      "//! shared: block * sizeof(value_t)\n//! passes: one\n"
      "__device__ value_t partials[64];\n__device__ unsigned int retired;\n"
      "__global__ void k(const value_t* in, value_t* out, unsigned int n) {\n"
      "  extern __shared__ value_t sdata[];\n  __shared__ bool last;\n"
      "  const unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;\n"
      "  sdata[tid] = i < n ? in[i] : value_t(0);\n  __syncthreads();\n"
      "  for (unsigned int s = 64; s > 0; s >>= 1) { if (tid < s) sdata[tid] += sdata[tid + s]; __syncthreads(); }\n"
      "  if (tid == 0) {\n"
      "    partials[blockIdx.x] = sdata[0];\n"  // line 17
      "    FENCE\n"
      "    last = atomicInc(&retired, gridDim.x - 1) == gridDim.x - 1;\n"
      "  }\n  __syncthreads();\n"
      "  if (last && tid == 0) {\n"
      "    value_t sum = 0; for (unsigned int b = 0; b < gridDim.x; ++b) sum += partials[b];\n"  // line 23
      "    out[0] = sum;\n  }\n}\n";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const DrawnInts drawn = drawn_ints(seed);
  const auto run = [&](const std::string& fence) {
    std::string text = last_block;
    text.replace(text.find("FENCE"), 5, fence);
    own::OwnRequest r;
    r.source = text, r.file = "last.cu", r.value_type = "int", r.input = drawn.bytes;
    return own::run_on_cpu(r);
  };
  const own::OwnRun fenced = run("__threadfence();");
  EXPECT_TRUE(fenced.findings.empty()) << fenced.findings[0].text;
  EXPECT_EQ(own::value_at(fenced.result.data(), "int"), drawn.sum);
  for (const char* weak : {"", "__threadfence_block();"}) {  // no fence, or one that orders the block alone
    SCOPED_TRACE(weak);
    const own::OwnRun bare = run(weak);
    ASSERT_EQ(bare.findings.size(), 1u);
    EXPECT_EQ(bare.findings[0].kind, "race");
    EXPECT_EQ(bare.findings[0].line, 23);
    EXPECT_NE(bare.findings[0].text.find("block 0 thread 0 stores global byte 0 of partials at line 17 and block 7 "
                                         "thread 0 reads it at line 23"),
              std::string::npos)
        << bare.findings[0].text;
    EXPECT_NE(bare.findings[0].text.find("what the read sees is a race"), std::string::npos);
  }
  std::string peek = last_block;  // block 0 reads out[0] plainly; the last block stores it later
  peek.replace(peek.find("FENCE"), 5, "__threadfence(); if (blockIdx.x == 0) sdata[1] = out[0];");
  own::OwnRequest r;
  r.source = peek, r.file = "peek.cu", r.value_type = "int", r.input = drawn.bytes;
  const own::OwnRun read_first = own::run_on_cpu(r);
  ASSERT_EQ(read_first.findings.size(), 1u);
  EXPECT_NE(read_first.findings[0].text.find("block 0 thread 0 reads global byte 0 of out at line 18 and block 7 "
                                             "thread 0 stores it at line 24"),
            std::string::npos)
      << read_first.findings[0].text;
}

// The grid-sync starter: one cooperative launch whose blocks wait for each other at
// rl_grid_sync(). On the CPU path its blocks run in turns; every block's total (out[1 + b], the
// first pass's results) is its grid-stride share's sum, the result their sum, with no finding.
// Without "launch: cooperative" out holds the result alone (the interpreter's own test has the
// spin of a block waiting outside a cooperative launch). With a barrier of the block for rl_grid_sync(), block 0 reads
// the totals unordered: a race. A grid past what the GPU holds at once is refused before anything runs.
TEST(OwnCpu, ACooperativeLaunchsBlocksWaitForEachOther) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::string starter(embedded::own_file("grid-sync"));
  const std::vector<double> values = test::random_values(3001 + seed % 1000, core::DType::Int, seed);
  own::OwnRequest r;
  r.source = starter, r.file = "grid-sync.cu", r.value_type = "int", r.input = own::bytes_of(values, "int");
  r.block = 64, r.device.sms = 3, r.trace_block = 2;  // its grid line: min(16, 2048 / 64 / 2) an SM, 48
  const unsigned grid = unsigned(std::min<std::size_t>((values.size() + 63) / 64, 48));
  SCOPED_TRACE(std::to_string(values.size()) + " ints, " + std::to_string(grid) + " blocks");
  const own::OwnRun run = own::run_on_cpu(r);
  ASSERT_TRUE(run.findings.empty()) << run.findings[0].kind << ": " << run.findings[0].text;
  ASSERT_EQ(run.grids, std::vector<unsigned>{grid});
  std::vector<std::int32_t> totals(grid, 0);
  std::int32_t sum = 0;
  for (std::size_t i = 0; i < values.size(); ++i)
    totals[i / 64 % grid] = std::int32_t(std::uint32_t(totals[i / 64 % grid]) + std::uint32_t(std::int32_t(values[i]))),
                    sum = std::int32_t(std::uint32_t(sum) + std::uint32_t(std::int32_t(values[i])));
  ASSERT_EQ(run.first_outputs.size(), 4u * grid);
  for (unsigned b = 0; b < grid; ++b)
    EXPECT_EQ(own::value_at(run.first_outputs.data() + 4 * b, "int"), double(totals[b])) << "block " << b;
  EXPECT_EQ(own::value_at(run.result.data(), "int"), double(sum));
  const core::Trace t = own::own_trace(r, run, core::Op::Sum);
  EXPECT_EQ(t.partials.size(), grid);
  EXPECT_EQ(t.pass_outputs, std::vector<std::size_t>{grid}) << "a result a block, as the grid view draws them";
  const int sync_line =
      int(std::count(starter.begin(), starter.begin() + std::ptrdiff_t(starter.find("rl_grid_sync();")), '\n')) + 1;
  std::vector<int> grid_stages;  // the lines of the stages rl_grid_sync() ended
  for (const core::Stage& s : t.stages)
    if (s.tag == kernels::kTagGridSync) grid_stages.push_back(s.line);
  EXPECT_EQ(grid_stages, std::vector<int>{sync_line}) << "one stage, at rl_grid_sync()'s line";

  std::string ordinary = starter;  // out holds the result alone: the blocks' totals fall past it
  ordinary.erase(ordinary.find("//! launch: cooperative\n"), 24);
  r.source = ordinary;
  const own::OwnRun past = own::run_on_cpu(r);
  ASSERT_EQ(past.findings.size(), 1u);
  EXPECT_EQ(past.findings[0].kind, "out-of-bounds");
  EXPECT_NE(past.findings[0].text.find("0 bytes past the end of out"), std::string::npos) << past.findings[0].text;

  std::string unordered = starter;
  unordered.replace(unordered.find("rl_grid_sync();"), 15, "__syncthreads();");
  r.source = unordered;
  const own::OwnRun raced = own::run_on_cpu(r);
  ASSERT_FALSE(raced.findings.empty());
  EXPECT_EQ(raced.findings[0].kind, "race");
  EXPECT_NE(raced.findings[0].text.find(" of out at line "), std::string::npos) << raced.findings[0].text;
  EXPECT_NE(raced.findings[0].text.find("block 0 thread"), std::string::npos) << raced.findings[0].text;

  std::string wide = starter;
  const std::size_t grid_line = wide.find("//! grid: ");
  wide.replace(grid_line, wide.find('\n', grid_line) - grid_line, "//! grid: sms * 33");
  r.source = wide;
  EXPECT_EQ(error_of([&] { own::run_on_cpu(r); }),
            "grid: 99 blocks of 64 threads in a cooperative launch, where a GPU of 3 SMs holds 96 at most (32 an SM): "
            "every block must be resident at once");
  wide.replace(wide.find("sms * 33"), 8, "sms * 17");  // 100 threads take 4 warps' room: 2048 / 128 = 16 an SM
  r.source = wide, r.block = 100;
  EXPECT_EQ(error_of([&] { own::run_on_cpu(r); }),
            "grid: 51 blocks of 100 threads in a cooperative launch, where a GPU of 3 SMs holds 48 at most (16 an SM): "
            "every block must be resident at once");
}

// After the last barrier no barrier ends a stage: what warp 0 of the warp-shuffle starter does
// there (each lane below the block's warps reads its warp's sum, then five shuffles) shows in the
// rl_lanes steps it leads to: the reads in the first, nothing in the shuffles after it.
TEST(OwnCpu, WorkAfterTheLastBarrierShowsInTheLanesSteps) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<double> input = test::random_values(1000, core::DType::Float, seed);
  const own::OwnRequest r = own::own_request(std::string(embedded::own_file("warp-shuffle")), "warp-shuffle.cu",
                                             core::DType::Float, input, 256, 0);
  const core::Trace t = own::own_trace(r, own::run_on_cpu(r), core::Op::Sum);
  std::size_t last_barrier = 0;
  for (std::size_t k = 0; k < t.stages.size(); ++k)
    if (t.stages[k].line > 0) last_barrier = k;
  ASSERT_EQ(t.stages.size(), last_barrier + 6);  // the five shuffles after it, and their first step
  const core::Stage& first = t.stages[last_barrier + 1];
  ASSERT_EQ(first.accesses.size(), 8u);  // 256 threads: 8 warps' sums
  for (int lane = 0; lane < 8; ++lane) {
    EXPECT_EQ(first.accesses[std::size_t(lane)].thread, lane);
    EXPECT_EQ(first.accesses[std::size_t(lane)].reads, std::vector<int>{lane});
    EXPECT_TRUE(first.accesses[std::size_t(lane)].writes.empty());
  }
  EXPECT_EQ(first.active.size(), 32u);  // the callers: warp 0
  for (std::size_t k = last_barrier + 2; k < t.stages.size(); ++k) EXPECT_TRUE(t.stages[k].accesses.empty()) << k;
}

// An rl_lanes step is marked split for the branches on the way to its call, before a barrier and
// after the last one: the bounds check in the traced block's warp 2 (n = 200: 8 of its lanes load),
// then every warp's odd and even lanes reading their partner in two branches.
TEST(OwnCpu, LanesStepsShowTheBranchesThatLedToThem) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::string source = R"(#include "reduction_lab.cuh"
//! kernel: steps
//! block: 128
//! grid: (n + block - 1) / block
//! shared: block * sizeof(value_t)
//! passes: until one
__global__ void steps(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  const value_t x = i < n ? in[i] : value_t(0);
  rl_lanes(x);
  sdata[tid] = x;
  __syncthreads();
  value_t v = sdata[tid];
  rl_lanes(v);
  value_t w;
  if (tid & 1) w = -sdata[tid - 1];  // not the same code: two branches
  else w = sdata[tid + 1];
  rl_lanes(w);
  v = tid & 1 ? -w : w;  // the partner's element: the same elements in all
  if (tid < 32) {
    for (unsigned int j = tid + 32; j < blockDim.x; j += 32) v += sdata[j ^ 1];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (tid == 0) out[blockIdx.x] = v;
  }
}
)";
  const std::vector<double> input = test::random_values(200, core::DType::Float, seed);
  const own::OwnRequest r = own::own_request(source, "steps.cu", core::DType::Float, input, 128, 1);
  const core::Trace t = own::own_trace(r, own::run_on_cpu(r), core::Op::Sum);
  EXPECT_TRUE(t.findings.empty()) << t.findings[0].text;
  ASSERT_EQ(t.stages.size(), 4u);  // a step and the barrier, then two steps after it
  const auto split = [&](std::size_t k) { return t.stages[k].split_warps; };
  EXPECT_EQ(t.stages[0].tag, kernels::kTagLanes);
  EXPECT_EQ(split(0), std::vector<int>{2});  // block 1's elements 192-199 are warp 2's lanes 0-7
  EXPECT_EQ(t.stages[0].divergent_warps, 1);
  EXPECT_EQ(split(1), std::vector<int>{2});  // the barrier's stage: all its instructions
  EXPECT_TRUE(split(2).empty());             // after the barrier, on the way to the first call: none
  EXPECT_EQ(t.stages[2].divergent_warps, 0);
  EXPECT_EQ(split(3), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(t.stages[3].active.size(), 128u);  // every lane called rl_lanes, yet each warp branched
  EXPECT_EQ(t.stages[3].divergent_warps, 4);
}

// A kernel of your own that reads shared memory 16 bytes a thread (float4): the CPU path records
// each read as its first cell and the 4 cells it spans, and counts its banks a quarter of a warp
// at a time. Read in order, 8 threads cover a 128-byte line: no conflict; two float4s apart,
// threads 0 and 4 of each quarter read one 128-byte line apart, in the same banks: 2-way.
TEST(OwnCpu, SixteenByteSharedReadsRecordTheirWidthAndBanks) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::string source = R"(#include "reduction_lab.cuh"
//! kernel: wide
//! block: 128
//! grid: (n + block - 1) / block
//! shared: block * sizeof(value_t)
//! passes: until one
__global__ void wide(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  sdata[tid] = i < n ? in[i] : value_t(0);
  __syncthreads();
  float4 q = make_float4(0.f, 0.f, 0.f, 0.f), r = q;
  if (tid < blockDim.x / 4) q = reinterpret_cast<const float4*>(sdata)[tid];
  if (tid < blockDim.x / 8) r = reinterpret_cast<const float4*>(sdata)[2 * tid];
  __syncthreads();
  if (tid < blockDim.x / 4) sdata[tid] = q.x + q.y + q.z + q.w + 0.f * (r.x + r.y + r.z + r.w);
  __syncthreads();
  if (tid == 0) {
    value_t s = 0;
    for (unsigned int j = 0; j < blockDim.x / 4; ++j) s += sdata[j];
    out[blockIdx.x] = s;
  }
}
)";
  const std::vector<double> input = test::random_values(300, core::DType::Float, seed);
  const own::OwnRequest r = own::own_request(source, "wide.cu", core::DType::Float, input, 128, 1);
  const core::Trace t = own::own_trace(r, own::run_on_cpu(r), core::Op::Sum);
  ASSERT_GE(t.stages.size(), 3u);
  const core::Stage& s = t.stages[1];  // the float4 reads, before the second barrier
  ASSERT_EQ(s.accesses.size(), 32u);   // 128 / 4 threads read
  for (const core::Access& a : s.accesses) {
    SCOPED_TRACE("thread " + std::to_string(a.thread));
    const bool both = a.thread < 16;
    ASSERT_EQ(a.reads.size(), both ? 2u : 1u);
    EXPECT_EQ(a.reads[0], 4 * a.thread);
    EXPECT_EQ(a.read_width(0), 4);
    if (both) {
      EXPECT_EQ(a.reads[1], 8 * a.thread);
      EXPECT_EQ(a.read_width(1), 4);
    }
  }
  ASSERT_TRUE(s.bank_conflicts);
  EXPECT_EQ(*s.bank_conflicts, 2);  // the second reads; the first alone are conflict-free
  const auto rows = core::bank_rows(s, 4);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].threads, 8);
  for (const core::BankRow& row : rows) {
    if (row.access != 0) continue;
    EXPECT_EQ(*std::max_element(row.words.begin(), row.words.end()), 1);
  }
  // The third stage's writes are 4 bytes: a whole warp at a time.
  const auto writes = core::bank_rows(t.stages[2], 4);
  ASSERT_FALSE(writes.empty());
  EXPECT_EQ(writes[0].threads, 32);
  // The trace's file keeps the widths.
  EXPECT_EQ(core::trace_from_json(core::to_json(t)).stages[1].accesses, s.accesses);
}

// Lanes that branch apart make their shared accesses in different instructions, and shared
// memory serves each instruction on its own. Here warp 0's even lanes read words 0-15 and its odd
// lanes words 96-111, in the other branch: the same 16 banks, but never in one request, so no
// conflict. Each thread's reads keep a slot for the other branch's instruction (-1 where the
// thread took no part); grouping the k-th accesses instead would pair words b and b + 96: 2-way.
// Every lane then writes, in the same stage: the writes are a third instruction, after both
// reads. Every lane worked in that stage, yet each warp ran its branches apart: divergent. The input loads, in two
// branches too, keep a slot each for the coalescing view.
TEST(OwnCpu, LanesInOtherBranchesReadInInstructionsOfTheirOwn) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::string source = R"(#include "reduction_lab.cuh"
//! kernel: branches
//! block: 64
//! grid: (n + block - 1) / block
//! shared: 3 * block * sizeof(value_t)
//! passes: until one
__global__ void branches(const value_t* in, value_t* out, unsigned int n) {
  extern __shared__ value_t sdata[];
  const unsigned int tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  value_t x = value_t(0);
  if (i < n) {
    if (tid & 1) x = -__ldcs(in + i);  // not the same code (nor the same load): two branches, two loads
    else x = in[i];
  }
  sdata[tid] = sdata[tid + blockDim.x] = tid & 1 ? -x : x;
  __syncthreads();
  value_t v;  // even lanes: the first half's element tid / 2; odd lanes: the second half's, from the copy
  if (tid & 1) v = -sdata[tid / 2 + blockDim.x / 2 + blockDim.x];  // not the same code: two branches
  else v = sdata[tid / 2];
  sdata[2 * blockDim.x + tid] = v;  // and every lane writes in the same stage: its own bank
  __syncthreads();
  sdata[tid] = tid & 1 ? -v : v;
  __syncthreads();
  if (tid == 0) {
    value_t s = 0;
    for (unsigned int j = 0; j < blockDim.x; ++j) s += sdata[j];
    out[blockIdx.x] = s;
  }
}
)";
  const std::vector<double> input = test::random_values(200, core::DType::Float, seed);
  const own::OwnRequest r = own::own_request(source, "branches.cu", core::DType::Float, input, 64, 1);
  const core::Trace t = own::own_trace(r, own::run_on_cpu(r), core::Op::Sum);
  EXPECT_TRUE(t.findings.empty()) << t.findings[0].text;
  ASSERT_GE(t.stages.size(), 3u);
  // The loads: even and odd lanes in a slot each, the first thread of each kind in the other's -1.
  ASSERT_EQ(t.stages[0].loads.size(), 64u);
  std::size_t slot_of[2] = {};
  for (const core::Load& l : t.stages[0].loads) {
    SCOPED_TRACE("thread " + std::to_string(l.thread));
    const auto at = std::size_t(std::find(l.elements.begin(), l.elements.end(), 64 + l.thread) - l.elements.begin());
    ASSERT_LT(at, l.elements.size());
    EXPECT_EQ(std::size_t(std::count(l.elements.begin(), l.elements.end(), -1)), at);
    if (l.thread < 2) slot_of[l.thread] = at;
    EXPECT_EQ(at, slot_of[l.thread & 1]);
  }
  EXPECT_NE(slot_of[0], slot_of[1]);
  const core::Stage& s = t.stages[1];  // the branches' reads, before the second barrier
  ASSERT_EQ(s.accesses.size(), 64u);
  int odd_slot = -1;
  for (const core::Access& a : s.accesses) {
    SCOPED_TRACE("thread " + std::to_string(a.thread));
    const bool odd = a.thread & 1;
    const int cell = odd ? a.thread / 2 + 96 : a.thread / 2;
    ASSERT_FALSE(a.reads.empty());
    const int slot = int(std::find(a.reads.begin(), a.reads.end(), cell) - a.reads.begin());
    ASSERT_LT(slot, int(a.reads.size()));
    EXPECT_EQ(a.reads.size(), 2u);  // a slot for each branch's read: it wrote after both
    EXPECT_EQ(std::count(a.reads.begin(), a.reads.end(), -1), 1);
    if (!odd) continue;
    if (odd_slot < 0) odd_slot = slot;
    EXPECT_EQ(slot, odd_slot);
  }
  for (const core::Access& a : s.accesses) EXPECT_EQ(a.writes, std::vector<int>{128 + a.thread}) << a.thread;
  // Every lane worked, yet both warps ran their branches apart: divergent.
  EXPECT_EQ(s.active.size(), 64u);
  EXPECT_EQ(s.split_warps, (std::vector<int>{0, 1}));
  EXPECT_EQ(s.divergent_warps, 2);
  ASSERT_TRUE(s.bank_conflicts);
  EXPECT_EQ(*s.bank_conflicts, 1);  // the writes too: not paired with the other branch's reads
  const auto rows = core::bank_rows(s, 4);
  EXPECT_EQ(rows.size(), 6u);  // two warps, three instructions each
  for (const core::BankRow& row : rows) EXPECT_EQ(*std::max_element(row.words.begin(), row.words.end()), 1);
  // The trace's file keeps the empty slots.
  EXPECT_EQ(core::trace_from_json(core::to_json(t)).stages[1].accesses, s.accesses);
}
}  // namespace
}  // namespace rl
