// The matrix family on the CPU model: stages pinned on small hand-derived cases, results against
// a double reference at awkward shapes, refused shapes, and the coalescing counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>
#include <type_traits>
#include <random>

#include <nlohmann/json.hpp>

#include "app/backend/backend.h"
#include "app/core/catalog.h"
#include "app/core/facts.h"
#include "app/core/input.h"
#include "app/core/trace.h"
#include "kernels/matrix_shapes.h"
#include "kernels/stage_tags.h"
#include "test_support.h"

using namespace rl;

namespace {

// Element i of a matrix from iota holds i + 1.
core::Trace matrix_trace(const std::string& id, std::size_t rows, std::size_t cols, int block, int trace_block = 0,
                         std::vector<double> input = {}, core::Op op = core::Op::Sum,
                         core::DType type = core::DType::Int) {
  if (input.empty())
    for (std::size_t i = 0; i < rows * cols; ++i) input.push_back(double(i + 1));
  backend::TraceRequest req{id, op, type, block, trace_block, std::move(input)};
  req.rows = rows, req.cols = cols;
  return backend::make_sim_backend()->trace(req);
}

std::vector<long long> loads_of(const core::Stage& s, int thread) {
  for (const auto& l : s.loads)
    if (l.thread == thread) return l.elements;
  return {};
}

core::Access access_of(const core::Stage& s, int thread) {
  for (const auto& a : s.accesses)
    if (a.thread == thread) return a;
  return {thread, {}, {}, {}};
}

}  // namespace

TEST(Matrix, BatchedRowsStridesTheRowThenRunsTheTree) {
  const auto t = matrix_trace("batched-rows", 3, 70, 32, 1);
  EXPECT_EQ(t.grid, 3u);
  EXPECT_EQ(t.outputs, (std::vector<double>{2485, 7385, 12285}));  // sums of 1..70, 71..140, 141..210
  EXPECT_EQ(t.result, 7385);
  ASSERT_EQ(t.stages.size(), 6u);  // the row stride, then strides 16..1
  EXPECT_EQ(t.stages[0].tag, kernels::kTagRowStride);
  const auto& cells = *t.stages[0].shared;
  for (int c = 0; c < 32; ++c) EXPECT_EQ(cells[c], (71 + c) + (103 + c) + (c < 6 ? 135 + c : 0)) << c;
  EXPECT_EQ(loads_of(t.stages[0], 0), (std::vector<long long>{70, 102, 134}));
  EXPECT_EQ(loads_of(t.stages[0], 6), (std::vector<long long>{76, 108}));
  EXPECT_EQ(t.stages[1].param, 16);
  EXPECT_EQ((*t.stages.back().shared)[0], 7385);
  EXPECT_EQ(t.window.row, 0u);  // all three rows fit
  EXPECT_EQ(t.window.rows, 3u);
  EXPECT_EQ(t.window.cols, 32u);
  EXPECT_EQ(t.window.owned, [] {
    std::vector<std::uint8_t> v(96, 0);
    std::fill(v.begin() + 32, v.begin() + 64, 1);  // row 1 is the traced block's
    return v;
  }());
}

// 2 x 1000 in blocks of 32: at most 1000 / (32 x 8) = 3 chunks a row (eight loads a thread), of
// ceil(1000 / 3) = 334 columns rounded up to 384, a multiple of 64. Block 1 is row 0's second
// chunk, columns 384..767; the third chunk keeps the last 232.
TEST(Matrix, BatchedRowsSplitGivesFewRowsSeveralBlocks) {
  const auto t = matrix_trace("batched-rows-split", 2, 1000, 32, 1);
  EXPECT_EQ(t.grid, 6u);
  const auto lesson = core::fill_lessons(*core::find_algorithm("batched-rows-split"), t);
  EXPECT_NE(lesson.brief.find("This run: 6 blocks for 2 rows, 3 chunks a row."), std::string::npos) << lesson.brief;
  EXPECT_EQ(t.outputs, (std::vector<double>{500500, 1500500}));
  EXPECT_EQ(t.result, 500500);  // the traced block's row
  ASSERT_EQ(t.partials.size(), 6u);
  EXPECT_EQ(t.partials[1], (385 + 768) * 384 / 2);  // elements 384..767 hold 385..768
  EXPECT_EQ(t.partials[2], (769 + 1000) * 232 / 2);  // the narrower last chunk
  EXPECT_EQ(t.stages[0].tag, kernels::kTagRowStride);
  EXPECT_EQ((*t.stages[0].shared)[0], 12 * 385 + 32 * 66);  // 385, 417, ..., 737
  const auto first = loads_of(t.stages[0], 0);
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first.front(), 384);
  EXPECT_EQ(first[1], 416);
  EXPECT_EQ((*t.stages.back().shared)[0], t.partials[1]);
  const kernels::Matrix m{2, 1000};
  const auto grid = kernels::matrix_grid(kernels::Algo::BatchedRowsSplit, m, 32, 0, kernels::DeviceShape(132));
  EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsSplit, m, 32, grid.count(), kernels::DeviceShape(1)).x, grid.x);
}

// Random shapes and grids: every chunk starts on a multiple of 64 columns, none is empty, and
// the grid a trace records gives back the same chunks (the CPU model and `--grid` rely on it).
TEST(Matrix, BatchedRowsSplitChunksAreAlignedAndMapBack) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const auto algo : {kernels::Algo::BatchedRowsSplit, kernels::Algo::BatchedRowsVectorized})
    for (int i = 0; i < 2000; ++i) {
      const kernels::Matrix m{1 + rng() % 40, 1 + rng() % 300000};
      const std::size_t want = 1 + rng() % 5000;
      SCOPED_TRACE(std::string(kernels::row(algo).id) + " " + std::to_string(m.rows) + " x " + std::to_string(m.cols) +
                   ", grid " + std::to_string(want));
      const auto grid = kernels::matrix_grid(algo, m, 32, want, kernels::DeviceShape(1));
      const std::size_t w = kernels::split_chunk_cols(m, grid.x);
      EXPECT_TRUE(w % 64 == 0 || grid.x == 1);
      EXPECT_LT((grid.x - 1) * w, m.cols);  // the last chunk holds a column
      EXPECT_GE(grid.x * w, m.cols);
      EXPECT_EQ(kernels::matrix_grid(algo, m, 32, grid.count(), kernels::DeviceShape(1)).x, grid.x);
    }
}

// batched-rows-vectorized cuts rows into chunks of 32 elements a thread, however many blocks that
// makes (the row's last block folds them in the same launch); batched-rows-split aims for two
// waves: 16 rows of 2^24 in blocks of 1024 on 132 SMs of 2048 threads get 512 and 33 chunks a row.
TEST(Matrix, BatchedRowsVectorizedTakesChunksOfThirtyTwoElementsAThread) {
  const kernels::Matrix m{16, std::size_t(1) << 24};
  EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsVectorized, m, 1024, 0, kernels::DeviceShape(132)).x, 512u);
  EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsSplit, m, 1024, 0, kernels::DeviceShape(132)).x, 33u);
  EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsVectorized, {256, std::size_t(1) << 20}, 1024, 0,
                                 kernels::DeviceShape(132)).x, 32u);  // 2^20 / (1024 x 32)
  EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsVectorized, {256, std::size_t(1) << 20}, 1024, 0,
                                 kernels::DeviceShape(8)).x, 32u);  // the device does not change it
  EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsVectorized, {16384, 16384}, 1024, 0,
                                 kernels::DeviceShape(132)).x, 1u);  // a row under 32 elements a thread: one chunk
  EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsVectorized, {3, 100000}, 256, 0, kernels::DeviceShape(132)).x,
            12u);  // 100000 / (256 x 32) = 12.2: chunks of 8384 columns, the last 7776
  for (const kernels::Matrix shape : {m, kernels::Matrix{3, 4100}, kernels::Matrix{1, 1000}})  // the own grid maps back
    for (int block : {32, 256, 1024}) {
      const auto own = kernels::matrix_grid(kernels::Algo::BatchedRowsVectorized, shape, block, 0, kernels::DeviceShape(132));
      EXPECT_EQ(kernels::matrix_grid(kernels::Algo::BatchedRowsVectorized, shape, block, own.count(), kernels::DeviceShape(1)).x,
                own.x) << shape.rows << " x " << shape.cols << " block " << block;
    }
  EXPECT_TRUE(kernels::matrix_second_pass(kernels::Algo::BatchedRowsVectorized, {16, 16}));
  EXPECT_FALSE(kernels::matrix_second_pass(kernels::Algo::BatchedRowsVectorized, {1, 256}));
}

// batched-rows-vectorized's rows end with their first block waiting only from kFirstWaitsMinChunks
// chunks a row (measured: docs/benchmarks.md), at most a block's threads of them, 4-byte results
// and a block of one row of threads; the GPU test checks the cooperative launch's part.
TEST(Matrix, RowsEndWithTheFirstBlockWaitingOnlyFromSixteenChunksARow) {
  const std::size_t fewest = kernels::kFirstWaitsMinChunks;
  EXPECT_EQ(fewest, 16u);
  EXPECT_TRUE(kernels::first_waits_shape(fewest, 256, 1, 4));
  EXPECT_FALSE(kernels::first_waits_shape(fewest - 1, 256, 1, 4));
  EXPECT_TRUE(kernels::first_waits_shape(256, 256, 1, 4));
  EXPECT_FALSE(kernels::first_waits_shape(257, 256, 1, 4));  // a word a thread of the first block
  EXPECT_FALSE(kernels::first_waits_shape(64, 256, 1, 8));   // doubles: a result and its bit in 8 bytes
  EXPECT_FALSE(kernels::first_waits_shape(64, 256, 1, 2));
  EXPECT_FALSE(kernels::first_waits_shape(64, 64, 4, 4));
  EXPECT_FALSE(kernels::first_waits_shape(1, 256, 1, 4));
}

// A trace says where a row's first block waited (a GPU run's record; the model ends rows with the
// ticket): the field travels through JSON and is refused where no row's first block could have
// waited (the model's run, a second launch, too few chunks a row, an array).
TEST(Matrix, ATraceSaysWhereTheRowsFirstBlockWaited) {
  core::Trace t = matrix_trace("batched-rows-vectorized", 2, 1 << 15, 32);  // 32 chunks a row of 1024 ints
  ASSERT_TRUE(kernels::first_waits_shape(t.grid / t.rows, 32, 1, 4)) << t.grid << " blocks";
  EXPECT_FALSE(t.first_block_waits);
  EXPECT_EQ(nlohmann::json::parse(core::to_json(t)).count("first_block_waits"), 0u);
  t.first_block_waits = true;
  const auto refused_text = [](const std::string& bad, const char* what) {
    try {
      core::trace_from_json(bad);
      ADD_FAILURE() << what << " with first_block_waits was accepted";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("'first_block_waits'"), std::string::npos) << e.what();
    }
  };
  const auto refused = [&](const core::Trace& bad, const char* what) { refused_text(core::to_json(bad), what); };
  refused(t, "the model's trace");
  t.backend = "cuda";  // as a GPU run records it
  EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);
  core::Trace split = matrix_trace("batched-rows-split", 2, 1000, 32);  // a second launch folds
  split.first_block_waits = true, split.backend = "cuda";
  refused(split, "a second launch's trace");
  core::Trace few = matrix_trace("batched-rows-vectorized", 2, 4096, 32);  // 4 chunks a row
  few.first_block_waits = true, few.backend = "cuda";
  refused(few, "a trace of 4 chunks a row");
  backend::TraceRequest array{"warp-shuffle",
                              core::Op::Sum,
                              core::DType::Int,
                              32,
                              0,
                              test::random_values(100, core::DType::Int, test::test_seed())};
  auto flat = nlohmann::json::parse(core::to_json(backend::make_sim_backend()->trace(array)));
  flat["backend"] = "cuda", flat["first_block_waits"] = true;
  refused_text(flat.dump(), "an array's trace");
  auto j = nlohmann::json::parse(core::to_json(t));
  j["first_block_waits"] = "yes";
  EXPECT_THROW(core::trace_from_json(j.dump()), std::runtime_error);
}

// The launcher, the model and the views all ask this one question: a second launch only where
// the first leaves several partials a line.
TEST(Matrix, ASecondPassOnlyWhereTheFirstLeavesSeveralPartialsALine) {
  using kernels::Algo;
  EXPECT_TRUE(kernels::matrix_second_pass(Algo::ColumnSums, {4, 2}));   // 2 chunks of rows
  EXPECT_FALSE(kernels::matrix_second_pass(Algo::ColumnSums, {4, 1}));  // one chunk: phase 1 writes out
  EXPECT_TRUE(kernels::matrix_second_pass(Algo::BatchedRowsSplit, {3, 2}));
  EXPECT_FALSE(kernels::matrix_second_pass(Algo::BatchedRowsSplit, {1, 2}));  // one chunk a row
  EXPECT_TRUE(kernels::matrix_second_pass(Algo::Block2d, {1, 1}));
  EXPECT_FALSE(kernels::matrix_second_pass(Algo::BatchedRows, {5, 1}));
  EXPECT_FALSE(kernels::matrix_second_pass(Algo::ColumnSumsNaive, {5, 1}));
}

