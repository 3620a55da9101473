// Benchmark results, sizes, the Harris table, and the plot's arithmetic (no GL needed).
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <tuple>

#include "test_support.h"
#include <algorithm>
#include <random>

#include <cmath>
#include <fstream>
#include <sstream>

#include "app/backend/bench_runner.h"
#include "app/backend/runner.h"
#include "kernels/bench_stats.h"
#include "app/core/bench.h"
#include "app/core/catalog.h"
#include "app/core/embedded.h"
#include "app/render/bench_chart.h"
#include "app/render/plot.h"
#include "kernels/algorithms.h"
#include "kernels/shapes.h"
#include "kernels/matrix_shapes.h"
#include "kernels/bench_input.h"
#include "kernels/model/matrix_check.h"
#include "kernels/model/model.h"
#include "kernels/model/pieces.h"

using namespace rl;

namespace {

core::BenchReport sample_report() {
  core::BenchReport r{"NVIDIA H200", "580.159.04", "2026-11-21 12:55 UTC", "cuda", 4800, {}};
  const auto row = [](std::string a, std::size_t n, double us) {
    core::BenchRow x;
    x.algorithm = std::move(a);
    x.type = "float";
    x.op = "sum";
    x.n = n;
    x.block = x.algorithm == "cub" ? 0 : 256;
    x.median_us = us;
    x.noise_pct = 0.3;
    x.samples = 12;
    x.gbps = core::bytes_moved(x.algorithm, n, 4) / (us * 1e3);
    x.pct_of_peak = 100 * x.gbps / 4800;
    x.check_ok = true;
    x.check = "exact";
    return x;
  };
  for (std::size_t n : {std::size_t(1) << 16, std::size_t(1) << 24}) {
    r.rows.push_back(row("interleaved-divergent", n, n / 1e5));
    r.rows.push_back(row("sequential", n, n / 2e5));
    r.rows.push_back(row("cub", n, n / 4e5));
  }
  r.rows.back().write_back_us = 4.25;  // (matrix rows carry one) kept through JSON
  return r;
}

}  // namespace

TEST(Bench, SizesParseAsRangesAndLists) {
  std::string why;
  auto s = core::parse_sizes("2^16..2^28", &why);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->size(), 13u);
  EXPECT_EQ(s->front(), 65536u);
  EXPECT_EQ(s->back(), std::size_t(1) << 28);
  s = core::parse_sizes("1000,2^10,7", &why);
  ASSERT_TRUE(s);
  EXPECT_EQ(*s, (std::vector<std::size_t>{1000, 1024, 7}));
  for (const char* bad : {"", "2^28..2^16", "100..200", "1,,2", "0", "x", "2^99", "-5"}) {
    EXPECT_FALSE(core::parse_sizes(bad, &why)) << bad;
    EXPECT_FALSE(why.empty());
  }
}

TEST(Bench, ResultsRoundTripThroughJsonAndWriteCsv) {
  const auto r = sample_report();
  EXPECT_EQ(core::bench_from_json(core::to_json(r)), r);
  const auto csv = core::to_csv(r);
  EXPECT_EQ(csv.rfind("algorithm,type,op,n,rows,cols,block,grid,cluster,median_us,noise_pct,samples,discarded,gbps,pct_"
                      "of_peak,device,check_ok,check,write_back_us\n",
                      0),
            0u);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);
  EXPECT_NE(csv.find("cub,float,sum,16777216,"), std::string::npos);
  EXPECT_NE(csv.find("sequential,float,sum,65536,0,0,256,"), std::string::npos);
  // Results written before rows recorded their block still load, with block 0 (unknown).
  std::string old = core::to_json(r);
  for (std::size_t at; (at = old.find("\"block\"")) != std::string::npos;) old.erase(at, old.find(',', at) + 1 - at);
  const auto loaded = core::bench_from_json(old);
  ASSERT_EQ(loaded.rows.size(), r.rows.size());
  for (const auto& x : loaded.rows) EXPECT_EQ(x.block, 0);
  EXPECT_THROW(core::bench_from_json("{\"device\": 3}"), std::runtime_error);
  EXPECT_THROW(core::bench_from_json("not json"), std::runtime_error);
}

TEST(Bench, HarrisTableHasStepAndCumulativeSpeedups) {
  auto report = sample_report();
  report.rows.insert(report.rows.begin(), report.rows.back());  // naive-serial, first in the report
  report.rows.front().algorithm = "naive-serial";
  report.rows.front().median_us = 3 * report.rows.back().median_us;
  const auto t = core::harris_table(report, std::size_t(1) << 24, "float", "sum");
  ASSERT_EQ(t.size(), 4u);  // Harris' kernels in his order, then the others in catalog order
  EXPECT_EQ(t[0].algorithm, "interleaved-divergent");
  EXPECT_EQ(t[1].algorithm, "sequential");
  EXPECT_EQ(t[2].algorithm, "naive-serial");
  EXPECT_EQ(t[3].algorithm, "cub");
  EXPECT_TRUE(t[0].harris && t[1].harris && !t[2].harris && !t[3].harris);
  EXPECT_DOUBLE_EQ(t[0].step_speedup, 1);
  EXPECT_DOUBLE_EQ(t[1].step_speedup, 2);
  EXPECT_TRUE(std::isnan(t[2].step_speedup));  // not a step of Harris' progression
  EXPECT_TRUE(std::isnan(t[3].step_speedup));
  EXPECT_DOUBLE_EQ(t[1].cumulative_speedup, 2);
  EXPECT_DOUBLE_EQ(t[2].cumulative_speedup, 4.0 / 3);
  EXPECT_DOUBLE_EQ(t[3].cumulative_speedup, 4);
  EXPECT_TRUE(core::harris_table(report, 12345, "float", "sum").empty());
  // A kernel of your own (bench --kernel, the Bandwidth tab) comes last, once, without a step.
  auto own = report.rows.back();
  own.algorithm = "own:reduce2";
  report.rows.insert(report.rows.begin(), own);
  report.rows.push_back(own);
  const auto with_own = core::harris_table(report, std::size_t(1) << 24, "float", "sum");
  ASSERT_EQ(with_own.size(), 5u);
  EXPECT_EQ(with_own[4].algorithm, "own:reduce2");
  EXPECT_FALSE(with_own[4].harris);
  EXPECT_TRUE(std::isnan(with_own[4].step_speedup));
}

