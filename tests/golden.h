// Golden traces: runs recorded on a GPU (tests/data/golden/*.json, written by
// scripts/gpu-suite.sh golden), which the host tests replay on the CPU model bit for bit, so every
// CI run checks the model against what a GPU really did.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "app/backend/backend.h"
#include "app/core/trace.h"
#include "test_support.h"

namespace rl::test {

struct GoldenCase {
  std::string name;
  std::string algorithm;
  std::size_t n;
  int block;
  core::DType type;
  core::Op op;
  int trace_block;  // -1: the last block, partly filled where n is not a multiple of its share
  std::uint64_t seed;
  std::size_t rows = 0, cols = 0;  // the matrix family: n = rows x cols
  std::string special = {};        // "nan", "inf" or "-inf": planted among the random values
  int cluster = 0;                 // cluster-dsmem: blocks a cluster (0: the default)
  core::Accumulate accumulate = core::Accumulate::Float;  // half and bf16: what they add in
};

// Floats and doubles, awkward and exact sizes, last blocks; work-queue with thousands of
// tickets, so that hundreds are taken out of order.
inline std::vector<GoldenCase> golden_cases() {
  using core::DType, core::Op;
  const std::size_t k = 1024;
  return {
      {"sequential-float-sum", "sequential", 4099, 256, DType::Float, Op::Sum, -1, 101},
      {"first-add-on-load-double-sum", "first-add-on-load", 4 * k, 256, DType::Double, Op::Sum, -1, 102},
      {"warp-shuffle-float-max", "warp-shuffle", 128 * k + 3, 512, DType::Float, Op::Max, -1, 103},
      {"complete-unroll-double-sum", "complete-unroll", 3 * k, 1024, DType::Double, Op::Sum, -1, 104},
      {"work-queue-float-sum", "work-queue", 8 * k * k, 256, DType::Float, Op::Sum, 7, 105},
      {"work-queue-double-sum", "work-queue", 4 * k * k + 5, 256, DType::Double, Op::Sum, -1, 106},
      {"cg-block-float-min", "cg-block", 5000, 64, DType::Float, Op::Min, -1, 107},
      {"multiple-per-thread-float-sum", "multiple-per-thread", k * k, 256, DType::Float, Op::Sum, -1, 108},
      {"threadfence-single-pass-double-sum", "threadfence-single-pass", 33 * 256 + 1, 256, DType::Double, Op::Sum, -1,
       109},
      {"non-pow2-block-float-sum", "non-pow2-block", 10007, 270, DType::Float, Op::Sum, -1, 110},
      {"warp-shuffle-vectorized-float-sum", "warp-shuffle-vectorized", k * k + 1, 128, DType::Float, Op::Sum, -1, 111},
      {"interleaved-bank-conflicts-float-sum", "interleaved-bank-conflicts", 64 * k, 256, DType::Float, Op::Sum, -1,
       112},
      {"global-halving-double-sum", "global-halving", 1000, 256, DType::Double, Op::Sum, 0, 113},
      {"cg-grid-sync-float-sum", "cg-grid-sync", 100003, 128, DType::Float, Op::Sum, -1, 114},
      {"cg-two-phase-double-max", "cg-two-phase", 77777, 512, DType::Double, Op::Max, -1, 115},
      {"cg-warp-float-sum", "cg-warp", 4099, 128, DType::Float, Op::Sum, -1, 116},
      {"unroll-last-warp-float-sum", "unroll-last-warp", 16 * k, 128, DType::Float, Op::Sum, -1, 117},
      {"naive-serial-double-sum", "naive-serial", 1000, 64, DType::Double, Op::Sum, -1, 118},
      {"cg-reduce-update-async-float-sum", "cg-reduce-update-async", 5000, 256, DType::Float, Op::Sum, -1, 119},
      {"interleaved-divergent-int-sum", "interleaved-divergent", 999, 32, DType::Int, Op::Sum, -1, 120},
      // Issue 30: 601 partials for 64 threads, so each thread of the last block folds several.
      {"threadfence-single-pass-float-sum-many-partials", "threadfence-single-pass", 601 * 64 + 7, 64, DType::Float,
       Op::Sum, -1, 121},
      // NaN and Inf through the trees and the shuffles (IEEE rules: docs/reliability.md).
      {"warp-shuffle-float-max-nan", "warp-shuffle", 10000, 256, DType::Float, Op::Max, -1, 122, 0, 0, "nan"},
      {"sequential-double-sum-inf", "sequential", 5000, 128, DType::Double, Op::Sum, -1, 123, 0, 0, "inf"},
      {"cg-block-float-min-minus-inf", "cg-block", 3001, 64, DType::Float, Op::Min, -1, 124, 0, 0, "-inf"},
      // More ints, more min and max.
      {"sequential-int-max", "sequential", 4099, 256, DType::Int, Op::Max, -1, 125},
      {"warp-shuffle-vectorized-int-sum", "warp-shuffle-vectorized", k * k + 3, 256, DType::Int, Op::Sum, -1, 126},
      {"cg-warp-int-min", "cg-warp", 5000, 128, DType::Int, Op::Min, -1, 127},
      {"first-add-on-load-int-max", "first-add-on-load", 10001, 128, DType::Int, Op::Max, -1, 128},
      {"complete-unroll-float-min", "complete-unroll", 3000, 512, DType::Float, Op::Min, -1, 129},
      // The matrix family: every kernel in float and double, first and last blocks, the split
      // rows' second pass (few rows), the vectorized rows' last-block fold (3 chunks a row).
      {"batched-rows-float-sum", "batched-rows", 33 * 257, 64, DType::Float, Op::Sum, -1, 130, 33, 257},
      {"batched-rows-double-max", "batched-rows", 33 * 257, 128, DType::Double, Op::Max, 0, 131, 33, 257},
      {"batched-rows-int-min", "batched-rows", 17 * 300, 32, DType::Int, Op::Min, -1, 132, 17, 300},
      {"batched-rows-shuffle-float-sum", "batched-rows-shuffle", 5 * 1000, 128, DType::Float, Op::Sum, -1, 133, 5,
       1000},
      {"batched-rows-shuffle-double-min", "batched-rows-shuffle", 17 * 300, 32, DType::Double, Op::Min, 0, 134, 17,
       300},
      {"batched-rows-split-float-sum", "batched-rows-split", 3 * 4097, 256, DType::Float, Op::Sum, -1, 135, 3, 4097},
      {"batched-rows-split-double-sum", "batched-rows-split", 2 * 10000, 128, DType::Double, Op::Sum, 0, 136, 2, 10000},
      {"batched-rows-vectorized-float-sum", "batched-rows-vectorized", 2 * 3100, 32, DType::Float, Op::Sum, -1, 137, 2,
       3100},
      {"batched-rows-vectorized-double-sum", "batched-rows-vectorized", 3 * 4100, 32, DType::Double, Op::Sum, 0, 138, 3,
       4100},
      // Rows of 4097 floats: each starts its own distance before a 16-byte boundary (a head of 0,
      // 3 and 2 elements, a tail of 1, 2 and 3); the last row traced.
      {"batched-rows-vectorized-float-odd", "batched-rows-vectorized", 3 * 4097, 64, DType::Float, Op::Sum, -1, 188, 3,
       4097},
      {"column-sums-float-sum", "column-sums", 4097 * 3, 64, DType::Float, Op::Sum, -1, 139, 4097, 3},
      {"column-sums-double-max", "column-sums", 1000 * 33, 128, DType::Double, Op::Max, 0, 140, 1000, 33},
      {"column-sums-int-max", "column-sums", 4097 * 3, 64, DType::Int, Op::Max, -1, 141, 4097, 3},
      {"column-sums-vectorized-float-sum", "column-sums-vectorized", 64 * 4100, 32, DType::Float, Op::Sum, -1, 142, 64,
       4100},
      {"column-sums-vectorized-double-sum", "column-sums-vectorized", 257 * 130, 64, DType::Double, Op::Sum, 0, 143,
       257, 130},
      {"column-sums-naive-float-sum", "column-sums-naive", 100 * 257, 64, DType::Float, Op::Sum, -1, 144, 100, 257},
      {"column-sums-naive-double-min", "column-sums-naive", 33 * 100, 32, DType::Double, Op::Min, 0, 145, 33, 100},
      {"block-2d-float-sum", "block-2d", 33 * 257, 256, DType::Float, Op::Sum, -1, 146, 33, 257},
      {"block-2d-double-sum", "block-2d", 100 * 100, 64, DType::Double, Op::Sum, 0, 147, 100, 100},
      // Short rows: a warp a row over rows of 33 (two loads for lane 0), 17 and 3; a few lanes a
      // row over 16 floats (a float4 a lane), 15 (one element a load) and 17 doubles.
      {"warp-per-row-float-sum", "warp-per-row", 1000 * 33, 256, DType::Float, Op::Sum, -1, 148, 1000, 33},
      {"warp-per-row-double-min", "warp-per-row", 5 * 17, 64, DType::Double, Op::Min, 0, 149, 5, 17},
      {"warp-per-row-int-max", "warp-per-row", 4097 * 3, 128, DType::Int, Op::Max, -1, 150, 4097, 3},
      {"lanes-per-row-float-sum", "lanes-per-row", 4096 * 16, 256, DType::Float, Op::Sum, -1, 151, 4096, 16},
      {"lanes-per-row-float-max", "lanes-per-row", 1000 * 15, 128, DType::Float, Op::Max, 0, 152, 1000, 15},
      {"lanes-per-row-double-sum", "lanes-per-row", 333 * 17, 64, DType::Double, Op::Sum, -1, 153, 333, 17},
      // A thread a row: rows of 16 floats (a pad cell a row), 40 ints (two tiles of columns) and
      // 7 doubles (odd: no pad).
      {"thread-per-row-float-sum", "thread-per-row", 1000 * 16, 128, DType::Float, Op::Sum, -1, 154, 1000, 16},
      {"thread-per-row-int-min", "thread-per-row", 300 * 40, 64, DType::Int, Op::Min, 0, 155, 300, 40},
      {"thread-per-row-double-max", "thread-per-row", 2049 * 7, 256, DType::Double, Op::Max, -1, 156, 2049, 7},
      {"redux-sync-int-sum", "redux-sync", 4099, 256, DType::Int, Op::Sum, -1, 157},
      {"redux-sync-int-min", "redux-sync", k * k + 3, 1024, DType::Int, Op::Min, 0, 158},
      {"redux-sync-int-max", "redux-sync", 1000, 64, DType::Int, Op::Max, -1, 159},
      // The last cluster: one block partly filled, the others past the end (identities).
      {"cluster-dsmem-float-sum-2", "cluster-dsmem", 4099, 256, DType::Float, Op::Sum, -1, 160, 0, 0, {}, 2},
      {"cluster-dsmem-int-min-4", "cluster-dsmem", k * k + 3, 1024, DType::Int, Op::Min, -1, 161, 0, 0, {}, 4},
      {"cluster-dsmem-double-max-8", "cluster-dsmem", 1000, 64, DType::Double, Op::Max, 0, 162, 0, 0, {}, 8},
      // Tiles by bulk copy: a one-element tail; a last tile of part of a block; doubles over many
      // tiles a block; three ints, no tile at all.
      {"bulk-async-float-sum", "bulk-async", k * k + 1, 128, DType::Float, Op::Sum, -1, 163},
      {"bulk-async-int-min", "bulk-async", 4099, 256, DType::Int, Op::Min, -1, 164},
      {"bulk-async-double-sum", "bulk-async", 100003, 1024, DType::Double, Op::Sum, 0, 165},
      {"bulk-async-int-max", "bulk-async", 3, 64, DType::Int, Op::Max, 0, 166},
      // The last block folds the blocks' totals: floats over many blocks, a double max with a
      // part block, three ints. compensated: a one-element tail; doubles; an infinity planted.
      {"vectorized-ordered-float-sum", "vectorized-ordered", k * k + 1, 128, DType::Float, Op::Sum, -1, 167},
      {"vectorized-ordered-double-max", "vectorized-ordered", 4099, 256, DType::Double, Op::Max, -1, 168},
      {"vectorized-ordered-int-sum", "vectorized-ordered", 3, 64, DType::Int, Op::Sum, 0, 169},
      {"compensated-float-sum", "compensated", k * k + 1, 256, DType::Float, Op::Sum, -1, 170},
      {"compensated-double-sum", "compensated", 100003, 1024, DType::Double, Op::Sum, 0, 171},
      {"compensated-float-inf", "compensated", 4099, 128, DType::Float, Op::Sum, -1, 172, 0, 0, "inf"},
      // Half and bfloat16 (issue 35): values from [-1, 1] that round differently in half, bf16 and
      // float, added in float and in the element type itself (every add rounded, as __hadd does).
      {"warp-shuffle-vectorized-half-sum", "warp-shuffle-vectorized", k * k + 5, 256, DType::Half, Op::Sum, -1, 173},
      {"work-queue-bf16-sum", "work-queue", 16 * k * k + 3, 256, DType::Bf16, Op::Sum, -1,
       174},  // tickets past the grid
      {"sequential-half-sum-same",
       "sequential",
       4099,
       256,
       DType::Half,
       Op::Sum,
       -1,
       175,
       0,
       0,
       {},
       0,
       core::Accumulate::Same},
      {"warp-shuffle-bf16-sum-same",
       "warp-shuffle",
       33 * 256 + 1,
       128,
       DType::Bf16,
       Op::Sum,
       -1,
       176,
       0,
       0,
       {},
       0,
       core::Accumulate::Same},
      {"warp-shuffle-vectorized-bf16-max", "warp-shuffle-vectorized", 100003, 512, DType::Bf16, Op::Max, -1, 177},
      {"batched-rows-vectorized-half-sum", "batched-rows-vectorized", 3 * 4100, 64, DType::Half, Op::Sum, -1, 178, 3,
       4100},
      {"lanes-per-row-bf16-sum-same",
       "lanes-per-row",
       1000 * 16,
       256,
       DType::Bf16,
       Op::Sum,
       -1,
       179,
       1000,
       16,
       {},
       0,
       core::Accumulate::Same},
      // The streaming forms of the Hopper kernels (issue 53): redux-sync's over many blocks and
      // a min with a part vector; clusters of 2 (the row's own), 4 and 8 folded by the last
      // cluster; 32 KB tiles, about five a block (each buffer refilled), a short last tile, and
      // three ints (no tile).
      {"redux-sync-streaming-int-sum", "redux-sync-streaming", 4 * k * k + 3, 256, DType::Int, Op::Sum, -1, 180},
      {"redux-sync-streaming-int-min", "redux-sync-streaming", 4099, 64, DType::Int, Op::Min, 0, 181},
      {"cluster-dsmem-streaming-float-sum", "cluster-dsmem-streaming", k * k + 1, 256, DType::Float, Op::Sum, -1, 182},
      {"cluster-dsmem-streaming-double-max-4",
       "cluster-dsmem-streaming",
       100003,
       128,
       DType::Double,
       Op::Max,
       0,
       183,
       0,
       0,
       {},
       4},
      {"cluster-dsmem-streaming-int-sum-8",
       "cluster-dsmem-streaming",
       4099,
       64,
       DType::Int,
       Op::Sum,
       -1,
       184,
       0,
       0,
       {},
       8},
      {"bulk-async-streaming-float-sum", "bulk-async-streaming", 16 * k * k + 1, 256, DType::Float, Op::Sum, -1, 185},
      {"bulk-async-streaming-double-sum", "bulk-async-streaming", 100003, 1024, DType::Double, Op::Sum, 0, 186},
      {"bulk-async-streaming-int-max", "bulk-async-streaming", 3, 64, DType::Int, Op::Max, 0, 187},
      // flat-rows (issue 53): 3 rows of 2^16 + 1 floats (a block a row, a row across nine tiles:
      // carries), 5000 rows of 33 ints (a lane a row, rows starting off 16-byte boundaries),
      // 2049 rows of 7 doubles (a lane a row) whose last block loads the last element itself.
      {"flat-rows-float-sum", "flat-rows", 3 * (64 * k + 1), 256, DType::Float, Op::Sum, -1, 188, 3, 64 * k + 1},
      {"flat-rows-int-min", "flat-rows", 5000 * 33, 128, DType::Int, Op::Min, 0, 189, 5000, 33},
      {"flat-rows-double-max", "flat-rows", 2049 * 7, 64, DType::Double, Op::Max, -1, 190, 2049, 7},
      // flat-rows over halves added in float (4 lanes a row of 100, 16 KB of halves a tile's
      // half), and bfloat16 added in bfloat16 (a lane a row of 33, the last block's own loads).
      {"flat-rows-half-sum", "flat-rows", 3000 * 100, 256, DType::Half, Op::Sum, -1, 191, 3000, 100},
      {"flat-rows-bf16-sum-same",
       "flat-rows",
       2049 * 33,
       128,
       DType::Bf16,
       Op::Sum,
       -1,
       192,
       2049,
       33,
       {},
       0,
       core::Accumulate::Same},
  };
}

// The case's input: random values, with its special value planted at a few places (one of them
// in the last block's share, where the last block is traced).
inline std::vector<double> golden_values(const GoldenCase& c) {
  auto v = random_values(c.n, c.type, c.seed);
  if (c.special.empty()) return v;
  const double x = c.special == "nan" ? std::numeric_limits<double>::quiet_NaN()
                   : c.special == "inf" ? std::numeric_limits<double>::infinity()
                                        : -std::numeric_limits<double>::infinity();
  for (const std::size_t at : {std::size_t(7), c.n / 2, c.n - 3}) v[at] = x;
  return v;
}

// Where the files live: REDLAB_GOLDEN_DIR (the GPU machine runs from another checkout), else
// this source tree's.
inline std::filesystem::path golden_dir() {
  if (const char* d = std::getenv("REDLAB_GOLDEN_DIR")) return d;
  return REDLAB_SOURCE_DIR "/tests/data/golden";
}

inline backend::TraceRequest golden_request(const GoldenCase& c, int trace_block, std::size_t grid,
                                            std::vector<int> tickets) {
  backend::TraceRequest r{c.algorithm, c.op, c.type, c.block, trace_block, golden_values(c), grid, std::move(tickets)};
  r.rows = c.rows, r.cols = c.cols, r.cluster = c.cluster, r.accumulate = c.accumulate;
  return r;
}

struct GoldenFile {
  std::string device, date;
  core::Trace trace;
};

// Throws std::runtime_error naming the file when it is missing or broken.
inline GoldenFile read_golden(const GoldenCase& c) {
  const auto path = golden_dir() / (c.name + ".json");
  std::ifstream in(path);
  if (!in) throw std::runtime_error("no golden file " + path.string() + " (scripts/gpu-suite.sh golden records them)");
  std::stringstream text;
  text << in.rdbuf();
  const auto j = nlohmann::json::parse(text.str());
  return {j.at("recorded").at("device"), j.at("recorded").at("date"), core::trace_from_json(j.at("trace").dump())};
}

// A recording with the stage labels and source lines of `now`: those are the app's words for a
// stage, not what the GPU recorded, and may change without a new recording.
inline core::Trace with_words_of(core::Trace recorded, const core::Trace& now) {
  for (std::size_t k = 0; k < recorded.stages.size() && k < now.stages.size(); ++k)
    recorded.stages[k].label = now.stages[k].label, recorded.stages[k].line = now.stages[k].line,
    recorded.stages[k].file = now.stages[k].file;
  return recorded;
}

inline std::string golden_json(const core::Trace& t, const std::string& date) {
  nlohmann::ordered_json j;
  j["recorded"] = {{"device", t.device}, {"date", date}};
  j["trace"] = nlohmann::ordered_json::parse(core::to_json(t, -1));
  return j.dump() + "\n";  // one line: the files stay small
}

}  // namespace rl::test