// batched-rows-split's second pass at 100 chunks a row in blocks of 64: thread t adds chunk
// results t and t + 64, then the shared-memory tree halves from stride 32, across the two warps.
// A shuffle per warp would add in another order; at 2 and 9 chunks (the tests before) the two
// orders agree. Each chunk here holds one nonzero element, so its result is that element, and
// the values span 2^0 to 2^24 so that every order rounds differently (issue 48).
TEST(Matrix, BatchedRowsSplitsSecondPassAddsInTheTreesOrder) {
  const auto seed = test::test_seed();
  constexpr int kChunks = 100, kBlock = 64, kWidth = 512;  // 64 threads x 8 loads a chunk
  const auto fold = [](const std::vector<float>& part, int t) {
    float a = 0.0f;
    for (int c = t; c < kChunks; c += kBlock) a = a + part[std::size_t(c)];
    return a;
  };
  for (std::uint64_t attempt = 0; attempt < 100; ++attempt) {  // values whose two orders differ
    std::mt19937_64 rng(seed + attempt);
    std::vector<float> part(kChunks);
    std::vector<double> input(std::size_t(kChunks) * kWidth, 0.0);
    for (int c = 0; c < kChunks; ++c) {
      part[std::size_t(c)] = test::order_revealing_float(rng);
      input[std::size_t(c) * kWidth + rng() % kWidth] = part[std::size_t(c)];
    }
    std::vector<float> tree(kBlock), lanes(kBlock);
    for (int t = 0; t < kBlock; ++t) tree[std::size_t(t)] = lanes[std::size_t(t)] = fold(part, t);
    for (int stride = kBlock / 2; stride > 0; stride /= 2)
      for (int t = 0; t < stride; ++t) tree[std::size_t(t)] = tree[std::size_t(t)] + tree[std::size_t(t + stride)];
    for (int w = 0; w < kBlock; w += 32)  // a shuffle's order: each warp alone, then the two totals
      for (int offset = 16; offset > 0; offset /= 2)
        for (int l = 0; l < offset; ++l)
          lanes[std::size_t(w + l)] = lanes[std::size_t(w + l)] + lanes[std::size_t(w + l + offset)];
    if (tree[0] == lanes[0] + lanes[32]) continue;
    SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed) + ", attempt " + std::to_string(attempt));
    const auto t = matrix_trace("batched-rows-split", 1, std::size_t(kChunks) * kWidth, kBlock, 0, input, core::Op::Sum,
                                core::DType::Float);
    ASSERT_EQ(t.grid, std::size_t(kChunks));
    ASSERT_EQ(t.outputs.size(), 1u);
    EXPECT_EQ(t.outputs[0], double(tree[0]));
    return;
  }
  FAIL() << "no values of 100 tries add differently in the two orders";
}

// Enough rows fill the device alone: one chunk a row, and the outputs are batched-rows' own.
TEST(Matrix, BatchedRowsSplitKeepsOneBlockARowWhenRowsAreMany) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto input = test::random_values(9000 * 40, core::DType::Float, seed);
  const auto split = matrix_trace("batched-rows-split", 9000, 40, 32, 7, input, core::Op::Sum, core::DType::Float);
  const auto rows = matrix_trace("batched-rows", 9000, 40, 32, 7, input, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(split.grid, 9000u);
  EXPECT_EQ(split.outputs, rows.outputs);
  EXPECT_EQ(split.stages.back().shared, rows.stages.back().shared);
}

// batched-rows-vectorized, 2 x 4096 ints in blocks of 32: 4096 / (32 x 32) = 4 chunks a row of
// 1024 columns, 256 int4 vectors. Block 5 is row 1's second chunk, elements 5120..6143: thread t
// loads vectors t, t + 32, ..., t + 224 of it, in two batches of four in flight, 16 bytes each.
TEST(Matrix, BatchedRowsVectorizedLoadsSixteenBytesALane) {
  const auto t = matrix_trace("batched-rows-vectorized", 2, 4096, 32, 5);
  EXPECT_EQ(t.grid, 8u);
  const auto lesson = core::fill_lessons(*core::find_algorithm("batched-rows-vectorized"), t);
  EXPECT_NE(lesson.brief.find("touch 16 sectors of 32 bytes, in 8 blocks for 2 rows, 4 chunks a row."),
            std::string::npos)
      << lesson.brief;
  EXPECT_EQ(t.outputs, (std::vector<double>{4096.0 * 4097 / 2, 8192.0 * 8193 / 2 - 4096.0 * 4097 / 2}));
  ASSERT_EQ(t.partials.size(), 8u);
  EXPECT_EQ(t.partials[5], (5121 + 6144) * 1024 / 2);
  ASSERT_EQ(t.stages.size(), 13u);  // the loads, five shuffles, warp sums, the final load and five shuffles
  EXPECT_EQ(t.stages[0].tag, kernels::kTagRowVector);
  EXPECT_EQ(t.stages[0].loads[0],
            (core::Load{0, {5120, 5248, 5376, 5504, 5632, 5760, 5888, 6016}, {4, 4, 4, 4, 4, 4, 4, 4}}));
  EXPECT_EQ(loads_of(t.stages[0], 3), (std::vector<long long>{5132, 5260, 5388, 5516, 5644, 5772, 5900, 6028}));
  for (int k = 0; k < 8; ++k) EXPECT_EQ(core::warp_loads(t.stages[0], 4)[std::size_t(k)], (core::WarpLoad{0, k, 32, 16, 16}));
  double lane3 = 0;
  for (int k = 0; k < 8; ++k)
    for (int e = 0; e < 4; ++e) lane3 += 5132 + 128 * k + e + 1;
  EXPECT_EQ((*t.stages[0].lanes)[3], lane3);
  EXPECT_EQ((*t.stages.back().lanes)[0], t.partials[5]);
}

// Rows of 30 ints (120 bytes) do not all start on 16 bytes: row 1 starts at element 30, two
// before a boundary, so its body is elements 32..59 in 7 vectors (threads 0..6) and its head 30
// and 31 go to threads 0 and 1 after their vector; no tail. Doubles take 2-element vectors. 448
// columns in blocks of 32 leave threads 0..15 four vectors (one batch of 4) and threads 16..31
// three (a batch of 2, then 1).
TEST(Matrix, BatchedRowsVectorizedPeelsUnalignedRowsAndTakesDoubles) {
  const auto narrow = matrix_trace("batched-rows-vectorized", 3, 30, 32, 1);
  EXPECT_EQ(narrow.stages[0].tag, kernels::kTagRowVector);
  EXPECT_EQ(narrow.outputs, (std::vector<double>{465, 1365, 2265}));
  EXPECT_EQ(loads_of(narrow.stages[0], 0), (std::vector<long long>{32, 30}));
  EXPECT_EQ(loads_of(narrow.stages[0], 1), (std::vector<long long>{36, 31}));
  EXPECT_EQ(loads_of(narrow.stages[0], 6), (std::vector<long long>{56}));
  EXPECT_EQ(narrow.stages[0].active.size(), 7u);
  EXPECT_EQ((*narrow.stages[0].lanes)[0], 33 + 34 + 35 + 36 + 31);  // iota from 1: element i holds i + 1
  // Row 0 (aligned) has no head and a tail of two: elements 28 and 29, threads 0 and 1.
  const auto first = matrix_trace("batched-rows-vectorized", 3, 30, 32, 0);
  EXPECT_EQ(loads_of(first.stages[0], 1), (std::vector<long long>{4, 29}));

  const auto dbl = matrix_trace("batched-rows-vectorized", 2, 40, 32, 1, {}, core::Op::Sum, core::DType::Double);
  EXPECT_EQ(dbl.grid, 2u);
  EXPECT_EQ(dbl.stages[0].tag, kernels::kTagRowVector);
  EXPECT_EQ(dbl.stages[0].loads[3], (core::Load{3, {46}, {2}}));
  EXPECT_EQ(core::warp_loads(dbl.stages[0], 8), (std::vector<core::WarpLoad>{{0, 0, 20, 10, 10}}));
  EXPECT_EQ(dbl.outputs, (std::vector<double>{820, 2420}));
  EXPECT_EQ(dbl.stages[0].active.size(), 20u);  // 20 vectors a row, one a thread

  const auto wide = matrix_trace("batched-rows-vectorized", 1, 448, 32, 0);
  EXPECT_EQ(loads_of(wide.stages[0], 0), (std::vector<long long>{0, 128, 256, 384}));
  EXPECT_EQ(loads_of(wide.stages[0], 20), (std::vector<long long>{80, 208, 336}));
  EXPECT_EQ(wide.result, 448.0 * 449 / 2);
}

// Every matrix kernel's recorded loads, each widened to the elements it read, are the first of
// the elements kernels::matrix_thread_elements lists for that thread, all of them where no slot ran
// out: the model records loads by its own loops, and the views and the work pane read that list.
TEST(Matrix, RecordedLoadsAreTheThreadsElementsInOrder) {
  const std::pair<std::size_t, std::size_t> shapes[] = {{3, 40}, {5, 30}, {2, 2048}, {40, 6}, {33, 257}, {1, 1}};
  for (const auto& id : core::matrix_ids())
    for (const auto& [rows, cols] : shapes)
      for (const auto type : {core::DType::Int, core::DType::Double})
        for (const int block : {32, 64}) {
          const int last = int(matrix_trace(id, rows, cols, block, 0, {}, core::Op::Sum, type).grid) - 1;
          for (const int traced : {0, last}) {
            SCOPED_TRACE(id + " " + std::to_string(rows) + "x" + std::to_string(cols) + " " + core::to_string(type) +
                         " block " + std::to_string(block) + " traced " + std::to_string(traced));
            const auto t = matrix_trace(id, rows, cols, block, traced, {}, core::Op::Sum, type);
            // A record for every thread that has elements: a kernel recording no loads fails here.
            std::size_t loading = 0;
            for (int th = 0; th < block; ++th)
              loading += !kernels::matrix_thread_elements(kernels::find_row(id)->algo, {rows, cols}, block,
                                                          core::matrix_grid_of(t), traced, th, core::element_bytes(type))
                              .empty();
            EXPECT_EQ(t.stages[0].loads.size(), loading);
            for (const auto& l : t.stages[0].loads) {
              std::vector<long long> read;
              for (std::size_t k = 0; k < l.elements.size(); ++k)
                for (int e = 0; e < l.width(k) && l.elements[k] >= 0; ++e) read.push_back(l.elements[k] + e);
              const auto listed = kernels::matrix_thread_elements(kernels::find_row(id)->algo, {rows, cols}, block,
                                                                  core::matrix_grid_of(t), traced, l.thread,
                                                                  core::element_bytes(type));
              ASSERT_LE(read.size(), listed.size()) << "thread " << l.thread;
              EXPECT_TRUE(std::equal(read.begin(), read.end(), listed.begin())) << "thread " << l.thread;
              if (l.elements.size() < std::size_t(kernels::kLoadSlots)) {
                EXPECT_EQ(read.size(), listed.size()) << "thread " << l.thread;
              }
            }
          }
        }
}

TEST(Matrix, BatchedRowsShuffleEndsInLaneZero) {
  const auto t = matrix_trace("batched-rows-shuffle", 2, 100, 64, 1);
  EXPECT_EQ(t.result, 15050);  // 101..200
  EXPECT_EQ(t.stages[0].tag, kernels::kTagRowStride);
  ASSERT_TRUE(t.stages[0].lanes);
  EXPECT_EQ((*t.stages[0].lanes)[3], 104 + 168);  // elements 3 and 67 of row 1
  EXPECT_EQ((*t.stages.back().lanes)[0], 15050);
}

TEST(Matrix, ColumnSumsChunkRowsThenAddThePartials) {
  // 5 x 40, blocks of 32 x 2: two column tiles, chunks of 2 rows (3 chunks), block 1 = tile 1 of chunk 0.
  const auto t = matrix_trace("column-sums", 5, 40, 64, 1);
  EXPECT_EQ(t.grid, 6u);
  ASSERT_EQ(t.outputs.size(), 40u);
  for (int c = 0; c < 40; ++c) EXPECT_EQ(t.outputs[c], 5 * c + 405) << c;  // sum over r of 40r + c + 1
  ASSERT_EQ(t.stages.size(), 2u);
  const auto& load = *t.stages[0].shared;
  for (int x = 0; x < 32; ++x) {
    EXPECT_EQ(load[x], x < 8 ? 33 + x : 0) << x;       // row 0, columns 32..39, then past the edge
    EXPECT_EQ(load[32 + x], x < 8 ? 73 + x : 0) << x;  // row 1
  }
  EXPECT_EQ(t.stages[1].tag, kernels::kTagColumnStep);
  EXPECT_EQ((*t.stages[1].shared)[2], 33 + 2 + 73 + 2);
  EXPECT_EQ(t.stages[1].accesses[0].reads, (std::vector<int>{0, 32}));
}

