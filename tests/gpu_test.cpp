// On a real GPU: every traced stage equals the CPU model's bit for bit, and the timed
// (uninstrumented) kernels give the right whole-array results. Skips, saying so, without a GPU.
#include <gtest/gtest.h>

#ifdef REDLAB_HAS_CUDA
#include <cuda_runtime.h>
#endif

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <random>
#include <memory>
#include <set>
#include <thread>

#include "app/backend/backend.h"
#include "app/backend/bench_runner.h"
#include "app/backend/ladder.h"
#include "app/backend/repeat.h"
#include "app/core/catalog.h"
#include "app/core/embedded.h"
#include "app/own/nvrtc.h"
#include "app/own/own_bench.h"
#include "app/own/own_compare.h"
#include "app/own/own_process.h"
#include "app/own/own_run.h"
#include "app/own/own_trace.h"
#include "kernels/bench_api.h"
#include "kernels/algorithms.h"
#include "kernels/raw_trace.h"
#include "kernels/shapes.h"
#include "kernels/matrix_shapes.h"
#include "kernels/gpu_api.h"
#include "kernels/warp_cycles.h"
#include "golden.h"
#include "test_support.h"
#include "trace_compare.h"

using namespace rl;
using test::expect_identical;

namespace {

// An array through the GPU: its plan for this device (make_plan), then its one output.
template <class T, class In = T>
T on_gpu(kernels::Algo algo, kernels::OpKind op, const In* in, std::size_t n, const kernels::Launch& launch) {
  return kernels::gpu_run<T, In>(kernels::gpu_plan(algo, {1, n}, launch, sizeof(In), false), op, in, nullptr)[0];
}

// A matrix through the GPU: its outputs.
template <class T>
std::vector<T> on_gpu_matrix(kernels::Algo algo, kernels::OpKind op, const T* in, kernels::Matrix m,
                             const kernels::Launch& launch) {
  return kernels::gpu_run<T>(kernels::gpu_plan(algo, m, launch, sizeof(T), false), op, in, nullptr);
}

// Without a GPU a test skips, visibly; where one is required (REDLAB_REQUIRE_GPU=1, the GPU
// suite) that is a failure: an old driver must not pass for a GPU run.
#define NO_GPU(why)                                                                  \
  do {                                                                               \
    if (std::getenv("REDLAB_REQUIRE_GPU")) FAIL() << "no GPU, but REDLAB_REQUIRE_GPU is set: " << (why); \
    GTEST_SKIP() << "SKIPPED: no GPU: " << (why);                                    \
  } while (0)

bool quick() { return std::getenv("REDLAB_GPU_QUICK") != nullptr; }  // for the sanitizers

// Odd sizes, powers of two and exact multiples of every block's share (4096, 3 x 4096): the
// benchmark's own sizes are powers of two, where no block is partly filled.
std::vector<std::size_t> sizes() {
  if (quick()) return {1, 31, 1000, 4096, 4099};
  return {1, 31, 33, 1000, 4096, 3 * 4096, (std::size_t(1) << 20) + 3};
}

std::vector<int> blocks(const std::string& id) {
  std::vector<int> b = quick() ? std::vector<int>{32, 256, 1024} : std::vector<int>{32, 64, 128, 256, 512, 1024};
  if (id == "non-pow2-block")
    for (int odd : {2, 33, 270, 1000}) b.push_back(odd);  // (insert of a list trips GCC 12's -Wstringop-overflow at -O3)
  return b;
}

// Algorithms whose GPU behaviour is defined: pitfalls race by design, and one is never launched.
// REDLAB_IDS="id,id": a part of them, where time is short (a kernel just added).
std::vector<std::string> comparable_ids() {
  const char* only = std::getenv("REDLAB_IDS");
  std::vector<std::string> out;
  for (const auto& a : core::algorithms())
    if (a.kind == core::Kind::Traced && !a.matrix &&
        (!only || ("," + std::string(only) + ",").find("," + a.id + ",") != std::string::npos))
      out.push_back(a.id);
  return out;
}

// Awkward shapes: 1x1, a single row, a single column, odd sizes both ways, a tall thin one.
std::vector<std::pair<std::size_t, std::size_t>> matrix_shapes() {
  // 3 x 4100: several chunks of vectors. 64 x 4100: on an H100 column-sums-vectorized in blocks of
  // 32 takes chunks of 16 rows, one full deep batch a thread, with a part tile at the right edge.
  // 2 x 3100: batched-rows-vectorized in blocks of 32 takes 3 chunks a row, so its last block
  // folds their results one element a load (4 chunks, 3 x 4100: 16-byte loads).
  if (quick()) return {{1, 1}, {1, 1000}, {1000, 1}, {33, 257}, {3, 4100}, {2, 3100}, {64, 4100}};
  // Rows of 8, 16, 36, 100 and 128 floats: lanes-per-row's 2, 4, 2, 4 and 8 lanes, one load a lane
  // or several (its timed kernel has a body for each count). Rows of 520, 1024, 3100 and 4100
  // floats: its long rows' first batch of 8 or 16 loads, then the loop's four and single loads.
  return {{1, 1},     {1, 1000},    {1000, 1}, {33, 257}, {4097, 3}, {3, 4097},  {3, 4100},  {2, 3100},
          {64, 4100}, {1024, 1024}, {1000, 8}, {999, 16}, {500, 36}, {300, 100}, {257, 128}, {129, 520}};
}

}  // namespace

TEST(Gpu, TracesEqualTheCpuModelBitForBit) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  auto model = backend::make_sim_backend();
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::uint64_t case_no = 0;
  for (const auto& id : comparable_ids())
    for (std::size_t n : sizes()) {
      std::fprintf(stderr, "trace: %s n=%zu\n", id.c_str(), n);
      if (id == "global-halving" && n > (std::size_t(1) << 16)) continue;  // traces hold the whole array
      for (int block : blocks(id))
        for (int cluster : test::clusters_of(id))
          for (auto type : test::types_of(id)) {
            std::size_t grid = 0;  // learnt from the first run: then the last block, often partly filled
            for (auto op : test::ops_of(id, type)) {
              const int traced = grid > 1 ? test::last_traced(id, grid, cluster) : 0;
              backend::TraceRequest req{id, op, type, block, traced, test::random_values(n, type, seed + ++case_no)};
              req.cluster = cluster;
              SCOPED_TRACE(id + " n=" + std::to_string(n) + " block=" + std::to_string(block) +
                           " traced=" + std::to_string(req.trace_block) + " cluster=" + std::to_string(cluster) + " " +
                           core::to_string(op) + " " + core::to_string(type));
              const core::Trace g = gpu->trace(req);
              grid = g.grid;
              req.grid = g.grid;        // fixed grids follow the GPU's SM count and occupancy
              req.tickets = g.tickets;  // work-queue: who took which ticket, as this run went
              expect_identical(g, model->trace(req), !test::atomic_float_sum(id, type, op),
                               test::sum_tolerance(type, req.input));
              if (HasFailure()) return;
            }
          }
    }
}

// Half and bfloat16: every row that takes them, added in float and in their own type, traced
// stage by stage against the model (values from [-1, 1], which round differently in half, bf16
// and float; sums in the element type round after every add, as __hadd does).
TEST(Gpu, NarrowTracesEqualTheCpuModelBitForBit) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  auto model = backend::make_sim_backend();
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::uint64_t case_no = 0;
  for (const auto& r : kernels::kAlgorithms) {
    if (!r.narrow || kernels::is_baseline(r) || r.shape != kernels::Shape::Array) continue;
    const std::string id(r.id);
    for (std::size_t n : sizes())
      for (int block : quick() ? std::vector<int>{32, 256} : std::vector<int>{32, 128, 256, 1024})
        for (auto type : {core::DType::Half, core::DType::Bf16})
          for (auto acc : {core::Accumulate::Float, core::Accumulate::Same})
            for (auto op : acc == core::Accumulate::Same ? std::vector<core::Op>{core::Op::Sum}
                                                         : std::vector<core::Op>{core::Op::Sum, core::Op::Max}) {
              backend::TraceRequest req{id, op, type, block, 0, test::random_values(n, type, seed + ++case_no)};
              req.accumulate = acc;
              SCOPED_TRACE(id + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " " +
                           core::to_string(op) + " " + core::to_string(type) + " in " + core::to_string(acc));
              const core::Trace g = gpu->trace(req);
              req.grid = g.grid;
              req.tickets = g.tickets;
              const bool same = acc == core::Accumulate::Same;
              const double tol =
                  same ? test::narrow_same_tolerance(type, req.input, g.grid) : test::sum_tolerance(type, req.input);
              expect_identical(g, model->trace(req), !test::atomic_float_sum(id, type, op), tol);
              if (HasFailure()) return;
            }
  }
}

// The hand-derived stall on a real run: [big, 1, 1, ...] in one block of sequential's tree, where
// cell 0 meets cell 16's 1 first (big + 1: a tie that rounds back to big in the element type).
TEST(Gpu, HalfAndBf16StallAsTheHandCaseSays) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  const auto run = [&](core::DType type, core::Accumulate acc, double big) {
    std::vector<double> v(32, 1.0);
    v[0] = big;
    backend::TraceRequest req{"sequential", core::Op::Sum, type, 32, 0, v};
    req.accumulate = acc;
    return gpu->trace(req).result;
  };
  EXPECT_EQ(run(core::DType::Half, core::Accumulate::Same, 2048), 2078);  // 2048 + 1 = 2048, + 2 + 4 + 8 + 16
  EXPECT_EQ(run(core::DType::Half, core::Accumulate::Float, 2048), 2079);
  EXPECT_EQ(run(core::DType::Bf16, core::Accumulate::Same, 256), 286);  // 256 + 1 = 256, + 2 + 4 + 8 + 16
  EXPECT_EQ(run(core::DType::Bf16, core::Accumulate::Float, 256), 287);
}

// The ladder on a real run: each rung's result is its timed run's, and for a fixed-order kernel
// that is the model's sum bit for bit, in every type and accumulator.
TEST(Gpu, LadderRunsGiveTheModelsSums) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : {std::size_t(1), std::size_t(4099), (std::size_t(1) << 20) + 3}) {
    const auto values = test::random_values(n, core::DType::Half, seed + n);
    const auto gpu = backend::run_ladder("sequential", values, backend::Choice::Cuda, 0.02);
    const auto model = backend::run_ladder("sequential", values, backend::Choice::Sim);
    ASSERT_EQ(gpu.rungs.size(), 6u);
    ASSERT_EQ(model.rungs.size(), 6u);
    EXPECT_TRUE(gpu.gpu);
    for (std::size_t i = 0; i < gpu.rungs.size(); ++i) {
      SCOPED_TRACE("n=" + std::to_string(n) + " rung " + std::to_string(i));
      EXPECT_TRUE(test::same_bits(gpu.rungs[i].rung.result, model.rungs[i].rung.result))
          << gpu.rungs[i].rung.result << " vs " << model.rungs[i].rung.result;
      EXPECT_GT(gpu.rungs[i].median_us, 0);
      EXPECT_GT(gpu.rungs[i].gbps, 0);
    }
  }
}

