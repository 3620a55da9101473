// The memory view drawn headless through EGL, checked pixel by pixel against the layout.
#include <gtest/gtest.h>

#include <cstdlib>

#include "app/backend/backend.h"
#include "app/backend/collective.h"
#include "app/core/input.h"
#include "app/core/facts.h"
#include "kernels/algorithms.h"
#include "app/backend/runner.h"
#include "app/core/settings.h"
#include "app/core/embedded.h"
#include "app/platform/headless.h"
#include "app/render/bench_chart.h"
#include "app/render/canvas.h"
#include "app/render/plot.h"
#include "app/render/layout.h"
#include "app/render/memory_view.h"
#include "app/render/offscreen.h"
#include "app/render/view_parts.h"
#include "app/render/warp_views.h"
#include "app/render/coalescing_view.h"
#include "app/render/matrix_view.h"
#include "app/render/grid_view.h"
#include "app/core/catalog.h"
#include <limits>
#include <algorithm>
#include <set>
#include "test_support.h"

using namespace rl;

namespace {

constexpr int W = 1024, H = 640;

struct Image {
  std::vector<std::uint8_t> rgba;
  int width = W;
  render::Color at(float x, float y) const {
    const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 4;
    return {rgba[i] / 255.0f, rgba[i + 1] / 255.0f, rgba[i + 2] / 255.0f, 1};
  }
};

bool near(render::Color a, render::Color b, float tol = 0.02f) {
  return std::abs(a.r - b.r) < tol && std::abs(a.g - b.g) < tol && std::abs(a.b - b.b) < tol;
}

std::string str(render::Color c) {
  return "rgb(" + std::to_string(int(c.r * 255)) + "," + std::to_string(int(c.g * 255)) + "," +
         std::to_string(int(c.b * 255)) + ")";
}

class RenderTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    ctx_ = platform::HeadlessContext::create(&why);
    if (!ctx_) {
      if (std::getenv("REDLAB_REQUIRE_GL")) FAIL() << "no headless OpenGL: " << why;
      GTEST_SKIP() << "SKIPPED: no headless OpenGL here: " << why;
    }
    canvas_ = std::make_unique<render::Canvas>();
    target_.resize(W, H);
  }
  void TearDown() override { canvas_.reset(); }

  Image draw_view(render::View v, const core::Trace& t, int stage, const render::ViewOptions& options = {}) {
    target_.bind();
    render::draw_stage_view(*canvas_, v, t, stage, W, H, options);
    render::Offscreen::unbind();
    return {target_.read_rgba()};
  }

  Image draw(const core::Trace& t, int stage) {
    target_.bind();
    render::draw_memory_view(*canvas_, t, stage, W, H);
    render::Offscreen::unbind();
    return {target_.read_rgba()};
  }

  std::unique_ptr<platform::HeadlessContext> ctx_;
  std::unique_ptr<render::Canvas> canvas_;
  render::Offscreen target_;
};

// Pixels within a small distance of colour c.
int count_near(const Image& img, render::Color c, float tol = 0.03f) {
  int n = 0;
  for (std::size_t i = 0; i + 3 < img.rgba.size(); i += 4)
    n += std::abs(img.rgba[i] / 255.0f - c.r) < tol && std::abs(img.rgba[i + 1] / 255.0f - c.g) < tol &&
         std::abs(img.rgba[i + 2] / 255.0f - c.b) < tol;
  return n;
}

core::Trace iota_trace(const std::string& algo, int n, int block) {
  backend::TraceRequest req{algo, core::Op::Sum, core::DType::Int, block, 0,
                            core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, n, core::DType::Int)};
  return backend::make_sim_backend()->trace(req);
}

}  // namespace

TEST_F(RenderTest, MarksWhatTheTraceRecorded) {
  const auto t = iota_trace("sequential", 32, 32);
  const Image img = draw(t, 1);  // stride 16: threads 0..15 add cells 16..31 into 0..15
  const auto L = render::layout_memory(32, W, H);
  const auto pal = render::standard_palette();
  EXPECT_TRUE(near(img.at(2, 2), pal.background)) << str(img.at(2, 2));
  // Samples sit at the strips' middles: the read-to-write arrows run in the cells' left margins.
  const auto band_px = [&](const render::Rect& b) { return img.at(b.cx(), b.cy()); };
  for (int i : {0, 7, 15}) {
    const auto band = L.thread_band(i), cell = L.cell(i);
    EXPECT_TRUE(near(band_px(band), pal.active)) << "thread " << i << " " << str(band_px(band));
    EXPECT_TRUE(near(img.at(cell.x + 1, cell.cy()), pal.written)) << "cell " << i;
  }
  for (int i : {16, 20, 31}) {
    const auto band = L.thread_band(i), cell = L.cell(i);
    EXPECT_TRUE(near(band_px(band), pal.inactive)) << "thread " << i;
    EXPECT_TRUE(near(img.at(cell.x + 1, cell.cy()), pal.read)) << "cell " << i << " " << str(img.at(cell.x + 1, cell.cy()));
  }
  // Cell 15 holds the stage's largest value (16 + 32 = 48): the top of the value scale.
  const auto c15 = L.cell(15);
  EXPECT_TRUE(near(img.at(c15.x + c15.w * 0.25f, c15.y + c15.h * 0.16f), render::value_color(1.0f)))
      << str(img.at(c15.x + c15.w * 0.25f, c15.y + c15.h * 0.16f));
  // Cell 16 holds 17, the smallest: the bottom of the scale.
  const auto c16 = L.cell(16);
  EXPECT_TRUE(near(img.at(c16.x + c16.w * 0.25f, c16.y + c16.h * 0.16f), render::value_color(0.0f)));
}

// The whole block's layout (a low minimum text size, so no warp is enlarged).
TEST_F(RenderTest, StagesDifferAndWarpsStandApart) {
  const auto t = iota_trace("interleaved-divergent", 256, 256);
  render::ViewOptions whole;
  whole.min_text_px = 6;
  const Image a = draw_view(render::View::Memory, t, 1, whole), b = draw_view(render::View::Memory, t, 2, whole);
  EXPECT_NE(a.rgba, b.rgba);
  const auto L = render::layout_memory(256, W, H, 1, 6);
  const auto pal = render::standard_palette();
  // Stage 2 (stride 2): threads 0, 4, 8, ... work; 1, 2, 3 idle.
  for (int i : {0, 4, 128}) {
    const auto band = L.thread_band(i);
    EXPECT_TRUE(near(b.at(band.cx(), band.cy()), pal.active)) << i;
  }
  for (int i : {1, 2, 3, 129}) {
    const auto band = L.thread_band(i);
    EXPECT_TRUE(near(b.at(band.cx(), band.cy()), pal.inactive)) << i;
  }
  // Between the last row of warp 0 and the first of warp 1 lies background.
  const int last_row_of_warp0 = 32 / L.cols - 1;
  const auto above = L.thread_band(last_row_of_warp0 * L.cols), below = L.cell(32);
  ASSERT_LT(above.y + above.h, below.y);
  EXPECT_TRUE(near(b.at(below.cx(), (above.y + above.h + below.y) / 2), pal.background));
}

TEST_F(RenderTest, CellsPastTheEndArePadding) {
  backend::TraceRequest req{"sequential", core::Op::Sum, core::DType::Int, 64, 0,
                            core::generate_input({core::InputSpec::Kind::Random, 3, {}}, 40, core::DType::Int)};
  const auto t = backend::make_sim_backend()->trace(req);
  const Image img = draw(t, 0);
  const auto L = render::layout_memory(64, W, H);
  const auto c = L.cell(50);
  EXPECT_TRUE(near(img.at(c.cx(), c.y + c.h * 0.16f), render::standard_palette().padding));
}

TEST_F(RenderTest, ChartDrawsSeriesAndThePeakWhereTheFrameSays) {
  core::BenchReport r{"NVIDIA H200", "580", "2026-11-21", "cuda", 4000, {}};
  for (std::size_t n : {std::size_t(1) << 16, std::size_t(1) << 20, std::size_t(1) << 24}) {
    core::BenchRow x;
    x.algorithm = "cub";
    x.type = "float";
    x.op = "sum";
    x.n = n;
    x.median_us = 10;
    x.gbps = 1000 + double(n >> 14);
    r.rows.push_back(x);
  }
  const auto spec = render::bench_chart(r, "float", "sum");
  target_.bind();
  render::draw_plot(*canvas_, spec, W, H);
  render::Offscreen::unbind();
  const Image img{target_.read_rgba()};
  const auto f = render::plot_frame(spec, W, H);
  // CUB's points are white squares at their (x, y).
  const auto& [x0, y0] = spec.series[0].points[1];
  EXPECT_TRUE(near(img.at(f.px(x0), f.py(y0)), {1, 1, 1, 1})) << str(img.at(f.px(x0), f.py(y0)));
  // The dashed peak line starts at the left edge of the plot, in its colour.
  EXPECT_TRUE(near(img.at(f.area.x + 3, f.py(4000)), spec.lines[0].color)) << str(img.at(f.area.x + 3, f.py(4000)));
}

// The axes' ticks end, and stay few, whatever the plotted range: a peak line at 1e-310 made the
// y ticks run to 1e-9 in steps of 1e-311 (fuzz_views, issue 48); huge ranges likewise.
TEST(Plot, TicksAreFewForAnyRange) {
  for (const double y : {1e-310, 1e-20, 0.5, 3e9, 1e300}) {
    SCOPED_TRACE(y);
    render::PlotSpec spec;
    spec.lines.push_back({"line", y, {1, 0, 0, 1}});
    render::Series s;
    s.name = "s";
    s.points = {{1, y}, {1e300, y}};
    spec.series.push_back(s);
    const auto f = render::plot_frame(spec, 800, 450);
    const auto ys = render::y_ticks(f), xs = render::x_ticks(f);
    EXPECT_GE(ys.size(), 2u);
    EXPECT_LE(ys.size(), 64u);
    EXPECT_LE(xs.size(), 64u);
    for (const auto& t : ys) EXPECT_TRUE(std::isfinite(t.value));
  }
}

TEST_F(RenderTest, ArrowsRunFromReadCellsToTheWrittenCell) {
  const auto t = iota_trace("sequential", 32, 32);
  const Image img = draw(t, 5);  // stride 1: thread 0 reads cells 0 and 1, writes cell 0
  const auto L = render::layout_memory(32, W, H);
  const auto from = L.cell(1), to = L.cell(0);
  // Halfway along the arrow from cell 1 to cell 0 (at 20% of the cells' height): the read colour.
  const float x = (from.cx() + to.cx()) / 2, y = from.y + from.h * 0.2f;
  const auto pal = render::standard_palette();
  const auto c = img.at(x, y);
  EXPECT_TRUE(std::abs(c.r - pal.read.r) < 0.12f && std::abs(c.g - pal.read.g) < 0.12f && std::abs(c.b - pal.read.b) < 0.12f)
      << str(c);
  // Stage 1 of a 256-thread block has 128 accesses: too many arrows, none drawn.
  const auto big = iota_trace("sequential", 256, 256);
  const Image b = draw(big, 1);
  const auto Lb = render::layout_memory(256, W, H);
  const auto mid = Lb.cell(64);
  EXPECT_FALSE(near(b.at(mid.cx(), mid.y + mid.h * 0.2f), pal.read));
}