TEST(Bench, BytesMovedCountsWhatMustMove) {
  EXPECT_EQ(core::bytes_moved("sequential", 1000, 4), 4004);
  EXPECT_EQ(core::bytes_moved("copy", 1000, 8), 16000);
}

TEST(Bench, SimBackendTimesTheModelAndSaysSo) {
  backend::BenchRequest req;
  req.algorithms = {"sequential", "warp-shuffle", "cpu", "cub"};
  req.sizes = {1000, 4096};
  req.type = core::DType::Int;
  req.max_seconds = 0.01;
  std::vector<core::BenchRow> streamed;
  const auto r = backend::run_bench(req, backend::Choice::Sim, [&](const core::BenchRow& x) { streamed.push_back(x); },
                                    {}, nullptr);
  EXPECT_EQ(r.backend, "sim");
  EXPECT_EQ(r.device, "CPU model");
  EXPECT_EQ(r.rows.size(), 6u);  // cub needs a GPU: left out on the model
  EXPECT_EQ(streamed, r.rows);
  for (const auto& x : r.rows) {
    EXPECT_TRUE(x.check_ok) << x.algorithm << " " << x.check;
    EXPECT_GT(x.median_us, 0);
    EXPECT_GE(x.samples, 3);
    EXPECT_EQ(x.pct_of_peak, 0);
  }
  EXPECT_THROW(backend::run_bench({{"syncthreads-in-branch"}, {64}}, backend::Choice::Sim, {}, {}, nullptr),
               std::invalid_argument);
}

TEST(Bench, ShapesParseAndTheSweepKeepsTheTotal) {
  std::string why;
  const auto s = core::parse_shapes("2^8x2^20,1000x3,1x1", &why);
  ASSERT_TRUE(s) << why;
  EXPECT_EQ(*s, (std::vector<core::MatrixShape>{{256, std::size_t(1) << 20}, {1000, 3}, {1, 1}}));
  for (const char* bad : {"", "3", "0x4", "4x0", "4x", "x4", "2^8y2^4", "2^30x2^30", "4x4,"}) {
    EXPECT_FALSE(core::parse_shapes(bad, &why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
  const auto sweep = core::default_shapes(28);
  ASSERT_GE(sweep.size(), 7u);  // the floor
  EXPECT_EQ(sweep.front(), (core::MatrixShape{16, std::size_t(1) << 24}));
  EXPECT_EQ(sweep.back(), (core::MatrixShape{std::size_t(1) << 24, 16}));
  for (const auto& x : sweep) EXPECT_EQ(x.rows * x.cols, std::size_t(1) << 28);
  // `--shapes sweep` adds issue 33's odd shapes after it.
  const auto odd = core::sweep_shapes(28);
  ASSERT_EQ(odd.size(), sweep.size() + 3);
  EXPECT_TRUE(std::equal(sweep.begin(), sweep.end(), odd.begin()));
  EXPECT_EQ(odd[sweep.size()], (core::MatrixShape{std::size_t(1) << 24, 15}));
  EXPECT_EQ(odd[sweep.size() + 1], (core::MatrixShape{1000000, 100}));
  EXPECT_EQ(odd[sweep.size() + 2], (core::MatrixShape{3, (std::size_t(1) << 20) + 1}));
  EXPECT_EQ(core::sweep_shapes(20)[core::default_shapes(20).size() + 1], (core::MatrixShape{10000, 100}));
}

// The CPU model over shapes: every kernel's outputs checked, the GPU anchors left out, and the
// shape kept in the rows (and through JSON).
TEST(Bench, MatrixShapesOnTheModelAreCheckedRowByRow) {
  backend::BenchRequest req;
  req.algorithms = backend::default_matrix_bench_algorithms(core::DType::Float, core::Op::Sum);
  req.shapes = {{33, 257}, {1, 1000}, {1000, 1}};
  req.type = core::DType::Float;
  const auto r = backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr);
  EXPECT_EQ(r.rows.size(), 3 * core::matrix_ids().size());
  for (const auto& x : r.rows) {
    EXPECT_TRUE(x.check_ok) << x.algorithm << " " << x.check;
    EXPECT_EQ(x.rows * x.cols, x.n);
    EXPECT_GT(x.block, 0);
  }
  EXPECT_EQ(core::bench_from_json(core::to_json(r)), r);
  req.algorithms = {"sequential"};
  EXPECT_THROW(backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr), std::invalid_argument);
  req.algorithms = {"cublas-gemv-columns"};
  req.type = core::DType::Int;
  EXPECT_THROW(backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr), std::invalid_argument);
  const auto ints = backend::default_matrix_bench_algorithms(core::DType::Int, core::Op::Sum);
  EXPECT_EQ(std::count_if(ints.begin(), ints.end(), [](const std::string& id) { return id.rfind("cublas", 0) == 0; }), 0);
}