// The timed (uninstrumented) runs of halves and bfloat16 added in float: a double reference.
TEST(Gpu, NarrowTimedSumsMatchADoubleReference) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& r : kernels::kAlgorithms) {
    if (!r.narrow || kernels::is_baseline(r) || r.shape != kernels::Shape::Array) continue;
    for (std::size_t n : sizes())
      for (auto type : {core::DType::Half, core::DType::Bf16}) {
        const auto values = test::random_values(n, type, seed + n);
        const kernels::Launch launch{256, 0, 0, nullptr, 0};
        double got = 0;
        if (type == core::DType::Half) {
          std::vector<narrow::Half> in;
          for (double x : values) in.push_back(narrow::Half(float(x)));
          got = on_gpu<float, narrow::Half>(r.algo, kernels::OpKind::Sum, in.data(), n, launch);
        } else {
          std::vector<narrow::Bf16> in;
          for (double x : values) in.push_back(narrow::Bf16(float(x)));
          got = on_gpu<float, narrow::Bf16>(r.algo, kernels::OpKind::Sum, in.data(), n, launch);
        }
        EXPECT_NEAR(got, test::reference(core::Op::Sum, values), test::sum_tolerance(type, values))
            << r.id << " n=" << n << " " << core::to_string(type);
      }
  }
}

// The matrix rows that take halves and bfloat16: the first and the last block's recordings bit for
// bit against the model at the awkward shapes, added in float and in the type itself.
TEST(Gpu, NarrowMatrixTracesEqualTheCpuModelBitForBit) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  auto model = backend::make_sim_backend();
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::uint64_t case_no = 0;
  for (const auto& r : kernels::kAlgorithms) {
    if (!r.narrow || kernels::is_baseline(r) || r.shape != kernels::Shape::Matrix) continue;
    const std::string id(r.id);
    for (const auto& [rows, cols] : matrix_shapes())
      for (int block : {32, 256})
        for (auto type : {core::DType::Half, core::DType::Bf16})
          for (auto acc : {core::Accumulate::Float, core::Accumulate::Same}) {
            backend::TraceRequest req{
                id, core::Op::Sum, type, block, 0, test::random_values(rows * cols, type, seed + ++case_no)};
            req.rows = rows, req.cols = cols, req.accumulate = acc;
            for (int last = 0; last < 2; ++last) {
              SCOPED_TRACE(id + " " + std::to_string(rows) + "x" + std::to_string(cols) +
                           " block=" + std::to_string(block) + " " + core::to_string(type) + " in " +
                           core::to_string(acc) + " traced=" + std::to_string(req.trace_block));
              const core::Trace g = gpu->trace(req);
              req.grid = g.grid;
              expect_identical(g, model->trace(req), true, 0);
              if (HasFailure()) return;
              req.trace_block = int(g.grid) - 1;
            }
          }
  }
}

// The matrix family: the first and the last block's recordings equal the model's, bit for bit
// (no atomics: every output is added in one fixed order), and the outputs match a double reference.
TEST(Gpu, MatrixTracesEqualTheCpuModelBitForBit) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  auto model = backend::make_sim_backend();
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::uint64_t case_no = 0;
  // One request, first or last block traced: GPU and model bit for bit, outputs against a double
  // reference. grid 1 asks column sums for one chunk of rows a tile: many rows a thread.
  const auto compare = [&](const std::string& id, std::size_t rows, std::size_t cols, std::size_t grid) {
    // A shape of 2^19 elements or more: the smallest and largest blocks only (the model's trace of
    // such a matrix takes seconds, and every block size would pass a call's time on the device).
    const bool big = rows * cols >= (std::size_t(1) << 19);
    for (int block : big ? std::vector<int>{32, 1024} : blocks(id))
      for (auto type : {core::DType::Int, core::DType::Float, core::DType::Double})
        for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max})
          for (bool last : {false, true}) {
            backend::TraceRequest req{id, op, type, block, 0, test::random_values(rows * cols, type, seed + ++case_no)};
            req.rows = rows, req.cols = cols, req.grid = grid;
            if (last) req.trace_block = int(gpu->trace(req).grid) - 1;
            SCOPED_TRACE(id + " " + std::to_string(rows) + "x" + std::to_string(cols) + " block=" + std::to_string(block) +
                         " grid=" + std::to_string(grid) + " traced=" + std::to_string(req.trace_block) + " " +
                         core::to_string(op) + " " + core::to_string(type));
            const core::Trace g = gpu->trace(req);
            req.grid = g.grid;  // fixed grids follow the GPU's SM count
            expect_identical(g, model->trace(req), true, 0);
            const auto ref = test::matrix_reference(id, op, req.input, rows, cols);
            ASSERT_EQ(g.outputs.size(), std::min<std::size_t>(ref.size(), kernels::kMaxPartials));
            for (std::size_t o = 0; o < g.outputs.size(); ++o) {
              if (type != core::DType::Int && op == core::Op::Sum) {
                EXPECT_NEAR(g.outputs[o], ref[o], test::sum_tolerance(type, req.input)) << "output " << o;
              } else {
                EXPECT_EQ(g.outputs[o], ref[o]) << "output " << o;
              }
            }
            if (HasFailure()) return;
          }
  };
  const char* only = std::getenv("REDLAB_MATRIX_IDS");  // "id,id": a part of the family, where time is short
  int ran = 0;
  for (const auto& id : core::matrix_ids()) {
    if (only && ("," + std::string(only) + ",").find("," + id + ",") == std::string::npos) continue;
    ++ran;
    // Short rows: the shapes issue 33 names (its odd ones scaled to what a trace holds: rows of
    // 15, 100, and 3 rows of 2^16 + 1), rows of 16, and two of the family's own; for a tile of
    // rows, rows past one tile's columns (33, 100, 257) and past one tile of rows (4097).
    const auto* r = kernels::find_row(id);
    const bool segments =
        r && (r->indexing == kernels::Indexing::RowSegments || r->indexing == kernels::Indexing::RowTile ||
              r->indexing == kernels::Indexing::FlatTiles);
    // Under the sanitizers (quick): 5 x 17 (segments of 4 lanes, one element a load; a tile with
    // no pad), 1000 x 33 (a part tile of rows at the end), 4096 x 16 (16-byte loads; a padded tile).
    const std::vector<std::pair<std::size_t, std::size_t>> short_rows =
        quick() ? std::vector<std::pair<std::size_t, std::size_t>>{{5, 17}, {1000, 33}, {4096, 16}}
                : std::vector<std::pair<std::size_t, std::size_t>>{
                      {1, 1},     {1, 3},     {5, 17},      {4097, 3},          {1000, 33}, {std::size_t(1) << 20, 1},
                      {4096, 15}, {4096, 16}, {10000, 100}, {3, (1 << 16) + 1}, {33, 257}};
    for (const auto& [rows, cols] : segments ? short_rows : matrix_shapes()) {
      std::fprintf(stderr, "matrix trace: %s %zux%zu\n", id.c_str(), rows, cols);
      compare(id, rows, cols, 0);
      if (HasFailure()) return;
    }
    if (id.rfind("column-sums", 0) != 0 || id == "column-sums-naive") continue;
    for (const auto& [rows, cols] : {std::pair<std::size_t, std::size_t>{1024, 1024}, {4097, 3}}) {
      std::fprintf(stderr, "matrix trace: %s %zux%zu, one chunk\n", id.c_str(), rows, cols);
      compare(id, rows, cols, 1);
      if (HasFailure()) return;
    }
  }
  EXPECT_GT(ran, 0) << "REDLAB_MATRIX_IDS=" << (only ? only : "") << " names no matrix algorithm";
}

#ifdef REDLAB_HAS_CUDA
namespace {
// The GPU's outputs for the matrix at in, against the model's over the same grid, bit for bit.
// grid: the one asked for the GPU's run (0: the default).
void expect_model_outputs(kernels::Algo algo, core::Op op, const float* in, kernels::Matrix m, int block,
                          const std::vector<float>& got, std::size_t grid = 0) {
  const kernels::Launch same_grid{block,
                                  kernels::matrix_grid(algo, m, block, grid, kernels::cuda_device_shape()).count(), 0};
  const auto want =
      model::model_run<float>(model::model_plan(algo, m, same_grid, sizeof(float), false), op, in, nullptr);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t o = 0; o < got.size(); ++o)
    ASSERT_TRUE(test::same_bits(got[o], want[o])) << "output " << o << ": gpu " << got[o] << " model " << want[o];
}
}  // namespace

// The timed instantiations (no probe) leave what the model computes, bit for bit.
TEST(Gpu, TimedMatrixKernelsEqualTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& id : core::matrix_ids())
    for (const auto& [rows, cols] : matrix_shapes())
      for (int block : blocks(id))
        for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
          SCOPED_TRACE(id + " " + std::to_string(rows) + "x" + std::to_string(cols) + " block=" + std::to_string(block) + " " +
                       core::to_string(op));
          const auto values = test::random_values(rows * cols, core::DType::Float, seed + rows * 31 + cols + std::size_t(block));
          const std::vector<float> in(values.begin(), values.end());
          const auto algo = backend::kernel_algo(id);
          const kernels::Matrix m{rows, cols};
          const auto got = on_gpu_matrix<float>(algo, op, in.data(), m, {block, 0, 0});
          expect_model_outputs(algo, op, in.data(), m, block, got);
          if (HasFailure()) return;
        }
}

// A held-sums case: a matrix and the grid asked for it.
struct HeldCase {
  std::size_t rows, cols, grid;
};

// lanes-per-row's timed kernel holds a block's row sums in shared memory where held_row_share
// gives a share (grids asked for here, so small matrices take shares of 256 to 1094 rows): rows
// of one element a load (3 and 17 floats), of 16-byte loads, long rows' first batch (520 and 1024
// floats), a last block partly filled. Its outputs equal the model's, bit for bit.
TEST(Gpu, HeldRowSumsEqualTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto algo = backend::kernel_algo("lanes-per-row");
  for (const HeldCase c :
       {HeldCase{1000, 8, 3}, HeldCase{4097, 3, 7}, HeldCase{1001, 17, 3}, HeldCase{999, 16, 3}, HeldCase{300, 100, 1},
        HeldCase{257, 128, 1}, HeldCase{600, 520, 2}, HeldCase{1024, 1024, 4}, HeldCase{70000, 64, 64}})
    for (int block : {32, 256, 1024})
      for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
        SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + " grid=" + std::to_string(c.grid) +
                     " block=" + std::to_string(block) + " " + core::to_string(op));
        const kernels::Matrix m{c.rows, c.cols};
        const std::size_t grid = kernels::matrix_grid(algo, m, block, c.grid, kernels::cuda_device_shape()).x;
        ASSERT_GT(kernels::held_row_share(c.rows, grid, sizeof(float)), 0u) << "the case must hold its sums";
        const auto values =
            test::random_values(c.rows * c.cols, core::DType::Float, seed + c.rows * 31 + c.cols + std::size_t(block));
        const std::vector<float> in(values.begin(), values.end());
        const auto got = on_gpu_matrix<float>(algo, op, in.data(), m, {block, grid, 0});
        expect_model_outputs(algo, op, in.data(), m, block, got);
        if (HasFailure()) return;
      }
}