// A matrix narrower than 32 columns gets blocks as wide as the power of two at or above its
// columns: 40 x 3 in blocks of 32 is 4 x 8 threads, so a warp reads 8 whole rows (elements
// 0..23, 3 sectors of ints) instead of 3 elements of one row.
TEST(Matrix, ColumnSumsFitNarrowMatricesIntoWholeWarps) {
  using kernels::Algo;
  EXPECT_EQ(kernels::matrix_block_x(Algo::ColumnSums, 1024, 16), 16);
  EXPECT_EQ(kernels::matrix_block_x(Algo::ColumnSums, 1024, 1), 1);
  EXPECT_EQ(kernels::matrix_block_x(Algo::ColumnSums, 1024, 17), 32);
  EXPECT_EQ(kernels::matrix_block_x(Algo::ColumnSums, 64, 100000), 32);
  EXPECT_EQ(kernels::matrix_block_x(Algo::Block2d, 1024, 3), 32);  // block-2d keeps 32 x B/32
  const auto t = matrix_trace("column-sums", 40, 3, 32, 0);
  EXPECT_EQ(t.outputs, (std::vector<double>{40 * 1 + 3 * 780, 40 * 2 + 3 * 780, 40 * 3 + 3 * 780}));
  EXPECT_EQ(t.grid, 5u);  // five chunks of 8 rows, one a block
  EXPECT_EQ(loads_of(t.stages[0], 5), (std::vector<long long>{4}));  // thread (x 1, y 1): row 1, column 1
  EXPECT_TRUE(loads_of(t.stages[0], 3).empty());  // x 3 is past the last column
  const auto loads = core::warp_loads(t.stages[0], 4);
  ASSERT_FALSE(loads.empty());
  EXPECT_EQ(loads[0].lanes, 24);
  EXPECT_EQ(loads[0].sectors, 3);
  EXPECT_EQ(t.stages.size(), 4u);  // the load, then 8 rows of threads halved three times
}

// column-sums-vectorized, 5 x 40 ints in blocks of 64: 10 threads of 4 columns cover a row, so
// blocks are 16 x 4 (a tile of 64 columns) over 2 chunks of 3 rows. Thread (x, y) loads columns
// 4x..4x+3 of row y with one 16-byte load and keeps them in cells c * 64 + t.
TEST(Matrix, ColumnSumsVectorizedLoadsFourColumnsAtOnce) {
  const auto t = matrix_trace("column-sums-vectorized", 5, 40, 64, 0);
  EXPECT_EQ(kernels::matrix_block_x(kernels::Algo::ColumnSumsVectorized, 64, 40), 16);
  EXPECT_EQ(t.grid, 2u);
  ASSERT_EQ(t.outputs.size(), 40u);
  for (int c = 0; c < 40; ++c) EXPECT_EQ(t.outputs[c], 5 * c + 405) << c;
  ASSERT_EQ(t.stages.size(), 3u);  // the loads, then 4 rows of threads halved twice
  EXPECT_EQ(t.stages[0].tag, kernels::kTagColumnVector);
  const auto& cells = *t.stages[0].shared;
  ASSERT_EQ(cells.size(), 256u);
  for (int c = 0; c < 4; ++c)
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 16; ++x)  // row y, column 4x + c holds 40y + 4x + c + 1; rows 3.. are the next chunk's
        EXPECT_EQ(cells[c * 64 + y * 16 + x], y < 3 && x < 10 ? 40 * y + 4 * x + c + 1 : 0) << c << " " << y << " " << x;
  const auto& first = t.stages[0].loads;
  EXPECT_EQ(first[0], (core::Load{0, {0}, {4}}));
  EXPECT_EQ(loads_of(t.stages[0], 17), (std::vector<long long>{44}));  // (1, 1): row 1, columns 4..7
  EXPECT_TRUE(loads_of(t.stages[0], 10).empty());                      // x 10: columns 40.. do not exist
  EXPECT_EQ(core::warp_loads(t.stages[0], 4), (std::vector<core::WarpLoad>{{0, 0, 20, 10, 10}, {1, 0, 10, 5, 5}}));
  EXPECT_EQ(t.stages[1].accesses[0].reads, (std::vector<int>{0, 32, 64, 96, 128, 160, 192, 224}));
  EXPECT_EQ(t.stages[1].accesses[0].writes, (std::vector<int>{0, 64, 128, 192}));
  EXPECT_EQ((*t.stages[2].shared)[64 + 1], (1 + 4 + 1) + (41 + 4 + 1) + (81 + 4 + 1));  // column 5, rows 0..2
}

// Rows of 6 ints are 24 bytes, so rows do not all start on 16 bytes: each column is its own load.
// Doubles take two 2-element vectors, the second a warp's width (2 x 2 columns) further on.
TEST(Matrix, ColumnSumsVectorizedFallsBackToSingleLoadsAndSplitsDoubles) {
  const auto narrow = matrix_trace("column-sums-vectorized", 3, 6, 32, 0);  // 2 x 16 threads
  for (int c = 0; c < 6; ++c) EXPECT_EQ(narrow.outputs[c], 3 * c + 21) << c;
  EXPECT_EQ(narrow.stages[0].loads[0], (core::Load{0, {0, 1, 2, 3}, {}}));
  EXPECT_EQ(loads_of(narrow.stages[0], 3), (std::vector<long long>{10, 11}));  // (1, 1): columns 4, 5 of row 1
  // With several rows a lane, a lane past the edge for some of its columns keeps their slots
  // empty (-1), so every lane's n-th load is the same row and column: 40 x 6 in one chunk,
  // lanes of y < 8 take rows y, y + 16, y + 32.
  backend::TraceRequest req{"column-sums-vectorized", core::Op::Sum, core::DType::Int, 32, 0, {}};
  for (int i = 0; i < 240; ++i) req.input.push_back(i + 1);
  req.rows = 40, req.cols = 6, req.grid = 1;
  const auto tall = backend::make_sim_backend()->trace(req);
  ASSERT_EQ(tall.grid, 1u);
  EXPECT_EQ(loads_of(tall.stages[0], 1), (std::vector<long long>{4, 5, -1, -1, 100, 101, -1, -1, 196, 197}));
  EXPECT_EQ(loads_of(tall.stages[0], 0), (std::vector<long long>{0, 1, 2, 3, 96, 97, 98, 99, 192, 193, 194, 195}));
  for (const auto& w : core::warp_loads(tall.stages[0], 4)) {  // one warp: 16 rows of 2 threads
    const int per_row = 4;
    EXPECT_EQ(w.lanes, w.slot % per_row < 2 ? (w.slot < 8 ? 32 : 16) : (w.slot < 8 ? 16 : 8)) << w.slot;
  }
  EXPECT_EQ(core::loaded_elements(tall.stages[0]).size(), 240u);
  // Many rows a thread (150 x 8 in one chunk, 16 rows of 2 threads: 9 or 10 rows each), one
  // 16-byte load a row, in the order the rows come.
  req.rows = 150, req.cols = 8, req.input.assign(1200, 0);
  for (int i = 0; i < 1200; ++i) req.input[std::size_t(i)] = (i * 7919) % 101 - 50;
  const auto many = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(many.stages[0].loads[0], (core::Load{0, {0, 128, 256, 384, 512, 640, 768, 896, 1024, 1152}, std::vector<int>(10, 4)}));
  EXPECT_EQ(loads_of(many.stages[0], 31), (std::vector<long long>{124, 252, 380, 508, 636, 764, 892, 1020, 1148}));  // (1, 15)
  for (int c = 0; c < 8; ++c) {
    double sum = 0;
    for (int r = 0; r < 150; ++r) sum += req.input[std::size_t(r * 8 + c)];
    EXPECT_EQ(many.outputs[std::size_t(c)], sum) << c;
  }
  const auto dbl = matrix_trace("column-sums-vectorized", 2, 8, 32, 0, {}, core::Op::Sum, core::DType::Double);
  EXPECT_EQ(kernels::matrix_thread_columns(kernels::Algo::ColumnSumsVectorized, 32, 8, 0, 1, 8),
            (std::vector<std::size_t>{2, 3, 6, 7}));
  EXPECT_EQ(dbl.stages[0].loads[1], (core::Load{1, {2, 6}, {2, 2}}));
  for (int c = 0; c < 8; ++c) EXPECT_EQ(dbl.outputs[c], 2 * c + 10) << c;
  const auto loads = core::warp_loads(dbl.stages[0], 8);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0], (core::WarpLoad{0, 0, 4, 2, 2}));  // rows 0 and 1, 32 bytes each
}

TEST(Matrix, NaiveColumnsWalkEveryRow) {
  const auto t = matrix_trace("column-sums-naive", 4, 40, 32, 1);
  EXPECT_EQ(t.grid, 2u);
  ASSERT_EQ(t.stages.size(), 1u);
  EXPECT_EQ(t.stages[0].active, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));  // columns 32..39
  EXPECT_EQ(loads_of(t.stages[0], 0), (std::vector<long long>{32, 72, 112, 152}));
  EXPECT_EQ((*t.stages[0].lanes)[1], 34 + 74 + 114 + 154);
}

TEST(Matrix, Block2dStridesTheGridThenReducesThePartials) {
  // 3 x 50, blocks of 32 x 2, a grid of 2 x 2; block 3 starts at row 2, column 32.
  const auto t = matrix_trace("block-2d", 3, 50, 64, 3);
  EXPECT_EQ(t.grid, 4u);
  EXPECT_EQ(t.result, 150 * 151 / 2);
  const auto& cells = *t.stages[0].shared;
  for (int x = 0; x < 32; ++x) {
    EXPECT_EQ(cells[x], x < 18 ? 133 + x : 0) << x;
    EXPECT_EQ(cells[32 + x], 0) << x;  // row 3 does not exist
  }
  EXPECT_EQ(loads_of(t.stages[0], 0), (std::vector<long long>{132}));
}

// warp-per-row on 3 x 5 in blocks of 64 (two warps a block): warp w takes row w, so block 0
// holds rows 0 and 1 and block 1 row 2 (its second warp has no row). Row 1 (elements 6..10 of
// the iota) by hand: lanes 32..36 of block 0 load 6..10, the others hold 0; offsets 16 and 8
// change nothing in lanes 32..39; offset 4 gives lane 32 6+10 = 16; offset 2 lane 32 16+8 = 24
// and lane 33 7+9 = 16; offset 1 lane 32 24+16 = 40 = 6+7+8+9+10.
TEST(Matrix, WarpPerRowStridesWithLanesThenShuffles) {
  const auto t = matrix_trace("warp-per-row", 3, 5, 64);
  EXPECT_EQ(t.grid, 2u);
  EXPECT_EQ(t.outputs, (std::vector<double>{15, 40, 65}));
  EXPECT_EQ(t.geometry.segment_lanes, 32);
  ASSERT_EQ(t.stages.size(), 6u);  // the lanes' folds, then offsets 16, 8, 4, 2, 1
  EXPECT_EQ(t.stages[0].tag, kernels::kTagRowLanes);
  EXPECT_EQ(t.stages[0].param, 32);
  const auto lanes = [&](int k, int from, int n) {
    const auto& v = *t.stages[std::size_t(k)].lanes;
    return std::vector<double>(v.begin() + from, v.begin() + from + n);
  };
  EXPECT_EQ(lanes(0, 32, 6), (std::vector<double>{6, 7, 8, 9, 10, 0}));
  EXPECT_EQ(lanes(2, 32, 5), (std::vector<double>{6, 7, 8, 9, 10}));  // after offsets 16 and 8
  EXPECT_EQ(t.stages[3].param, 4);
  EXPECT_EQ(lanes(3, 32, 2), (std::vector<double>{16, 7}));
  EXPECT_EQ(lanes(4, 32, 2), (std::vector<double>{24, 16}));
  EXPECT_EQ(lanes(5, 32, 1), (std::vector<double>{40}));
  EXPECT_EQ(lanes(5, 0, 1), (std::vector<double>{15}));  // warp 0's row 0
  EXPECT_EQ(loads_of(t.stages[0], 36), (std::vector<long long>{9}));
  EXPECT_TRUE(loads_of(t.stages[0], 37).empty() || loads_of(t.stages[0], 37)[0] < 0);
  // Stage 0's working lanes: the five of each row that loaded an element.
  EXPECT_EQ(t.stages[0].active, (std::vector<int>{0, 1, 2, 3, 4, 32, 33, 34, 35, 36}));
  // A lane past its warp's end gets its own value back; a shuffle's source is within 32.
  EXPECT_EQ(core::shuffle_source(t, 40, 16), 56);
  EXPECT_EQ(core::shuffle_source(t, 48, 16), -1);
}