// Matrices of halves: the rows that take them, timed on the model and checked row by row; the
// bytes count 2 an element in and 4 an output out (the sums are floats).
TEST(Bench, MatricesOfHalvesRunOnTheRowsThatTakeThem) {
  backend::BenchRequest req;
  req.type = core::DType::Half;
  req.algorithms = backend::default_matrix_bench_algorithms(req.type, core::Op::Sum);
  EXPECT_EQ(req.algorithms, (std::vector<std::string>{"batched-rows-vectorized", "lanes-per-row", "flat-rows"}));
  req.shapes = {{33, 257}, {1000, 16}, {3, 4100}};
  const auto r = backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr);
  ASSERT_EQ(r.rows.size(), 9u);
  for (const auto& x : r.rows) {
    EXPECT_TRUE(x.check_ok) << x.algorithm << " " << x.check;
    EXPECT_EQ(x.type, "half");
    const double bytes = double(x.n) * 2 + double(x.rows) * 4;
    EXPECT_NEAR(x.gbps, bytes / (x.median_us * 1e3), 1e-9 * x.gbps) << x.algorithm;
  }
  req.algorithms = {"batched-rows"};
  EXPECT_THROW(backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr), std::invalid_argument);
}

// A wrong output is caught: one element moved in one row.
TEST(Bench, TheMatrixCheckCatchesOneWrongOutput) {
  const kernels::Matrix m{3, 4};
  const std::vector<float> in{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  std::vector<float> rows{10, 26, 42};
  auto c = model::check_matrix_outputs<float, ops::Sum>(rows.data(), in.data(), m, kernels::Lines::Rows, false);
  EXPECT_EQ(c.wrong, 0u);
  rows[1] = 27;
  c = model::check_matrix_outputs<float, ops::Sum>(rows.data(), in.data(), m, kernels::Lines::Rows, false);
  EXPECT_EQ(c.wrong, 1u);
  EXPECT_NE(c.first_wrong.find("output 1"), std::string::npos) << c.first_wrong;
  const std::vector<int> ints(in.begin(), in.end());
  const std::vector<int> cols{15, 18, 21, 24};
  EXPECT_EQ((model::check_matrix_outputs<int, ops::Sum>(cols.data(), ints.data(), m, kernels::Lines::Columns, true).wrong), 0u);
  const std::vector<int> max{12};
  EXPECT_EQ((model::check_matrix_outputs<int, ops::Max>(max.data(), ints.data(), m, kernels::Lines::Whole, false).wrong), 0u);
}

// A line at a time, one element after the other: what the pieces of matrix_expected must give.
template <class T, class Op>
model::MatrixExpected<T> serial_lines(const std::vector<T>& in, kernels::Matrix m, kernels::Lines lines) {
  const model::LineWalk w = model::line_walk(m, lines);
  model::MatrixExpected<T> e;
  e.len = w.len;
  e.resize(w.lines);
  for (std::size_t l = 0; l < w.lines; ++l) {
    e.ref[l] = Op::template identity<T>();
    for (std::size_t k = 0; k < w.len; ++k) {
      const T x = in[l * w.line_step + k * w.elem_step];
      e.exact[l] += (long double)x, e.abs_sum[l] += std::fabs((long double)x), e.ref[l] = Op{}(e.ref[l], x);
    }
  }
  return e;
}

// The exact lines, drawn in pieces on every core, equal the serial walk: rows, columns and the
// whole matrix, at shapes whose lines split into several pieces (columns of 300001 rows, rows of
// 2^20 + 5) and at 0, 1 and odd sizes. Values are multiples of 2^-8 under 2^12, so every order of
// adding them is exact in long double and the sums compare equal.
TEST(Bench, TheExactLinesInPiecesEqualTheSerialWalk) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const kernels::Matrix shapes[] = {{0, 5},      {1, 1}, {3, 1}, {1, 7}, {33, 257}, {300001, 7}, {3, (1u << 20) + 5},
                                    {1031, 1029}};
  for (const kernels::Matrix m : shapes) {
    if (test::sanitized() && m.rows == 1031) continue;  // the square one: no pieces the others lack
    std::vector<float> f(m.size());
    std::vector<int> n(m.size());
    for (std::size_t i = 0; i < m.size(); ++i)
      f[i] = float(std::int64_t(rng() % (1u << 21)) - (1 << 20)) / 256.f, n[i] = int(rng() % 2000001) - 1000000;
    for (const auto lines : {kernels::Lines::Rows, kernels::Lines::Columns, kernels::Lines::Whole}) {
      SCOPED_TRACE(std::to_string(m.rows) + " x " + std::to_string(m.cols) + " lines " + std::to_string(int(lines)));
      const auto got = model::matrix_expected<float, ops::Sum>(f.data(), m, lines);
      const auto want = serial_lines<float, ops::Sum>(f, m, lines);
      EXPECT_EQ(got.len, want.len);
      EXPECT_EQ(got.exact, want.exact);
      EXPECT_EQ(got.abs_sum, want.abs_sum);
      const auto ints = model::matrix_expected<int, ops::Sum>(n.data(), m, lines);
      const auto ints_want = serial_lines<int, ops::Sum>(n, m, lines);
      EXPECT_EQ(ints.ref, ints_want.ref);  // wrapping adds, in any order
      EXPECT_EQ(ints.exact, ints_want.exact);
      EXPECT_EQ((model::matrix_expected<float, ops::Max>(f.data(), m, lines).ref),
                (serial_lines<float, ops::Max>(f, m, lines).ref));
    }
  }
}