// lanes-per-row's timed kernel a round of rows a block (row_round), as the bench launches it on
// short rows of 16-byte loads, and as an asked-for grid gives it on any row: rows loaded in one go
// (16, 64 floats), a lane's loads of a longer row (256), one element a load (15, 3); 38 blocks over
// 37 rounds and half a round, so each block's share is at most a round. Every output equals the
// model's, bit for bit.
TEST(Gpu, ARoundABlockEqualsTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto algo = backend::kernel_algo("lanes-per-row");
  for (std::size_t cols : {16, 64, 256, 15, 3})
    for (int block : {32, 256, 1024})
      for (auto op : {core::Op::Sum, core::Op::Max}) {
        const std::size_t round =
            kernels::row_round(cols, sizeof(float), kernels::row_lanes(algo, cols, sizeof(float)), block);
        const kernels::Matrix m{round * 37 + (round + 1) / 2, cols};
        const std::size_t grid = 38, share = kernels::held_row_share(m.rows, grid, sizeof(float), round);
        SCOPED_TRACE(std::to_string(m.rows) + "x" + std::to_string(cols) + " block=" + std::to_string(block) + " " +
                     core::to_string(op));
        ASSERT_GT(share, 0u);
        ASSERT_LE(share, round) << "a block at most a round";
        const auto values = test::random_values(m.size(), core::DType::Float, seed + cols * 31 + std::size_t(block));
        const std::vector<float> in(values.begin(), values.end());
        const auto got = on_gpu_matrix<float>(algo, op, in.data(), m, {block, grid, 0});
        expect_model_outputs(algo, op, in.data(), m, block, got);
        if (HasFailure()) return;
      }
}

// flat-rows' timed kernel holds its row sums and writes them in runs (flat_held_rows,
// flat_flush_due): rows ending in every tile, several flushes a block (rows of 33 and 35 over few
// blocks), rows cut by a tile's end, rows longer than a tile, partial last tiles and blocks; every
// output equals the model's.
TEST(Gpu, HeldFlatRowSumsEqualTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto algo = backend::kernel_algo("flat-rows");
  for (const HeldCase c :
       {HeldCase{20000, 33, 3}, HeldCase{70001, 35, 5}, HeldCase{5000, 100, 1}, HeldCase{3001, 47, 2},
        HeldCase{100003, 41, 0}, HeldCase{40, 5000, 2}, HeldCase{7, 300001, 3}, HeldCase{1, 37, 0}})
    for (int block : quick() ? std::vector<int>{256} : std::vector<int>{32, 256, 1024})
      for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
        SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + " grid=" + std::to_string(c.grid) +
                     " block=" + std::to_string(block) + " " + core::to_string(op));
        ASSERT_GT(kernels::flat_held_rows(c.cols, sizeof(float)), 0) << "the case must hold its sums";
        const kernels::Matrix m{c.rows, c.cols};
        const auto values =
            test::random_values(c.rows * c.cols, core::DType::Float, seed + c.rows * 31 + c.cols + std::size_t(block));
        const std::vector<float> in(values.begin(), values.end());
        const auto got = on_gpu_matrix<float>(algo, op, in.data(), m, {block, c.grid, 0});
        expect_model_outputs(algo, op, in.data(), m, block, got, c.grid);
        if (HasFailure()) return;
      }
}

// A timed narrow matrix run (no probe) against the model over the same grid, every output's bits.
template <class T, class In>
void expect_narrow_timed_outputs(kernels::Algo algo, kernels::Matrix m, int block, const std::vector<double>& values,
                                 std::size_t grid = 0) {
  std::vector<In> in;
  for (double x : values) in.push_back(In(float(x)));
  const auto got = kernels::gpu_run<T, In>(kernels::gpu_plan(algo, m, {block, grid, 0}, sizeof(In), false),
                                           kernels::OpKind::Sum, in.data(), nullptr);
  const kernels::Launch same{
      block, kernels::matrix_grid(algo, m, block, grid, kernels::cuda_device_shape(), sizeof(In)).count(), 0};
  const auto want = model::model_run<T, In>(model::model_plan(algo, m, same, sizeof(In), false), kernels::OpKind::Sum,
                                            in.data(), nullptr);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t o = 0; o < got.size(); ++o)
    ASSERT_EQ(std::memcmp(&got[o], &want[o], sizeof(T)), 0)
        << "output " << o << ": gpu " << double(float(got[o])) << " model " << double(float(want[o]));
}

// The timed kernels of the matrix rows that take halves and bfloat16, added in float and in the type
// itself, leave the model's outputs bit for bit: flat-rows holds its sums at rows of 100 in float
// and of 33 in the type (flat_held_rows), and writes rows of 65 (lanes sharing banks) and 15 as
// they end.
TEST(Gpu, NarrowTimedMatrixKernelsEqualTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::uint64_t case_no = 0;
  for (const auto& r : kernels::kAlgorithms) {
    if (!r.narrow || kernels::is_baseline(r) || r.shape != kernels::Shape::Matrix) continue;
    using Shape = std::pair<std::size_t, std::size_t>;
    const std::vector<Shape> shapes =
        quick() ? std::vector<Shape>{{5000, 100}, {3001, 33}, {1, 1}}
                : std::vector<Shape>{{5000, 100}, {20000, 65}, {3001, 33}, {7, 40001}, {1000, 15}, {1, 1}};
    for (const auto& [rows, cols] : shapes)
      for (int block : quick() ? std::vector<int>{256} : std::vector<int>{32, 256})
        for (auto type : {core::DType::Half, core::DType::Bf16}) {
          SCOPED_TRACE(std::string(r.id) + " " + std::to_string(rows) + "x" + std::to_string(cols) +
                       " block=" + std::to_string(block) + " " + core::to_string(type));
          const kernels::Matrix m{rows, cols};
          const auto values = test::random_values(rows * cols, type, seed + ++case_no);
          if (type == core::DType::Half) {
            expect_narrow_timed_outputs<float, narrow::Half>(r.algo, m, block, values);
            expect_narrow_timed_outputs<narrow::Half, narrow::Half>(r.algo, m, block, values);
          } else {
            expect_narrow_timed_outputs<float, narrow::Bf16>(r.algo, m, block, values);
            expect_narrow_timed_outputs<narrow::Bf16, narrow::Bf16>(r.algo, m, block, values);
          }
          if (HasFailure()) return;
        }
  }
}

// flat-rows' timed kernel in the grid it chooses (flat_timed_grid: a block a run of a tile and a
// half, here more blocks than the plan's one wave) against the model over the same grid, every
// output's bits: floats (sum, min, max) and, where the halves' runs outnumber the wave too, halves
// and bfloat16 added in float and in their own type. Rows of 17, 15 and 100: runs cut rows' tiles
// anywhere.
TEST(Gpu, FlatRowsInTheirTimedGridEqualTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto device = kernels::cuda_device_shape();
  const auto algo = kernels::Algo::FlatRows;
  const std::vector<kernels::Matrix> shapes =
      quick() ? std::vector<kernels::Matrix>{{1000003, 15}, {60001, 100}}
              : std::vector<kernels::Matrix>{{400003, 17}, {1000003, 15}, {60001, 100}};
  for (const kernels::Matrix m : shapes)
    for (int block : quick() ? std::vector<int>{256} : std::vector<int>{128, 256, 512}) {
      SCOPED_TRACE(std::to_string(m.rows) + "x" + std::to_string(m.cols) + " block=" + std::to_string(block));
      const std::size_t grid = kernels::flat_timed_grid(m, block, device, sizeof(float));
      ASSERT_GT(grid, kernels::matrix_grid(algo, m, block, 0, device, sizeof(float)).x) << "the case must take runs";
      const auto values = test::random_values(m.size(), core::DType::Float, seed + m.rows + std::size_t(block));
      const std::vector<float> in(values.begin(), values.end());
      for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
        const auto got = on_gpu_matrix<float>(algo, op, in.data(), m, {block, grid, 0});
        expect_model_outputs(algo, op, in.data(), m, block, got, grid);
        if (HasFailure()) return;
      }
      const std::size_t halves = kernels::flat_timed_grid(m, block, device, 2);
      if (halves == kernels::matrix_grid(algo, m, block, 0, device, 2).x) continue;
      expect_narrow_timed_outputs<float, narrow::Half>(algo, m, block, values, halves);
      expect_narrow_timed_outputs<narrow::Half, narrow::Half>(algo, m, block, values, halves);
      expect_narrow_timed_outputs<float, narrow::Bf16>(algo, m, block, values, halves);
      expect_narrow_timed_outputs<narrow::Bf16, narrow::Bf16>(algo, m, block, values, halves);
      if (HasFailure()) return;
    }
}

// lanes-per-row's timed kernel holds row sums of halves and bfloat16 too, added in float and in the
// type (grids asked for, so the shares are 256 to 1094 rows): rows of one element a load (17), of
// 16-byte loads (8, 16, 64, 256), a last block partly filled. Its outputs equal the model's, bit for bit.
TEST(Gpu, HeldNarrowRowSumsEqualTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto algo = backend::kernel_algo("lanes-per-row");
  std::uint64_t case_no = 0;
  for (const HeldCase c : {HeldCase{1000, 8, 3}, HeldCase{1001, 17, 3}, HeldCase{999, 16, 3}, HeldCase{600, 256, 2},
                           HeldCase{70000, 64, 64}})
    for (int block : {32, 256})
      for (auto type : {core::DType::Half, core::DType::Bf16}) {
        SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + " grid=" + std::to_string(c.grid) +
                     " block=" + std::to_string(block) + " " + core::to_string(type));
        const kernels::Matrix m{c.rows, c.cols};
        const std::size_t grid = kernels::matrix_grid(algo, m, block, c.grid, kernels::cuda_device_shape(), 2).x;
        ASSERT_GT(kernels::held_row_share(c.rows, grid, sizeof(float)), 0u) << "the case must hold its sums";
        const auto values = test::random_values(c.rows * c.cols, type, seed + ++case_no);
        if (type == core::DType::Half) {
          expect_narrow_timed_outputs<float, narrow::Half>(algo, m, block, values, grid);
          expect_narrow_timed_outputs<narrow::Half, narrow::Half>(algo, m, block, values, grid);
        } else {
          expect_narrow_timed_outputs<float, narrow::Bf16>(algo, m, block, values, grid);
          expect_narrow_timed_outputs<narrow::Bf16, narrow::Bf16>(algo, m, block, values, grid);
        }
        if (HasFailure()) return;
      }
}