// Long rows keep kRowLoadsInFlight loads in flight a lane: 2 x 300 with 32 lanes a row gives
// lane 3 of row 0 columns 3, 35, ..., 291 (ten loads), recorded in that order.
TEST(Matrix, WarpPerRowWalksLongRowsALaneApart) {
  const auto t = matrix_trace("warp-per-row", 2, 300, 32);
  EXPECT_EQ(t.grid, 2u);
  EXPECT_EQ(t.stages[0].tag, kernels::kTagRowSegment);  // the long-row path: its line, its label
  EXPECT_EQ(t.stages[0].label, "each row's 32 lanes walk the row: a lane takes one load in every 32");
  std::vector<long long> want;
  for (long long c = 3; c < 300; c += 32) want.push_back(c);
  EXPECT_EQ(loads_of(t.stages[0], 3), want);
  EXPECT_EQ(t.outputs, (std::vector<double>{300.0 * 301 / 2, 600.0 * 601 / 2 - 300.0 * 301 / 2}));
}

// lanes-per-row on 3 x 5 ints (rows of 20 bytes: one element a load): a quarter of 5, rounded
// up, is 2, so 2 lanes a row and 16 rows a warp. By hand, from the iota: lane 0 adds elements 1, 3
// and 5 (9), lane 1 adds 2 and 4 (6); lanes 2, 3 row 1 (24, 16); lanes 4, 5 row 2 (39, 26). The one
// shuffle (offset 1, width 2) gives lanes 0, 2, 4 their rows' sums, and lane 1, whose lane 2 is
// in the next row, its own value back: 6 + 6.
TEST(Matrix, LanesPerRowGivesTwoLanesToRowsOfFive) {
  const auto t = matrix_trace("lanes-per-row", 3, 5, 32);
  EXPECT_EQ(t.grid, 1u);
  EXPECT_EQ(t.geometry.segment_lanes, 2);
  EXPECT_EQ(t.outputs, (std::vector<double>{15, 40, 65}));
  ASSERT_EQ(t.stages.size(), 2u);
  const auto& fold = *t.stages[0].lanes;
  EXPECT_EQ(std::vector<double>(fold.begin(), fold.begin() + 7), (std::vector<double>{9, 6, 24, 16, 39, 26, 0}));
  const auto& shuffled = *t.stages[1].lanes;
  EXPECT_EQ(t.stages[1].param, 1);
  EXPECT_EQ(std::vector<double>(shuffled.begin(), shuffled.begin() + 6), (std::vector<double>{15, 12, 40, 32, 65, 52}));
  EXPECT_EQ(loads_of(t.stages[0], 0), (std::vector<long long>{0, 2, 4}));
  EXPECT_EQ(loads_of(t.stages[0], 3), (std::vector<long long>{6, 8}));
  EXPECT_EQ(core::shuffle_source(t, 1, 1), -1);  // lane 2 is row 1's
  EXPECT_EQ(core::shuffle_source(t, 2, 1), 3);
}

// A segment of 4 lanes over rows of 13 floats (52 bytes: one element a load): lane l of row 0
// adds columns l, l+4, l+8 (and lane 0 column 12); row 1 starts at lane 4.
TEST(Matrix, LanesPerRowGivesFourLanesToRowsOfThirteen) {
  const auto t = matrix_trace("lanes-per-row", 2, 13, 32, 0, {}, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(t.geometry.segment_lanes, 4);
  EXPECT_EQ(loads_of(t.stages[0], 0), (std::vector<long long>{0, 4, 8, 12}));
  EXPECT_EQ(loads_of(t.stages[0], 3), (std::vector<long long>{3, 7, 11}));
  EXPECT_EQ(loads_of(t.stages[0], 4), (std::vector<long long>{13, 17, 21, 25}));
  EXPECT_EQ(t.outputs, (std::vector<double>{91, 260}));  // 1..13, 14..26
  ASSERT_EQ(t.stages.size(), 3u);                        // the folds, then offsets 2 and 1
  EXPECT_EQ(t.stages[1].param, 2);
}

// The threads that add a row, as row_threads names them, are the ones whose recorded loads (row
// segments) or tile reads (a tile of rows) lie in that row: for a block in the middle, the last
// block of a part tile, and rows of other blocks. The first round's rows by hand.
TEST(Matrix, RowThreadsAreTheThreadsTheTraceRecordsOnTheRow) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  struct Case {
    const char* id;
    std::size_t rows, cols;
    int block, traced, lanes;
  };
  for (const Case c : {Case{"lanes-per-row", 64, 16, 32, 1, 4}, Case{"lanes-per-row", 19, 5, 32, 1, 2},
                       Case{"warp-per-row", 10, 100, 64, 1, 32}, Case{"thread-per-row", 70, 3, 32, 2, 1}}) {
    SCOPED_TRACE(std::string(c.id) + " " + std::to_string(c.rows) + " x " + std::to_string(c.cols));
    const auto t = matrix_trace(
        c.id, c.rows, c.cols, c.block, c.traced,
        core::generate_input({core::InputSpec::Kind::Random, seed, {}}, c.rows * c.cols, core::DType::Int));
    const std::size_t first = std::size_t(c.traced * c.block / c.lanes),
                      last = std::min(first + std::size_t(c.block / c.lanes), c.rows);
    EXPECT_FALSE(core::row_threads(t, first - 1));
    for (std::size_t row = first; row < last; ++row) {
      const auto th = core::row_threads(t, row);
      ASSERT_TRUE(th) << row;
      EXPECT_EQ(th->first, int(row - first) * c.lanes);
      EXPECT_EQ(th->count, c.lanes);
    }
    std::map<int, std::set<std::size_t>> rows_of;  // thread -> the rows it adds
    for (std::size_t row = 0; row < c.rows + 3; ++row)
      if (const auto th = core::row_threads(t, row))
        for (int k = th->first; k < th->first + th->count; ++k) rows_of[k].insert(row);
    int seen = 0;
    for (const auto& s : t.stages) {
      if (s.tag == kernels::kTagRowLanes || s.tag == kernels::kTagRowSegment)
        for (const auto& l : s.loads)
          for (long long e : l.elements) {
            if (e < 0) continue;
            EXPECT_EQ(rows_of[l.thread].count(std::size_t(e) / c.cols), 1u)
                << "thread " << l.thread << " element " << e;
            ++seen;
          }
      if (s.tag == kernels::kTagRowWalk)
        for (const auto& a : s.accesses)
          for (int cell : a.reads) {
            EXPECT_EQ(rows_of[a.thread].count(first + std::size_t(cell / t.geometry.tile_pitch)), 1u)
                << "thread " << a.thread;
            ++seen;
          }
    }
    EXPECT_GE(seen, int(last - first));
  }
}