// The bench's input, drawn in pieces on every core: each value stored once, of its type and
// range (halves and bfloat16 reach 1: a float just under 1 rounds up), and the facts equal a
// serial walk over the stored values: exactly (multiples of 2^-24 under 1, or ints: long double
// adds them without rounding), doubles' sums within the serial walk's rounding bound. Sizes 0,
// 1, odd and past one piece of 2^20 for every type and operator, past three for float sums.
TEST(Bench, TheDrawnInputsFactsEqualASerialWalk) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const std::size_t n :
       {std::size_t(0), std::size_t(1), std::size_t(7), (std::size_t(1) << 20) + 3, (std::size_t(3) << 20) + 5})
    for (const kernels::DType type : {kernels::DType::Int, kernels::DType::Float, kernels::DType::Double,
                                      kernels::DType::Half, kernels::DType::Bf16})
      for (const kernels::OpKind op : {kernels::OpKind::Sum, kernels::OpKind::Min, kernels::OpKind::Max}) {
        if (n > (std::size_t(2) << 20) && (type != kernels::DType::Float || op != kernels::OpKind::Sum)) continue;
        // Under the sanitizers the pieces of 2^20 + 3 for float sums alone: the draw is the same code.
        if (test::sanitized() && n > 7 && (type != kernels::DType::Float || op != kernels::OpKind::Sum)) continue;
        SCOPED_TRACE("n " + std::to_string(n) + ", type " + std::to_string(int(type)) + ", op " +
                     std::to_string(int(op)));
        std::vector<double> v(n, -1e9);
        std::vector<std::atomic<int>> stored(n);
        const auto f = kernels::draw_input(type, op, n, seed, [&](std::size_t i, double x) { v[i] = x, ++stored[i]; });
        long double sum = 0, abs_sum = 0;
        double lo = INFINITY, hi = -INFINITY;
        for (std::size_t i = 0; i < n; ++i) {
          ASSERT_EQ(stored[i].load(), 1) << "value " << i;
          ASSERT_EQ(v[i], kernels::drawn_value(type, seed, i)) << "value " << i;
          const bool in_range = type == kernels::DType::Int ? v[i] == std::floor(v[i]) && std::fabs(v[i]) <= 1000
                                : kernels::is_narrow(type)  ? v[i] >= 0 && v[i] <= 1  // rounded to nearest: 1 too
                                                            : v[i] >= 0 && v[i] < 1;
          ASSERT_TRUE(in_range) << "value " << i << ": " << v[i];
          const double rounded = type == kernels::DType::Float ? double(float(v[i]))
                                 : kernels::is_narrow(type)    ? kernels::narrow_value(type, float(v[i]))
                                                               : v[i];
          ASSERT_EQ(rounded, v[i]) << "value " << i << " is not of its type";
          sum += v[i], abs_sum += std::fabs(v[i]), lo = std::min(lo, v[i]), hi = std::max(hi, v[i]);
        }
        const double want = op == kernels::OpKind::Min    ? lo
                            : op == kernels::OpKind::Max  ? hi
                            : type == kernels::DType::Int ? double(std::int32_t(std::uint32_t(std::int64_t(sum))))
                                                          : double(sum);
        if (type == kernels::DType::Double &&
            op == kernels::OpKind::Sum) {  // 53-bit fractions: long double rounds their sums, in any order
          // The serial walk rounds at most n times by 2^-64 (Higham 4.2); each side then rounds to double.
          const double bound = (0x1p-52 + double(n) * 0x1p-64) * double(abs_sum);
          EXPECT_NEAR(f.expected, want, bound);
          EXPECT_NEAR(f.abs_sum, double(abs_sum), bound);
        } else {
          EXPECT_EQ(f.expected, want);
          EXPECT_EQ(f.abs_sum, double(abs_sum));
        }
      }
}

// Every piece runs once, on whatever cores there are; a piece's exception reaches the caller.
TEST(Bench, EveryPieceRunsOnceAndItsErrorReachesTheCaller) {
  for (const std::size_t pieces : {0u, 1u, 7u, 1000u}) {
    std::vector<std::atomic<int>> runs(pieces);
    model::for_each_piece(pieces, [&](std::size_t p) { ++runs[p]; });
    for (std::size_t p = 0; p < pieces; ++p) EXPECT_EQ(runs[p].load(), 1) << "piece " << p << " of " << pieces;
  }
  std::atomic<int> done{0};
  EXPECT_THROW(model::for_each_piece(100,
                                     [&](std::size_t p) {
                                       if (p == 37) throw std::runtime_error("piece 37");
                                       ++done;
                                     }),
               std::runtime_error);
  EXPECT_EQ(done.load(), 99);
  EXPECT_EQ(model::piece_count(0, 8), 0u);
  EXPECT_EQ(model::piece_count(17, 8), 3u);
}