TEST_F(RenderTest, ConflictingCellsCarryABadge) {
  const auto t = iota_trace("interleaved-bank-conflicts", 64, 64);
  const Image img = draw(t, 1);
  const auto L = render::layout_memory(64, W, H);
  const auto pal = render::standard_palette();
  // The badge sits in the top-right corner of a conflicting cell (cell 0: 2-way).
  const auto c0 = L.cell(0);
  EXPECT_TRUE(near(img.at(c0.x + c0.w - 2, c0.y + 2), pal.conflict)) << str(img.at(c0.x + c0.w - 2, c0.y + 2));
  const auto seq = iota_trace("sequential", 64, 64);
  const Image clean = draw(seq, 1);
  EXPECT_FALSE(near(clean.at(c0.x + c0.w - 2, c0.y + 2), pal.conflict));
}

// The shipped Harris plan walks Harris' seven kernels in the table's order, and each scene opens
// on a stage its run has, in a view that shows something.
TEST_F(RenderTest, TheHarrisPlanStepsThroughHarrisKernelsInOrder) {
  const auto plan = core::plan_from_json(std::string(embedded::plan("harris")), "harris");
  ASSERT_EQ(plan.scenes.size(), 7u);
  for (std::size_t i = 0; i < plan.scenes.size(); ++i) {
    const auto& sc = plan.scenes[i];
    SCOPED_TRACE(sc.algorithm);
    EXPECT_EQ(kernels::row(backend::kernel_algo(sc.algorithm)).harris_step, int(i) + 1);
    EXPECT_FALSE(sc.title.empty());
    const auto input = core::generate_input(sc.input, std::size_t(sc.size), sc.type);
    const auto t = backend::make_sim_backend()->trace({sc.algorithm, sc.op, sc.type, sc.block, sc.trace_block, input});
    ASSERT_LT(sc.stage, int(t.stages.size()));
    EXPECT_EQ(render::why_not(*render::parse_view(sc.view), t), "");
  }
}

// The shipped coalescing plan: every scene opens on a stage with loads, in the coalescing view,
// and what each title claims is what its trace records.
TEST_F(RenderTest, TheCoalescingPlanShowsWhatItsTitlesSay) {
  const auto plan = core::plan_from_json(std::string(embedded::plan("coalescing")), "coalescing");
  ASSERT_EQ(plan.scenes.size(), 9u);
  std::vector<std::vector<core::WarpLoad>> loads;
  std::vector<int> widest;
  for (const auto& sc : plan.scenes) {
    SCOPED_TRACE(sc.title);
    const bool matrix = kernels::row(backend::kernel_algo(sc.algorithm)).shape == kernels::Shape::Matrix;
    const std::size_t n = matrix ? std::size_t(sc.rows) * std::size_t(sc.cols) : std::size_t(sc.size);
    backend::TraceRequest req{sc.algorithm, sc.op, sc.type, sc.block, sc.trace_block, core::generate_input(sc.input, n, sc.type)};
    if (matrix) req.rows = std::size_t(sc.rows), req.cols = std::size_t(sc.cols);
    const auto t = backend::make_sim_backend()->trace(req);
    ASSERT_LT(sc.stage, int(t.stages.size()));
    EXPECT_EQ(sc.view, "coalescing");
    EXPECT_EQ(render::why_not(render::View::Coalescing, t), "");
    const auto& stage = t.stages[std::size_t(sc.stage)];
    loads.push_back(core::warp_loads(stage, 4));
    ASSERT_FALSE(loads.back().empty());
    // The Look beside the scene (its own, or its lesson's) points into this view at a stage
    // this run has, and the scene opens on that stage.
    const auto* about = core::find_algorithm(sc.algorithm);
    ASSERT_TRUE(about);
    const core::Pointer look = sc.look.empty() ? *about->look : core::parse_pointer(sc.look);
    EXPECT_EQ(look.view, "coalescing");
    EXPECT_EQ(core::pointed_stage(t, look), sc.stage);
    int w = 1;
    for (const auto& l : stage.loads)
      for (std::size_t k = 0; k < l.elements.size(); ++k) w = std::max(w, l.width(k));
    widest.push_back(w);
  }
  const auto all_ideal = [](const std::vector<core::WarpLoad>& v) {
    return std::all_of(v.begin(), v.end(), [](const core::WarpLoad& w) { return w.sectors == w.ideal; });
  };
  EXPECT_TRUE(all_ideal(loads[0]));                  // whole sectors
  EXPECT_EQ(widest[1], 4);                           // four elements a lane
  EXPECT_EQ(loads[1][0].sectors, 4 * loads[0][0].sectors);
  EXPECT_FALSE(all_ideal(loads[2]));                 // the misaligned upper half
  for (const auto& w : loads[2]) EXPECT_LE(w.sectors, w.ideal + 1);  // "one sector more"
  EXPECT_EQ(widest[4], 4);                           // the same rows in 16-byte loads
  EXPECT_EQ(loads[4][0].sectors, 4 * loads[3][0].sectors);
  EXPECT_TRUE(all_ideal(loads[3]) && all_ideal(loads[4]) && all_ideal(loads[5]) && all_ideal(loads[6]));
  EXPECT_EQ(widest[7], 4);
  EXPECT_TRUE(all_ideal(loads[7]));
  EXPECT_EQ(widest[8], 1);                           // each column alone
  EXPECT_FALSE(all_ideal(loads[8]));
}

// The banks view pages through a stage's warp-wide accesses 16 at a time: a block of 1024
// loads in 32 of them, and the second page shows others than the first; past the end it
// shows the last page.
TEST_F(RenderTest, TheBanksViewPagesThroughEveryAccess) {
  const auto t = iota_trace("sequential", 1024, 1024);
  ASSERT_EQ(core::bank_rows(t.stages[0], 4).size(), 32u);
  render::ViewOptions second, past;
  second.first_bank_row = 16, past.first_bank_row = 1000;
  const Image first_page = draw_view(render::View::Banks, t, 0), second_page = draw_view(render::View::Banks, t, 0, second);
  EXPECT_NE(first_page.rgba, second_page.rgba);
  EXPECT_EQ(draw_view(render::View::Banks, t, 0, past).rgba, second_page.rgba);
}

// Views with nothing to show are refused, with the reason, and V skips them.
TEST_F(RenderTest, ViewsThatDoNotApplySayWhyAndAreSkipped) {
  const auto tree = iota_trace("sequential", 64, 64), shfl = iota_trace("warp-shuffle", 64, 64);
  const auto halving = iota_trace("global-halving", 64, 64);
  EXPECT_NE(render::why_not(render::View::Lanes, tree).find("no stage recorded registers"), std::string::npos);
  EXPECT_EQ(render::why_not(render::View::Lanes, shfl), "");
  EXPECT_EQ(render::why_not(render::View::Banks, tree), "");
  EXPECT_NE(render::why_not(render::View::Banks, halving), "");
  for (auto v : {render::View::Memory, render::View::Divergence, render::View::Grid})
    EXPECT_EQ(render::why_not(v, tree), "") << render::to_string(v);
  EXPECT_EQ(render::next_view(render::View::Memory, &tree), render::View::Divergence);
  EXPECT_EQ(render::next_view(render::View::Memory, &shfl), render::View::Lanes);
  EXPECT_EQ(render::next_view(render::View::Grid, &tree), render::View::Coalescing);
  EXPECT_EQ(render::next_view(render::View::Coalescing, &tree), render::View::Memory);
  EXPECT_EQ(render::next_view(render::View::Divergence, &halving), render::View::Grid);
  // A GPU run of a kernel of your own records no active lanes and no addresses, though it worked
  // and touched shared memory: those views say so rather than draw every lane idle. Its run on
  // the CPU path records both, and they draw.
  auto own = tree;
  own.geometry.indexing = kernels::Indexing::Own;
  EXPECT_EQ(render::why_not(render::View::Banks, own), "");
  EXPECT_EQ(render::why_not(render::View::Divergence, own), "");
  for (auto& s : own.stages) s.active.clear(), s.accesses.clear(), s.loads.clear();
  for (auto v : {render::View::Divergence, render::View::Banks, render::View::Coalescing})
    EXPECT_NE(render::why_not(v, own).find("a GPU run of a kernel of your own records"), std::string::npos)
        << render::to_string(v);
  EXPECT_NE(render::why_not(render::View::Lanes, own).find("call rl_lanes"), std::string::npos);
  EXPECT_EQ(render::next_view(render::View::Memory, &own), render::View::Grid);
}

// The gpus view: a row a GPU, a cell a chunk with its first values, the chunks received in the
// step painted as added or copied; other views say why they have nothing of an all-reduce.
TEST_F(RenderTest, TheGpusViewDrawsEveryGpusChunksAndWhatMoved) {
  backend::CollectiveRequest req;
  req.algorithm = "ring-all-reduce";
  const auto iota = core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, 72, core::DType::Int);
  for (int g = 0; g < 4; ++g) req.inputs.emplace_back(iota.begin() + 18 * g, iota.begin() + 18 * (g + 1));
  const core::Trace t = backend::trace_collective(req);
  const auto pal = render::standard_palette();
  const auto texts = [&] { return std::set<std::string>(canvas_->texts().begin(), canvas_->texts().end()); };
  const Image inputs = draw_view(render::View::Gpus, t, 0);
  for (const char* s : {"GPU 0", "GPU 3", "chunk 3: [13, 18)", "1  2  3  4"}) EXPECT_TRUE(texts().count(s)) << s;
  const Image first = draw_view(render::View::Gpus, t, 1);
  EXPECT_TRUE(texts().count("46  48  50  52  ...")) << "GPU 1's chunk 3: GPU 0's 14..17 added to its 32..35";
  EXPECT_GE(canvas_->smallest_text_px(), int(render::kMinTextPx));
  EXPECT_GT(count_near(first, pal.written), 20 * count_near(inputs, pal.written));  // beyond the legend's swatch
  const Image gather = draw_view(render::View::Gpus, t, 4);
  EXPECT_GT(count_near(gather, pal.read), 20 * count_near(first, pal.read));
  render::ViewOptions presenter;
  presenter.text_scale = 1.5f, presenter.min_text_px = 18, presenter.high_contrast = true;
  draw_view(render::View::Gpus, t, 6, presenter);
  EXPECT_GE(canvas_->smallest_text_px(), 18);
  draw_view(render::View::Memory, t, 1);
  EXPECT_TRUE(texts().count("Nothing to show:"));
}

// One-shot at 8 GPUs: every GPU reads the 7 others, drawn as a bus right of the column, so the
// cells stay readable: the bus's colour right of the cells, none of it across them.
TEST_F(RenderTest, OneShotsReadsAreABusBesideTheCells) {
  backend::CollectiveRequest req;
  req.algorithm = "one-shot-all-reduce";
  const auto iota = core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, 80, core::DType::Int);
  for (int g = 0; g < 8; ++g) req.inputs.emplace_back(iota.begin() + 10 * g, iota.begin() + 10 * (g + 1));
  const core::Trace t = backend::trace_collective(req);
  const Image img = draw_view(render::View::Gpus, t, 1);
  EXPECT_GE(canvas_->smallest_text_px(), int(render::kMinTextPx));
  const auto pal = render::standard_palette();
  const auto added = [&](int x, int y) {
    const std::size_t i = (std::size_t(y) * W + std::size_t(x)) * 4;
    return std::abs(img.rgba[i] / 255.0f - pal.written.r) < 0.03f &&
           std::abs(img.rgba[i + 1] / 255.0f - pal.written.g) < 0.03f &&
           std::abs(img.rgba[i + 2] / 255.0f - pal.written.b) < 0.03f;
  };
  // The bus: one line of the added colour unbroken over half the height (a cell is one row tall),
  // a few pixels wide; 56 arrows would run such lines at a lane a sender.
  int tall = 0;
  for (int x = 0; x < W; ++x) {
    int longest = 0;
    for (int y = 0, run = 0; y < H; ++y) longest = std::max(longest, run = added(x, y) ? run + 1 : 0);
    tall += longest > H / 2;
  }
  EXPECT_GE(tall, 1);
  EXPECT_LE(tall, 6) << "columns of the added colour over half the height";
  EXPECT_TRUE(std::count(canvas_->texts().begin(), canvas_->texts().end(), std::string("GPU 7")));
}