// At 16 columns of floats (64 bytes, a multiple of 16) each of 4 lanes a row takes one float4, a
// warp 8 rows: one warp-wide load reads 512 neighbouring bytes, 16 sectors. A block a row
// (batched-rows) reads the same row with 16 lanes of a 32-thread block, 2 sectors a load: the
// same sectors per byte, 8 times fewer bytes a load instruction.
TEST(Coalescing, LanesARowLoadEightTimesTheBytesOfABlockARowAtSixteenColumns) {
  const auto lanes = matrix_trace("lanes-per-row", 64, 16, 32, 0, {}, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(lanes.geometry.segment_lanes, 4);
  EXPECT_EQ(loads_of(lanes.stages[0], 5), (std::vector<long long>{20}));  // row 1, its second float4
  const auto warp = core::warp_loads(lanes.stages[0], 4);
  ASSERT_FALSE(warp.empty());
  for (const auto& w : warp) EXPECT_EQ(w.sectors, 16) << w.warp << "/" << w.slot;
  const auto block = matrix_trace("batched-rows", 64, 16, 32, 0, {}, core::Op::Sum, core::DType::Float);
  for (const auto& w : core::warp_loads(block.stages[0], 4)) EXPECT_EQ(w.sectors, 2) << w.warp << "/" << w.slot;
}

// thread-per-row on 3 x 4 ints (the iota 1..12) in a block of 32: the tile holds 4 columns in a
// pitch of 5. The tile holds whole rows, one run of 12 ints: 3 int4 loads, so thread t < 3 loads
// elements 4t..4t+3 (row t) and stores them in cells 5t..5t+3, then its row's pad cell 5t + 4 with
// the identity, 0. The walk: thread t reads cells 5t to 5t + 3.
TEST(Matrix, ThreadPerRowCopiesATileWithAPadCellARow) {
  const auto t = matrix_trace("thread-per-row", 3, 4, 32);
  EXPECT_EQ(t.geometry.tile_cols, 4);
  EXPECT_EQ(t.geometry.tile_pitch, 5);
  EXPECT_EQ(t.grid, 1u);
  ASSERT_EQ(t.stages.size(), 2u);
  ASSERT_TRUE(t.stages[0].shared);
  const auto& tile = *t.stages[0].shared;
  ASSERT_GE(tile.size(), 15u);
  EXPECT_EQ(std::vector<double>(tile.begin(), tile.begin() + 15),
            (std::vector<double>{1, 2, 3, 4, 0, 5, 6, 7, 8, 0, 9, 10, 11, 12, 0}));
  EXPECT_EQ(t.stages[0].param, 5);
  EXPECT_EQ(access_of(t.stages[0], 1).writes, (std::vector<int>{5, 6, 7, 8, 9}));  // row 1, then its pad
  EXPECT_EQ(loads_of(t.stages[0], 2), (std::vector<long long>{8}));
  EXPECT_EQ(t.stages[0].loads[2].width(0), 4);
  EXPECT_TRUE(access_of(t.stages[0], 3).writes.empty());
  EXPECT_EQ(t.stages[0].active, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(t.stages[1].param, 4);
  EXPECT_EQ(access_of(t.stages[1], 2).reads, (std::vector<int>{10, 11, 12, 13}));
  ASSERT_TRUE(t.stages[1].lanes);
  EXPECT_EQ(std::vector<double>(t.stages[1].lanes->begin(), t.stages[1].lanes->begin() + 4),
            (std::vector<double>{10, 26, 42, 0}));
  EXPECT_EQ(t.outputs, (std::vector<double>{10, 26, 42}));
}

// Rows of 16 floats: a pitch of 17, so at each step a warp's 32 reads lie 17 cells apart, in 32
// different banks (1-way). Unpadded, 16 apart, the even threads would share bank 0 and the odd
// ones bank 16: 16-way. The copy: thread t stores its float4's 4 cells one by one, so a warp's
// first store writes cells 17r + 4c (r = t / 4, c = t % 4): rows 0 and 4 both reach banks 4, 8
// and 12: 2-way. Rows of 15 need no pad (1-way either way); rows of 8 doubles unpadded put a
// half-warp's 16 reads in banks 0-1 and 16-17: 8-way.
TEST(Banks, ThreadPerRowsPadCellTakesTheWalkFromSixteenWayToOne) {
  const auto t = matrix_trace("thread-per-row", 64, 16, 32, 0, {}, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(t.geometry.tile_pitch, 17);
  EXPECT_EQ(t.stages[1].bank_conflicts, 1);
  EXPECT_EQ(t.stages[0].bank_conflicts, 2);
  EXPECT_EQ(core::fill_lesson("{walk_conflicts} {unpadded_conflicts} {copy_conflicts}", t), "1 16 2");
  const auto odd = matrix_trace("thread-per-row", 64, 15, 32, 0, {}, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(odd.geometry.tile_pitch, 15);
  EXPECT_EQ(core::fill_lesson("{walk_conflicts} {unpadded_conflicts}", odd), "1 1");
  EXPECT_EQ(core::fill_lesson("{pad_cells}", odd), "no pad cell");
  EXPECT_EQ(core::fill_lesson("{pad_cells}", t), "one pad cell");
  const auto wide = matrix_trace("thread-per-row", 64, 8, 32, 0, {}, core::Op::Sum, core::DType::Double);
  EXPECT_EQ(wide.geometry.tile_pitch, 9);
  EXPECT_EQ(core::fill_lesson("{walk_conflicts} {unpadded_conflicts}", wide), "1 8");
  // 8 rows of 16: only 8 threads walk; unpadded, 16 apart, four of them in bank 0, four in bank 16.
  const auto few = matrix_trace("thread-per-row", 8, 16, 32, 0, {}, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(core::fill_lesson("{tile_rows} {walk_conflicts} {unpadded_conflicts}", few), "8 1 4");
}

// Rows longer than a tile: 5 x 300 floats in a block of 64 come through 128 columns (512 bytes)
// at a time, 128, 128 and 44, each thread adding on to its total, one element a load (a tile of
// part rows is not one run of memory). Row r of the iota sums 300r + 1 .. 300r + 300; the first
// tile's walk leaves thread 0 with 1 + ... + 128 = 8256.
TEST(Matrix, ThreadPerRowTakesLongRowsATileOfColumnsAtATime) {
  const auto t = matrix_trace("thread-per-row", 5, 300, 64, 0, {}, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(t.geometry.tile_cols, 128);
  EXPECT_EQ(t.geometry.tile_pitch, 129);
  EXPECT_EQ(t.stages[1].param, 128);
  EXPECT_EQ((*t.stages[1].lanes)[0], 8256);
  std::vector<double> want;
  for (double r = 0; r < 5; ++r) want.push_back(90000 * r + 45150);
  EXPECT_EQ(t.outputs, want);
  // Thread 33 copies the first tile's elements 33, 97, 161, 225, ... of 5 x 128: columns 33 and 97
  // of row 0, then of row 1.
  const auto loads = loads_of(t.stages[0], 33);
  ASSERT_GE(loads.size(), 4u);
  EXPECT_EQ(std::vector<long long>(loads.begin(), loads.begin() + 4), (std::vector<long long>{33, 97, 333, 397}));
  // Rows of 100 fit a tile whole: one run of memory, a float4 a load (thread 1: elements 4-7).
  const auto whole = matrix_trace("thread-per-row", 5, 100, 64, 0, {}, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(whole.geometry.tile_cols, 100);
  EXPECT_EQ(whole.stages[0].loads.size() > 1 ? whole.stages[0].loads[1].width(0) : 0, 4);
  EXPECT_EQ(loads_of(whole.stages[0], 1).front(), 4);
}

// The tile's 48 KiB: at 1024 threads a row of doubles may take 6 cells, and an odd pitch of 7
// would pass the budget, so the tile holds 5 columns (pitch 5); every block and element size
// keeps pitch x block x bytes within it (issue 48: no host test reached the budget).
TEST(Matrix, ThreadPerRowsTileStaysWithinFortyEightKiB) {
  EXPECT_EQ(kernels::row_tile_cols(1000, 1024, 8), 5);
  EXPECT_EQ(kernels::row_tile_pitch(kernels::row_tile_cols(1000, 1024, 8)), 5);
  EXPECT_EQ(kernels::row_tile_cols(1000, 1024, 4), 11);  // 12 cells, pitch 13 would not fit
  EXPECT_EQ(kernels::row_tile_cols(1000, 256, 4), 47);   // 48 cells, pitch 49 would not fit
  for (std::size_t bytes : {2u, 4u, 8u})
    for (int block = 32; block <= 1024; block *= 2)
      for (std::size_t cols : {1u, 2u, 7u, 100u, 1000u}) {
        const int w = kernels::row_tile_cols(cols, block, bytes);
        SCOPED_TRACE(std::to_string(bytes) + " bytes, block " + std::to_string(block) + ", cols " +
                     std::to_string(cols));
        EXPECT_GE(w, 1);
        EXPECT_LE(std::size_t(w), cols);
        EXPECT_LE(std::size_t(kernels::row_tile_pitch(w)) * std::size_t(block) * bytes, kernels::kTileBytes);
      }
  const auto t = matrix_trace("thread-per-row", 3, 1000, 1024, 0, {}, core::Op::Sum, core::DType::Double);
  EXPECT_EQ(t.geometry.tile_cols, 5);
  EXPECT_EQ(t.geometry.tile_pitch, 5);
}

// One test per algorithm, so CTest's shards of this suite (tests/CMakeLists.txt) share the work.
class AwkwardShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(AwkwardShapes, ResultsMatchADoubleReference) {
  const std::string id = GetParam();
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const std::pair<std::size_t, std::size_t> shapes[] = {{1, 1}, {1, 1000}, {1000, 1}, {33, 257}, {4097, 3}, {7, 64}, {3, 4100}, {2, 1600}};
  {
    // Under the sanitizers (scripts/test.sh's second round) two block sizes: the first round ran all.
    const bool sanitized = test::sanitized();
    const std::vector<int> blocks = sanitized ? std::vector<int>{32, 1024} : std::vector<int>{32, 256, 1024};
    for (const auto& [rows, cols] : shapes)
      for (int block : blocks)
        for (auto type : {core::DType::Int, core::DType::Float, core::DType::Double})
          for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
            // Under the sanitizers one operator a type (int sum, float min, double max): the
            // operators differ in arithmetic only, and the first round ran every pair.
            if (sanitized && int(op) != int(type)) continue;
            SCOPED_TRACE(id + " " + std::to_string(rows) + "x" + std::to_string(cols) + " block " +
                         std::to_string(block) + " " + core::to_string(op) + " " + core::to_string(type));
            const auto input = test::random_values(rows * cols, type, seed + rows * 7 + cols + std::size_t(block));
            const auto t = matrix_trace(id, rows, cols, block, 0, input, op, type);
            const auto ref = test::matrix_reference(id, op, input, rows, cols);
            const auto got = id == "block-2d" ? std::vector<double>{t.result} : t.outputs;
            ASSERT_EQ(got.size(), std::min<std::size_t>(ref.size(), 4096));
            for (std::size_t o = 0; o < got.size(); ++o) {
              if (type == core::DType::Int || op != core::Op::Sum) {
                ASSERT_EQ(got[o], ref[o]) << "output " << o;
              } else {
                ASSERT_NEAR(got[o], ref[o], test::sum_tolerance(type, input)) << "output " << o;
              }
            }
          }
  }
}

INSTANTIATE_TEST_SUITE_P(Matrix, AwkwardShapes, ::testing::ValuesIn(core::matrix_ids()),
                         [](const ::testing::TestParamInfo<std::string>& param) {
                           std::string name = param.param;
                           for (char& ch : name) ch = ch == '-' ? '_' : ch;
                           return name;
                         });

TEST(Matrix, ImpossibleShapesAndLaunchesNameTheProblem) {
  const auto expect_msg = [](auto fn, const std::string& part) { test::expect_refusal(fn, part); };
  expect_msg([] { matrix_trace("batched-rows", 0, 5, 32, 0, {1}); }, "needs a matrix");
  expect_msg([] { matrix_trace("column-sums", 4, 4, 48); }, "power of two");
  expect_msg([] { matrix_trace("block-2d", 4, 4, 2048); }, "32 to 1024");
  expect_msg([] { matrix_trace("batched-rows", 4, 4, 32, 4); }, "outside the grid of 4");
  expect_msg([] { matrix_trace("sequential", 4, 8, 32); }, "reduces an array");
  expect_msg(
      [] {
        backend::TraceRequest req{"column-sums", core::Op::Sum, core::DType::Int, 32, 0, {1, 2, 3}};
        backend::make_sim_backend()->trace(req);
      },
      "needs a matrix");
  expect_msg([] { kernels::check_launch(kernels::Algo::ColumnSums, 1, {32, 0, 0}, false); }, "reduces a matrix");
}

TEST(Matrix, TheWindowShowsTheTracedBlocksCells) {
  const auto t = matrix_trace("column-sums", 40, 100, 64, 5);  // tile 1 of chunk 1 (grid 4 x chunks)
  const std::size_t tiles = 4, chunk = 40 / (t.grid / tiles);
  EXPECT_EQ(t.window.col, 32u);
  EXPECT_EQ(t.window.row, chunk);
  for (std::size_t r = 0; r < t.window.rows; ++r)
    for (std::size_t c = 0; c < t.window.cols; ++c) {
      const std::size_t row = t.window.row + r, col = t.window.col + c, i = r * t.window.cols + c;
      EXPECT_EQ(t.window.values[i], double(row * 100 + col + 1));
      EXPECT_EQ(t.window.owned[i], row >= chunk && row < 2 * chunk && col < 64 ? 1 : 0) << row << "," << col;
    }
}

TEST(Coalescing, SectorsComeFromTheRecordedAddresses) {
  const auto stage_of = [](auto element) {
    core::Stage s;
    for (int t = 0; t < 32; ++t) s.loads.push_back({t, {element(t)}, {}});
    return s;
  };
  const auto one = [](const core::Stage& s, std::size_t bytes) {
    const auto loads = core::warp_loads(s, bytes);
    EXPECT_EQ(loads.size(), 1u);
    return loads.empty() ? core::WarpLoad{} : loads[0];
  };
  EXPECT_EQ(one(stage_of([](int t) { return t; }), 4), (core::WarpLoad{0, 0, 32, 4, 4}));              // a row of floats
  EXPECT_EQ(one(stage_of([](int t) { return t * 1000LL; }), 4), (core::WarpLoad{0, 0, 32, 32, 4}));   // a column
  EXPECT_EQ(one(stage_of([](int t) { return t; }), 8), (core::WarpLoad{0, 0, 32, 8, 8}));              // doubles
  EXPECT_EQ(one(stage_of([](int t) { return t + 3; }), 4), (core::WarpLoad{0, 0, 32, 5, 4}));          // misaligned
  EXPECT_EQ(one(stage_of([](int t) { return (t % 2) * 8LL; }), 4), (core::WarpLoad{0, 0, 32, 2, 4}));  // broadcast pairs

  core::Stage two_slots;  // warp 1's second load: slots are kept apart
  for (int t = 32; t < 48; ++t) two_slots.loads.push_back({t, {t, 1000LL * t}, {}});
  const auto loads = core::warp_loads(two_slots, 4);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[0], (core::WarpLoad{1, 0, 16, 2, 2}));
  EXPECT_EQ(loads[1], (core::WarpLoad{1, 1, 16, 16, 2}));
}

// A 16-byte load is one load of 4 floats (or 2 doubles): a warp of them reads 512 contiguous
// bytes, 16 sectors, the fewest possible; one element off, 17. A lane's tail load of one element
// is a load of its own.
TEST(Coalescing, AVectorLoadCountsEverySectorOfItsWidth) {
  const auto stage_of = [](int width, long long offset) {
    core::Stage s;
    for (int t = 0; t < 32; ++t) s.loads.push_back({t, {t * width + offset}, {width}});
    return s;
  };
  const auto one = [](const core::Stage& s, std::size_t bytes) {
    const auto loads = core::warp_loads(s, bytes);
    EXPECT_EQ(loads.size(), 1u);
    return loads.empty() ? core::WarpLoad{} : loads[0];
  };
  EXPECT_EQ(one(stage_of(4, 0), 4), (core::WarpLoad{0, 0, 32, 16, 16}));  // float4
  EXPECT_EQ(one(stage_of(4, 1), 4), (core::WarpLoad{0, 0, 32, 17, 16}));  // one float off
  EXPECT_EQ(one(stage_of(2, 0), 8), (core::WarpLoad{0, 0, 32, 16, 16}));  // double2
  EXPECT_EQ(one(stage_of(4, 0), 4).sectors, 4 * one(stage_of(1, 0), 4).sectors);

  core::Stage tail = stage_of(4, 0);  // lanes 0-2 then load one float each past the vectors
  for (int t = 0; t < 3; ++t) tail.loads[std::size_t(t)].elements.push_back(128 + t), tail.loads[std::size_t(t)].widths.push_back(1);
  const auto loads = core::warp_loads(tail, 4);
  ASSERT_EQ(loads.size(), 2u);
  EXPECT_EQ(loads[1], (core::WarpLoad{0, 1, 3, 1, 1}));
  EXPECT_EQ(core::loaded_elements(tail).size(), 131u);  // 0..130
}

TEST(Coalescing, MatrixTracesCountFourSectorsForARowAndOneForAColumn) {
  const auto rows = matrix_trace("batched-rows", 2, 256, 64, 0, {}, core::Op::Sum, core::DType::Float);
  for (const auto& w : core::warp_loads(rows.stages[0], 4)) EXPECT_EQ(w.sectors, 4) << w.warp << "/" << w.slot;
  EXPECT_EQ(core::sectors_text(rows), "4");
  const auto naive = matrix_trace("column-sums-naive", 5, 1, 32);  // one column: one lane per load
  for (const auto& w : core::warp_loads(naive.stages[0], 4)) EXPECT_EQ(w.lanes, 1);
}

TEST(Matrix, ColumnSumsVectorizedBatchesTwiceTheBytesInBlocksOfUpTo256) {
  using kernels::column_batch_rows;
  EXPECT_EQ(kernels::column_batch_bytes(256, true), 256);
  EXPECT_EQ(kernels::column_batch_bytes(512, true), 128);
  EXPECT_EQ(kernels::column_batch_bytes(32, false), 128);  // one column at a time: 128 bytes in any block
  EXPECT_EQ(column_batch_rows(256, 4, true), 16);  // 16 float4 or int4
  EXPECT_EQ(column_batch_rows(256, 8, true), 8);   // 8 rows of two double2
  EXPECT_EQ(column_batch_rows(1024, 4, true), 8);
  EXPECT_EQ(column_batch_rows(1024, 8, true), 4);
  EXPECT_EQ(column_batch_rows(64, 4, false), 8);   // 8 rows of 4 single floats
  EXPECT_EQ(column_batch_rows(64, 8, false), 4);
}

const kernels::DeviceShape kH100(132);  // an H100 SXM: 132 SMs of 2048 threads

// Halves and bfloat16 in batched-rows-vectorized: blocks that give a thread 32 elements (four
// vectors; at most 512 threads), chunks of 128 a thread by default (docs/benchmarks.md, "Chunks of 128 KB for halves
// and bfloat16"); an asked-for grid keeps the floats' limit, so the default grid maps back to itself.
TEST(Matrix, BatchedRowsVectorizedGivesHalvesFourVectorsAThread) {
  using kernels::Algo;
  using kernels::DType;
  const auto block = [](std::size_t rows, std::size_t cols, DType type) {
    return kernels::preferred_matrix_block(Algo::BatchedRowsVectorized, {rows, cols}, kH100, type);
  };
  EXPECT_EQ(block(std::size_t(1) << 16, 4096, DType::Half), 128);
  EXPECT_EQ(block(std::size_t(1) << 16, 4096, DType::Float), 512);
  EXPECT_EQ(block(std::size_t(1) << 14, std::size_t(1) << 14, DType::Half), 512);
  EXPECT_EQ(block(std::size_t(1) << 14, std::size_t(1) << 14, DType::Bf16), 512);
  EXPECT_EQ(block(std::size_t(1) << 14, std::size_t(1) << 14, DType::Float), 1024);
  // Long rows: at most 512 threads, where floats take 1024.
  EXPECT_EQ(block(16, std::size_t(1) << 24, DType::Half), 512);
  EXPECT_EQ(block(16, std::size_t(1) << 24, DType::Bf16), 512);
  EXPECT_EQ(block(16, std::size_t(1) << 24, DType::Float), 1024);
  EXPECT_EQ(block(4096, std::size_t(1) << 16, DType::Half), 512);
  EXPECT_EQ(block(4096, std::size_t(1) << 16, DType::Int), 1024);
  const auto grid = [](std::size_t rows, std::size_t cols, std::size_t bytes, std::size_t asked) {
    return kernels::matrix_grid(Algo::BatchedRowsVectorized, {rows, cols}, 1024, asked, kH100, bytes).count();
  };
  EXPECT_EQ(grid(16, std::size_t(1) << 24, 2, 0), 2048u);    // 128 chunks a row
  EXPECT_EQ(grid(16, std::size_t(1) << 24, 4, 0), 8192u);    // 512
  EXPECT_EQ(grid(4096, std::size_t(1) << 16, 2, 0), 4096u);  // one chunk a row
  EXPECT_EQ(grid(4096, std::size_t(1) << 16, 4, 0), 8192u);
  EXPECT_EQ(grid(16, std::size_t(1) << 24, 2, 8192), 8192u);  // asked for: the floats' limit
  // Few rows: 128 a thread would leave SMs without a block (3 x (2^20 + 1): 96 blocks of 256 on 132
  // SMs), so 64 a thread, 192 blocks; floats keep 32.
  const std::size_t odd = (std::size_t(1) << 20) + 1;
  EXPECT_EQ(block(3, odd, DType::Half), 256);
  EXPECT_EQ(kernels::matrix_grid(Algo::BatchedRowsVectorized, {3, odd}, 256, 0, kH100, 2).count(), 192u);
  EXPECT_EQ(kernels::matrix_grid(Algo::BatchedRowsVectorized, {3, odd}, 256, 0, kH100, 4).count(), 384u);
  for (const std::size_t cols :
       {std::size_t(4100), std::size_t(1) << 16, std::size_t(1) << 20, (std::size_t(1) << 24) + 3}) {
    const std::size_t g = grid(16, cols, 2, 0);
    EXPECT_EQ(grid(16, cols, 2, g), g) << cols;
  }
}

TEST(Matrix, RowKernelsTakeTheLargestBlockThatKeepsEightLoadsAThread) {
  using kernels::Algo;
  const auto block = [](Algo a, std::size_t cols) { return kernels::preferred_matrix_block(a, {64, cols}, kH100); };
  EXPECT_EQ(block(Algo::BatchedRows, 16), 32);
  EXPECT_EQ(block(Algo::BatchedRows, 256), 32);
  EXPECT_EQ(block(Algo::BatchedRows, 1024), 128);
  EXPECT_EQ(block(Algo::BatchedRowsShuffle, 4096), 512);
  EXPECT_EQ(block(Algo::BatchedRows, std::size_t(1) << 24), 1024);
  // batched-rows-vectorized: blocks of 256 where 1024's chunks leave SMs without a block
  const auto rows_of = [](std::size_t rows, std::size_t cols) {
    return kernels::preferred_matrix_block(Algo::BatchedRowsVectorized, {rows, cols}, kH100);
  };
  EXPECT_EQ(rows_of(3, (std::size_t(1) << 20) + 1), 256);  // 96 blocks of 1024, 384 of 256
  EXPECT_EQ(rows_of(16, std::size_t(1) << 24), 1024);      // 8192 blocks of 1024
  EXPECT_EQ(rows_of(64, 4096), 512);                       // one chunk a row either way
  EXPECT_EQ(rows_of(200, std::size_t(1) << 20), 1024);     // 6400 blocks
  EXPECT_EQ(block(Algo::ColumnSums, 1024), 128);  // wider than tall
  EXPECT_EQ(block(Algo::ColumnSumsVectorized, 1024), 128);  // 64 rows: 16 rows a row of threads at 128
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {256, std::size_t(1) << 20}, kH100), 256);
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {std::size_t(1) << 20, 256}, kH100), 256);
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {128, 4096}, kH100), 256);
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {127, 4096}, kH100), 128);
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {32, 4096}, kH100), 64);  // 16 rows a thread
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {31, 4096}, kH100), 32);
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {16, std::size_t(1) << 24}, kH100), 32);
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {48, 4096}, kH100), 64);  // a power of two
  for (std::size_t rows = 1; rows <= 300; ++rows) {
    const int b = kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {rows, 4096}, kH100);
    EXPECT_TRUE(b >= 32 && b <= kernels::kDeepColumnBlock && (b & (b - 1)) == 0) << rows << " rows: " << b;
  }
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {1, 4096}, kH100), 32);
  // A warp a block where one-warp blocks number 8 to 16 an SM: 2^10 x 2^18 on 132 SMs (2048 tiles).
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {1024, std::size_t(1) << 18}, kH100), 32);
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {1024, std::size_t(1) << 18},
                                            kernels::DeviceShape(64)),
            256);  // 32 a SM
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSumsVectorized, {4096, std::size_t(1) << 16}, kH100), 256);  // 3.9 a SM
  EXPECT_EQ(kernels::preferred_matrix_block(Algo::ColumnSums, {std::size_t(1) << 24, 16}, kH100), 1024);
  EXPECT_EQ(block(Algo::ColumnSumsNaive, 1024), 256);
}