// lanes-per-row's timed kernel chooses its grid. On rows of 16-byte loads of up to kRoundRowBytes
// (row_rounds) with rows enough for two waves of such blocks, on a GPU where rounds pay (rounds_pay:
// an H100 SXM, not an H200), a block a round of rows (row_round), its share held: 2^20 x 64 and
// 2^24 x 16, in every block size and type; where they do not, two whole waves. Elsewhere whole waves of
// the blocks of it an SM holds (each SM's share whole), at most two waves of a full SM's threads:
// rows of 4096 floats (16 KB), 2^12 rows of 256 (fewer rounds than two waves of blocks), and
// 2^20 rows of 15 (one element a load), and blocks of 16, which have no round (the bench refuses
// them after asking for the grid). A kernel that does not choose (thread-per-row) says 0.
TEST(Gpu, TimedRowKernelsChooseARoundABlockOrWholeWaves) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  kernels::BenchSession session;
  const kernels::DeviceShape device = kernels::cuda_device_shape();
  const auto sms = std::size_t(device.sm_count);
  const auto full = std::size_t(device.threads_per_sm);
  const bool rounds = kernels::rounds_pay(device);
  EXPECT_GT(device.peak_gbps, 0.0) << "the memory's peak, from its clock and bus width";
  std::printf("[ device   ] %.0f GB/s over %zu SMs: %s\n", device.peak_gbps, sms,
              rounds ? "rounds pay" : "whole waves");
  for (const kernels::Matrix m :
       {kernels::Matrix{std::size_t(1) << 20, 64}, kernels::Matrix{std::size_t(1) << 24, 16},
        kernels::Matrix{std::size_t(1) << 12, 256}, kernels::Matrix{std::size_t(1) << 16, 4096},
        kernels::Matrix{std::size_t(1) << 20, 15}})
    for (auto type : {kernels::DType::Float, kernels::DType::Half, kernels::DType::Bf16, kernels::DType::Int})
      for (int block : {16, 32, 256, 1024}) {  // 16: no round (the bench refuses it later), no crash
        SCOPED_TRACE(std::to_string(m.rows) + "x" + std::to_string(m.cols) + " " + core::to_string(type) +
                     " block=" + std::to_string(block));
        session.set_input(type, kernels::OpKind::Sum, m.size(), 7);
        const std::size_t grid = session.timed_grid(kernels::Algo::LanesPerRow, m, block, kernels::OpKind::Sum);
        ASSERT_GT(grid, 0u);
        const std::size_t bytes = std::size_t(kernels::type_bytes(type));
        const std::size_t round =
            kernels::row_round(m.cols, bytes, kernels::row_lanes(kernels::Algo::LanesPerRow, m.cols, bytes), block);
        const bool round_rows = m.rows >= std::size_t(1) << 20 && m.cols != 15 && block >= 32;
        if (round_rows && rounds) {
          EXPECT_EQ(grid, (m.rows + round - 1) / round);
          EXPECT_GT(kernels::held_row_share(m.rows, grid, 4, round), 0u);  // float or int sums
        } else {
          if (round_rows) {
            EXPECT_EQ(grid % (2 * sms), 0u) << "two whole waves where rounds do not pay";
          }
          EXPECT_EQ(grid % sms, 0u);
          EXPECT_LE(grid, 2 * sms * (full / std::size_t(block)));
        }
        EXPECT_EQ(session.timed_grid(kernels::Algo::ThreadPerRow, m, block, kernels::OpKind::Sum), 0u);
      }
}

namespace {

// The bench's one row for a matrix kernel over one shape and type in blocks of 256, as the
// Bandwidth tab asks for it, its sums checked; the caller checks the grid it records (and stops on
// a failure here).
core::BenchRow bench_matrix_row(const std::string& id, kernels::Matrix m, core::DType type) {
  backend::BenchRequest req;
  req.algorithms = {id}, req.type = type, req.block = 256, req.max_seconds = 0.02;
  req.shapes = {{m.rows, m.cols}};
  const auto report = backend::run_bench(req, backend::Choice::Cuda, {}, {}, nullptr);
  EXPECT_EQ(report.rows.size(), 1u);
  if (report.rows.empty()) return {};
  EXPECT_TRUE(report.rows[0].check_ok) << report.rows[0].check;
  return report.rows[0];
}

}  // namespace

// The bench runs lanes-per-row in the grid its timed kernel chooses and records it, for each type,
// and its sums pass the bench's check: a block a round of rows, the last round short (2^20 + 37
// rows), where rounds pay (an H100); rows not 16-byte aligned (15 elements, loaded one at a time),
// and every row on a GPU where rounds do not pay (an H200), in whole waves.
TEST(Gpu, BenchRunsLanesPerRowInItsChosenGrid) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const bool rounds = kernels::rounds_pay(kernels::cuda_device_shape());
  for (const kernels::Matrix m : {kernels::Matrix{std::size_t(1) << 20, 64},
                                  kernels::Matrix{(std::size_t(1) << 20) + 37, 64}, kernels::Matrix{300007, 15}})
    for (auto type : {core::DType::Float, core::DType::Half, core::DType::Bf16}) {
      SCOPED_TRACE(std::to_string(m.rows) + "x" + std::to_string(m.cols) + " " + core::to_string(type));
      const core::BenchRow row = bench_matrix_row("lanes-per-row", m, type);
      if (HasFailure()) return;
      kernels::BenchSession session;
      session.set_input(type, kernels::OpKind::Sum, m.size(), 7);
      const std::size_t grid = session.timed_grid(kernels::Algo::LanesPerRow, m, 256, kernels::OpKind::Sum);
      EXPECT_EQ(row.grid, grid);
      // A block a round: at 2^20 x 64, 2^14 blocks of floats, 2^13 of halves.
      const std::size_t bytes = std::size_t(kernels::type_bytes(type));
      const std::size_t round =
          kernels::row_round(m.cols, bytes, kernels::row_lanes(kernels::Algo::LanesPerRow, m.cols, bytes), 256);
      const std::size_t plan =
          kernels::matrix_grid(kernels::Algo::LanesPerRow, m, 256, 0, kernels::cuda_device_shape(), 2).x;
      if (m.cols == 15 || !rounds) {
        EXPECT_EQ(grid % std::size_t(kernels::cuda_sm_count()), 0u);
        EXPECT_LE(grid, plan) << "whole waves, up to two";
      } else {
        EXPECT_EQ(grid, (m.rows + round - 1) / round);
        EXPECT_GT(grid, plan) << "the plan's own rule, two waves of a full SM's threads, is not what the bench runs";
      }
    }
}

// The bench runs flat-rows in the grid its timed kernel chooses (flat_timed_grid) and records it,
// for each type, and its sums pass the bench's check: runs of a tile and a half at 10^6 + 3 rows of
// 15 and at 2^20 rows of 64 floats; the plan's wave at 2^20 rows of 64 halves (16-byte rows:
// flat_runs); at 3 x (2^20 + 1) a block a row, as in the wave.
TEST(Gpu, BenchRunsFlatRowsInItsTimedGrid) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto device = kernels::cuda_device_shape();
  for (const kernels::Matrix m :
       {kernels::Matrix{1000003, 15}, kernels::Matrix{std::size_t(1) << 20, 64}, kernels::Matrix{3, 1048577}})
    for (auto type : {core::DType::Float, core::DType::Half, core::DType::Bf16}) {
      SCOPED_TRACE(std::to_string(m.rows) + "x" + std::to_string(m.cols) + " " + core::to_string(type));
      const core::BenchRow row = bench_matrix_row("flat-rows", m, type);
      if (HasFailure()) return;
      const std::size_t bytes = std::size_t(kernels::type_bytes(type));
      const std::size_t want = kernels::flat_timed_grid(m, 256, device, bytes);
      EXPECT_EQ(row.grid, want);
      kernels::BenchSession session;
      session.set_input(type, kernels::OpKind::Sum, m.size(), 7);
      EXPECT_EQ(session.timed_grid(kernels::Algo::FlatRows, m, 256, kernels::OpKind::Sum), want);
      const std::size_t wave = kernels::matrix_grid(kernels::Algo::FlatRows, m, 256, 0, device, bytes).x;
      if (m.rows > 3 && kernels::flat_runs(m.cols, bytes, 256)) {
        EXPECT_GT(want, wave);
      } else {
        EXPECT_EQ(want, wave);
      }
    }
}

// Back-to-back runs through one prepared reducer, each over different values, as a benchmark's
// samples go: whatever a launch leaves behind (batched-rows-vectorized's ticket counters, a row's
// partials) must not leak into the next run's outputs.
TEST(Gpu, BackToBackMatrixRunsEachEqualTheModel) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& id : core::matrix_ids())
    for (const auto& [rows, cols] : {std::pair<std::size_t, std::size_t>{3, 4100}, {2, 3100}, {64, 4100}, {33, 257}})
      for (int block : {32, 256})
        for (auto op : {core::Op::Sum, core::Op::Max}) {
          SCOPED_TRACE(id + " " + std::to_string(rows) + "x" + std::to_string(cols) + " block=" + std::to_string(block) + " " +
                       core::to_string(op));
          const auto algo = backend::kernel_algo(id);
          const kernels::Matrix m{rows, cols};
          std::vector<std::vector<float>> ins;
          for (std::uint64_t k = 0; k < 3; ++k) {
            const auto values = test::random_values(rows * cols, core::DType::Float, seed + 7919 * k + rows + cols);
            ins.emplace_back(values.begin(), values.end());
          }
          const std::vector<const float*> ptrs{ins[0].data(), ins[1].data(), ins[2].data()};
          const auto got =
              kernels::gpu_run_each<float>(kernels::gpu_plan(algo, m, {block, 0, 0}, sizeof(float), false), op, ptrs);
          ASSERT_EQ(got.size(), 3u);
          for (std::size_t k = 0; k < 3; ++k) {
            SCOPED_TRACE("run " + std::to_string(k));
            expect_model_outputs(algo, op, ptrs[k], m, block, got[k]);
            if (HasFailure()) return;
          }
        }
}