TEST_F(RenderTest, ShuffleArrowsComeFromTheSourceLane) {
  const auto t = iota_trace("warp-shuffle", 32, 32);
  ASSERT_EQ(t.stages[1].tag, kernels::kTagShuffle);
  ASSERT_EQ(t.stages[1].param, 16);
  const Image img = draw(t, 1);  // shuffle down by 16
  const auto L = render::layout_memory(32, W, H);
  const auto pal = render::standard_palette();
  const auto near_read = [&](float x, float y) {
    const auto c = img.at(x, y);
    return std::abs(c.r - pal.read.r) < 0.12f && std::abs(c.g - pal.read.g) < 0.12f && std::abs(c.b - pal.read.b) < 0.12f;
  };
  const auto count_read = [&](float x0, float x1, float y0, float y1) {
    int n = 0;
    for (float y = y0; y < y1; ++y)
      for (float x = x0; x < x1; ++x) n += near_read(x, y);
    return n;
  };
  // Lane 0 takes lane 16's value, two rows down: the arrow runs up the right margin of lane
  // 8's cell between them, clear of its value in the middle.
  ASSERT_EQ(L.cols, 8);
  const auto between = L.cell(8);
  EXPECT_GT(count_read(between.cx() + between.w * 0.25f, between.x + between.w, between.cy() - 2, between.cy() + 2), 0);
  EXPECT_EQ(count_read(between.cx() - 4, between.cx() + 4, between.y + between.h * 0.3f, between.y + between.h * 0.7f),
            0)
      << "an arrow crosses the value";
  // Lane 20 gets its own value back: a square in its cell's bottom-left corner.
  const auto own = L.cell(20);
  EXPECT_GT(count_read(own.x + 2, own.cx() - 4, own.y + own.h * 0.65f, own.y + own.h - 2), 4);
}

// Arrows run in the cells' margins, clear of the values (issue 32, item 10): sequential's
// stride 16 at 8 cells a row sends each arrow up through the row of cells 8-15, whose middles,
// where their values are drawn, hold no arrow.
// Ints, and floats and halves whose widest values would fill their cells (issue 47, item 8: the
// arrows crossed their digits): every arrow runs in the cells' left margins.
TEST_F(RenderTest, TreeArrowsPassBesideTheValues) {
  const std::uint64_t seed = test::test_seed();
  for (const core::DType type : {core::DType::Int, core::DType::Float, core::DType::Half}) {
    SCOPED_TRACE(core::to_string(type) + ", seed " + std::to_string(seed));
    const auto input = type == core::DType::Int
                           ? core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, 32, type)
                           : core::generate_input({core::InputSpec::Kind::Random, seed, {}}, 32, type);
    const auto t = backend::make_sim_backend()->trace({"sequential", core::Op::Sum, type, 32, 0, input});
    // 1600x900, and the window's view at 1600x900 (cells of about 60 pixels) where floats at the
    // minimum size fill an 8-column row (seed 16595768444776222221): 4 columns then.
    for (const auto& [w, h] : {std::pair{W, H}, std::pair{650, 600}, std::pair{665, 680}}) {
      SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h));
      target_.resize(w, h);
      target_.bind();
      const render::ViewDrawn drawn = render::draw_memory_view(*canvas_, t, 1, w, h);
      render::Offscreen::unbind();
      const Image img{target_.read_rgba(), w};
      ASSERT_EQ(drawn.warps, 0) << "the whole block";
      const auto L = render::layout_memory(32, w, h, 1, render::kMinTextPx, 0, drawn.cols);
      const auto pal = render::standard_palette();
      for (int i = 8; i < 16; ++i) {
        const auto cell = L.cell(i);
        // The digits' extent: their pixels are black or white (render::text_on), no fill's colour.
        float left = cell.x + cell.w, right = cell.x;
        for (float y = cell.y + cell.h * 0.3f; y < cell.y + cell.h * 0.7f; ++y)
          for (float x = cell.x; x < cell.x + cell.w; ++x)
            if (near(img.at(x, y), {0, 0, 0, 1}, 0.1f) || near(img.at(x, y), {1, 1, 1, 1}, 0.1f))
              left = std::min(left, x), right = std::max(right, x);
        ASSERT_LT(left, right) << "cell " << i << ": no digits drawn";
        int across = 0, beside = 0;
        for (float y = cell.y + cell.h * 0.3f; y < cell.y + cell.h * 0.7f; ++y) {
          for (float x = left - 1; x <= right + 1; ++x) across += near(img.at(x, y), pal.read);
          for (float x = cell.x - L.gap; x < left - 1; ++x) beside += near(img.at(x, y), pal.read);
        }
        EXPECT_EQ(across, 0) << "cell " << i << ": an arrow crosses its value";
        EXPECT_GT(beside, 0) << "cell " << i << ": no arrow beside it on the left";
      }
    }
    target_.resize(W, H);
  }
}

TEST_F(RenderTest, CellsFadeTowardsTheNextStageWhilePlaying) {
  const auto t = iota_trace("sequential", 32, 32);
  const auto L = render::layout_memory(32, W, H);
  const auto c0 = L.cell(0);
  const float x = c0.x + c0.w * 0.25f, y = c0.y + c0.h * 0.16f;
  const auto shot = [&](int stage, float blend) {
    target_.bind();  // read_rgba() unbinds: bind before every draw
    render::draw_memory_view(*canvas_, t, stage, W, H, {false, blend});
    render::Offscreen::unbind();
    return Image{target_.read_rgba()};
  };
  const Image now = shot(1, 0.0f), half = shot(1, 0.5f), next = shot(2, 0.0f);
  // Cell 0 changes between stages 1 and 2: halfway, its colour lies between the two.
  const auto a = now.at(x, y), m = half.at(x, y), b = next.at(x, y);
  EXPECT_FALSE(near(a, b)) << str(a) << " " << str(b);
  EXPECT_NEAR(m.r, (a.r + b.r) / 2, 0.03f) << str(a) << " " << str(m) << " " << str(b);
  EXPECT_NEAR(m.g, (a.g + b.g) / 2, 0.03f);
  EXPECT_NEAR(m.b, (a.b + b.b) / 2, 0.03f);
}

TEST_F(RenderTest, DivergenceViewShowsEachWarpsActiveLanes) {
  const auto pal = render::standard_palette();
  // Stage 2 of both: 32 of 128 threads work. Interleaved: 8 in every warp (all divergent);
  // sequential: all of warp 0 (none divergent).
  const auto inter = iota_trace("interleaved-divergent", 256, 128), seq = iota_trace("sequential", 256, 128);
  const Image a = draw_view(render::View::Divergence, inter, 2), b = draw_view(render::View::Divergence, seq, 2);
  const int act_a = count_near(a, pal.active), idle_a = count_near(a, pal.inactive);
  const int act_b = count_near(b, pal.active), idle_b = count_near(b, pal.inactive);
  ASSERT_GT(act_a, 1000);
  // A quarter of the 128 squares are active in both pictures (legend swatches aside).
  EXPECT_NEAR(double(act_a) / (act_a + idle_a), 0.25, 0.03);
  EXPECT_NEAR(double(act_b) / (act_b + idle_b), 0.25, 0.03);
  // "divergent" is written, in the conflict colour, beside each of the four warps: only there.
  const int warn_a = count_near(a, pal.conflict, 0.12f), warn_b = count_near(b, pal.conflict, 0.12f);
  EXPECT_GT(warn_a, warn_b + 40) << warn_a << " vs " << warn_b;
}

// A warp whose lanes ran apart (split_warps: a kernel of your own's branch) is "branched" where
// all its lanes worked or none recorded work, "divergent" where some idled; the legend's
// "branched" entry comes only with such a label.
TEST_F(RenderTest, DivergenceViewSaysBranchedWhereLanesRanApart) {
  auto t = iota_trace("sequential", 256, 128);  // stage 1, stride 64: warps 0 and 1 all work, 2 and 3 idle
  const auto texts = [&] { return std::multiset<std::string>(canvas_->texts().begin(), canvas_->texts().end()); };
  const auto legend_says_branched = [&] {
    return std::any_of(canvas_->texts().begin(), canvas_->texts().end(),
                       [](const std::string& x) { return x.rfind("branched:", 0) == 0; });
  };
  draw_view(render::View::Divergence, t, 1);
  EXPECT_EQ(texts().count("32/32"), 2u);
  EXPECT_FALSE(legend_says_branched());
  t.stages[1].split_warps = {1, 2};
  draw_view(render::View::Divergence, t, 1);
  EXPECT_EQ(texts().count("32/32  branched"), 1u);  // warp 1: every lane worked
  EXPECT_EQ(texts().count("0/32  branched"), 1u);   // warp 2: none recorded work
  EXPECT_EQ(texts().count("32/32"), 1u);            // warp 0
  EXPECT_TRUE(legend_says_branched());
  EXPECT_EQ(core::divergent_warps(t.stages[1], 128), 2);
  t.stages[3].split_warps = {0};  // stride 16: warp 0's lanes 0-15 work; it idled anyway
  draw_view(render::View::Divergence, t, 3);
  EXPECT_EQ(texts().count("16/32  divergent"), 1u);
  EXPECT_FALSE(legend_says_branched());
}

TEST_F(RenderTest, BanksViewMarksConflictingBanks) {
  const auto pal = render::standard_palette();
  const auto strided = iota_trace("interleaved-bank-conflicts", 64, 64), seq = iota_trace("sequential", 64, 64);
  const Image a = draw_view(render::View::Banks, strided, 1), b = draw_view(render::View::Banks, seq, 1);
  EXPECT_GT(count_near(a, pal.conflict), 500);            // 2-way conflicts: orange banks
  EXPECT_LT(count_near(b, pal.conflict), count_near(a, pal.conflict) / 10);  // the legend's swatch at most
  EXPECT_GT(count_near(b, pal.active), 2000);             // one element per bank
  // The load stage touches one element per thread in order: no conflict anywhere.
  EXPECT_LT(count_near(draw_view(render::View::Banks, strided, 0), pal.conflict), 400);
}

TEST_F(RenderTest, LanesViewDrawsShuffleArrowsOnlyOnShuffleStages) {
  const auto pal = render::standard_palette();
  const auto t = iota_trace("warp-shuffle", 64, 64);
  ASSERT_EQ(t.stages[1].tag, kernels::kTagShuffle);
  const Image load = draw_view(render::View::Lanes, t, 0), shfl = draw_view(render::View::Lanes, t, 1);
  const int arrows_load = count_near(load, pal.read, 0.12f), arrows_shfl = count_near(shfl, pal.read, 0.12f);
  EXPECT_GT(arrows_shfl, arrows_load + 1000) << arrows_shfl << " vs " << arrows_load;
  // Every lane worked in both: green strips under 64 lanes.
  EXPECT_GT(count_near(load, pal.active), 1000);
  // A shared-memory stage has no lanes to show: no lane strips, a message instead.
  const auto seq = iota_trace("sequential", 64, 64);
  EXPECT_LT(count_near(draw_view(render::View::Lanes, seq, 1), pal.active), 50);
}