// flat-rows' lanes a row: the 2-adic part of the length while a lane keeps 4 elements or more,
// then twice as many, up to 32, while one lane would add more than 64.
// lanes-per-row: a lane's share of a row is one 16-byte load, up to 16 lanes, but a lane that would
// load two or three vectors of its row gets four or more (rows of 256 halves: 8 lanes of 4 loads,
// not 16 of 2; 128 floats and 100 floats the same); rows that do not hold vectors keep a quarter of
// the row.
TEST(Matrix, LanesPerRowGivesALaneOneLoadOrFourInFlight) {
  struct Want {
    std::size_t cols, bytes;
    int lanes;
  };
  const Want want[] = {{16, 4, 4}, {64, 4, 16},  {128, 4, 8}, {256, 4, 16}, {1024, 4, 16}, {48, 4, 2}, {16, 2, 2},
                       {64, 2, 8}, {128, 2, 16}, {256, 2, 8}, {512, 2, 16}, {1024, 2, 16}, {32, 8, 4}, {64, 8, 8},
                       {15, 4, 4}, {17, 4, 4},   {100, 4, 4}, {33, 4, 8},   {1, 4, 1},     {6, 2, 1}};
  for (const auto& w : want)
    EXPECT_EQ(kernels::row_lanes(kernels::Algo::LanesPerRow, w.cols, w.bytes), w.lanes)
        << w.cols << " x " << w.bytes << " bytes";
  EXPECT_EQ(kernels::row_lanes(kernels::Algo::WarpPerRow, 256, 2), 32);
}

// lanes-per-row's timed float sums on long rows: a lane with 8 or 16 or more 16-byte loads of its
// row takes that many in its first batch (rows of 512 to 1024 floats and more), in blocks of at
// most kLongRowBlock; shorter rows, rows off 16-byte boundaries and other lane counts keep
// kRowLoadsInFlight.
TEST(Matrix, LongRowsOfFloatsTakeAFirstBatchOfUpTo16Loads) {
  using kernels::row_first_batch;
  const auto first = [](std::size_t cols, int block = 256) {
    return row_first_batch(cols, kernels::row_lanes(kernels::Algo::LanesPerRow, cols, 4), block);
  };
  EXPECT_EQ(first(1024), 16);
  EXPECT_EQ(first(4096), 16);
  EXPECT_EQ(first(512), 8);
  EXPECT_EQ(first(768), 8);  // 12 loads a lane: 8, then the loop's four
  EXPECT_EQ(first(256), kernels::kRowLoadsInFlight);
  EXPECT_EQ(first(1025), kernels::kRowLoadsInFlight);  // rows off 16-byte boundaries
  EXPECT_EQ(first(1024, 512), kernels::kRowLoadsInFlight);
  EXPECT_EQ(first(1024, kernels::kLongRowBlock), 16);
  EXPECT_EQ(row_first_batch(1024, 8, 256), kernels::kRowLoadsInFlight);  // lanes other than the rule's
}

// lanes-per-row's timed kernel holds a block's row sums in shared memory where its share of the
// rows is at least 256 and their sums fit in 48 KB, over any type: rows of 64 floats on 528 blocks
// (7944 rows a block, 31.8 KB), not rows of 16 on 1056 (15888 rows, 63.6 KB) nor of 1024 on 2112
// (125 a block).
TEST(Matrix, RowSumsAreHeldWhereABlocksShareFits) {
  using kernels::held_row_share;
  constexpr std::size_t blocks = 2112;
  EXPECT_EQ(held_row_share(std::size_t(1) << 22, 528, 4), 7944u);
  EXPECT_EQ(held_row_share(std::size_t(1) << 22, 528, 8), 0u);  // doubles: 63552 bytes
  EXPECT_EQ(held_row_share(std::size_t(1) << 22, blocks, 8), 1986u);
  EXPECT_EQ(held_row_share(std::size_t(1) << 20, blocks, 4), 497u);
  EXPECT_EQ(held_row_share(std::size_t(1) << 18, blocks, 4), 0u);
  EXPECT_EQ(held_row_share(std::size_t(1) << 24, 1056, 4), 0u);
  EXPECT_EQ(held_row_share(std::size_t(1) << 16, blocks, 4), 0u);
  EXPECT_EQ(held_row_share(12288 * blocks, blocks, 4), 12288u);  // 48 KB exactly
  EXPECT_EQ(held_row_share(12288 * blocks + 1, blocks, 4), 0u);
  EXPECT_EQ(held_row_share(256 * blocks, blocks, 4), 256u);
  EXPECT_EQ(held_row_share(255 * blocks, blocks, 4), 0u);
  EXPECT_EQ(held_row_share(1000, 0, 4), 0u);
  EXPECT_EQ(held_row_share(0, blocks, 4), 0u);
  // A share of one round or less (a block a round) is held too, however few its rows.
  EXPECT_EQ(held_row_share(std::size_t(1) << 20, 65536, 4, 16), 16u);
  EXPECT_EQ(held_row_share(std::size_t(1) << 20, 65535, 4, 16), 0u);  // 17 rows: over the round, under 256
  EXPECT_EQ(held_row_share(1000, 4, 4, 256), 250u);
  EXPECT_EQ(held_row_share(std::size_t(1) << 18, blocks, 4, 64), 0u);  // 125 rows
}