TEST(Bench, EachAlgorithmRunsWithItsOwnBlockUnlessOneIsAsked) {
  using kernels::Algo;
  const std::size_t big = std::size_t(1) << 28, mid = std::size_t(1) << 24;
  EXPECT_EQ(kernels::preferred_block(Algo::WarpShuffleVectorized, big, 132), 1024);
  EXPECT_EQ(kernels::preferred_block(Algo::WarpShuffleVectorized, mid, 132), 256);
  EXPECT_EQ(kernels::preferred_block(Algo::WarpShuffleVectorized, mid, 16), 1024);  // per SM: a smaller GPU
  EXPECT_EQ(kernels::preferred_block(Algo::Sequential, big, 132), 256);
  EXPECT_EQ(kernels::preferred_block(Algo::WorkQueue, std::size_t(1) << 22, 132), 1024);
  EXPECT_EQ(kernels::preferred_block(Algo::WorkQueue, std::size_t(1) << 20, 132), 256);
  backend::BenchRequest req;
  req.algorithms = {"sequential", "non-pow2-block", "warp-shuffle-vectorized", "cpu"};
  req.sizes = {1000};
  req.max_seconds = 0.01;
  auto r = backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr);
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.rows[0].block, 256);
  EXPECT_EQ(r.rows[1].block, 272);  // 256 + 256/16: a block size that is not a power of two
  EXPECT_EQ(r.rows[2].block, 256);
  EXPECT_EQ(r.rows[3].block, 0);  // std::reduce has no blocks
  req.block = 128;
  r = backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr);
  ASSERT_EQ(r.rows.size(), 4u);
  EXPECT_EQ(r.rows[0].block, 128);
  EXPECT_EQ(r.rows[2].block, 128);
  for (const auto& x : r.rows) EXPECT_TRUE(x.check_ok) << x.algorithm << " " << x.check;
}

TEST(Bench, CancelStopsTheRun) {
  std::atomic<bool> cancel{true};
  backend::BenchRequest req{{"sequential"}, {1024, 2048}};
  EXPECT_TRUE(backend::run_bench(req, backend::Choice::Sim, {}, {}, &cancel).rows.empty());
}

// Each shown line's name sits beside its right end (issue 32, item 7: read from the back of the
// room without matching colours), rows never overlap, the hidden series' rows come after, and
// a click on a row still finds its series.
TEST(Plot, NamesSitAtTheirLinesEnds) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  render::PlotSpec spec;
  for (int i = 0; i < 9; ++i) {
    const double end = 5 + double(rng() % 1000) / 10;
    spec.series.push_back({"s" + std::to_string(i), {1, 0, 0, 1}, {{1024, 1}, {4096, end}}});
  }
  spec.series[3].visible = false;
  const auto f = render::plot_frame(spec, 1600, 900);
  ASSERT_EQ(f.row_y.size(), spec.series.size());
  const float h = f.label_px * 1.45f;
  std::vector<float> shown;
  for (int i = 0; i < 9; ++i) {
    const auto row = f.legend_row(i);
    EXPECT_EQ(render::hit_legend(spec, f, row.cx(), row.cy()), i);
    if (i == 3) continue;
    shown.push_back(row.cy());
    // Pushed apart at most by the rows crowding it: never further than the rows there are.
    EXPECT_LT(std::abs(row.cy() - f.py(spec.series[std::size_t(i)].points.back().second)), h * 9) << i;
  }
  std::sort(shown.begin(), shown.end());
  for (std::size_t k = 1; k < shown.size(); ++k) EXPECT_GE(shown[k] - shown[k - 1], h - 0.01f);
  EXPECT_GT(f.legend_row(3).cy(), shown.back());  // the hidden one under the shown
  // Lines far apart: each name level with its end.
  render::PlotSpec two;
  two.series.push_back({"low", {1, 0, 0, 1}, {{1024, 1}, {4096, 10}}});
  two.series.push_back({"high", {0, 1, 0, 1}, {{1024, 1}, {4096, 90}}});
  const auto g = render::plot_frame(two, 1600, 900);
  for (int i = 0; i < 2; ++i)
    EXPECT_NEAR(g.legend_row(i).cy(), g.py(two.series[std::size_t(i)].points.back().second), 0.5f) << i;
}

TEST(Plot, MapsLog2AxisAndFindsPoints) {
  render::PlotSpec spec;
  spec.series.push_back({"a", {1, 0, 0, 1}, {{1024, 10}, {2048, 20}, {4096, 40}}});
  spec.series.push_back({"b", {0, 1, 0, 1}, {{1024, 5}, {4096, 30}}});
  spec.lines.push_back({"peak", 50, {1, 1, 1, 1}});
  const auto f = render::plot_frame(spec, 800, 500);
  // Equal steps in log2: 1024 -> 2048 -> 4096 are evenly spaced.
  EXPECT_NEAR(f.px(2048) - f.px(1024), f.px(4096) - f.px(2048), 0.01);
  EXPECT_GT(f.py(10), f.py(40));  // larger values higher up
  EXPECT_GE(f.y1, 50);            // the reference line is in range
  const auto hit = render::hit_point(spec, f, f.px(2048) + 2, f.py(20) - 1, 8);
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->series, 0);
  EXPECT_EQ(hit->point, 1);
  EXPECT_FALSE(render::hit_point(spec, f, f.px(2048), f.py(45), 8));
  spec.series[0].visible = false;  // hidden series are not hit
  EXPECT_FALSE(render::hit_point(spec, f, f.px(2048), f.py(20), 8));
  const auto row = f.legend_row(1);
  EXPECT_EQ(render::hit_legend(spec, f, row.cx(), row.cy()), 1);
  const auto ticks = render::x_ticks(f);
  ASSERT_FALSE(ticks.empty());
  EXPECT_EQ(ticks.front().label, "2^10");
}