// The lanes view enlarges one warp: every lane's number and register value printed, at the
// normal size and in presenter mode; ] moves to another warp and its values.
TEST_F(RenderTest, LanesViewPrintsEveryLanesNumberAndValue) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  backend::TraceRequest req{"warp-shuffle",
                            core::Op::Sum,
                            core::DType::Float,
                            256,
                            0,
                            core::generate_input({core::InputSpec::Kind::Random, seed, {}}, 256, core::DType::Float)};
  const auto t = backend::make_sim_backend()->trace(req);
  render::ViewOptions presenter{true, 0, 1.5f};
  presenter.min_text_px = render::min_text_px(true, 1);
  for (int stage : {0, 1, 3})
    for (int warp : {0, 5})
      for (bool big : {false, true}) {
        const render::ViewOptions* base = big ? &presenter : nullptr;
        render::ViewOptions o = base ? *base : render::ViewOptions{};
        o.warp = warp;
        target_.bind();
        const auto drawn =
            render::draw_stage_view(*canvas_, render::View::Lanes, t, stage, base ? 992 : W, base ? 560 : H, o);
        render::Offscreen::unbind();
        EXPECT_EQ(drawn.warps, 8);
        EXPECT_EQ(drawn.warp, warp);
        const auto& texts = canvas_->texts();
        const std::multiset<std::string> drawn_texts(texts.begin(), texts.end());
        const auto& v = *t.stages[std::size_t(stage)].lanes;
        for (int lane = 0; lane < 32; ++lane) {
          EXPECT_TRUE(drawn_texts.count(std::to_string(lane))) << "lane " << lane << ", stage " << stage;
          // Three significant digits, or fewer where a long one would not fit the cell.
          const double x = v[std::size_t(warp * 32 + lane)];
          EXPECT_TRUE(drawn_texts.count(render::short_value(x, t.type)) ||
                      drawn_texts.count(render::short_value(x, t.type, 2)) ||
                      drawn_texts.count(render::short_value(x, t.type, 1)))
              << "warp " << warp << " lane " << lane << ", stage " << stage << (base ? ", presenter" : "");
        }
      }
}

TEST_F(RenderTest, GridViewShowsEveryBlocksResultAndTheCombine) {
  const auto pal = render::standard_palette();
  backend::TraceRequest req{"sequential", core::Op::Sum, core::DType::Int, 64, 1,
                            core::generate_input({core::InputSpec::Kind::Random, 3, {}}, 1000, core::DType::Int)};
  const auto passes = backend::make_sim_backend()->trace(req);
  req.algorithm = "warp-shuffle-vectorized";
  const auto atomics = backend::make_sim_backend()->trace(req);
  ASSERT_EQ(passes.partials.size(), 16u);
  const Image a = draw_view(render::View::Grid, passes, 0), b = draw_view(render::View::Grid, atomics, 0);
  for (const Image* img : {&a, &b}) {
    EXPECT_GT(count_near(*img, pal.written), 200);  // the traced block's box and the result's
    EXPECT_GT(count_near(*img, pal.read, 0.12f), 300);  // arrows from the blocks
    EXPECT_GT(count_near(*img, render::value_color(1.0f)), 50);  // the largest result's box
  }
  // The same stage, another combine: the pictures differ.
  int differ = 0;
  for (std::size_t i = 0; i < a.rgba.size(); i += 4) differ += a.rgba[i] != b.rgba[i];
  EXPECT_GT(differ, 2000);
}

// cluster-dsmem: the grid view draws each cluster's blocks, the first in the "worked" colour, the
// others idle, with arrows into the first; the memory view marks every register a remote read
// filled with the block it came from ("b0".."b3"), and its legend says what the marks are.
TEST_F(RenderTest, ClustersAndTheirRemoteReadsAreDrawn) {
  const auto pal = render::standard_palette();
  backend::TraceRequest req{"cluster-dsmem",
                            core::Op::Sum,
                            core::DType::Int,
                            64,
                            0,
                            core::generate_input({core::InputSpec::Kind::Random, 5, {}}, 2000, core::DType::Int)};
  req.cluster = 4;
  const auto t = backend::make_sim_backend()->trace(req);
  req.algorithm = "warp-shuffle", req.cluster = 0;
  const auto plain = backend::make_sim_backend()->trace(req);
  const Image clusters = draw_view(render::View::Grid, t, 0), blocks = draw_view(render::View::Grid, plain, 0);
  EXPECT_GT(count_near(clusters, pal.active), 5 * count_near(blocks, pal.active) + 400);  // the first blocks' squares
  EXPECT_GT(count_near(clusters, pal.inactive), 1000);                                    // the others'
  const auto stage = std::size_t(std::find_if(t.stages.begin(), t.stages.end(),
                                              [](const core::Stage& s) { return s.tag == kernels::kTagDsmemRead; }) -
                                 t.stages.begin());
  ASSERT_LT(stage, t.stages.size());
  draw_view(render::View::Memory, t, int(stage));
  const auto& texts = canvas_->texts();
  for (const char* mark : {"b0", "b1", "b2", "b3"})
    EXPECT_EQ(std::count(texts.begin(), texts.end(), mark), 2) << mark;  // two warp totals a block
  EXPECT_EQ(std::count(texts.begin(), texts.end(), "bN: read from block N of the cluster (DSMEM)"), 1);
}

// bulk-async: at the bulk copy's stage the memory view shows the tile in global memory that the
// copy brings (the block's first elements, as many as the mbarrier expects bytes of), and at the
// wait the same values in shared memory.
TEST_F(RenderTest, TheBulkCopyShowsTheTileOnItsWay) {
  const auto t = iota_trace("bulk-async", 300, 32);  // ints 1..300: a first tile of 32 vectors, 512 bytes
  ASSERT_EQ(t.stages[0].tag, kernels::kTagBulkCopy);
  ASSERT_EQ(t.stages[0].param, 512);
  for (int stage : {0, 1}) {
    draw(t, stage);
    const auto& texts = canvas_->texts();
    for (const char* value : {"1", "17", "32"})
      EXPECT_EQ(std::count(texts.begin(), texts.end(), value), 1) << value << ", stage " << stage;
  }
}

// Issue 47, item 5: in presenter mode's compare half, 16 bank rows of 8 px named every third. A
// page now holds as many accesses as can each carry its name at the minimum size, and pages on.
TEST_F(RenderTest, EveryBankRowIsNamedAndTheViewPagesInstead) {
  const auto t = iota_trace("interleaved-bank-conflicts", 256, 256);
  render::ViewOptions o;
  o.text_scale = 1.5f, o.min_text_px = render::min_text_px(true, 1);
  render::Offscreen target;
  target.resize(440, 330);
  target.bind();
  const render::ViewDrawn drawn = render::draw_stage_view(*canvas_, render::View::Banks, t, 1, 440, 330, o);
  render::Offscreen::unbind();
  ASSERT_GT(drawn.page, 0) << "12 accesses did not page at 440 x 330";
  int named = 0;
  for (const auto& text : canvas_->texts())
    named += text.rfind("warp ", 0) == 0 && text.find(", access ") != std::string::npos;
  EXPECT_EQ(named, drawn.page) << "a row without its name";
  EXPECT_GE(canvas_->smallest_text_px(), int(o.min_text_px));
}

// Beside a trace's one block, the banks, coalescing and divergence views say what the hardware
// counted over a whole launch of the same kernel, where it was measured (the shipped counters),
// and say nothing of the kind for a kernel that was not.
TEST_F(RenderTest, ViewsShowTheHardwaresCountsOnlyWhereTheyWereMeasured) {
  const auto has = [&](const std::string& start) {
    const auto& texts = canvas_->texts();
    return std::any_of(texts.begin(), texts.end(), [&](const std::string& s) { return s.rfind(start, 0) == 0; });
  };
  const auto measured = iota_trace("interleaved-bank-conflicts", 256, 256);
  draw_view(render::View::Banks, measured, 2);
  EXPECT_TRUE(has("bank conflicts (extra wavefronts): 4.7 M in 8.5 M shared loads"));
  EXPECT_TRUE(has("The hardware, a whole launch over 2^24 floats, 65536 blocks of 256"));
  draw_view(render::View::Coalescing, measured, 0);
  EXPECT_TRUE(has("2.1 M sectors in 0.5 M global load requests"));
  draw_view(render::View::Divergence, measured, 2);
  EXPECT_TRUE(has("20.9 of 32 lanes on a warp instruction, 31.7 issued"));  // assets/counters/h100.json
  const auto modelled = iota_trace("syncthreads-in-branch", 256, 256);  // never launched: never measured
  draw_view(render::View::Banks, modelled, 2);
  EXPECT_FALSE(has("The hardware over"));
  EXPECT_FALSE(has("bank conflicts (extra wavefronts)"));
}

namespace {

core::Trace random_trace(const std::string& algo, int block, std::uint64_t seed, core::DType type = core::DType::Int) {
  backend::TraceRequest req{algo, core::Op::Sum, type, block, 0,
                            core::generate_input({core::InputSpec::Kind::Random, seed, {}}, std::size_t(block), type)};
  return backend::make_sim_backend()->trace(req);
}

}  // namespace

// Every view of a 256-thread block, at every stage, draws no text below the mode's minimum: 18
// px in presenter mode (the view about 992 x 560 at 1600x900) and 14 px in the normal layout
// (about 660 x 600), digits about 13 and 10 px tall.
TEST_F(RenderTest, NoTextBelowTheMinimumAtTheWindowsSizes) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  render::ViewOptions presenter{true, 0, 1.5f};
  presenter.min_text_px = render::min_text_px(true, 1);
  ASSERT_EQ(presenter.min_text_px, 18);
  ASSERT_EQ(render::min_text_px(false, 1), 14);
  struct Mode {
    render::ViewOptions options;
    int w, h;
  };
  for (const auto& [options, w, h] : {Mode{presenter, 992, 560}, Mode{render::ViewOptions{}, 660, 600}}) {
    render::Offscreen target;
    target.resize(w, h);
    for (const char* algo : {"sequential", "interleaved-bank-conflicts", "warp-shuffle", "global-halving"}) {
      const auto t = random_trace(algo, 256, seed, seed % 2 ? core::DType::Float : core::DType::Int);
      for (auto v : {render::View::Memory, render::View::Lanes, render::View::Divergence, render::View::Banks,
                     render::View::Grid, render::View::Coalescing})
        for (int stage = 0; stage < int(t.stages.size()); ++stage) {
          target.bind();
          render::draw_stage_view(*canvas_, v, t, stage, w, h, options);
          render::Offscreen::unbind();
          EXPECT_GE(canvas_->smallest_text_px(), options.min_text_px)
              << algo << ", " << render::to_string(v) << " view, stage " << stage << ", " << w << "x" << h;
        }
    }
  }
}