// A round of lanes-per-row's timed kernel: the rows a block's warps take at once. Where a lane
// loads its row in one go, each warp takes kRowLoadsInFlight groups of 32 / lanes rows; else one.
TEST(Matrix, ARoundIsTheRowsABlocksWarpsTakeAtOnce) {
  using kernels::row_round;
  constexpr auto lanes = [](std::size_t cols, std::size_t bytes) {
    return kernels::row_lanes(kernels::Algo::LanesPerRow, cols, bytes);
  };
  EXPECT_EQ(row_round(256, 4, lanes(256, 4), 256), 16u);  // 16 lanes, four loads each: a group a warp
  EXPECT_EQ(row_round(256, 4, lanes(256, 4), 128), 8u);   // cuBLAS gemv's 8 rows a block of 128
  EXPECT_EQ(row_round(64, 4, lanes(64, 4), 256), 64u);    // 16 lanes, one load each: 4 groups of 2
  EXPECT_EQ(row_round(16, 4, lanes(16, 4), 256), 256u);   // 4 lanes: 4 groups of 8
  EXPECT_EQ(row_round(64, 2, lanes(64, 2), 256), 128u);   // halves: 8 lanes, 4 groups of 4
  EXPECT_EQ(row_round(16, 2, lanes(16, 2), 256), 512u);   // halves: 2 lanes, 4 groups of 16
  EXPECT_EQ(row_round(15, 4, lanes(15, 4), 256), 64u);    // not 16-byte rows: 15 loads over 4 lanes, one group
  EXPECT_EQ(row_round(3, 4, lanes(3, 4), 1024), 1024u);   // a lane a row, an element a load: a group of 32 a warp
  EXPECT_EQ(row_round(1024, 4, lanes(1024, 4), 1024), 64u);
  EXPECT_EQ(row_round(64, 4, lanes(64, 4), 16), 0u);  // a block under a warp has no round (timed_grid skips it)
  // Which rows take a round a block: rows of 16-byte loads, up to 1 KB.
  EXPECT_TRUE(kernels::row_rounds(256, 4));
  EXPECT_TRUE(kernels::row_rounds(512, 2));
  EXPECT_TRUE(kernels::row_rounds(4, 4));
  EXPECT_FALSE(kernels::row_rounds(1040, 1));     // 16-byte rows, over 1 KB
  EXPECT_FALSE(kernels::row_rounds(512, 4));      // 2 KB
  EXPECT_FALSE(kernels::row_rounds(15, 4));       // one element a load
  EXPECT_FALSE(kernels::row_rounds(100, 2));      // 200 bytes: not 16-byte rows
}

// Rounds pay on a GPU whose memory's peak is at most 30 GB/s an SM: an H100 SXM's (3352 GB/s, from
// the 2619 MHz clock and 5120-bit bus its attributes give, over 132 SMs), not an H200's (the bench
// reads 4814 GB/s there). An unknown peak keeps them, and the line is a share an SM: an H200's peak
// over twice the SMs would take them.
TEST(Matrix, RoundsPayWhereTheMemoryFeedsAnSmLittle) {
  using kernels::DeviceShape;
  using kernels::rounds_pay;
  const double h100 = kernels::memory_peak_gbps(2619000, 5120), h200 = 4814.0;
  EXPECT_NEAR(h100, 3352.32, 0.01);
  EXPECT_TRUE(rounds_pay(DeviceShape(132, 2048, h100)));
  EXPECT_FALSE(rounds_pay(DeviceShape(132, 2048, h200)));
  EXPECT_TRUE(rounds_pay(DeviceShape(132)));              // peak not known
  EXPECT_TRUE(rounds_pay(DeviceShape(132, 2048, 3960)));  // 30.0 GB/s an SM: the line itself
  EXPECT_FALSE(rounds_pay(DeviceShape(132, 2048, 3961)));
  EXPECT_TRUE(rounds_pay(DeviceShape(264, 2048, h200)));
}

// A bare SM count is not a device's shape: passed where one is asked, the row rules would see no
// memory peak and take their no-peak branch (`lanes_timed_grid`'s rounds would always pay).
static_assert(!std::is_convertible_v<int, kernels::DeviceShape>);

// lanes-per-row's timed grid in a wave of 528 blocks (four of 256 threads an SM, 132 SMs): rounds
// where they fill two waves and pay, else two waves; other rows the fewest waves that hold.
TEST(Matrix, LanesPerRowTimedGridTakesRoundsWherePaidElseWholeWaves) {
  using kernels::DeviceShape;
  const DeviceShape h100(132, 2048, 3352.32), h200(132, 2048, 4814.0), unknown(132);
  const auto grid = [](kernels::Matrix m, std::size_t bytes, int block, DeviceShape d, std::size_t held_from = 0) {
    return kernels::lanes_timed_grid(m, bytes, block, 528, d,
                                     [&](std::size_t g) { return held_from && g >= held_from; });
  };
  const kernels::Matrix m256{std::size_t(1) << 20, 256}, m100{1000000, 100};
  EXPECT_EQ(grid(m256, 4, 256, h100), 65536u);  // a round: 16 rows of 256 floats
  EXPECT_EQ(grid(m256, 4, 256, unknown), 65536u);
  EXPECT_EQ(grid(m256, 4, 256, h200), 1056u);  // two waves where the rounds do not pay
  EXPECT_EQ(grid(m100, 4, 256, h100), 15625u);
  EXPECT_EQ(grid(m100, 4, 256, h200, 528), 1056u);                    // held in one wave, still two
  EXPECT_EQ(grid({std::size_t(1) << 22, 64}, 2, 256, h100), 32768u);  // 128 rows of 64 halves
  EXPECT_EQ(grid({16881, 256}, 4, 256, h100, 528), 1056u);            // 1056 rounds, rounded up: two waves exactly
  EXPECT_EQ(grid({1000001, 100}, 4, 256, h100), 15626u);              // a last round of one row
  EXPECT_EQ(grid({10000, 256}, 4, 256, h100, 528), 528u);             // 625 rounds, under two waves
  EXPECT_EQ(grid({10000, 256}, 4, 256, h100), 1056u);                 // held in neither
  EXPECT_EQ(grid({1 << 18, 2000}, 4, 256, h100, 528), 528u);          // 8000-byte rows: no rounds
  EXPECT_EQ(grid({1 << 18, 2000}, 4, 256, h200, 528), 528u);
  EXPECT_EQ(grid({1000000, 99}, 4, 256, h100), 1056u);  // rows not of 16-byte loads: no rounds
  EXPECT_EQ(grid(m256, 4, 16, h100, 528), 528u);        // a block under a warp: no round to divide by
  std::vector<std::size_t> asked;                       // the fewest waves first: one, then two
  const auto held_in_two = [&](std::size_t g) { return asked.push_back(g), g >= 1056; };
  EXPECT_EQ(kernels::lanes_timed_grid({10000, 256}, 4, 256, 528, h100, held_in_two), 1056u);
  EXPECT_EQ(asked, (std::vector<std::size_t>{528, 1056}));
}

// flat-rows' timed grid: a block a run of a tile and a half (12288 floats, 24576 halves) where
// such runs outnumber the plan's one wave, else that wave, as for halves on rows of 16-byte
// multiples and in blocks of 1024; never more blocks than rows. Seeded
// random shapes besides: each block's run of whole rows is at most a tile and a half and a row.
TEST(Matrix, FlatRowsTimedGridIsARunOfATileAndAHalfABlock) {
  using kernels::flat_timed_grid;
  const kernels::DeviceShape h100(132);
  const auto wave = [&](kernels::Matrix m, int block, std::size_t bytes) {
    return kernels::matrix_grid(kernels::Algo::FlatRows, m, block, 0, h100, bytes).x;
  };
  EXPECT_EQ(wave({std::size_t(1) << 24, 15}, 256, 4), 396u);  // three blocks an SM: their buffers
  EXPECT_EQ(flat_timed_grid({std::size_t(1) << 24, 15}, 256, h100, 4), 20480u);
  EXPECT_EQ(flat_timed_grid({std::size_t(1) << 24, 15}, 256, h100, 2), 10240u);
  EXPECT_EQ(flat_timed_grid({1000000, 100}, 512, h100, 4), 8139u);
  EXPECT_EQ(flat_timed_grid({1000000, 100}, 1024, h100, 4), 264u);  // blocks of 1024: the wave, two an SM
  EXPECT_EQ(flat_timed_grid({3, 1048577}, 256, h100, 4), 3u);    // a block a row at most
  EXPECT_EQ(flat_timed_grid({100000, 15}, 256, h100, 4), 396u);  // 123 runs: the wave
  EXPECT_EQ(flat_timed_grid({16, std::size_t(1) << 24}, 256, h100, 4), 16u);
  EXPECT_EQ(flat_timed_grid({1024, std::size_t(1) << 18}, 256, h100, 4), 1024u);  // rows over a run: a block a row
  EXPECT_EQ(flat_timed_grid({std::size_t(1) << 22, 64}, 256, h100, 2), 396u);     // halves' 16-byte rows: the wave
  EXPECT_EQ(flat_timed_grid({std::size_t(1) << 22, 64}, 256, h100, 4), 21846u);
  EXPECT_EQ(flat_timed_grid({std::size_t(1) << 22, 60}, 256, h100, 2), 10240u);  // 120 bytes a row
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 300; ++i) {
    const kernels::Matrix m{1 + rng() % 3000000, 1 + rng() % 300};
    const std::size_t bytes = i % 2 ? 4 : 2;
    const int block = 32 << (rng() % 6);
    SCOPED_TRACE(std::to_string(m.rows) + "x" + std::to_string(m.cols) + " bytes=" + std::to_string(bytes) +
                 " block=" + std::to_string(block));
    const std::size_t grid = flat_timed_grid(m, block, h100, bytes), run = 3 * kernels::flat_tile_elements(bytes) / 2;
    EXPECT_LE(grid, m.rows);
    if (!kernels::flat_runs(m.cols, bytes, block)) {
      EXPECT_EQ(grid, wave(m, block, bytes));
    }
    if (grid > wave(m, block, bytes)) {
      EXPECT_EQ(grid, (m.size() + run - 1) / run);
      for (std::size_t b : {std::size_t(0), grid / 2, grid - 1}) {
        const auto r = kernels::flat_run(m.rows, m.cols, grid, b, bytes);
        EXPECT_LE(r.hi - r.lo, run + m.cols) << "block " << b;
      }
    }
  }
}

TEST(Matrix, FlatRowsGivesARowTheLanesItsLengthAllows) {
  const std::pair<std::size_t, int> want[] = {{1, 1},   {8, 2},     {15, 1},    {16, 4},     {17, 1},    {33, 1},
                                              {64, 16}, {65, 2},    {127, 2},   {129, 4},    {100, 4},   {256, 32},
                                              {300, 8}, {1000, 16}, {2049, 32}, {20000, 32}, {65537, 32}};
  for (const auto& [cols, lanes] : want) EXPECT_EQ(kernels::flat_row_lanes(cols), lanes) << cols;
}

// 3 rows of 20000 ints: a block a row, each row over three tiles of 8192 (32 KB), its sum carried
// from tile to tile. Block 1's first tile starts at its row (20000 is a multiple of 4).
TEST(Matrix, FlatRowsCarriesARowAcrossTiles) {
  const auto t = matrix_trace("flat-rows", 3, 20000, 32, 1);
  EXPECT_EQ(t.grid, 3u);
  EXPECT_EQ(t.outputs, (std::vector<double>{200010000, 600010000, 1000010000}));
  ASSERT_EQ(t.stages.size(), 7u);  // the tile, the lanes' folds, five shuffles
  EXPECT_EQ(t.stages[0].tag, kernels::kTagBulkWait);
  EXPECT_EQ(t.stages[0].param, 32768);
  ASSERT_TRUE(t.stages[0].shared);
  EXPECT_EQ(t.stages[0].shared->size(), 8192u);
  EXPECT_EQ((*t.stages[0].shared)[0], 20001);
  EXPECT_EQ(t.stages[1].tag, kernels::kTagRowLanes);
  EXPECT_EQ(t.stages[1].param, 32);
  const auto reads = access_of(t.stages[1], 3).reads;
  ASSERT_EQ(reads.size(), 256u);  // every 32nd cell of the tile from cell 3
  EXPECT_EQ(reads[1], 35);
  EXPECT_EQ(t.stages[1].bank_conflicts, 1);
  EXPECT_EQ(t.stages[2].param, 16);
}

// The worst warp-wide read of a row's lanes: none shared where the lanes are the length's 2-adic
// part (15, 17, 33: a lane a row; 100: 4 lanes, rows 100 = 4 x 25 cells apart); 16 keeps 4 lanes
// of its 16, so 8 rows 16 cells apart share 2 bank groups: 4-way; 64 keeps 16: 2-way.
TEST(Banks, FlatRowsLanesReadDifferentBanksWhereTheLengthAllows) {
  const std::pair<std::size_t, int> want[] = {{15, 1}, {17, 1}, {33, 1}, {100, 1}, {16, 4}, {64, 2}};
  for (const auto& [cols, degree] : want) {
    // 8000 rows: about 20 a block of the model's 396 (132 SMs, 3 blocks of buffers each).
    const auto t = matrix_trace("flat-rows", 8000, cols, 128, 0, {}, core::Op::Sum, core::DType::Float);
    ASSERT_GE(t.stages.size(), 2u);
    EXPECT_EQ(t.stages[1].bank_conflicts, degree) << cols;
  }
}