// batched-rows-vectorized's rows end with their first block waiting for the others' results
// (first-waits, a cooperative launch) where the grid is one wave of blocks with 4-byte results and
// kFirstWaitsMinChunks to a block's threads of chunks a row, and with the ticket elsewhere, as each
// launch reports; either way three runs back to back through one reducer each equal the model,
// and every run leaves the words empty.
TEST(Gpu, RowsEndWithTheFirstBlockWaitingWhereTheGridIsOneWave) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto algo = kernels::Algo::BatchedRowsVectorized;
  struct Case {
    kernels::Matrix m;
    int block;
    std::size_t grid;  // asked; 0: the plan's
    bool waits;
  };
  // 32 blocks an SM at most on sm_90: 4096 rows of two chunks, and 512 rows of the fewest chunks
  // that wait (8192 blocks of 32), are past one wave on any of its GPUs. 7 x 40003 in blocks of 32
  // (up to 39 chunks a row of a thread's 32 floats): at the fewest chunks that wait, one fewer,
  // and more than threads.
  const std::size_t fewest = kernels::kFirstWaitsMinChunks;
  for (const Case c : {Case{{3, 1048577}, 256, 0, true}, Case{{7, 40003}, 32, 7 * fewest, true},
                       Case{{7, 40003}, 32, 7 * (fewest - 1), false}, Case{{7, 40003}, 32, 7 * 33, false},
                       Case{{512, 40003}, 32, 512 * fewest, false}, Case{{4096, 4100}, 32, 8192, false},
                       Case{{64, 4100}, 256, 64, false}}) {
    SCOPED_TRACE(std::to_string(c.m.rows) + "x" + std::to_string(c.m.cols) + " block=" + std::to_string(c.block) +
                 " grid=" + std::to_string(c.grid));
    const kernels::Plan plan = kernels::gpu_plan(algo, c.m, {c.block, c.grid, 0}, sizeof(float), false);
    if (c.grid) {
      EXPECT_EQ(plan.grid.count(), c.grid) << "the asked grid";
    }
    if (c.waits) {
      ASSERT_GE(plan.grid.x, fewest) << "chunks a row";
      ASSERT_LE(plan.grid.x, std::size_t(c.block));
    } else {
      ASSERT_TRUE(plan.grid.x < fewest || plan.grid.x > std::size_t(c.block) ||
                  plan.grid.count() > 32u * std::size_t(kernels::cuda_sm_count()));
    }
    std::vector<std::vector<float>> ins;
    for (std::uint64_t k = 0; k < 3; ++k) {
      const auto values = test::random_values(c.m.size(), core::DType::Float, seed + 104729 * k + c.m.cols);
      ins.emplace_back(values.begin(), values.end());
    }
    const std::vector<const float*> ptrs{ins[0].data(), ins[1].data(), ins[2].data()};
    if (c.m.size() <= (std::size_t(1) << 19)) {  // a traced run records the end its launch took
      backend::TraceRequest req{"batched-rows-vectorized",
                                core::Op::Sum,
                                core::DType::Float,
                                c.block,
                                0,
                                std::vector<double>(ins[0].begin(), ins[0].end())};
      req.rows = c.m.rows, req.cols = c.m.cols, req.grid = c.grid;
      EXPECT_EQ(gpu->trace(req).first_block_waits, c.waits) << "the traced run's end";
    }
    for (auto op : {core::Op::Sum, core::Op::Max}) {
      kernels::RowEnds ends;
      const auto got = kernels::gpu_run_each<float>(plan, op, ptrs, &ends);
      EXPECT_EQ(ends.first_waits, c.waits) << "the row's first block waited";
      EXPECT_EQ(ends.words_left, 0u) << "words the runs left set";
      ASSERT_EQ(got.size(), 3u);
      for (std::size_t k = 0; k < 3; ++k) {
        SCOPED_TRACE(core::to_string(op) + " run " + std::to_string(k));
        expect_model_outputs(algo, op, ptrs[k], c.m, c.block, got[k], c.grid);
        if (HasFailure()) return;
      }
    }
  }
}

TEST(Gpu, TimedKernelsMatchADoubleReference) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& id : comparable_ids())
    for (std::size_t n : sizes()) {
      std::fprintf(stderr, "timed: %s n=%zu\n", id.c_str(), n);  // progress, should one hang
      for (int block : blocks(id))
        for (int cluster : test::clusters_of(id))
          for (auto type : test::types_of(id))
            for (auto op : test::ops_of(id, type)) {
              const auto values = test::random_values(n, type, seed + n * 7 + block);
              const auto algo = backend::kernel_algo(id);
              const kernels::Launch launch{block, 0, 0, nullptr, cluster};
              double got = 0;
              if (type == core::DType::Int) {
                const std::vector<int> in(values.begin(), values.end());
                got = on_gpu<int>(algo, op, in.data(), n, launch);
              } else if (type == core::DType::Double) {
                got = on_gpu<double>(algo, op, values.data(), n, launch);
              } else {
                const std::vector<float> in(values.begin(), values.end());
                got = on_gpu<float>(algo, op, in.data(), n, launch);
              }
              const double ref = test::reference(op, values);
              SCOPED_TRACE(id + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " cluster=" +
                           std::to_string(cluster) + " " + core::to_string(op) + " " + core::to_string(type));
              // Sums of floats and doubles within rounding (test::sum_tolerance); the rest exact.
              if (type != core::DType::Int && op == core::Op::Sum)
                EXPECT_NEAR(got, ref, test::sum_tolerance(type, values));
              else
                EXPECT_EQ(got, ref);
              if (HasFailure()) return;
            }
    }
}

// Int sums wrap around at 32 bits, as the model's do, for every algorithm: values near 2^29 make
// the sum wrap many times over, at a size with a partly filled last block.
TEST(Gpu, IntSumsWrapAroundForEveryAlgorithm) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  for (std::size_t n : {std::size_t(4099), (std::size_t(1) << 20) + 3}) {
    const auto in = test::wrapping_ints(n);
    for (const auto& id : comparable_ids()) {
      if (test::types_of(id).front() != core::DType::Int) continue;  // compensated: nothing to wrap
      SCOPED_TRACE(id + " n=" + std::to_string(n));
      const int block = id == "non-pow2-block" ? 270 : 256;
      const auto algo = backend::kernel_algo(id);
      EXPECT_EQ(on_gpu<int>(algo, kernels::OpKind::Sum, in.data(), n, {block, 0, 0}), test::wrapped_sum(in));
    }
  }
}

// The host's copy of the timed chains, by hand: one redux stage gives every lane the 32 lanes'
// total; one stage of five shuffles leaves that total in lane 0 and lane 31 doubled five times.
TEST(Gpu, TheWarpStageChainsComputeWhatTheHardwareDoes) {
  const auto start = kernels::warp_stage_chain(true, 0);
  std::uint32_t total = 0;
  for (auto v : start) total += std::uint32_t(v);
  for (auto v : kernels::warp_stage_chain(true, 1)) EXPECT_EQ(std::uint32_t(v), total);
  const auto shuffled = kernels::warp_stage_chain(false, 1);
  EXPECT_EQ(std::uint32_t(shuffled[0]), total);
  EXPECT_EQ(std::uint32_t(shuffled[31]), std::uint32_t(start[31]) * 32u);
  EXPECT_NE(shuffled[1], shuffled[0]);
}

// The time of each warp stage in redux-sync's lesson: one warp's chains of REDUX and of five
// shuffles and adds, each chain's lanes checked against the host's (time_warp_stages throws
// otherwise). Prints the lines assets/machine_code/redux-sync.txt ships.
TEST(Gpu, WarpStagesAreTimedOnChainsThatComputeTheRightLanes) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  if (kernels::cuda_compute_major() < 8) GTEST_SKIP() << "SKIPPED: redux.sync needs compute capability 8.0";
  const auto w = kernels::time_warp_stages();
  EXPECT_GT(w.redux, 0);
  EXPECT_GT(w.shuffle, 0);
  std::printf(
      "[ cycles   ] %s, one warp, chains of %d stages\nkernel: redux-sync int sum\nstage cycles: %.1f\n"
      "kernel: warp-shuffle int sum\nstage cycles: %.1f\n",
      kernels::cuda_device_name().c_str(), w.stages, w.redux, w.shuffle);
}

TEST(Gpu, ImpossibleLaunchesAreRefusedAndTheGpuStillWorks) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const std::vector<int> in(100, 1);
  using kernels::Algo;
  EXPECT_THROW(on_gpu<int>(Algo::Sequential, kernels::OpKind::Sum, in.data(), 100, {96, 0, 0}), std::invalid_argument);
  EXPECT_THROW(on_gpu<int>(Algo::Sequential, kernels::OpKind::Sum, in.data(), 0, {32, 0, 0}), std::invalid_argument);
  EXPECT_THROW(on_gpu<int>(Algo::SyncthreadsInBranch, kernels::OpKind::Sum, in.data(), 100, {32, 0, 0}),
               std::invalid_argument);
  // A cooperative grid larger than the device holds at once.
  EXPECT_THROW(on_gpu<int>(Algo::CgGridSync, kernels::OpKind::Sum, in.data(), 100, {256, 1u << 20, 0}),
               std::invalid_argument);
  EXPECT_EQ(on_gpu<int>(Algo::Sequential, kernels::OpKind::Sum, in.data(), 100, {32, 0, 0}), 100);
}

TEST(Gpu, BaselinesAgreeWithTheReference) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : sizes())
    for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
      SCOPED_TRACE("n=" + std::to_string(n) + " " + core::to_string(op));
      const auto ints = test::random_values(n, core::DType::Int, seed + n);
      const auto floats = test::random_values(n, core::DType::Float, seed + n + 1);
      const std::vector<int> vi(ints.begin(), ints.end());
      const std::vector<float> vf(floats.begin(), floats.end());
      const auto kop = op;
      EXPECT_EQ(kernels::cub_reduce<int>(kop, vi.data(), n), test::reference(op, ints));
      EXPECT_EQ(kernels::thrust_reduce<int>(kop, vi.data(), n), test::reference(op, ints));
      const double tol = op == core::Op::Sum ? test::sum_tolerance(core::DType::Float, floats) : 0.0;
      const auto doubles = test::random_values(n, core::DType::Double, seed + n + 2);
      const double dtol = op == core::Op::Sum ? test::sum_tolerance(core::DType::Double, doubles) : 0.0;
      EXPECT_NEAR(kernels::cub_reduce<double>(kop, doubles.data(), n), test::reference(op, doubles), dtol);
      EXPECT_NEAR(kernels::thrust_reduce<double>(kop, doubles.data(), n), test::reference(op, doubles), dtol);
      EXPECT_TRUE(kernels::copy_roundtrip<double>(doubles.data(), n));
      EXPECT_NEAR(kernels::cub_reduce<float>(kop, vf.data(), n), test::reference(op, floats), tol);
      EXPECT_NEAR(kernels::thrust_reduce<float>(kop, vf.data(), n), test::reference(op, floats), tol);
      EXPECT_TRUE(kernels::copy_roundtrip<float>(vf.data(), n));
      EXPECT_TRUE(kernels::copy_roundtrip<int>(vi.data(), n));
    }
}