// Presenter mode's narrow views keep their values (issue 32, item 5): a compare half (about
// 480 x 390 at 1600x900) of 32 and of 256 random floats, and batched rows of floats under their matrix,
// print the value of every cell drawn large, with fewer cells a row or one warp enlarged
// rather than none.
TEST_F(RenderTest, NarrowPresenterViewsPrintEveryValueDrawn) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  render::ViewOptions presenter{true, 0, 1.5f};
  presenter.min_text_px = render::min_text_px(true, 1);
  backend::TraceRequest rows{
      "batched-rows",
      core::Op::Sum,
      core::DType::Float,
      32,
      0,
      core::generate_input({core::InputSpec::Kind::Random, seed, {}}, 8 * 256, core::DType::Float)};
  rows.rows = 8, rows.cols = 256;
  struct Case {
    core::Trace t;
    int w, h;
  };
  const Case cases[] = {{random_trace("sequential", 32, seed, core::DType::Float), 480, 390},
                        {random_trace("sequential", 256, seed, core::DType::Float), 480, 390},
                        {backend::make_sim_backend()->trace(rows), 992, 560}};
  for (const auto& [t, w, h] : cases)
    for (int stage : {0, 2}) {
      render::Offscreen target;
      target.resize(w, h);
      target.bind();
      const auto drawn = render::draw_stage_view(*canvas_, render::View::Memory, t, stage, w, h, presenter);
      render::Offscreen::unbind();
      const auto& texts = canvas_->texts();
      const std::multiset<std::string> printed(texts.begin(), texts.end());
      const auto& v = *t.stages[std::size_t(stage)].shared;
      const int span = 32 / std::max(1, drawn.parts), first = drawn.warps > 0 ? drawn.warp * 32 + drawn.part * span : 0;
      for (int i = first; i < std::min<int>(first + span, int(v.size())); ++i)
        EXPECT_TRUE(printed.count(render::short_value(v[std::size_t(i)], t.type)) ||
                    printed.count(render::short_value(v[std::size_t(i)], t.type, 2)))
            << t.algorithm << " block " << t.block << " drawn " << drawn.warps << "/" << drawn.warp << "/"
            << drawn.parts << "/" << drawn.part << " at " << w << "x" << h << ", stage " << stage << ", cell " << i
            << " (" << v[std::size_t(i)] << ")";
      EXPECT_GE(canvas_->smallest_text_px(), 18) << t.algorithm;
    }
}

// Issue 47: an export at 1600x900 laid the enlarged warp out at its smallest readable digits (two
// rows of 16) where the window showed rows of 8. Of the readable row widths the view takes the one
// that draws the values largest, at any size: at 1600x900, 4 rows of 8.
TEST_F(RenderTest, AnEnlargedWarpIsLaidOutWithItsLargestReadableDigits) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto t = random_trace("sequential", 256, seed, core::DType::Float);
  for (const auto& [w, h, cols] : {std::tuple{1600, 900, 8}, std::tuple{620, 560, 4}}) {
    render::Offscreen target;
    target.resize(w, h);
    target.bind();
    const render::ViewDrawn drawn = render::draw_stage_view(*canvas_, render::View::Memory, t, 0, w, h, {});
    render::Offscreen::unbind();
    EXPECT_EQ(drawn.warps, 8) << w << "x" << h;
    EXPECT_EQ(drawn.cols, cols) << w << "x" << h;
    EXPECT_GE(canvas_->smallest_text_px(), int(render::kMinTextPx)) << w << "x" << h;
  }
}

// 256 random floats are too many to read at 1024 x 640 with 12 px text: the memory view shows
// warp k enlarged, each of its 32 cells in its own value's colour with its value printed on it.
TEST_F(RenderTest, ATooWideBlockShowsOneWarpEnlarged) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto t = random_trace("sequential", 256, seed, core::DType::Float);
  const int k = 1 + int(seed % 6);
  render::ViewOptions o;
  o.warp = k;
  target_.bind();
  const render::ViewDrawn drawn = render::draw_stage_view(*canvas_, render::View::Memory, t, 0, W, H, o);
  render::Offscreen::unbind();
  const Image img{target_.read_rgba()};
  ASSERT_EQ(drawn.warps, 8);
  EXPECT_EQ(drawn.warp, k);
  EXPECT_GE(canvas_->smallest_text_px(), 12);
  const auto L = render::layout_warp(256, k, W, H, 1, render::kMinTextPx, drawn.cols);
  const auto& values = *t.stages[0].shared;
  const render::Scale scale = render::value_scale(&values, values.size());
  for (int j = 0; j < 32; ++j) {
    const int i = k * 32 + j;
    const auto cell = L.cell(i);
    const auto fill = render::value_color(scale.at(values[std::size_t(i)]));
    EXPECT_TRUE(near(img.at(cell.x + cell.w * 0.25f, cell.y + cell.h * 0.16f), fill)) << "cell " << i;
    // The value's text: in the middle of the cell, pixels far from the fill, as dark or light as the text.
    int text = 0;
    const auto ink = render::text_on(fill);
    for (float y = cell.cy() - cell.h * 0.2f; y < cell.cy() + cell.h * 0.2f; ++y)
      for (float x = cell.x + cell.w * 0.1f; x < cell.x + cell.w * 0.9f; ++x) {
        const auto p = img.at(x, y);
        text += std::abs(p.g - fill.g) > 0.25f && std::abs(p.g - ink.g) < std::abs(p.g - fill.g);
      }
    // A short value ("-1") has fewer ink pixels than a long one: the floor follows its length.
    // Thin glyphs ink little: "-0.999" drew 20 (seed 8474190877787987995); no text draws none.
    const std::string shown = render::short_value(values[std::size_t(i)], t.type);
    EXPECT_GE(text, std::min(16, 4 * int(shown.size()))) << "cell " << i << " (" << shown << ")";
  }
  // Another warp is another picture; past the last warp the view shows the last.
  o.warp = k - 1;
  EXPECT_NE(draw_view(render::View::Memory, t, 0, o).rgba, img.rgba);
  o.warp = 100;
  target_.bind();
  EXPECT_EQ(render::draw_stage_view(*canvas_, render::View::Memory, t, 0, W, H, o).warp, 7);
  render::Offscreen::unbind();
  // A block whose values fit is drawn whole.
  EXPECT_EQ(render::draw_stage_view(*canvas_, render::View::Memory, random_trace("sequential", 32, seed, core::DType::Float), 0, W, H).warps, 0);
}

// The Bandwidth tab's chart of a shipped run, at the size the tab gives it at 1600x900: no text
// below the window's minimum, 12 px, nor in presenter mode below 18 px.
TEST_F(RenderTest, ChartTextIsNeverBelowTheMinimum) {
  const auto runs = core::shipped_runs();
  ASSERT_FALSE(runs.empty());
  const auto* report = core::shipped_report(runs.front(), "float", "sum");
  ASSERT_NE(report, nullptr);
  const auto spec = render::bench_chart(*report, "float", "sum", render::Origin::Shipped);
  render::Offscreen target;
  target.resize(660, 420);
  for (bool presenter : {false, true}) {
    const float min_px = render::min_text_px(presenter, 1);
    target.bind();
    render::draw_plot(*canvas_, spec, 660, 420, render::Hit{0, 0}, presenter, min_px);
    render::Offscreen::unbind();
    EXPECT_GE(canvas_->smallest_text_px(), int(min_px)) << (presenter ? "presenter" : "normal");
  }
}

// A title too long for the chart even at the smallest size breaks before its date onto a second
// line (the Bandwidth tab's chart at 1600x900 is 660 px wide), each line inside the chart; a wide
// chart keeps it on one line.
TEST_F(RenderTest, AChartTitleTooLongBreaksBeforeItsDate) {
  const auto* report = core::shipped_report(core::shipped_runs().front(), "float", "sum", true);
  ASSERT_NE(report, nullptr);
  const auto spec = render::bench_chart(*report, "float", "sum", render::Origin::Shipped);
  const float min_px = render::min_text_px(false, 1);
  const auto narrow = render::plot_frame(spec, 660, 420, min_px);
  EXPECT_EQ(narrow.title_lines, 2);
  EXPECT_EQ(render::plot_frame(spec, 1600, 900, min_px).title_lines, 1);
  render::Offscreen target;
  target.resize(660, 420);
  target.bind();
  render::draw_plot(*canvas_, spec, 660, 420, std::nullopt, false, min_px);
  render::Offscreen::unbind();
  const auto& texts = canvas_->texts();
  ASSERT_GE(texts.size(), 2u);
  EXPECT_EQ(texts[1], report->date);
  EXPECT_EQ(texts[0] + std::string(render::kTitleBreak) + texts[1], spec.title);
  for (int i = 0; i < 2; ++i)
    EXPECT_LE(narrow.area.x + render::measure_text(texts[std::size_t(i)], min_px), 660.0f) << texts[std::size_t(i)];
}

namespace {

core::Trace matrix_trace(const std::string& algo, std::size_t rows, std::size_t cols, int block, int traced,
                         std::uint64_t seed) {
  backend::TraceRequest req{algo, core::Op::Sum, core::DType::Int, block, traced,
                            core::generate_input({core::InputSpec::Kind::Random, seed, {}}, rows * cols, core::DType::Int)};
  req.rows = rows, req.cols = cols;
  return backend::make_sim_backend()->trace(req);
}

// The share of a cell's inside (clear of its frame) in colour c: its value's text covers less.
float share(const Image& img, const render::Rect& cell, render::Color c) {
  int n = 0, all = 0;
  for (float y = cell.y + 3; y < cell.y + cell.h - 3; ++y)
    for (float x = cell.x + 3; x < cell.x + cell.w - 3; ++x) ++all, n += near(img.at(x, y), c);
  return all ? float(n) / float(all) : 0;
}

// Pixels in r that are not the background: text or marks drawn there.
int ink(const Image& img, const render::Rect& r) {
  int n = 0;
  for (float y = r.y; y < r.y + r.h; ++y)
    for (float x = r.x; x < r.x + r.w; ++x) n += !near(img.at(x, y), render::standard_palette().background);
  return n;
}

}  // namespace