// A narrow chart (presenter mode's quarter) spaces its 2^K ticks so no two labels touch
// (issue 32, item 7: "2^162^172^18").
TEST(Plot, TickLabelsNeverRunTogether) {
  render::PlotSpec spec;
  spec.series.push_back({"a", {1, 0, 0, 1}, {{1 << 10, 10}, {std::ldexp(1.0, 28), 90}}});
  for (const int width : {300, 420, 800, 1600}) {
    const auto f = render::plot_frame(spec, width, 400);
    const float label_w = 34;
    const auto ticks = render::x_ticks(f, label_w);
    ASSERT_GE(ticks.size(), 2u) << width;
    for (std::size_t i = 1; i < ticks.size(); ++i)
      EXPECT_GE(f.px(ticks[i].value) - f.px(ticks[i - 1].value), 1.5f * label_w) << width << ": " << ticks[i].label;
  }
}

// A matrix sweep on a GPU: % of peak against a row's length; the shapes off the sweep's total (the
// odd ones) are markers apart from the line, so the line runs through the sweep alone.
TEST(Plot, MatrixChartIsPercentOfPeakByRowLengthWithOddShapesApart) {
  core::BenchReport r{"NVIDIA H100 80GB HBM3", "580.159.04", "2026-11-26 20:21 UTC", "cuda", 3352, {}};
  for (const auto& [rows, cols, pct] : std::vector<std::tuple<std::size_t, std::size_t, double>>{
           {16, 1 << 16, 90}, {1 << 16, 16, 80}, {1 << 8, 1 << 12, 85}, {1000, 15, 40}}) {
    core::BenchRow x;
    x.algorithm = "thread-per-row", x.type = "float", x.op = "sum", x.rows = rows, x.cols = cols;
    x.n = rows * cols, x.median_us = 10, x.pct_of_peak = pct, x.gbps = pct * 33.52;
    r.rows.push_back(x);
  }
  const auto spec = render::bench_chart(r, "float", "sum");
  ASSERT_EQ(spec.series.size(), 1u);
  EXPECT_EQ(spec.y_label, "% of peak");
  const auto& s = spec.series[0];
  EXPECT_EQ(s.points, (std::vector<std::pair<double, double>>{{15, 40}, {16, 80}, {4096, 85}, {65536, 90}}));
  EXPECT_EQ(s.apart, (std::vector<bool>{true, false, false, false}));
  ASSERT_EQ(spec.lines.size(), 1u);
  EXPECT_EQ(spec.lines[0].y, 100);
}

TEST(Plot, BenchChartHasASeriesPerAlgorithmAndThePeak) {
  const auto spec = render::bench_chart(sample_report(), "float", "sum");
  ASSERT_EQ(spec.series.size(), 3u);
  EXPECT_EQ(spec.series[2].name, "cub (reference)");
  EXPECT_EQ(spec.series[0].points.size(), 2u);
  ASSERT_EQ(spec.lines.size(), 1u);
  EXPECT_EQ(spec.lines[0].y, 4800);
  EXPECT_TRUE(render::bench_chart(sample_report(), "int", "sum").series.empty());
  // A kernel of your own (own:NAME) is a series of its own, after ours, in a colour of its own.
  auto report = sample_report();
  auto own = report.rows.front();
  own.algorithm = "own:reduce2";
  report.rows.push_back(own);
  const auto with_own = render::bench_chart(report, "float", "sum");
  ASSERT_EQ(with_own.series.size(), 4u);
  EXPECT_EQ(with_own.series[3].name, "own:reduce2");
  EXPECT_EQ(with_own.series[3].points.size(), 1u);
  const auto same = [](const render::Color& a, const render::Color& b) {
    return a.r == b.r && a.g == b.g && a.b == b.b;
  };
  for (std::size_t i = 0; i < 3; ++i) EXPECT_FALSE(same(with_own.series[i].color, with_own.series[3].color)) << i;
}

// Every algorithm measured: more series than the palette has colours. No two series may look
// the same (colour and dash together), so each stays readable in the legend and the chart.
TEST(Plot, EverySeriesOfAFullRunLooksDifferent) {
  core::BenchReport r{"NVIDIA H200", "580.159.04", "2026-11-22 00:04 UTC", "cuda", 4814, {}};
  for (const auto& a : core::algorithms()) {
    if (a.matrix) continue;  // timed by shape, on a chart of their own
    core::BenchRow x;
    x.algorithm = a.id;
    x.type = "float";
    x.op = "sum";
    x.n = 1 << 20;
    x.median_us = 10;
    x.gbps = 100;
    r.rows.push_back(x);
  }
  const auto spec = render::bench_chart(r, "float", "sum");
  ASSERT_EQ(spec.series.size(), r.rows.size());
  int dashed = 0;
  for (std::size_t i = 0; i < spec.series.size(); ++i) {
    dashed += spec.series[i].dashed;
    for (std::size_t j = 0; j < i; ++j) {
      const auto &a = spec.series[i], &b = spec.series[j];
      const bool same_color = a.color.r == b.color.r && a.color.g == b.color.g && a.color.b == b.color.b;
      EXPECT_FALSE(same_color && a.dashed == b.dashed && a.width == b.width) << a.name << " looks like " << b.name;
    }
  }
  EXPECT_GT(dashed, 0);  // the palette ran out, so some series are dashed
}