// warp-shuffle-vectorized and work-queue set the next launch's result to the identity
// themselves (work-queue its ticket counter to 0 too): every one of a benchmark's back-to-back
// launches must start from them, at both of the bench's block sizes and for each operator (a
// sum left over from the launch before, or tickets already taken, would show at once).
TEST(Gpu, BackToBackSinglePassLaunchesEachStartFromTheIdentity) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  kernels::BenchSession session;
  kernels::BenchSettings quick_settings;
  quick_settings.max_seconds = 0.05;
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : {std::size_t(1), std::size_t(4099), (std::size_t(1) << 22) + 5})
    for (auto op : {kernels::OpKind::Sum, kernels::OpKind::Min, kernels::OpKind::Max})
      for (int block : {256, 1024}) {
        const auto facts = session.set_input(kernels::DType::Int, op, n, seed + n);
        for (auto algo : {kernels::Algo::WarpShuffleVectorized, kernels::Algo::WorkQueue}) {
          const auto t =
              session.time(kernels::gpu_plan(algo, {1, n}, {block, 0, 0}, 4, false), op, quick_settings, nullptr);
          EXPECT_GE(t.samples, 10);
          EXPECT_EQ(t.result, facts.expected) << "n=" << n << " block=" << block << " op=" << int(op) << " algo=" << int(algo);
        }
      }
}

TEST(Gpu, OutOfMemoryIsReportedAndTheNextRunWorks) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  if (quick()) GTEST_SKIP() << "SKIPPED: not under the sanitizers (they hold GPU memory of their own)";
  // Take all but 1 GiB of the GPU's memory, as another program might.
  std::size_t free = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
  void* hog = nullptr;
  const std::size_t keep = std::size_t(1) << 30;
  ASSERT_GT(free, 2 * keep);
  ASSERT_EQ(cudaMalloc(&hog, free - keep), cudaSuccess);
  const std::size_t n = std::size_t(1) << 29;  // 2 GiB of floats: no longer fits
  const std::vector<float> big(n, 0.5f);
  try {
    on_gpu<float>(kernels::Algo::Sequential, kernels::OpKind::Sum, big.data(), n, {256, 0, 0});
    ADD_FAILURE() << "expected an out-of-memory error";
  } catch (const kernels::CudaError& e) {
    EXPECT_NE(std::string(e.what()).find("of GPU memory;"), std::string::npos) << e.what();
  }
  {
    kernels::BenchSession session;
    try {
      session.set_input(kernels::DType::Float, kernels::OpKind::Sum, n, 1);
      ADD_FAILURE() << "expected the benchmark to refuse";
    } catch (const kernels::CudaError& e) {
      EXPECT_NE(std::string(e.what()).find("GPU memory"), std::string::npos) << e.what();
    }
    // Still usable: a smaller input is measured at once, and right.
    const auto facts = session.set_input(kernels::DType::Int, kernels::OpKind::Sum, 1 << 20, 2);
    const auto t =
        session.time(kernels::gpu_plan(kernels::Algo::WarpShuffleVectorized, {1, 1 << 20}, {256, 0, 0}, 4, false),
                     kernels::OpKind::Sum, {}, nullptr);
    EXPECT_EQ(t.result, facts.expected);
  }
  ASSERT_EQ(cudaFree(hog), cudaSuccess);
  EXPECT_EQ(on_gpu<float>(kernels::Algo::Sequential, kernels::OpKind::Sum, big.data(), n, {256, 0, 0}),
            float(n) * 0.5f);
}

// Index arithmetic in 64 bits: an array past 2^31 elements (8 GiB of ints), every element
// counted once. Values follow a hash of the index, so a skipped or repeated stretch shows.
TEST(Gpu, ArraysPastTwoToThe31ElementsReduceExactly) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  if (quick()) GTEST_SKIP() << "SKIPPED: not in the sanitizers' quick set (8 GiB)";
  const std::size_t n = (std::size_t(1) << 31) + 17;
  std::vector<int> in(n);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    in[i] = int((std::uint32_t(i) * 2654435761u) >> 27) - 16;  // [-16, 15]
    sum += in[i];
  }
  in[n - 1] = 1000;  // the maximum sits at the very end
  sum += 1000 - (int((std::uint32_t(n - 1) * 2654435761u) >> 27) - 16);
  const int expect = int(std::uint32_t(std::uint64_t(sum)));
  using kernels::Algo;
  for (Algo a : {Algo::Sequential, Algo::FirstAddOnLoad, Algo::MultiplePerThread, Algo::WarpShuffleVectorized, Algo::WorkQueue,
                 Algo::CgTwoPhase, Algo::CgGridSync, Algo::ThreadfenceSinglePass}) {
    SCOPED_TRACE(int(a));
    std::fprintf(stderr, "past 2^31: algorithm %d\n", int(a));
    EXPECT_EQ(on_gpu<int>(a, kernels::OpKind::Sum, in.data(), n, {256, 0, 0}), expect);
  }
  EXPECT_EQ(on_gpu<int>(Algo::WarpShuffleVectorized, kernels::OpKind::Max, in.data(), n, {256, 0, 0}), 1000);
  EXPECT_EQ(kernels::cub_reduce<int>(kernels::OpKind::Sum, in.data(), n), expect);
}
#endif  // REDLAB_HAS_CUDA

// The determinism lab on the GPU: runs of every kernel over the same 2^20 floats (ints where it
// takes no float), the distinct results counted. A row whose order is fixed (kernels::run_to_run)
// gives one bit pattern every time; every result of one whose blocks meet in arrival order lies
// within rounding of the reference. The counts are printed (the report quotes them).
TEST(Gpu, RepeatedRunsDifferOnlyWhereTheRowSaysTheyMay) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  const int runs = quick() ? 3 : 20;
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& id : comparable_ids()) {
    const kernels::RunToRun promise = kernels::run_to_run(kernels::row(backend::kernel_algo(id)));
    if (promise == kernels::RunToRun::Pitfall) continue;  // they race on purpose (GpuRace below)
    const core::DType type = test::types_of(id).size() > 1 ? core::DType::Float : test::types_of(id).front();
    const int log2n = id == "global-halving" ? 16 : 20;  // its traces hold the whole array
    const auto input = test::random_values(std::size_t(1) << log2n, type, seed);
    const backend::TraceRequest req{id, core::Op::Sum, type, 256, 0, input};
    const auto r = backend::repeat_trace(*gpu, req, runs);
    ASSERT_EQ(r.runs, runs) << id;
    EXPECT_EQ(r.backend, "cuda") << id;
    EXPECT_TRUE(promise != kernels::RunToRun::Fixed || r.results.size() == 1u)
        << id << " adds in a fixed order, yet gave " << r.results.size() << " results";
    for (const auto& d : r.results)
      EXPECT_NEAR(d.result, test::reference(core::Op::Sum, input), test::sum_tolerance(type, input)) << id;
    std::printf("[ repeats  ] %s: %zu distinct %s sums in %d runs of 2^%d (%s)\n", id.c_str(), r.results.size(),
                core::to_string(type).c_str(), runs, log2n, std::string(kernels::to_string(promise)).c_str());
  }
}

#ifdef REDLAB_HAS_CUDA
// Every matrix kernel adds in a fixed order: the same outputs, bit for bit, run after run, at a
// shape where batched-rows-vectorized's rows take several chunks and a last block.
TEST(Gpu, MatrixRunsRepeatBitForBit) {
  std::string why;
  if (!kernels::cuda_available(&why)) NO_GPU(why);
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const kernels::Matrix m = quick() ? kernels::Matrix{65, 8200} : kernels::Matrix{257, 40000};
  const auto values = test::random_values(m.rows * m.cols, core::DType::Float, seed);
  const std::vector<float> in(values.begin(), values.end());
  for (const auto& id : core::matrix_ids()) {
    const auto algo = backend::kernel_algo(id);
    ASSERT_EQ(kernels::run_to_run(kernels::row(algo)), kernels::RunToRun::Fixed) << id;
    const auto first = on_gpu_matrix<float>(algo, kernels::OpKind::Sum, in.data(), m, {256, 0, 0});
    for (int run = 1; run < (quick() ? 2 : 5); ++run) {
      const auto again = on_gpu_matrix<float>(algo, kernels::OpKind::Sum, in.data(), m, {256, 0, 0});
      ASSERT_EQ(again.size(), first.size()) << id;
      EXPECT_EQ(std::memcmp(again.data(), first.data(), first.size() * sizeof(float)), 0) << id << " run " << run;
    }
  }
}
#endif  // REDLAB_HAS_CUDA

namespace {

// The race-revealing recording. Under the sanitizers (quick): a few runs of 2^16.
core::Race race_of(backend::Backend& gpu, const std::string& id, const std::vector<double>& input, core::Trace* out = nullptr) {
  const backend::TraceRequest req{id, core::Op::Sum, core::DType::Int, 1024, 0, input};
  core::Trace t = gpu.race(req, quick() ? 3 : 100);
  EXPECT_EQ(t.backend, "cuda");
  EXPECT_TRUE(t.race.has_value());
  // The replayed block's last stage leaves in cell 0 what the GPU wrote as the block's result.
  EXPECT_EQ(t.stages.back().shared->at(0), t.partials.at(std::size_t(t.race->block))) << id;
  if (out) *out = t;
  return t.race.value_or(core::Race{});
}

// Every stale read saw a value its cell held, in this run at some stage or in the model; a read
// before its write at the earliest racing stage (before any wrong value could spread) saw one of
// the model's. A late read may see a sum of late reads, which the model never holds.
void expect_consistent(const core::Trace& t) {
  const auto& race = *t.race;
  if (race.stale.empty()) return;
  const int first = race.stale.front().stage;
  for (const auto& x : race.stale) {
    std::set<double> model, run;
    for (const auto& m : race.meant) model.insert(m.at(std::size_t(x.cell)));
    for (const auto& s : t.stages) run.insert(s.shared->at(std::size_t(x.cell)));
    EXPECT_TRUE(model.count(x.seen) || run.count(x.seen)) << core::describe(x);
    if (x.stage == first && x.early) {
      EXPECT_TRUE(model.count(x.seen)) << "earliest racing stage: " << core::describe(x);
    }
  }
}

}  // namespace

// The race-revealing recording on 2^20 random ints (2^16 under the sanitizers), block 1024.
class GpuRace : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    gpu_ = backend::make_cuda_backend(&why);
    if (!gpu_) NO_GPU(why);
    std::printf("[ seed     ] REDLAB_TEST_SEED=%llu\n", static_cast<unsigned long long>(test::test_seed()));
    input_ = test::random_values(std::size_t(1) << (quick() ? 16 : 20), core::DType::Int, test::test_seed());
  }
  std::unique_ptr<backend::Backend> gpu_;
  std::vector<double> input_;
};