// A lane's 16-byte load fills 4 element cells of its sector: lanes 0 and 1 share sector 0.
TEST(CoalescingRows, AVectorLoadFillsItsWidth) {
  core::Stage s;
  for (int t = 0; t < 32; ++t) s.loads.push_back({t, {4LL * t}, {4}});
  const auto rows = render::load_rows(s, 4);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_EQ(rows[0].sectors.size(), 16u);
  EXPECT_EQ(rows[0].sectors[0].lane_at, (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
  EXPECT_EQ(rows[0].sectors[15].lane_at, (std::vector<int>{30, 30, 30, 30, 31, 31, 31, 31}));
}

// The grid view names a matrix run's second launch only where it has one, as the launcher does.
TEST(GridView, AMatrixRunNamesItsSecondLaunchOnlyWhereItHasOne) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  EXPECT_EQ(render::grid_how(matrix_trace("batched-rows", 8, 256, 32, 0, seed)),
            "8 blocks; each block writes its row's sum to out: one launch");
  EXPECT_EQ(render::grid_how(matrix_trace("batched-rows-split", 8, 256, 32, 0, seed)),  // one chunk a row
            "8 blocks; each block writes its row's sum to out: one launch");
  EXPECT_EQ(render::grid_how(matrix_trace("batched-rows-split", 2, 1000, 32, 0, seed)),
            "6 blocks; second launch: 2 blocks, one a row, over 3 chunk results each");
  EXPECT_EQ(render::grid_how(matrix_trace("batched-rows-vectorized", 2, 4096, 32, 0, seed)),
            "8 blocks; a row's last block (atomicInc ticket) folds its 4 results: one launch");
  core::Trace waited = matrix_trace("batched-rows-vectorized", 2, 4096, 32, 0, seed);
  waited.first_block_waits = true;  // as a GPU run of first-waits records it
  EXPECT_EQ(render::grid_how(waited),
            "8 blocks; a row's first block waits for its other 3 results and folds all 4: one cooperative launch");
  EXPECT_EQ(render::grid_how(matrix_trace("column-sums", 1, 3000, 32, 0, seed)),  // one chunk of rows
            "94 blocks; each block writes its columns' sums to out: one launch");
  EXPECT_EQ(render::grid_how(matrix_trace("column-sums", 8, 3000, 32, 0, seed)),
            "752 blocks; second launch: 94 blocks over the 8 x 3000 partials");
  EXPECT_EQ(render::grid_how(matrix_trace("block-2d", 33, 257, 128, 0, seed)),  // 9 x 9 tiles of 32 x 4
            "81 blocks; second launch: 1 block of 128 threads over the 81 partials");
}

// Under the matrix, a trace whose row's first block waited says so: that block holds its chunk's
// result and waits for the row's others; any other block's result is waited for.
TEST_F(RenderTest, AMatrixTraceSaysWhereTheRowsFirstBlockWaited) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto says = [&](const std::string& start) {
    return std::any_of(canvas_->texts().begin(), canvas_->texts().end(),
                       [&](const std::string& x) { return x.rfind(start, 0) == 0; });
  };
  for (const bool waited : {false, true})
    for (const int traced : {0, 1}) {  // 4 chunks a row: block 0 is row 0's first, block 1 its second
      SCOPED_TRACE("waited " + std::to_string(waited) + ", block " + std::to_string(traced));
      core::Trace t = matrix_trace("batched-rows-vectorized", 2, 4096, 32, traced, seed);
      t.first_block_waits = waited;
      draw_view(render::View::Memory, t, 0);
      const std::string part = render::short_value(t.partials[std::size_t(traced)], t.type);
      if (waited && traced == 0)
        EXPECT_TRUE(says("block 0 holds the sum of row 0's chunk 0: " + part + ", waits for the row's other 3"));
      else
        EXPECT_TRUE(says("block " + std::to_string(traced) + " writes the sum of row 0's chunk " +
                         std::to_string(traced) + ": " + part +
                         (waited ? "; the row's first block waits" : "; the row's last block")));
    }
}

// The combine box's caption takes two lines only where one line at the smallest size does not
// fit: a row's first block waiting, in the normal layout's view (about 660 x 600 at 1600x900, where
// one line was cut) and at presenter size; one line in a view wide enough; never below the minimum.
TEST_F(RenderTest, ACaptionTooLongForItsBoxTakesTwoLines) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  core::Trace t = matrix_trace("batched-rows-vectorized", 2, 4096, 32, 0, seed);
  t.first_block_waits = true;
  const std::string whole = "a row's first block waits for its other 3 results and folds all 4: one cooperative launch";
  const std::vector<std::string> halves{"a row's first block waits for its other 3",
                                        "results and folds all 4: one cooperative launch"};
  render::ViewOptions presenter{true, 0, 1.5f};
  presenter.min_text_px = render::min_text_px(true, 1);
  struct Case {
    render::ViewOptions options;
    int w, h;
    bool two;
  };
  for (const auto& [options, w, h, two] : {Case{render::ViewOptions{}, 660, 600, true}, Case{presenter, 992, 560, true},
                                           Case{render::ViewOptions{}, 1600, 900, false}}) {
    SCOPED_TRACE(std::to_string(w) + "x" + std::to_string(h) + (options.high_contrast ? " presenter" : ""));
    render::Offscreen target;
    target.resize(w, h);
    target.bind();
    render::draw_stage_view(*canvas_, render::View::Grid, t, 0, w, h, options);
    render::Offscreen::unbind();
    const auto& texts = canvas_->texts();
    const auto at = std::find(texts.begin(), texts.end(), two ? halves[0] : whole);
    ASSERT_NE(at, texts.end());
    if (two) {
      ASSERT_NE(at + 1, texts.end());
      EXPECT_EQ(at[1], halves[1]);
    }
    EXPECT_EQ(std::count(texts.begin(), texts.end(), whole), two ? 0 : 1);
    EXPECT_GE(canvas_->smallest_text_px(), options.min_text_px);
  }
}

// A matrix trace's memory view: the window's cells as a grid, the traced block's cells in their
// values' colours and the rest grey, the stage's loads framed, every labelled row and column
// inked, and the block's results framed in the output line.
TEST_F(RenderTest, AMatrixTraceShowsItsWindowWithTheBlocksCells) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto pal = render::standard_palette();
  for (const char* algo : {"column-sums", "batched-rows", "block-2d"}) {
    SCOPED_TRACE(algo);
    const auto t = matrix_trace(algo, 33, 257, 128, 3, seed);
    const auto& w = t.window;
    ASSERT_EQ(w.rows * w.cols, w.owned.size());
    const Image img = draw(t, 0), later = draw(t, 1);
    const auto M = render::matrix_view_layout(*canvas_, t, 0, W, H);
    const auto M1 = render::matrix_view_layout(*canvas_, t, 1, W, H);
    ASSERT_TRUE(M);
    const render::Scale scale = render::value_scale(&w.values, w.values.size());
    std::set<long long> loads;
    for (const auto& l : t.stages[0].loads) loads.insert(l.elements.begin(), l.elements.end());
    int owned = 0, framed = 0;
    ASSERT_GE(M->rows, 4);
    for (std::size_t r = std::size_t(M->first_row); r < std::size_t(M->first_row + M->rows); ++r)
      for (std::size_t c = 0; c < w.cols; ++c) {
        const std::size_t i = r * w.cols + c;
        const auto cell = M->cell(int(r), int(c));
        const auto want = w.owned[i] ? render::value_color(scale.at(w.values[i])) : pal.padding;
        ASSERT_GT(share(img, cell, want), 0.5f) << "row " << w.row + r << ", col " << w.col + c << " owned " << int(w.owned[i]);
        owned += w.owned[i];
        const bool loaded = loads.count((long long)((w.row + r) * t.cols + w.col + c)) > 0;
        framed += loaded;
        EXPECT_EQ(near(img.at(cell.x + 0.5f, cell.cy()), pal.read), loaded) << "row " << w.row + r << ", col " << w.col + c;
        const auto then = M1->cell(int(r), int(c));
        if (M1->shows_row(int(r))) {
          EXPECT_FALSE(near(later.at(then.x + 0.5f, then.cy()), pal.read)) << "stage 1 loads nothing";
        }
      }
    EXPECT_GT(owned, 0);
    EXPECT_LT(owned, int(w.owned.size()));
    EXPECT_GT(framed, 0);
    for (int r = M->first_row; r < M->first_row + M->rows; r += M->row_step) EXPECT_GT(ink(img, M->row_label(r)), 20) << "row label " << r;
    for (int c = 0; c < int(w.cols); c += M->col_step) EXPECT_GT(ink(img, M->col_label(c)), 10) << "column label " << c;
    // The labels are the window's real indices: its first column is the block's first loaded one.
    long long first = std::numeric_limits<long long>::max();
    for (long long e : loads) first = std::min(first, e);
    EXPECT_EQ(w.col, std::size_t(first) % t.cols);
    // The block's own result cells are framed in the written colour.
    const auto lines = render::output_lines(t);
    int own = 0;
    for (std::size_t k = 0; k < lines.size(); ++k)
      for (std::size_t i = 0; i < lines[k].cells.size(); ++i) {
        if (!lines[k].cells[i].own || (M->kind == render::MatrixLines::Rows && !M->shows_row(int(i)))) continue;
        const auto out = M->output(int(k), int(i));
        EXPECT_TRUE(near(img.at(out.x + 0.5f, out.cy()), pal.written)) << "output line " << k << ", cell " << i;
        ++own;
      }
    EXPECT_GT(own, 0);
  }
  // batched-rows: block 3's row is row 3, and its result is out[3].
  const auto rows = matrix_trace("batched-rows", 33, 257, 128, 3, seed);
  for (std::size_t i = 0; i < rows.window.owned.size(); ++i)
    if (rows.window.owned[i]) {
      EXPECT_EQ(rows.window.row + i / rows.window.cols, 3u);
    }
  EXPECT_EQ(render::output_lines(rows)[0].cells[3 - rows.window.row].value, rows.outputs[3]);
}

// Presenter mode (992 x 560, 18 px text): the matrix keeps at least one row tall enough for its
// label, its column labels under its heading, and its output lines above the line under them.
TEST_F(RenderTest, AMatrixKeepsItsLabelsAndOutputsApartAtPresenterSize) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  render::ViewOptions presenter{true, 0, 1.5f};
  presenter.min_text_px = render::min_text_px(true, 1);
  for (const char* algo : {"column-sums", "batched-rows", "batched-rows-split", "block-2d", "column-sums-naive"})
    for (int block : {32, 256, 1024}) {
      SCOPED_TRACE(std::string(algo) + ", block " + std::to_string(block));
      const auto t = matrix_trace(algo, 33, 257, block, 0, seed);
      for (int stage = 0; stage < int(t.stages.size()); ++stage) {
        const auto M = render::matrix_view_layout(*canvas_, t, stage, 992, 560, presenter);
        ASSERT_TRUE(M);
        ASSERT_GE(M->rows, 1);
        EXPECT_GE(M->cell_h, M->label_px) << "stage " << stage;
        EXPECT_GE(M->col_label(0).y, M->heading.y + M->heading.h - 1) << "stage " << stage;
        const auto lines = render::output_lines(t);
        if (M->kind == render::MatrixLines::Rows) continue;  // beside the grid, a cell per row
        const auto last = M->output(int(lines.size()) - 1, 0);
        EXPECT_LE(last.y + last.h, M->summary.y + 1) << "stage " << stage;
      }
    }
}

// The coalescing view draws one box per 32-byte sector a warp-wide load touched, counted from the
// recorded addresses: 32 lanes a thousand elements apart touch 32 sectors, 32 neighbours 4.
TEST_F(RenderTest, TheCoalescingViewDrawsASectorBoxPerSectorTouched) {
  const auto pal = render::standard_palette();
  const auto L = render::layout_memory(32, W, H);
  for (const auto& [stride, sectors] : {std::pair{1000, 32}, std::pair{1, 4}, std::pair{2, 8}}) {
    core::Trace t;
    t.algorithm = "hand-made";
    t.type = core::DType::Float;
    t.block = 32;
    t.stages.resize(1);
    t.stages[0].label = "loads";
    for (int th = 0; th < 32; ++th) t.stages[0].loads.push_back({th, {(long long)th * stride}, {}});
    ASSERT_EQ(render::why_not(render::View::Coalescing, t), "");
    target_.bind();
    canvas_->begin(W, H, pal.background);
    const render::ViewOptions options;
    const auto boxes = render::draw_coalescing({*canvas_, t, 0, L, pal, options, render::kMinTextPx}).boxes;
    canvas_->end();
    render::Offscreen::unbind();
    const Image img{target_.read_rgba()};
    ASSERT_EQ(int(boxes.size()), sectors) << "stride " << stride;
    for (const auto& b : boxes) {
      // A box is a sector of 8 floats: its first slot holds lane data in every pattern here.
      EXPECT_TRUE(near(img.at(b.x + b.w / 16, b.cy()), pal.active)) << "stride " << stride << " " << str(img.at(b.x + b.w / 16, b.cy()));
      EXPECT_LT(b.x + b.w, W);
    }
    // Boxes run along the address line: left to right, never overlapping.
    for (std::size_t i = 1; i < boxes.size(); ++i) EXPECT_GE(boxes[i].x, boxes[i - 1].x + boxes[i - 1].w);
  }
}