// The result check is shown wrong results: at 2^28 (the benchmark's inputs in [0, 1), sum|x|
// about 2^27) a lost chunk of 2^16 elements moves the sum by about 2^15, past every algorithm's
// bound; at 2^12 one dropped element of about 1 is past it too; NaN never passes. The cpu
// baseline (std::reduce, one addition after another) has a bound of n roundings: a lost chunk
// fits inside it, so it is left out of the lost-chunk case.
TEST(Bench, TheResultCheckRefusesWrongResults) {
  const auto check = [&](const std::string& id, std::size_t n, core::DType type, double got, double expected,
                         double abs_sum) {
    core::BenchRow row;
    row.algorithm = id;
    row.n = n;
    const auto* info = core::find_algorithm(id);
    row.block = info->kind == core::Kind::Baseline
                    ? 0
                    : kernels::preferred_block(backend::kernel_algo(id), n, model::kModelSmCount);
    backend::judge(row, type, core::Op::Sum, got, expected, abs_sum, model::kModelDevice);
    return row;
  };
  const double big = double(std::size_t(1) << 27), lost = 32768;
  for (const auto& id : backend::default_bench_algorithms(core::DType::Float)) {
    if (id == "copy") continue;
    SCOPED_TRACE(id);
    EXPECT_TRUE(check(id, std::size_t(1) << 28, core::DType::Float, big, big, big).check_ok);
    if (id != "cpu") {
      const auto row = check(id, std::size_t(1) << 28, core::DType::Float, big - lost, big, big);
      EXPECT_FALSE(row.check_ok) << row.check;
      EXPECT_FALSE(check(id, std::size_t(1) << 28, core::DType::Double, big - lost, big, big).check_ok);
    }
    EXPECT_FALSE(check(id, 4096, core::DType::Float, 2048 - 0.99, 2048, 2048).check_ok);
    EXPECT_FALSE(check(id, 4096, core::DType::Int, 2047, 2048, 2048).check_ok);
    EXPECT_FALSE(check(id, 4096, core::DType::Float, std::nan(""), 2048, 2048).check_ok);
    EXPECT_FALSE(check(id, 4096, core::DType::Int, std::nan(""), 2048, 2048).check_ok);
  }
}

// The bounds are bounds, not guesses: the CPU model's float sums on the benchmark's own input
// pass them with room, at sizes that are not powers of two too.
TEST(Bench, CorrectFloatSumsPassTheCheck) {
  backend::BenchRequest req;
  req.algorithms = backend::default_bench_algorithms(core::DType::Float);
  req.sizes = {1, 1000, 4099, (std::size_t(1) << 17) + 3};
  req.type = core::DType::Float;
  req.max_seconds = 0.001;
  const auto report = backend::run_bench(req, backend::Choice::Sim, {}, {}, nullptr);
  EXPECT_FALSE(report.rows.empty());
  for (const auto& row : report.rows) EXPECT_TRUE(row.check_ok) << row.algorithm << " n=" << row.n << ": " << row.check;
}

// Found by a teacher's walk: the CPU model's progress stopped at "160 / 161" because the last
// step was never reported, so a finished run looked hung.
TEST(Bench, ProgressReachesItsTotalOnTheModel) {
  backend::BenchRequest req;
  req.algorithms = {"sequential", "warp-shuffle", "cpu"};
  req.sizes = {1000, 4096};
  req.max_seconds = 0.001;
  backend::BenchProgress last;
  std::size_t calls = 0;
  backend::run_bench(req, backend::Choice::Sim, {}, [&](const backend::BenchProgress& p) { last = p, ++calls; }, nullptr);
  EXPECT_EQ(last.total, 6u);
  EXPECT_EQ(last.done, last.total);
  EXPECT_GT(calls, 6u);
}

// The GPU runs built into the binary are the report's files as they are in assets/runs, and
// each is a GPU's: the Bandwidth tab shows them without a GPU, so none may be the CPU model's.
TEST(Shipped, EveryShippedReportIsAGpuRunAsInDocs) {
  const auto& names = embedded::shipped_report_names();
  const auto& reports = core::shipped_reports();  // throws, naming the file, if one does not parse
  ASSERT_FALSE(names.empty());
  ASSERT_EQ(reports.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto& r = reports[i].report;
    std::ifstream in(std::string(REDLAB_SOURCE_DIR) + "/assets/runs/" + std::string(names[i]) + ".json", std::ios::binary);
    std::stringstream file;
    file << in.rdbuf();
    EXPECT_EQ(file.str(), embedded::shipped_report(names[i])) << names[i];
    EXPECT_FALSE(r.rows.empty()) << names[i];
    EXPECT_NE(r.device.find("NVIDIA"), std::string::npos) << names[i] << ": " << r.device;
    EXPECT_EQ(r.device.find("CPU model"), std::string::npos) << names[i];
    EXPECT_EQ(r.backend, "cuda") << names[i];
    EXPECT_GT(r.peak_gbps, 0) << names[i];
    EXPECT_FALSE(r.driver.empty() || r.date.empty()) << names[i];
    for (const auto& row : r.rows) EXPECT_TRUE(row.check_ok) << names[i] << " " << row.algorithm << " n=" << row.n;
  }
}