// 5 rows of 3 ints, a block a row: every tile starts at element 0, the 128-byte boundary before
// each run, and a bulk copy takes whole 16-byte vectors only, so the last block (elements 12-14,
// past the last whole vector) copies elements 0-11 and loads its own one a thread; block 3
// (elements 9-11) copies 0-11.
TEST(Matrix, FlatRowsLoadsTheLastElementsPastTheLastVector) {
  const auto last = matrix_trace("flat-rows", 5, 3, 32, 4);
  EXPECT_EQ(last.grid, 5u);
  EXPECT_EQ(last.outputs, (std::vector<double>{6, 15, 24, 33, 42}));
  EXPECT_EQ(last.stages[0].param, 48);
  EXPECT_EQ(loads_of(last.stages[0], 0), (std::vector<long long>{12}));
  EXPECT_EQ(loads_of(last.stages[0], 2), (std::vector<long long>{14}));
  EXPECT_TRUE(loads_of(last.stages[0], 3).empty());
  const auto before = matrix_trace("flat-rows", 5, 3, 32, 3);
  EXPECT_EQ(before.stages[0].param, 48);
  EXPECT_TRUE(before.stages[0].loads.empty());
  ASSERT_TRUE(before.stages[0].shared);
  EXPECT_EQ(*before.stages[0].shared, (std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
}

// Every flat-rows run's tiles start on the 128-byte boundary at or before the run (bulk copies
// from 16-byte boundaries alone ran far slower: docs/benchmarks.md). Seeded random shapes.
TEST(Matrix, FlatRowsTilesStartOn128ByteBoundaries) {
  std::mt19937_64 rng(53);
  for (int i = 0; i < 2000; ++i) {
    const std::size_t rows = 1 + rng() % 100000, cols = 1 + rng() % 5000,
                      grid = 1 + rng() % std::min<std::size_t>(rows, 1000);
    const std::size_t bytes = std::size_t(4) << (rng() % 2), b = rng() % grid;
    const auto r = kernels::flat_run(rows, cols, grid, b, bytes);
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols) + ", grid " + std::to_string(grid) + ", block " +
                 std::to_string(b) + ", " + std::to_string(bytes) + "-byte elements");
    EXPECT_EQ(r.base * bytes % 128, 0u);
    EXPECT_LE(r.base, r.lo);
    EXPECT_LT((r.lo - r.base) * bytes, 128u);
  }
}

// flat-rows' timed kernel holds its row sums in a ring (flat_held_rows) and writes the rows it has
// ended when flat_flush_due says so; those rows are read while the next tile ends more. Walking each
// block's tiles as the kernel does: no row the next tile writes shares a place in the ring with a
// row still being read, none waits past the ring, and every row of the run is written once.
// Seeded random shapes, every element size.
TEST(Matrix, FlatRowsHeldSumsNeverShareARingPlaceInUse) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  int walked = 0;
  for (int i = 0; i < 400; ++i) {
    const std::size_t rows = 1 + rng() % 60000, cols = 1 + rng() % (rng() % 2 ? 64 : 5000),
                      grid = 1 + rng() % std::min<std::size_t>(rows, 64), bytes = std::size_t(2) << (rng() % 3);
    const int ring = kernels::flat_held_rows(cols, bytes);
    if (ring == 0) continue;
    ++walked;
    const std::size_t tile = kernels::flat_tile_elements(bytes), tile_rows = kernels::flat_tile_rows(cols, bytes);
    SCOPED_TRACE(std::to_string(rows) + " x " + std::to_string(cols) + ", grid " + std::to_string(grid) + ", " +
                 std::to_string(bytes) + "-byte elements");
    std::size_t written = 0;
    for (std::size_t b = 0; b < grid; ++b) {
      const auto r = kernels::flat_run(rows, cols, grid, b, bytes);
      const std::size_t count = (r.hi - r.base + tile - 1) / tile;
      std::size_t flushed = r.first, ended = r.first,
                  read_from = r.first;  // rows read during the next tile: [read_from, ended)
      for (std::size_t k = 0; k < count; ++k) {
        const std::size_t done = k + 1 == count ? r.end : kernels::flat_tile(r, cols, tile, k + 1, 1).first_row;
        ASSERT_LE(done - ended, tile_rows) << "tile " << k;
        if (done > ended) {
          ASSERT_LT(done - 1 - read_from, std::size_t(ring)) << "tile " << k << " of block " << b;
        }
        ended = done, read_from = flushed;
        if (k + 1 == count || kernels::flat_flush_due(done - flushed, tile_rows, ring)) {
          written += done - flushed;
          flushed = done;
        }
      }
      ASSERT_EQ(flushed, r.end);
    }
    EXPECT_EQ(written, rows);
  }
  EXPECT_GT(walked, 100);
}

// Which rows flat-rows holds: those long enough that a tile ends at most an eighth of the ring's
// rows (8 KB of sums in the elements' type: from 33 elements a row, whatever the type), and whose lanes read in
// different banks (not 64 nor 48).
TEST(Matrix, FlatRowsHoldsItsSumsFrom33ElementsARowWhereTheLanesReadApart) {
  for (std::size_t bytes : {2, 4, 8}) {
    const int ring = int(kernels::kFlatHeldBytes / bytes);
    for (std::size_t cols : {33, 35, 100, 256, 1 << 20}) EXPECT_EQ(kernels::flat_held_rows(cols, bytes), ring) << cols;
    for (std::size_t cols : {7, 9, 15, 16, 17, 31, 32, 48, 64})
      EXPECT_EQ(kernels::flat_held_rows(cols, bytes), 0) << cols;
  }
  // Halves added in float: a tile holds 16384 halves, the ring 2048 float sums: from 65 elements,
  // where the lanes read apart (65 and 127: 2 lanes, sharing banks).
  EXPECT_EQ(kernels::flat_held_rows(104, 2, 4), 2048);
  EXPECT_EQ(kernels::flat_held_rows(100, 2, 4), 2048);
  EXPECT_EQ(kernels::flat_held_rows(65, 2, 4), 0);
  EXPECT_EQ(kernels::flat_held_rows(63, 2, 4), 0);
  EXPECT_EQ(kernels::flat_held_rows(33, 2, 4), 0);
}

// The lesson's threshold follows the trace's type and what it adds in: each the shortest row
// flat_held_rows holds, lanes aside (100 and 104 read apart: held from there).
TEST(Matrix, FlatRowsLessonSaysWhereItsTypeHoldsItsSums) {
  const auto from = [](core::DType type, core::Accumulate acc) {
    core::Trace t;
    t.type = type, t.accumulate = acc;
    return core::fill_lesson("{flat_held_from}", t);
  };
  EXPECT_EQ(from(core::DType::Float, core::Accumulate::Float), "33");
  EXPECT_EQ(from(core::DType::Int, core::Accumulate::Float), "33");
  EXPECT_EQ(from(core::DType::Double, core::Accumulate::Float), "33");
  EXPECT_EQ(from(core::DType::Half, core::Accumulate::Same), "33");
  EXPECT_EQ(from(core::DType::Half, core::Accumulate::Float), "65");
  EXPECT_EQ(from(core::DType::Bf16, core::Accumulate::Float), "65");
  for (const auto& [elem, sum, first] : {std::tuple{4, 4, 33}, std::tuple{2, 4, 65}, std::tuple{8, 8, 33}}) {
    EXPECT_EQ(kernels::flat_tile_rows(std::size_t(first), std::size_t(elem)) * kernels::kFlatHeldTiles <=
                  std::size_t(kernels::kFlatHeldBytes / sum),
              true);
    EXPECT_GT(kernels::flat_tile_rows(std::size_t(first - 1), std::size_t(elem)) * kernels::kFlatHeldTiles,
              std::size_t(kernels::kFlatHeldBytes / sum));
  }
}

// flat_lanes_apart says what the trace's banks view counts: the worst warp-wide read of the first
// tile is 1-way exactly where it says the lanes read apart. Every length from 1 to 160, and some
// long ones; 8000 rows give a block about 20, enough to fill a warp's reads at every length.
// Under the sanitizers the lengths to 40, those around 64, 96, 128 and 160, and 300 and 1000.
TEST(Banks, FlatRowsLanesApartIsWhatTheTraceCounts) {
  std::vector<std::size_t> lengths{300, 1000};
  if (!test::sanitized()) lengths.insert(lengths.end(), {4096, 5000});
  for (std::size_t cols = 1; cols <= 160; ++cols)
    if (!test::sanitized() || cols <= 40 || std::min(cols % 32, 32 - cols % 32) <= 1) lengths.push_back(cols);
  for (std::size_t cols : lengths) {
    const auto t = matrix_trace("flat-rows", 8000, cols, 128, 0, {}, core::Op::Sum, core::DType::Float);
    ASSERT_GE(t.stages.size(), 2u);
    EXPECT_EQ(t.stages[1].bank_conflicts == 1, kernels::flat_lanes_apart(cols))
        << cols << " elements a row: " << t.stages[1].bank_conflicts.value_or(-1) << "-way";
  }
}

// flat-rows over halves holds halves in its tiles (bulk copies of the input), two to a 4-byte
// word, though the trace shows them widened to the float they are added in. A lone lane's row of
// 15, 17 or 33 halves starts 7.5, 8.5 or 16.5 words after the one before, so two of a warp's rows
// meet in one bank (2-way), where rows of floats read apart. The stage's count and the banks view
// take the halves' 2 bytes; a tree of halves added in float holds floats.
TEST(Banks, FlatRowsOverHalvesCountTwoByteCells) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const std::size_t cols : {std::size_t(15), std::size_t(17), std::size_t(33)}) {
    SCOPED_TRACE(std::to_string(cols) + " elements a row");
    const std::size_t rows = 20000;  // 50 rows a block of the model's 396: warp 0 has 32
    const auto half =
        matrix_trace("flat-rows", rows, cols, 128, 0, test::random_values(rows * cols, core::DType::Half, seed),
                     core::Op::Sum, core::DType::Half);
    const auto floats =
        matrix_trace("flat-rows", rows, cols, 128, 0, test::random_values(rows * cols, core::DType::Float, seed),
                     core::Op::Sum, core::DType::Float);
    EXPECT_EQ(core::shared_cell_bytes(half), 2u);
    ASSERT_TRUE(half.stages.size() > 1 && half.stages[1].bank_conflicts && floats.stages[1].bank_conflicts);
    EXPECT_EQ(*half.stages[1].bank_conflicts, 2);
    EXPECT_EQ(*floats.stages[1].bank_conflicts, 1);
    int worst = 0;  // what the banks view draws
    for (const auto& row : core::bank_rows(half.stages[1], core::shared_cell_bytes(half)))
      worst = std::max(worst, *std::max_element(row.words.begin(), row.words.end()));
    EXPECT_EQ(worst, 2);
  }
  backend::TraceRequest req{
      "sequential", core::Op::Sum, core::DType::Half, 64, 0, test::random_values(64, core::DType::Half, seed)};
  EXPECT_EQ(core::shared_cell_bytes(backend::make_sim_backend()->trace(req)), 4u);
}

// flat-rows' copies end at the 16-byte boundary at or after the block's run, not at its tile's
// end: 3000 rows of 17 ints over the model's 396 blocks give block 0 rows 0-6 (elements 0-118:
// 120 copied, 480 bytes) and block 1 rows 7-14 (elements 119-254, from the 128-byte boundary at
// 96 to 256: 640 bytes) and the last block rows 2992-2999 (elements 50864-50999, from 50848:
// 608 bytes), not a 32 KB tile each.
TEST(Matrix, FlatRowsCopiesEndAtTheRunNotTheTile) {
  const auto first = matrix_trace("flat-rows", 3000, 17, 32, 0);
  ASSERT_EQ(first.grid, 396u);
  EXPECT_EQ(first.stages[0].param, 480);
  EXPECT_EQ(matrix_trace("flat-rows", 3000, 17, 32, 1).stages[0].param, 640);
  EXPECT_EQ(matrix_trace("flat-rows", 3000, 17, 32, 395).stages[0].param, 608);
}

// flat-rows: a row's lanes are the tasks of the tile holding its first element, threads in turn.
// 3000 rows of 100 ints over the model's 396 blocks: block 1 takes rows 7-14, 4 lanes a row,
// its tile starting at element 672 (the 128-byte boundary before row 7's 700); thread 8 is row 9's
// first lane and reads its first cell, 900 - 672 = 228.
TEST(Matrix, FlatRowsRowThreadsAreTheLanesThatReadTheRow) {
  const auto t = matrix_trace("flat-rows", 3000, 100, 32, 1);
  EXPECT_FALSE(core::row_threads(t, 6));
  EXPECT_FALSE(core::row_threads(t, 15));
  for (std::size_t row = 7; row < 15; ++row) {
    const auto th = core::row_threads(t, row);
    ASSERT_TRUE(th) << row;
    EXPECT_EQ(th->first, int(row - 7) * 4);
    EXPECT_EQ(th->count, 4);
  }
  ASSERT_GE(t.stages.size(), 2u);
  ASSERT_FALSE(access_of(t.stages[1], 8).reads.empty());
  EXPECT_EQ(access_of(t.stages[1], 8).reads.front(), 228);
}