// The line over the loads counts what it shows: where a thread reached the 16 loads a trace
// keeps, the count is of those recorded; a load that fits one sector says "1 sector".
TEST_F(RenderTest, TheCoalescingNoteSaysWhereLoadsWereCutAndCountsOneSector) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto walk = matrix_trace("column-sums-naive", 33, 257, 128, 0, seed);  // 33 loads a thread, 16 kept
  const std::string cut = render::coalescing_note(walk, 0, 0);
  EXPECT_EQ(cut.rfind("warp-wide loads 1-8 of 64 recorded (a trace keeps a warp's first 16); ", 0), 0u) << cut;
  const auto narrow = matrix_trace("column-sums-naive", 5, 8, 32, 0, seed);  // 8 ints a row: one sector
  EXPECT_EQ(render::coalescing_note(narrow, 0, 0), "5 warp-wide loads; 1 sector each");
  const auto rows = matrix_trace("batched-rows", 2, 256, 64, 0, seed);  // 4 loads a thread, none cut
  EXPECT_EQ(render::coalescing_note(rows, 0, 0), "8 warp-wide loads; 4 sectors each");  // 2 warps x 4
}

// Presenter mode keeps at least four rows of the matrix above the shared cells (issue 32,
// item 5: it showed row 0 alone), at normal size too.
TEST_F(RenderTest, TheMatrixKeepsFourRowsInPresenterMode) {
  const auto t = matrix_trace("column-sums", 64, 256, 128, 0, 3);
  render::ViewOptions presenter{true, 0, render::kPresenterTextScale};
  presenter.min_text_px = render::min_text_px(true, 1);
  const auto big = render::matrix_view_layout(*canvas_, t, 0, 992, 560, presenter);
  ASSERT_TRUE(big);
  EXPECT_GE(big->rows, 4);
  const auto normal = render::matrix_view_layout(*canvas_, t, 0, W, H);
  ASSERT_TRUE(normal);
  EXPECT_GE(normal->rows, 4);
}

// Presenter mode's large type: the coalescing view shows fewer loads a page rather than drop
// each sector's first element and lanes (issue 32, item 5).
TEST_F(RenderTest, ThePresenterCoalescingViewKeepsAddressesAndLanes) {
  const auto t = random_trace("sequential", 256, 3, core::DType::Float);
  render::ViewOptions presenter{true, 0, render::kPresenterTextScale};
  presenter.min_text_px = render::min_text_px(true, 1);
  render::Offscreen target;
  target.resize(992, 560);
  target.bind();
  const auto drawn = render::draw_stage_view(*canvas_, render::View::Coalescing, t, 0, 992, 560, presenter);
  render::Offscreen::unbind();
  EXPECT_GT(drawn.page, 0);
  EXPECT_LT(drawn.page, render::kLoadRowsShown);
  const auto& texts = canvas_->texts();
  const std::set<std::string> seen(texts.begin(), texts.end());
  for (const char* label : {"0", "8", "16", "24"}) EXPECT_TRUE(seen.count(label)) << label;
  for (const std::string lanes : {"0-7", "8-15", "16-23", "24-31"})  // "lanes 0-7" where the sector is wide enough
    EXPECT_TRUE(seen.count(lanes) || seen.count("lanes " + lanes)) << lanes;
  EXPECT_GE(canvas_->smallest_text_px(), 18);
}

// 16-byte loads, 16 sectors a warp-wide load, in a view 640 pixels wide (issue 47, item 4: slivers,
// no lanes, the count cut): every load's count whole, and the lanes under groups of sectors.
TEST_F(RenderTest, SixteenByteLoadsShowTheirCountAndTheirLanes) {
  backend::TraceRequest req{
      "warp-shuffle-vectorized",
      core::Op::Sum,
      core::DType::Int,
      256,
      0,
      core::generate_input({core::InputSpec::Kind::Random, test::test_seed(), {}}, 4096, core::DType::Int)};
  const auto t = backend::make_sim_backend()->trace(req);
  render::Offscreen target;
  target.resize(640, 400);
  target.bind();
  (void)render::draw_stage_view(*canvas_, render::View::Coalescing, t, 0, 640, 400);
  render::Offscreen::unbind();
  const auto& texts = canvas_->texts();
  const std::set<std::string> seen(texts.begin(), texts.end());
  EXPECT_TRUE(seen.count("16 sectors (ideal 16)"));
  for (const std::string lanes : {"0-3", "4-7", "28-31"})  // two sectors a label: 4 lanes
    EXPECT_TRUE(seen.count(lanes) || seen.count("lanes " + lanes)) << lanes;
  EXPECT_FALSE(seen.count("0-1") || seen.count("lanes 0-1"));
  EXPECT_GE(canvas_->smallest_text_px(), int(render::kMinTextPx));
}

// The hardware's two lines under a view are drawn where they leave it half its height, and
// else not at all (presenter mode at 800x600 drew them over the legend); never the figures
// without the line that says whose they are.
TEST_F(RenderTest, TheHardwaresLinesGoWhereTheyFitOrNotAtAll) {
  const auto t = random_trace("interleaved-divergent", 256, test::test_seed());
  render::ViewOptions presenter{true, 0, render::kPresenterTextScale};
  presenter.min_text_px = render::min_text_px(true, 1);
  const auto texts = [&](int w, int h, const render::ViewOptions& o) {
    render::Offscreen target;
    target.resize(w, h);
    target.bind();
    (void)render::draw_stage_view(*canvas_, render::View::Divergence, t, 1, w, h, o);
    render::Offscreen::unbind();
    std::string all;
    for (const auto& s : canvas_->texts()) all += s + "\n";
    return all;
  };
  const std::string roomy = texts(W, H, {}), small = texts(480, 260, presenter);
  EXPECT_NE(roomy.find("The hardware, a whole launch"), std::string::npos) << roomy;
  EXPECT_NE(roomy.find("lanes on a warp instruction"), std::string::npos) << roomy;
  EXPECT_EQ(small.find("The hardware"), std::string::npos) << small;
  EXPECT_EQ(small.find("lanes on a warp instruction"), std::string::npos) << small;
  EXPECT_NE(small.find("divergent"), std::string::npos) << small;  // the legend is still drawn
}

TEST_F(RenderTest, TheCoalescingViewAppliesWhereLoadsWereRecorded) {
  auto array = iota_trace("sequential", 64, 64);  // a flat array records its loads too
  EXPECT_EQ(render::why_not(render::View::Coalescing, array), "");
  for (auto& s : array.stages) s.loads.clear();  // as in a trace written before loads were recorded
  EXPECT_EQ(render::why_not(render::View::Coalescing, array), "this trace recorded no global loads");
  EXPECT_NE(render::next_view(render::View::Grid, &array), render::View::Coalescing);
  const auto m = matrix_trace("column-sums-naive", 33, 257, 128, 0, 7);
  EXPECT_EQ(render::why_not(render::View::Coalescing, m), "");
  EXPECT_EQ(render::parse_view("coalescing"), render::View::Coalescing);
  EXPECT_TRUE(core::is_view_name(render::to_string(render::View::Coalescing)));
  // 4 warps x 16 recorded loads: two pages of 8... and more; past the last page shows the last.
  ASSERT_GT(render::paged_rows(render::View::Coalescing, m, 0), render::kLoadRowsShown);
  render::ViewOptions past;
  past.first_bank_row = 100000;
  EXPECT_NE(draw_view(render::View::Coalescing, m, 0).rgba, draw_view(render::View::Coalescing, m, 0, past).rgba);
}

// Presenter mode: the matrix views keep every text at 18 px or more.
TEST_F(RenderTest, MatrixViewsKeepTheMinimumTextSize) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  constexpr int w = 992, h = 560;
  render::Offscreen target;
  target.resize(w, h);
  render::ViewOptions presenter{true, 0, 1.5f};
  presenter.min_text_px = render::min_text_px(true, 1);
  for (const auto& algo : core::matrix_ids()) {
    auto t = matrix_trace(algo, 33, 257, 128, 0, seed);
    if (t.grid > 1) t = matrix_trace(algo, 33, 257, 128, 1, seed);  // a later block, where there is one
    for (auto v : {render::View::Memory, render::View::Coalescing})
      for (int stage = 0; stage < int(t.stages.size()); ++stage) {
        target.bind();
        render::draw_stage_view(*canvas_, v, t, stage, w, h, presenter);
        render::Offscreen::unbind();
        EXPECT_GE(canvas_->smallest_text_px(), 18) << algo << ", " << render::to_string(v) << " view, stage " << stage;
      }
  }
}

// lanes-per-row's segments (issue 33): in the memory view's thread strips every other row's
// lanes are a shade darker, so each row's 4 lanes read as one; a warp a row keeps one colour.
TEST_F(RenderTest, EveryOtherRowsLanesAreAShadeDarker) {
  const auto pal = render::standard_palette();
  const auto same = [](render::Color a, render::Color b) { return a.r == b.r && a.g == b.g && a.b == b.b; };
  const auto lanes = matrix_trace("lanes-per-row", 64, 16, 32, 0, 7);
  ASSERT_EQ(lanes.geometry.segment_lanes, 4);
  for (int th : {0, 3, 8, 11}) EXPECT_TRUE(same(render::thread_band_color(lanes, th, true, pal), pal.active)) << th;
  for (int th : {4, 7, 12}) {
    EXPECT_TRUE(same(render::thread_band_color(lanes, th, true, pal), render::segment_shade(pal.active))) << th;
    EXPECT_TRUE(same(render::thread_band_color(lanes, th, false, pal), render::segment_shade(pal.inactive))) << th;
  }
  EXPECT_FALSE(same(render::segment_shade(pal.active), pal.active));
  const auto warp = matrix_trace("warp-per-row", 64, 16, 32, 0, 7);
  for (int th : {0, 4, 31}) EXPECT_TRUE(same(render::thread_band_color(warp, th, true, pal), pal.active)) << th;
}

// The matrix view names the threads that add each row beside its label, with a strip in their
// colour: lanes-per-row's every other row darker (4 lanes a row at 16 columns), thread-per-row's
// one thread a row.
TEST_F(RenderTest, MatrixRowsCarryTheThreadsThatAddThem) {
  const auto pal = render::standard_palette();
  const auto lanes = matrix_trace("lanes-per-row", 64, 16, 32, 1, 7);
  const auto M = render::matrix_view_layout(*canvas_, lanes, 0, W, H);
  ASSERT_TRUE(M);
  ASSERT_GE(M->rows, 4);
  const Image img = draw(lanes, 0);
  for (int r = M->first_row; r < M->first_row + M->rows; ++r) {
    const auto cell = M->cell(r, 0);
    const auto strip = img.at(cell.x - M->label_px * 0.32f, cell.cy());
    const std::size_t row = lanes.window.row + std::size_t(r);
    const bool mine = row >= 8 && row < 16;  // block 1's rows, 4 lanes each
    EXPECT_EQ(near(strip, pal.active), mine && row % 2 == 0) << "row " << row;
    EXPECT_EQ(near(strip, render::segment_shade(pal.active)), mine && row % 2 == 1) << "row " << row;
  }
  const auto tile = matrix_trace("thread-per-row", 40, 3, 32, 0, 7);
  const auto T = render::matrix_view_layout(*canvas_, tile, 0, W, H);
  ASSERT_TRUE(T);
  const Image timg = draw(tile, 0);
  const auto cell = T->cell(T->first_row, 0);
  EXPECT_TRUE(near(timg.at(cell.x - T->label_px * 0.32f, cell.cy()), pal.active));
}