// Each run offers its float and int sums, found by what its rows hold; H200's comes first.
TEST(Shipped, EachRunHoldsFloatAndIntSumsAndIsLabelledAsMeasuredElsewhere) {
  const auto runs = core::shipped_runs();
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs.front(), "h200");
  for (const auto& run : runs) {
    for (const char* type : {"float", "int"}) {
      const auto* r = core::shipped_report(run, type, "sum");
      ASSERT_NE(r, nullptr) << run << " " << type;
      for (const auto& row : r->rows) EXPECT_EQ(row.type, type) << run;
      const std::string label = core::shipped_label(*r);
      EXPECT_EQ(label.rfind("measured on " + r->device + ", not this machine (", 0), 0u) << label;
      EXPECT_NE(label.find(r->date), std::string::npos) << label;
      const auto title = render::bench_chart(*r, type, "sum", render::Origin::Shipped).title;
      EXPECT_NE(title.find("measured on " + r->device + ", not this machine"), std::string::npos) << title;
      EXPECT_NE(title.find(r->date), std::string::npos) << title;
    }
    EXPECT_EQ(core::shipped_report(run, "double", "sum"), nullptr);
    const auto* matrix = core::shipped_report(run, "float", "sum", true);
    if (matrix) {  // a matrix sweep is shipped beside the arrays, never in their place
      EXPECT_TRUE(core::is_matrix_report(*matrix));
      EXPECT_FALSE(core::is_matrix_report(*core::shipped_report(run, "float", "sum")));
      const std::string contents = core::shipped_contents(run),
                        floats = "float sum and int sum and float sum over matrix shapes";
      EXPECT_TRUE(contents == floats || contents == floats + " and int sum over matrix shapes") << contents;
    } else {
      EXPECT_EQ(core::shipped_contents(run), "float sum and int sum");
    }
  }
  ASSERT_NE(core::shipped_report("h100", "float", "sum", true), nullptr);
  EXPECT_EQ(core::shipped_report("h300", "float", "sum"), nullptr);
}

// A CPU-model chart says that its timings are the host's, not a GPU's.
TEST(Plot, CpuModelChartSaysItsTimingsAreNotAGpus) {
  core::BenchReport r = sample_report();
  r.device = "CPU model", r.backend = "sim", r.peak_gbps = 0;
  const auto title = render::bench_chart(r, "float", "sum").title;
  EXPECT_NE(title.find("CPU model timings (the host's cost, not a GPU's)"), std::string::npos) << title;
}

// A results file opened in the window names what it holds when the tab's type and operator
// find none of its rows (issue 48, item 15: it said "no rows" where rows of another type were).
TEST(Bench, AReportNamesWhatItHolds) {
  core::BenchReport r;
  EXPECT_EQ(core::report_contents(r), "no rows");
  EXPECT_FALSE(core::report_has(r, "float", "sum"));
  for (const auto& [type, op] : {std::pair{"float", "sum"}, {"int", "max"}, {"float", "sum"}, {"double", "min"}}) {
    core::BenchRow row;
    row.algorithm = "sequential", row.type = type, row.op = op, row.n = 1024;
    r.rows.push_back(row);
  }
  EXPECT_EQ(core::report_contents(r), "float sum, int max and double min");
  EXPECT_TRUE(core::report_has(r, "int", "max"));
  EXPECT_FALSE(core::report_has(r, "int", "sum"));
  EXPECT_FALSE(core::report_has(r, "float", "max"));
}

// Float min and max are judged exactly, whatever the order of the comparisons: a result one ulp
// off is wrong, where a sum that far off would pass within its bound (issue 48: min and max of
// floats were judged only with sums in these tests).
TEST(Bench, FloatMinAndMaxAreJudgedExactly) {
  for (const core::Op op : {core::Op::Min, core::Op::Max})
    for (const core::DType type : {core::DType::Float, core::DType::Double}) {
      SCOPED_TRACE(core::to_string(type) + " " + core::to_string(op));
      const double expected = type == core::DType::Float ? double(0.734375f) : 0.734375;
      core::BenchRow row;
      row.algorithm = "warp-shuffle", row.n = std::size_t(1) << 20, row.block = 256;
      backend::judge(row, type, op, expected, expected, 1e6, model::kModelDevice);
      EXPECT_TRUE(row.check_ok) << row.check;
      EXPECT_EQ(row.check, "exact");
      const double next =
          type == core::DType::Float ? double(std::nextafter(float(expected), 1.0f)) : std::nextafter(expected, 1.0);
      backend::judge(row, type, op, next, expected, 1e6, model::kModelDevice);
      EXPECT_FALSE(row.check_ok) << row.check;
      EXPECT_EQ(row.check.find("got "), 0u) << row.check;
      // The same error in a sum passes.
      backend::judge(row, type, core::Op::Sum, next, expected, 1e6, model::kModelDevice);
      EXPECT_TRUE(row.check_ok) << row.check;
    }
}

// The GPU benchmark's median and noise (kernels/bench_stats.h) over drawn samples: the median of
// an odd count is its middle sample, of an even count the mean of the two middle ones; the noise
// is the sample standard deviation over the mean, in percent.
TEST(BenchStats, MedianAndNoiseOfDrawnSamples) {
  const unsigned seed = std::random_device{}();
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> us(5.0, 500.0);
  for (const std::size_t count : {std::size_t(1), std::size_t(2), std::size_t(7), std::size_t(10), std::size_t(1001)}) {
    std::vector<double> v(count);
    for (auto& x : v) x = us(rng);
    kernels::Timing t;
    kernels::summarise(v, t);
    std::vector<double> sorted = v;
    std::sort(sorted.begin(), sorted.end());
    const double median = count % 2 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
    double mean = 0, var = 0;
    for (double x : v) mean += x / double(count);
    for (double x : v) var += (x - mean) * (x - mean);
    const double noise = count > 1 ? 100 * std::sqrt(var / double(count - 1)) / mean : 0;
    EXPECT_EQ(t.samples, int(count)) << "seed " << seed;
    EXPECT_DOUBLE_EQ(t.median_us, median) << "seed " << seed << ", " << count << " samples";
    EXPECT_NEAR(t.noise_pct, noise, 1e-9 * std::max(1.0, noise)) << "seed " << seed << ", " << count << " samples";
  }
  kernels::Timing none;
  kernels::summarise({}, none);
  EXPECT_EQ(none.samples, 0);
  EXPECT_EQ(kernels::rsd({3.0}), 1.0);  // one sample has not converged
}