TEST_F(GpuRace, TheMissingBarrierIsCaughtInTheAct) {
  core::Trace t;
  const core::Race race = race_of(*gpu_, "missing-syncthreads", input_, &t);
  int blocks = 0;
  for (int w : race.wrong_blocks) blocks += w;
  std::printf("[ race     ] missing-syncthreads: %d of %d runs wrong, %d wrong blocks (of %zu a run); run %d, block %d "
              "replayed: %zu stale reads\n", core::wrong_runs(race), race.runs, blocks, race.blocks, race.first_wrong + 1,
              race.block, race.stale.size());
  if (quick()) return;  // a few runs under the sanitizers need not race
  ASSERT_GE(race.first_wrong, 0) << "no run of 100 went wrong";
  EXPECT_FALSE(race.stale.empty());
  EXPECT_FALSE(race.path.empty()) << "the block's wrong result is not traced back to a stale read";
  EXPECT_GE(core::wrong_runs(race), 1);
  expect_consistent(t);
}

TEST_F(GpuRace, TheFixesNeverRace) {
  for (const char* id : {"sequential", "unroll-last-warp"}) {
    const core::Race race = race_of(*gpu_, id, input_);
    EXPECT_EQ(core::wrong_runs(race), 0) << id;
    EXPECT_EQ(race.first_wrong, -1) << id;
    EXPECT_TRUE(race.stale.empty()) << id << ": " << (race.stale.empty() ? "" : core::describe(race.stale[0]));
    for (int w : race.wrong_blocks) EXPECT_EQ(w, 0) << id;
  }
}

// The warp-synchronous pitfall may or may not go wrong on a given GPU; what it reports is checked.
TEST_F(GpuRace, TheLegacyWarpIsReportedConsistently) {
  core::Trace t;
  const core::Race race = race_of(*gpu_, "legacy-warp-synchronous", input_, &t);
  std::printf("[ race     ] legacy-warp-synchronous: %d of %d runs wrong; %zu stale reads replayed\n",
              core::wrong_runs(race), race.runs, race.stale.size());
  EXPECT_TRUE(race.first_wrong < 0 || !race.stale.empty()) << "a block went wrong with no stale read replayed";
  expect_consistent(t);
}

TEST(Gpu, ModelOnlyAlgorithmsSayTheyAreTheModel) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  const auto t = gpu->trace({"syncthreads-in-branch", core::Op::Sum, core::DType::Int, 32, 0, std::vector<double>(32, 2)});
  EXPECT_EQ(t.backend, "sim");
  EXPECT_NE(t.device.find("CPU model"), std::string::npos);
}

TEST(Gpu, NanAndInfGiveTheModelsResults) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  auto model = backend::make_sim_backend();
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  for (const auto& id : comparable_ids())
    for (std::size_t n : quick() ? std::vector<std::size_t>{33} : std::vector<std::size_t>{33, 1000, 4099})
      for (auto type : test::types_of(id).size() > 1 ? std::vector{core::DType::Float, core::DType::Double}
                                                     : std::vector<core::DType>{})
        for (int special = 0; special < 3; ++special)  // a NaN; +inf; +inf and -inf
          for (auto op : test::ops_of(id, type)) {
            auto values = test::random_values(n, type, rng());
            const std::size_t at = rng() % n;
            values[at] = special == 0 ? nan : inf;
            if (special == 2) values[(at + 1) % n] = -inf;
            const int block = id == "non-pow2-block" ? 270 : 128;
            backend::TraceRequest req{id, op, type, block, 0, values};
            SCOPED_TRACE(id + " n=" + std::to_string(n) + " special=" + std::to_string(special) + " at=" +
                         std::to_string(at) + " " + core::to_string(op) + " " + core::to_string(type));
            if (id == "cg-reduce-update-async" && op != core::Op::Sum && special == 0) {
              EXPECT_THROW(gpu->trace(req), std::invalid_argument);
              continue;
            }
            const core::Trace g = gpu->trace(req);
            req.grid = g.grid;
            req.tickets = g.tickets;  // work-queue: blocks take tickets in the order they free up
            expect_identical(g, model->trace(req), true, 0);
            if (HasFailure()) return;
          }
}

namespace {

std::string today() {
  const std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", std::gmtime(&now));
  return buf;
}

}  // namespace

// Records tests/data/golden when REDLAB_RECORD_GOLDEN names a folder (scripts/gpu-suite.sh golden):
// each case's last block (or the one it names), kept only if the CPU model replays it.
TEST(Gpu, RecordGoldenTraces) {
  const char* dir = std::getenv("REDLAB_RECORD_GOLDEN");
  if (!dir) GTEST_SKIP() << "SKIPPED: REDLAB_RECORD_GOLDEN is not set: nothing to record";
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  auto model = backend::make_sim_backend();
  for (const auto& c : test::golden_cases()) {
    SCOPED_TRACE(c.name);
    const auto path = std::filesystem::path(dir) / (c.name + ".json");
    if (std::filesystem::exists(path) && !std::getenv("REDLAB_RECORD_ALL")) continue;  // recorded before: kept
    const auto first = gpu->trace(test::golden_request(c, 0, 0, {}));
    const int traced = c.trace_block < 0 ? test::last_traced(c.algorithm, first.grid, c.cluster) : c.trace_block;
    const core::Trace t = gpu->trace(test::golden_request(c, traced, 0, {}));
    expect_identical(t, model->trace(test::golden_request(c, traced, t.grid, t.tickets)),
                     !test::atomic_float_sum(c.algorithm, c.type, c.op), test::sum_tolerance(c.type, test::golden_values(c)));
    if (HasFailure()) return;
    std::ofstream(path) << test::golden_json(t, today());
  }
}

// The committed recordings still describe this GPU: the same request, on the recorded grid,
// gives the recorded trace bit for bit (work-queue's tickets go as this run goes, so there the
// CPU model replays this run instead).
TEST(Gpu, GoldenTracesStillMatchThisGpu) {
  std::string why;
  auto gpu = backend::make_cuda_backend(&why);
  if (!gpu) NO_GPU(why);
  auto model = backend::make_sim_backend();
  for (const auto& c : test::golden_cases()) {
    SCOPED_TRACE(c.name);
    const auto file = test::read_golden(c);
    const core::Trace t = gpu->trace(test::golden_request(c, file.trace.trace_block, file.trace.grid, {}));
    const double tol = test::sum_tolerance(c.type, test::golden_values(c));
    const bool exact = !test::atomic_float_sum(c.algorithm, c.type, c.op);
    if (c.algorithm == "work-queue") expect_identical(t, model->trace(test::golden_request(c, t.trace_block, t.grid, t.tickets)), exact, tol);
    else expect_identical(t, test::with_words_of(file.trace, t), exact, tol);
  }
}

#ifdef REDLAB_HAS_CUDA
// ---- kernels of your own (app/own/, docs/own-kernel.md) ------------------------------------
namespace rl {
namespace {

// A CUDA device is there (the error a failed query leaves is cleared).
bool cuda_device() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) return true;
  cudaGetLastError();
  return false;
}

// Values of the type, drawn: ints in [-1000, 1000], the others multiples of 1/128 in [-78, 78]
// (rounded to half or bf16 where the type is one of them).
std::vector<unsigned char> own_input(std::size_t n, const std::string& type, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> values(n);
  for (double& v : values)
    v = type == "int" ? double(std::int64_t(rng() % 2001) - 1000) : double(std::int64_t(rng() % 20001) - 10000) / 128.0;
  for (double& v : values) v = core::round_to_type(v, own::own_dtype(type));
  return own::bytes_of(values, type);
}

// The same student's file on the GPU and on the CPU path (the same PTX source, interpreted):
// every barrier's line, parameter and shared memory, every rl_lanes step, every block's result and
// the final value, bit for bit.
TEST(Gpu, OwnStartersOnTheGpuEqualTheCpuPathBitForBit) {
  if (!cuda_device()) NO_GPU("no CUDA device");
  std::string why;
  if (!own::nvrtc_ready(&why)) FAIL() << why;
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::string_view file : embedded::own_file_names()) {
    if (file == "reduction_lab" || file == "template") continue;
    for (const char* type : {"float", "int", "half", "bf16"})  // half and bf16: reduction_lab.cuh's rl_half, rl_bf16
      for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(65536 + 13)}) {
        SCOPED_TRACE(std::string(file) + " " + type + " n=" + std::to_string(n));
        own::OwnRequest r;
        r.source = std::string(embedded::own_file(file)), r.file = std::string(file) + ".cu", r.value_type = type;
        r.input = own_input(n, type, seed + n), r.block = 256, r.trace_block = n > 600 ? 1 : 0;
        cudaDeviceProp prop{};
        ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
        r.device.sms = std::uint64_t(prop.multiProcessorCount);
        r.device.threads_per_sm = std::uint64_t(prop.maxThreadsPerMultiProcessor);
        const own::OwnRun gpu = own::run_on_gpu(r);
        const own::OwnRun cpu = own::run_on_cpu(r);
        ASSERT_TRUE(cpu.findings.empty()) << cpu.findings[0].text;
        ASSERT_EQ(gpu.grids, cpu.grids);
        ASSERT_EQ(gpu.stages.size(), cpu.stages.size());
        for (std::size_t k = 0; k < gpu.stages.size(); ++k) {
          EXPECT_EQ(gpu.stages[k].line, cpu.stages[k].line) << "stage " << k;
          EXPECT_EQ(gpu.stages[k].param, cpu.stages[k].param) << "stage " << k;
          ASSERT_EQ(gpu.stages[k].shared, cpu.stages[k].shared) << "stage " << k;
        }
        ASSERT_EQ(gpu.lanes, cpu.lanes);
        ASSERT_EQ(gpu.callers, cpu.callers);
        ASSERT_EQ(gpu.first_outputs, cpu.first_outputs);
        ASSERT_EQ(gpu.result, cpu.result);
        const own::Agreement a =  // the window's badge says the same
            own::agreement(own::own_trace(r, gpu, core::Op::Sum), own::own_trace(r, cpu, core::Op::Sum));
        ASSERT_TRUE(a.compared && a.equal) << a.text;
      }
  }
}