// ---- Race recordings (synthetic, made here on the CPU: race_support.h) --------------------

#include "race_support.h"

namespace {

// Block 64 of 256 values, block 1: at stage 2 (stride 16) threads 3 and 5 read cells 19 and 21
// before lanes 19 and 21 wrote them. The whole block fits at W x H.
core::Trace small_race(std::uint64_t seed) {
  test::SyntheticRace spec;
  spec.block = 64, spec.n = 256, spec.traced = 1, spec.misreads = {{2, 3, 1}, {2, 5, 1}}, spec.wrong = {2}, spec.seed = seed;
  return test::synthetic_race(spec);
}

// The memory view's layout with the race caption's row under the caption (one line at W).
render::MemoryLayout race_layout(int block) {
  return render::layout_memory(block, W, H, 1, render::kMinTextPx, render::layout_memory(1, W, H).label_px * 1.5f);
}

bool near_mark(render::Color a, render::Color b) {
  return std::abs(a.r - b.r) < 0.1f && std::abs(a.g - b.g) < 0.1f && std::abs(a.b - b.b) < 0.1f;
}

}  // namespace

// Every mark a race adds has a colour of its own in both palettes (Okabe-Ito: safe for the common
// colour-vision deficiencies), none shared with another mark.
TEST(RacePalette, EachRaceMarkHasItsOwnColourInBothPalettes) {
  for (const auto& pal : {render::standard_palette(), render::high_contrast_palette()}) {
    const render::Color marks[] = {pal.written, pal.read, pal.active, pal.conflict, pal.stale, pal.wrong, pal.path};
    for (std::size_t i = 0; i < std::size(marks); ++i)
      for (std::size_t j = i + 1; j < std::size(marks); ++j) EXPECT_FALSE(near(marks[i], marks[j])) << i << " and " << j;
    for (const auto& c : {pal.stale, pal.wrong, pal.path}) EXPECT_FALSE(near(c, pal.background));
  }
}

// The stale reads' cells framed with a "saw" badge, the cells the code did not mean framed with a
// "meant" badge, the path ringed, an arrow from the cell read to the reading thread, and the
// caption naming the read; the same trace without its race shows none of it.
TEST_F(RenderTest, ARaceMarksStaleReadsWrongCellsAndThePath) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto t = small_race(seed);
  const auto& race = *t.race;
  ASSERT_EQ(core::stale_in(race, 2).size(), 2u);
  const auto pal = render::standard_palette();
  for (bool with_race : {true, false}) {
    SCOPED_TRACE(with_race ? "with its race" : "without");
    core::Trace shown = t;
    if (!with_race) shown.race.reset();
    target_.bind();
    const auto drawn = render::draw_memory_view(*canvas_, shown, 2, W, H);
    render::Offscreen::unbind();
    ASSERT_EQ(drawn.warps, 0) << "the whole block is drawn";
    const Image img{target_.read_rgba()};
    const auto L = with_race ? race_layout(64) : render::layout_memory(64, W, H);
    for (int cell : {19, 21}) {  // read stale: framed, the badge in the bottom-right corner
      const auto c = L.cell(cell);
      EXPECT_EQ(near(img.at(c.x + 1, c.cy()), pal.stale), with_race) << "cell " << cell << " " << str(img.at(c.x + 1, c.cy()));
      EXPECT_EQ(near(img.at(c.x + c.w - 2, c.y + c.h - 2), pal.stale), with_race) << "cell " << cell;
    }
    for (int cell : race.wrong[2]) {  // not what the code meant: framed, the badge in the top-right corner
      const auto c = L.cell(cell);
      EXPECT_EQ(near(img.at(c.x + 1, c.cy()), pal.wrong), with_race) << "cell " << cell << " " << str(img.at(c.x + 1, c.cy()));
      EXPECT_EQ(near(img.at(c.x + c.w - 2, c.y + 2), pal.wrong), with_race) << "cell " << cell;
    }
    int ringed = 0;
    for (const auto& p : race.path) {
      if (p.stage != 2) continue;
      const auto c = L.cell(p.cell);
      // Clear of the access arrows: they run in the cells' left margins, or through the centres
      // where the values leave no margin.
      const float rx = c.x + c.w * 0.33f;
      EXPECT_EQ(near(img.at(rx, c.y - 1.5f), pal.path), with_race) << "path cell " << p.cell << " " << str(img.at(rx, c.y - 1.5f));
      ++ringed;
    }
    EXPECT_GT(ringed, 0);
    // The arrow from cell 19 (thread 3's read) to thread 3's strip, halfway.
    const auto from = L.cell(19), to = L.thread_band(3);
    const float x = (from.cx() - from.w * 0.2f + to.cx() - to.w * 0.2f) / 2, y = (from.cy() + to.cy()) / 2;
    EXPECT_EQ(near_mark(img.at(x, y), pal.stale), with_race) << str(img.at(x, y));
    // The caption's row under the stage caption names the read, in the stale colour.
    const render::Rect row{L.caption.x, L.caption.y + L.caption.h, L.caption.w, L.label_px * 1.5f};
    int ink = 0;
    for (float yy = row.y; yy < row.y + row.h; ++yy)
      for (float xx = row.x; xx < row.x + row.w; ++xx) ink += near_mark(img.at(xx, yy), pal.stale);
    if (with_race) EXPECT_GT(ink, 200);
    else EXPECT_EQ(ink, 0);
  }
}

// A block too wide to read: the enlarged warp is the reader's (thread 37, warp 1), the cell it
// read (293, in warp 9) is framed on the block's strip, and the arrow runs from there down to
// thread 37's strip; the colour-blind-safe high-contrast palette draws the same marks.
TEST_F(RenderTest, AnEnlargedWarpShowsTheCellReadOnTheBlocksStrip) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto t = test::synthetic_race(test::issue_example(seed));
  for (bool contrast : {false, true}) {
    const auto pal = contrast ? render::high_contrast_palette() : render::standard_palette();
    render::ViewOptions o;
    o.high_contrast = contrast, o.warp = 1;
    target_.bind();
    const auto drawn = render::draw_memory_view(*canvas_, t, 2, W, H, o);
    render::Offscreen::unbind();
    const Image img{target_.read_rgba()};
    ASSERT_EQ(drawn.warps, 32);
    ASSERT_EQ(drawn.warp, 1);
    const auto L = render::layout_warp(1024, 1, W, H, 1, render::kMinTextPx, drawn.cols, render::layout_memory(1, W, H).label_px * 1.5f);
    const auto& o_strip = L.overview;
    const float w = o_strip.w / 1024, line = std::max(2.0f, o_strip.h * 0.12f), cx = o_strip.x + 293.5f * w;
    const float frame_w = std::max(w, 3.0f) + 2 * line;
    EXPECT_TRUE(near(img.at(cx, o_strip.y - line / 2), pal.stale)) << str(img.at(cx, o_strip.y - line / 2));
    EXPECT_TRUE(near(img.at(cx - frame_w / 2 + line / 2, o_strip.cy()), pal.stale));
    const auto to = L.thread_band(37);
    // The arrow, sampled along its middle fifth: where the warp's cells are large enough for large
    // digits, a value drawn over the arrow may hide the single halfway pixel (seed 1890019804).
    const float x0 = cx, y0 = o_strip.y + o_strip.h + line, x1 = to.cx() - to.w * 0.2f, y1 = to.cy();
    int marked = 0;
    for (float f = 0.4f; f <= 0.601f; f += 0.02f)
      marked += near_mark(img.at(x0 + (x1 - x0) * f, y0 + (y1 - y0) * f), pal.stale);
    EXPECT_GE(marked, 3) << "the arrow, along its middle: " << str(img.at((x0 + x1) / 2, (y0 + y1) / 2));
    const auto wrong = L.cell(37);  // thread 37's sum is not what the code meant
    EXPECT_TRUE(near(img.at(wrong.x + 1, wrong.cy()), pal.wrong)) << str(img.at(wrong.x + 1, wrong.cy()));
  }
}

// The caption pages through the stage's stale reads; past the last it shows the last.
TEST_F(RenderTest, TheRaceCaptionPagesThroughTheStagesStaleReads) {
  const auto t = test::synthetic_race(test::issue_example(test::test_seed()));
  render::ViewOptions first, second, past;
  first.warp = second.warp = past.warp = 1;
  second.stale = 1, past.stale = 7;
  const Image a = draw_view(render::View::Memory, t, 2, first), b = draw_view(render::View::Memory, t, 2, second);
  EXPECT_NE(a.rgba, b.rgba);
  EXPECT_EQ(draw_view(render::View::Memory, t, 2, past).rgba, b.rgba);
}

// The divergence view frames the lanes that read a stale value and names, in the stale colour,
// the warps that ran ahead: at stage 2 only, where the reads are.
TEST_F(RenderTest, TheDivergenceViewShowsWhichWarpsRanAhead) {
  const auto t = test::synthetic_race(test::issue_example(test::test_seed()));
  const auto pal = render::standard_palette();
  const int racing = count_near(draw_view(render::View::Divergence, t, 2), pal.stale, 0.1f);
  const int quiet = count_near(draw_view(render::View::Divergence, t, 1), pal.stale, 0.1f);
  EXPECT_GT(racing, quiet + 300) << racing << " vs " << quiet;
}

// Presenter mode at 1600x900 (a view of 992 x 560, and compare mode's half of it) and the normal
// layout: no race text below the mode's minimum, in any view that applies, at any stage.
TEST_F(RenderTest, ARaceKeepsTheMinimumTextSize) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  test::SyntheticRace legacy;
  legacy.algorithm = "legacy-warp-synchronous", legacy.block = 256, legacy.n = 2048, legacy.traced = 1;
  legacy.misreads = {{4, 0, 1, true}}, legacy.wrong = {3}, legacy.seed = seed;  // stage 4: the last warp, stride 16
  const core::Trace traces[] = {test::synthetic_race(test::issue_example(seed)), small_race(seed), test::synthetic_race(legacy)};
  for (const auto& [w, h, presenter] : {std::tuple{992, 560, true}, std::tuple{496, 560, true}, std::tuple{W, H, false}}) {
    render::Offscreen target;
    target.resize(w, h);
    render::ViewOptions o{presenter, 0, presenter ? 1.5f : 1.0f};
    o.min_text_px = render::min_text_px(presenter, 1);
    for (const auto& t : traces)
      for (auto v : {render::View::Memory, render::View::Divergence, render::View::Grid})
        for (int stage = 0; stage < int(t.stages.size()); ++stage)
          for (int stale : {0, 1}) {
            o.stale = stale;
            target.bind();
            render::draw_stage_view(*canvas_, v, t, stage, w, h, o);
            render::Offscreen::unbind();
            EXPECT_GE(canvas_->smallest_text_px(), int(o.min_text_px))
                << t.algorithm << ", " << render::to_string(v) << ", stage " << stage << ", " << w << " x " << h;
          }
  }
}