// A kernel of your own launched cooperatively (grid-sync.cu): on the GPU its blocks wait for each
// other at rl_grid_sync(), and every block's total and the result equal the CPU path's, bit for
// bit, at an odd size. A grid the SMs' threads allow but the kernel's shared memory does not
// (blocks of 1024 threads with 200 KiB each: one an SM, not two) is refused before it launches,
// in words.
TEST(Gpu, OwnCooperativeLaunchWaitsAndIsRefusedPastWhatTheGpuHolds) {
  if (!cuda_device()) NO_GPU("no CUDA device");
  std::string why;
  if (!own::nvrtc_ready(&why)) FAIL() << why;
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  cudaDeviceProp prop{};
  ASSERT_EQ(cudaGetDeviceProperties(&prop, 0), cudaSuccess);
  own::OwnRequest r;
  r.source = std::string(embedded::own_file("grid-sync")), r.file = "grid-sync.cu", r.value_type = "float";
  r.input = own_input(100003, "float", seed), r.block = 256;
  r.device.sms = std::uint64_t(prop.multiProcessorCount);
  r.device.threads_per_sm = std::uint64_t(prop.maxThreadsPerMultiProcessor);
  const own::OwnRun gpu = own::run_on_gpu(r), cpu = own::run_on_cpu(r);
  ASSERT_TRUE(cpu.findings.empty()) << cpu.findings[0].text;
  ASSERT_EQ(gpu.grids, cpu.grids);
  EXPECT_EQ(gpu.first_outputs, cpu.first_outputs) << "every block's total";
  EXPECT_EQ(gpu.result, cpu.result);
  std::string big = r.source;
  const auto line = [&](const std::string& key, const std::string& value) {
    const std::size_t at = big.find("//! " + key + ": ");
    big.replace(at, big.find('\n', at) - at, "//! " + key + ": " + value);
  };
  line("shared", "200 * 1024"), line("grid", "sms * 2");
  r.source = big, r.block = 1024;
  std::string refused;
  try {
    own::run_on_gpu(r);
  } catch (const std::exception& e) {
    refused = e.what();
  }
  EXPECT_NE(refused.find("blocks in a cooperative launch, where this GPU holds " +
                         std::to_string(prop.multiProcessorCount) + " of these blocks at once (1 an SM"),
            std::string::npos)
      << refused;
}

// Large sizes on the GPU alone, against the exact int sum: more than 2^24 elements, not a
// multiple of the block.
TEST(Gpu, OwnStartersSumLargeIntArraysExactly) {
  if (!cuda_device()) NO_GPU("no CUDA device");
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::string_view file : embedded::own_file_names()) {
    if (file == "reduction_lab" || file == "template") continue;
    const std::size_t n = (std::size_t(1) << 24) + 1001;
    own::OwnRequest r;
    r.source = std::string(embedded::own_file(file)), r.file = std::string(file) + ".cu", r.value_type = "int";
    r.input = own_input(n, "int", seed), r.block = 256;
    const own::OwnRun gpu = own::run_on_gpu(r);
    std::int64_t exact = 0;
    for (std::size_t i = 0; i < n; ++i) {
      std::int32_t v;
      std::memcpy(&v, r.input.data() + 4 * i, 4);
      exact += v;
    }
    std::int32_t got;
    std::memcpy(&got, gpu.result.data(), 4);
    EXPECT_EQ(got, std::int32_t(std::uint32_t(exact))) << file;
  }
}

// What `trace --kernel --backend cuda` and the window do: the GPU's trace, the CPU path's beside
// it (equal for a race-free starter), the other sizes checked on the GPU up to 2^24 + 3.
TEST(Gpu, OwnRunsAreComparedWithTheCpuPathAndCheckedAtEverySize) {
  if (!cuda_device()) NO_GPU("no CUDA device");
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  own::OwnRequest r;
  r.source = std::string(embedded::own_file("reduce3")), r.file = "reduce3.cu", r.value_type = "int";
  r.input = own_input(100000, "int", seed), r.block = 256, r.trace_block = 3;
  own::Compared both = own::trace_on_both(r, core::Op::Sum, seed % 1000 + 1);
  EXPECT_TRUE(both.agreement.compared && both.agreement.equal) << both.agreement.text;
  EXPECT_TRUE(both.trace.findings.empty()) << both.trace.findings[0].text;
  EXPECT_EQ(both.trace.backend, "cuda");
}

// REDLAB_PROGRAM (a path) where set, else this program beside the test (the GPU pack puts both in
// one folder; the build tree one up). Not REDLAB_BINARY: that is the scripts' command line
// (".gpu/run.sh .gpu/bin/...", exported by scripts/gpu-suite.sh), no path to start a process from.
std::string lab_program() {
  if (const char* p = std::getenv("REDLAB_PROGRAM"); p && *p) return p;
  const std::filesystem::path here = std::filesystem::path(own::this_program()).parent_path();
  for (const auto& p : {here / "reduction-lab", here.parent_path() / "reduction-lab"})
    if (std::filesystem::exists(p)) return p.string();
  return "";
}

// The window's GPU path: a run in a process of its own gives the trace an in-process GPU run
// gives, bit for bit; a kernel that never ends is stopped by the watchdog, and the GPU works after.
TEST(Gpu, OwnRunsInAProcessOfTheirOwnAndAHungKernelEndsOnlyThat) {
  if (!cuda_device()) NO_GPU("no CUDA device");
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::string program = lab_program();
  ASSERT_FALSE(program.empty()) << "reduction-lab not found beside gpu_test (set REDLAB_PROGRAM)";
  own::OwnRequest r;
  r.source = std::string(embedded::own_file("reduce3")), r.file = "/somewhere/reduce3.cu", r.value_type = "float";
  r.input = own_input(65549, "float", seed), r.block = 256, r.trace_block = 1;
  const core::Trace here = own::trace_own(r, true, core::Op::Sum, 0);
  const auto timed = [&](std::unique_ptr<own::Standby> ready) {
    const auto t0 = std::chrono::steady_clock::now();
    const core::Trace t =
        own::trace_in_process(r, core::Op::Sum, {program, "cuda", 60, false}, nullptr, std::move(ready));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return std::make_pair(t, ms);
  };
  const auto [there, fresh_ms] = timed(nullptr);
  const own::Agreement a = own::agreement(there, here);
  EXPECT_TRUE(a.compared && a.equal) << a.text;
  EXPECT_EQ(there.backend, "cuda");
  // The window's next run goes to a standby process started before it (own_process.h): CUDA's
  // start is behind it. Timed for the report (docs/verification.md), not asserted.
  for (int i = 0; i < 3; ++i) {
    auto standby = std::make_unique<own::Standby>(program);
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const auto [warm, warm_ms] = timed(std::move(standby));
    EXPECT_TRUE(own::agreement(warm, here).equal);
    std::printf("the GPU run at 65549 floats, --no-check: a new process %.0f ms, a standby %.0f ms\n", fresh_ms,
                warm_ms);
  }

  own::OwnRequest spin = r;
  spin.source =
      "#include \"reduction_lab.cuh\"\n//! kernel: spin\n//! block: 32\n//! grid: 1\n//! passes: one\n"
      "__global__ void spin(const value_t* in, value_t* out, unsigned int n) {\n"
      "  volatile value_t* o = out;\n  for (unsigned int i = 0;; ++i) *o = in[0] + value_t(i);\n}\n";
  spin.file = "spin.cu", spin.block = 32, spin.trace_block = 0;
  const auto start = std::chrono::steady_clock::now();
  std::string said;
  try {
    own::trace_in_process(spin, core::Op::Sum, {program, "cuda", 3});
  } catch (const std::runtime_error& e) {
    said = e.what();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(said.find("had not ended after 3 s and was stopped"), std::string::npos) << said;
  EXPECT_LT(s, 10);
  const own::Agreement after = own::agreement(own::trace_own(r, true, core::Op::Sum, 0), here);
  EXPECT_TRUE(after.compared && after.equal) << after.text;
  std::printf("a hung kernel's process stopped after %.1f s; this process's GPU runs after it\n", s);
}

// The Bandwidth tab's timing of a kernel of your own: bench --kernel in a child, its rows back.
TEST(Gpu, OwnKernelsAreTimedInAProcessOfTheirOwn) {
  if (!cuda_device()) NO_GPU("no CUDA device");
  const std::string program = lab_program();
  ASSERT_FALSE(program.empty()) << "reduction-lab not found beside gpu_test (set REDLAB_PROGRAM)";
  own::OwnRequest r;
  r.source = std::string(embedded::own_file("reduce3")), r.file = "/somewhere/reduce3.cu", r.value_type = "int";
  const core::BenchReport report =
      own::bench_in_process(r, {"--type", "int", "--sizes", "2^20,2^22", "--seconds", "0.2"}, {program, "cuda", 120});
  std::size_t own_rows = 0;
  for (const auto& row : report.rows) {
    if (row.algorithm != "own:reduce3") continue;
    ++own_rows;
    EXPECT_TRUE(row.check_ok) << row.check;
    EXPECT_GT(row.median_us, 0);
  }
  EXPECT_EQ(own_rows, 2u);
  EXPECT_EQ(report.backend, "cuda");
}

// A starter with its loop's barrier removed, on the GPU: the race only the CPU path names. A
// GpuRace test, so the suite's racecheck (which leaves GpuRace out) does not count its hazards.
TEST_F(GpuRace, AnOwnKernelsRaceIsNamedOnTheCpuPath) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  own::OwnRequest r;
  r.source = std::string(embedded::own_file("reduce2")), r.file = "reduce2.cu", r.value_type = "int";
  r.source.replace(r.source.rfind("__syncthreads();"), 16, "");
  r.input = own_input(100000, "int", seed), r.block = 256;
  const own::Compared both = own::trace_on_both(r, core::Op::Sum, seed % 1000 + 1);
  const auto race = std::find_if(both.trace.findings.begin(), both.trace.findings.end(),
                                 [](const core::Finding& f) { return f.kind == "race"; });
  ASSERT_NE(race, both.trace.findings.end());  // the GPU's value may be right or wrong; the race is named
  EXPECT_EQ(race->text.rfind("on the CPU path: ", 0), 0u) << race->text;
  // The CPU path goes on past its race, so the two runs are compared: equal where the GPU's warps
  // happened to run as the CPU path's did, else the first cell the race changed.
  EXPECT_TRUE(both.agreement.compared) << both.agreement.text;
  std::printf("racy reduce2 on the GPU beside the CPU path: %s\n", both.agreement.text.c_str());
}

// bench --kernel's timing: the catalog's harness over a starter, its value the exact int sum.
TEST(Gpu, OwnKernelsAreTimedWithTheCatalogsHarness) {
  if (!cuda_device()) NO_GPU("no CUDA device");
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  kernels::BenchSession session;
  kernels::BenchSettings settings;
  settings.max_seconds = 0.2;
  for (const char* file : {"reduce3", "reduce6", "warp-shuffle"})
    for (const std::size_t n : {std::size_t(1), std::size_t(1000003), (std::size_t(1) << 24) + 5}) {
      SCOPED_TRACE(std::string(file) + " n=" + std::to_string(n));
      const auto facts = session.set_input(kernels::DType::Int, kernels::OpKind::Sum, n, seed);
      own::OwnRequest r;
      r.source = std::string(embedded::own_file(file)), r.file = std::string(file) + ".cu", r.value_type = "int";
      const kernels::Timing t = own::time_own(r, n, session, settings, nullptr);
      EXPECT_EQ(t.result, facts.expected);
      EXPECT_GT(t.median_us, 0.0);
      // Under compute-sanitizer (the quick set) the harness gives up early: too slow to sample.
      if (!quick()) {
        EXPECT_GE(t.samples, settings.min_samples);
      }
    }
}

}  // namespace
}  // namespace rl
#endif  // REDLAB_HAS_CUDA
