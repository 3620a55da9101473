// Exports from the command line, headless: a PNG per stage, and a whole run as GIF and MP4,
// each decoded and checked where the memory view's layout puts its thread strips. And the
// export module the window shares: what failed, in words, with no program name.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <array>
#include <cstdio>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

#include "app/backend/backend.h"
#include "app/core/input.h"
#include "app/cli/cli.h"
#include "app/render/bench_chart.h"
#include "app/render/export.h"
#include "app/render/layout.h"
#include "app/render/palette.h"
#include "test_support.h"

using namespace rl;

namespace {

int run(std::vector<std::string> args, std::string* err = nullptr) {
  args.insert(args.begin(), "reduction-lab");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, e;
  const int code = cli::run(int(argv.size()), argv.data(), out, e, {});
  if (err) *err = e.str();
  return code;
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool have_ffmpeg() { return std::system("command -v ffmpeg >/dev/null 2>&1") == 0; }

struct Image {
  std::vector<unsigned char> px;
  int w = 0, h = 0;
  bool is(float x, float y, render::Color c, int tol) const {
    const unsigned char* p = &px[(std::size_t(y) * w + std::size_t(x)) * 4];
    return std::abs(p[0] - int(c.r * 255 + 0.5f)) < tol && std::abs(p[1] - int(c.g * 255 + 0.5f)) < tol &&
           std::abs(p[2] - int(c.b * 255 + 0.5f)) < tol;
  }
};

// Frame `frame` of a decoded image: a PNG has one; stb decodes a GIF's every frame.
Image load(const std::filesystem::path& p, int frame = 0, int* frames = nullptr) {
  const std::string bytes = read(p);
  Image img;
  int* delays = nullptr;
  int z = 0, ch = 0;
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  unsigned char* px = bytes.compare(0, 3, "GIF") == 0
                          ? stbi_load_gif_from_memory(data, int(bytes.size()), &delays, &img.w, &img.h, &z, &ch, 4)
                          : (z = 1, stbi_load_from_memory(data, int(bytes.size()), &img.w, &img.h, &ch, 4));
  const std::size_t size = std::size_t(img.w) * img.h * 4;
  if (px && frame < z) img.px.assign(px + size * frame, px + size * (frame + 1));
  if (frames) *frames = px ? z : 0;
  stbi_image_free(px);
  stbi_image_free(delays);
  return img;
}

// The memory view of a 32-thread block, decoded: each thread's strip, where render/layout.h
// puts it, is the 'worked' green for the first `worked` threads and the idle grey after them.
// Sampled left of centre, where no arrow runs; `tol` allows for lossy video.
void expect_strips(const Image& img, int worked, int tol, const std::string& what) {
  ASSERT_FALSE(img.px.empty()) << what << " did not decode";
  const auto L = render::layout_memory(32, img.w, img.h);
  const auto pal = render::standard_palette();
  for (int i = 0; i < 32; ++i) {
    const auto b = L.thread_band(i);
    EXPECT_TRUE(img.is(b.x + b.w * 0.2f, b.cy(), i < worked ? pal.active : pal.inactive, tol)) << what << ", thread " << i;
  }
}

}  // namespace

TEST(Export, OnePngPerStage) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_stages";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string err;
  const int code = run({"render", "-a", "sequential", "--input", "iota", "--backend", "sim", "--all-stages", "-o",
                        (dir / "seq").string(), "--width", "320", "--height", "200"}, &err);
  if (code == 1 && err.find("headless OpenGL") != std::string::npos && !std::getenv("REDLAB_REQUIRE_GL"))
    GTEST_SKIP() << "SKIPPED: " << err;
  ASSERT_EQ(code, 0) << err;
  // sequential, 32 values: all 32 threads load, then 16, 8, 4, 2 and 1 add.
  for (int k = 0; k < 6; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "seq-stage%02d.png", k);
    EXPECT_EQ(read(dir / name).substr(1, 3), "PNG") << name;
    const Image img = load(dir / name);
    EXPECT_EQ(img.w, 320);
    EXPECT_EQ(img.h, 200);
    expect_strips(img, k == 0 ? 32 : 32 >> k, 8, name);
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "seq-stage06.png"));
  EXPECT_NE(read(dir / "seq-stage00.png"), read(dir / "seq-stage01.png"));
}

TEST(Export, WholeRunAsGifAndMp4) {
  if (!have_ffmpeg()) {
    if (std::getenv("REDLAB_REQUIRE_GL")) FAIL() << "ffmpeg is not installed";
    GTEST_SKIP() << "SKIPPED: ffmpeg is not installed";
  }
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_video";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::string err;
  ASSERT_EQ(run({"render", "-a", "warp-shuffle", "--backend", "sim", "--video", (dir / "run.gif").string(), "--width",
                 "320", "--height", "180"}, &err), 0) << err;
  EXPECT_EQ(read(dir / "run.gif").substr(0, 6), "GIF89a");
  // warp-shuffle: 13 stages held 8 frames each, 12 fades of 6; the first is the load, all 32 worked.
  int frames = 0;
  const Image gif = load(dir / "run.gif", 0, &frames);
  EXPECT_EQ(frames, 13 * 8 + 12 * 6);
  EXPECT_EQ(gif.w, 320);
  EXPECT_EQ(gif.h, 180);
  expect_strips(gif, 32, 8, "the GIF's first frame");
  // The fades are drawn: a frame mid-fade differs from the held frames on both sides of it.
  const auto differing = [](const Image& a, const Image& b) {
    std::size_t n = 0;
    for (std::size_t i = 0; i + 3 < a.px.size() && i + 3 < b.px.size(); i += 4)
      n += std::abs(int(a.px[i]) - int(b.px[i])) + std::abs(int(a.px[i + 1]) - int(b.px[i + 1])) > 24;
    return n;
  };
  const Image held0 = load(dir / "run.gif", 7), fade = load(dir / "run.gif", 8 + 3), held1 = load(dir / "run.gif", 14);
  EXPECT_GT(differing(held0, held1), 50u) << "stages 0 and 1 look the same: no fade to see";
  EXPECT_GT(differing(fade, held0), 20u) << "the fade's middle frame is stage 0 held";
  EXPECT_GT(differing(fade, held1), 20u) << "the fade's middle frame is stage 1 held";
  ASSERT_EQ(run({"render", "-a", "sequential", "--backend", "sim", "--video", (dir / "run.mp4").string(), "--width",
                 "320", "--height", "180"}, &err), 0) << err;
  // 6 stages held 8 frames each, with 5 fades of 6 frames between them.
  FILE* p = popen(("ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 " +
                   (dir / "run.mp4").string()).c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::array<char, 64> buf{};
  const bool got = fgets(buf.data(), buf.size(), p) != nullptr;
  pclose(p);
  ASSERT_TRUE(got);
  EXPECT_EQ(std::atoi(buf.data()), 6 * 8 + 5 * 6);
  // The first frame (the load: all 32 threads worked) and the last (stage 5: thread 0 alone),
  // decoded to PNG. Chroma is subsampled, so colours are compared loosely.
  ASSERT_EQ(std::system(("ffmpeg -v error -i " + (dir / "run.mp4").string() +
                         " -vf 'select=eq(n\\,0)+eq(n\\,77)' -vsync 0 " + (dir / "mp4-%d.png").string()).c_str()), 0);
  expect_strips(load(dir / "mp4-1.png"), 32, 24, "the MP4's first frame");
  expect_strips(load(dir / "mp4-2.png"), 1, 24, "the MP4's last frame");
  // Issue 48, item 8: a video cut short (ffmpeg exits 0 after "Error writing trailer") is not whole,
  // so it never replaces the user's file; the whole ones are.
  for (const char* name : {"run.gif", "run.mp4"}) {
    const std::string bytes = read(dir / name);
    const bool is_gif = std::string(name).ends_with(".gif");
    EXPECT_TRUE(render::video_whole(bytes, is_gif)) << name;
    EXPECT_FALSE(render::video_whole(bytes.substr(0, bytes.size() * 9 / 10), is_gif)) << name << " cut at 90 %";
  }
  EXPECT_EQ(run({"render", "-a", "sequential", "--backend", "sim", "--video", (dir / "run.avi").string()}, &err), 2);
  EXPECT_NE(err.find(".mp4 or .gif"), std::string::npos);
}

// Issue 30, finding 4: a video's name is a file, never an ffmpeg option or protocol
// ("-version.gif", "run10:30.gif"); a folder that cannot take it fails before any frame.
TEST(Export, VideoNamesAreFilesAndAnUnwritableFolderFailsFirst) {
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) {
    if (std::getenv("REDLAB_REQUIRE_GL")) FAIL() << "ffmpeg is not installed";
    GTEST_SKIP() << "SKIPPED: ffmpeg is not installed";
  }
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_video_names";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto cwd = std::filesystem::current_path();
  std::filesystem::current_path(dir);
  std::string err;
  for (const std::string name : {"-version.gif", "run10:30.gif"})
    EXPECT_EQ(run({"render", "-a", "sequential", "--backend", "sim", "--video", name, "--width", "160", "--height", "90"}, &err), 0)
        << name << ": " << err;
  std::filesystem::current_path(cwd);
  for (const std::string name : {"-version.gif", "run10:30.gif"}) EXPECT_EQ(read(dir / name).substr(0, 6), "GIF89a") << name;
  const auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(run({"render", "-a", "warp-shuffle", "--backend", "sim", "--video", "/nonexistent/run.mp4"}, &err), 1);
  EXPECT_NE(err.find("cannot write '/nonexistent/run.mp4': No such file or directory"), std::string::npos) << err;
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(5)) << "frames were rendered first";
}

// Finding 8: Ctrl+C during a video leaves no frame folder and no part of the video behind; so do
// SIGHUP (the terminal closed) and SIGQUIT (issue 48, item 11), each ending as its signal would.
TEST(Export, AnInterruptedVideoLeavesNothingBehind) {
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) GTEST_SKIP() << "SKIPPED: ffmpeg is not installed";
  for (const auto& [sig, want] : {std::pair{"INT", 130}, std::pair{"HUP", 129}, std::pair{"QUIT", 131}}) {
    SCOPED_TRACE(sig);
    const auto dir = std::filesystem::path(testing::TempDir()) / ("redlab_video_" + std::string(sig));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "tmp");
    const std::string cmd = "TMPDIR=" + (dir / "tmp").string() +
                            " " REDLAB_BINARY_PATH
                            " render -a warp-shuffle --backend sim --width 1280 --height 720 --video " +
                            (dir / "run.gif").string() + " 2>/dev/null & pid=$!; sleep 1.5; kill -" + sig +
                            " $pid; wait $pid; echo $? > " + (dir / "code").string();
    ASSERT_EQ(std::system(cmd.c_str()), 0);
    const int code = std::atoi(read(dir / "code").c_str());
    if (code == 0) GTEST_SKIP() << "SKIPPED: the video was done before the signal (a fast machine)";
    EXPECT_EQ(code, want) << "not ended by SIG" << sig;
    EXPECT_TRUE(std::filesystem::is_empty(dir / "tmp")) << "a frame folder was left behind";
    for (const auto& e : std::filesystem::directory_iterator(dir))
      EXPECT_TRUE(e.path().filename() == "tmp" || e.path().filename() == "code") << e.path();
  }
}

// The window calls the same exports and shows their words as they are: a failed write is a
// failure naming the file, never a "Saved", and no "reduction-lab: error:" to strip.
TEST(Export, TheModuleSaysWhatFailedWithoutAProgramName) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_module";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  backend::TraceRequest req;
  req.algorithm = "sequential";
  for (int i = 1; i <= 32; ++i) req.input.push_back(i);
  const core::Trace trace = backend::make_sim_backend()->trace(req);
  using Status = render::Exported::Status;

  const auto avi = render::export_video(trace, 64, 64, (dir / "run.avi").string());
  EXPECT_EQ(avi.status, Status::BadRequest);
  EXPECT_EQ(avi.error, "--video needs a .mp4 or .gif file name, got '" + (dir / "run.avi").string() + "'");
  const auto png = render::export_stage_png(trace, 0, 64, 64, (dir / "none" / "x.png").string());
  EXPECT_EQ(png.status, Status::Failed);
  EXPECT_EQ(png.error.rfind("cannot write '" + (dir / "none" / "x.png").string() + "': ", 0), 0u) << png.error;

  core::BenchReport report;
  report.device = "CPU model", report.date = "2026-01-01", report.backend = "sim";
  core::BenchRow row;
  row.algorithm = "sequential", row.type = "float", row.op = "sum", row.n = 1024, row.block = 256;
  row.median_us = 1, row.samples = 10, row.gbps = 4, row.check_ok = true, row.check = "exact";
  report.rows = {row, row};
  report.rows[1].n = 2048, report.rows[1].gbps = 8;
  const auto chart = render::bench_chart(report, "float", "sum");
  const auto lost = render::export_bench(report, chart, (dir / "none" / "bench").string());
  EXPECT_EQ(lost.status, Status::Failed);
  EXPECT_NE(lost.error.find("'" + (dir / "none" / "bench.csv").string() + "'"), std::string::npos) << lost.error;
  EXPECT_EQ(lost.error.find("reduction-lab"), std::string::npos) << lost.error;

  const auto saved = render::export_bench(report, chart, (dir / "bench").string());
  if (!saved.ok() && saved.error.find("headless OpenGL") != std::string::npos && !std::getenv("REDLAB_REQUIRE_GL"))
    GTEST_SKIP() << "SKIPPED: " << saved.error;
  ASSERT_TRUE(saved.ok()) << saved.error;
  EXPECT_EQ(core::bench_from_json(read(dir / "bench.json")), report);
  EXPECT_EQ(read(dir / "bench.csv"), core::to_csv(report));
  const Image img = load(dir / "bench.png");
  EXPECT_EQ(img.w, 1600);
  EXPECT_EQ(img.h, 900);
  const auto full = render::export_chart_png(chart, 64, 64, "/dev/full");
  EXPECT_EQ(full.status, Status::Failed);
  EXPECT_FALSE(full.error.empty());
}

// The window runs long exports on a worker: the export reports each frame it finished, and a
// cancel stops it between frames, as a failure that says so.
TEST(Export, ReportsProgressAndStopsWhenCancelled) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_progress";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  backend::TraceRequest req;
  req.algorithm = "sequential";
  for (int i = 1; i <= 64; ++i) req.input.push_back(i);
  req.block = 64;
  const core::Trace trace = backend::make_sim_backend()->trace(req);
  render::Progress progress;
  render::Look look;
  look.progress = &progress;
  const auto all = render::export_all_stages(trace, 64, 64, (dir / "run").string(), look);
  if (!all.ok() && all.error.find("headless OpenGL") != std::string::npos && !std::getenv("REDLAB_REQUIRE_GL"))
    GTEST_SKIP() << "SKIPPED: " << all.error;
  ASSERT_TRUE(all.ok()) << all.error;
  EXPECT_EQ(progress.total.load(), int(trace.stages.size()));
  EXPECT_EQ(progress.done.load(), int(trace.stages.size()));
  render::Progress stopped;
  stopped.cancel = true;
  look.progress = &stopped;
  const auto cancelled = render::export_all_stages(trace, 64, 64, (dir / "stopped").string(), look);
  EXPECT_EQ(cancelled.status, render::Exported::Status::Failed);
  EXPECT_EQ(cancelled.error, "cancelled");
  EXPECT_FALSE(std::filesystem::exists(dir / "stopped-stage00.png"));

  // One PNG that cannot be written (a folder where stage 3 goes) leaves the old set whole:
  // nothing is replaced until every stage is written (issue 48, item 11), and nothing is left.
  std::ofstream(dir / "run-stage00.png") << "the old stage 0";
  std::filesystem::remove(dir / "run-stage03.png");
  std::filesystem::create_directories(dir / "run-stage03.png");
  look.progress = nullptr;
  const auto blocked = render::export_all_stages(trace, 64, 64, (dir / "run").string(), look);
  EXPECT_EQ(blocked.status, render::Exported::Status::Failed);
  EXPECT_NE(blocked.error.find("run-stage03.png"), std::string::npos) << blocked.error;
  std::ifstream old(dir / "run-stage00.png");
  std::string first;
  std::getline(old, first);
  EXPECT_EQ(first, "the old stage 0");
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(e.path().filename().string().find(".reduction-lab-set"), std::string::npos) << e.path();
}

// Compare mode's PNG (E): the first algorithm's view in the left half and the second's in the
// right, each exactly the single export at half the width; past its last stage a trace shows
// its last, as the window steps the two in lockstep.
TEST(Export, CompareModeDrawsBothViewsSideBySideInOnePng) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_compare";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  backend::TraceRequest req;
  for (int i = 1; i <= 32; ++i) req.input.push_back(i);
  req.algorithm = "sequential";
  const core::Trace first = backend::make_sim_backend()->trace(req);  // 6 stages
  req.algorithm = "warp-shuffle";
  const core::Trace second = backend::make_sim_backend()->trace(req);  // 13 stages
  const auto both = render::export_compare_png(first, second, 8, 640, 360, (dir / "both.png").string());
  if (!both.ok() && both.error.find("headless OpenGL") != std::string::npos && !std::getenv("REDLAB_REQUIRE_GL"))
    GTEST_SKIP() << "SKIPPED: " << both.error;
  ASSERT_TRUE(both.ok()) << both.error;
  ASSERT_TRUE(render::export_stage_png(first, 5, 320, 360, (dir / "first.png").string()).ok());
  ASSERT_TRUE(render::export_stage_png(second, 8, 320, 360, (dir / "second.png").string()).ok());
  const Image img = load(dir / "both.png"), left = load(dir / "first.png"), right = load(dir / "second.png");
  ASSERT_EQ(img.w, 640);
  ASSERT_EQ(img.h, 360);
  const auto half = [&](int x0) {
    std::vector<unsigned char> px;
    for (int y = 0; y < img.h; ++y) {
      const auto row = img.px.begin() + std::ptrdiff_t((std::size_t(y) * img.w + x0) * 4);
      px.insert(px.end(), row, row + 320 * 4);
    }
    return px;
  };
  EXPECT_TRUE(half(0) == left.px) << "the left half is not sequential's last stage";
  EXPECT_TRUE(half(320) == right.px) << "the right half is not warp-shuffle's stage 8";
  EXPECT_FALSE(half(0) == half(320));
  EXPECT_TRUE(img.is(2, 2, render::standard_palette().background, 8));
  EXPECT_TRUE(img.is(322, 2, render::standard_palette().background, 8));
  const auto lost = render::export_compare_png(first, second, 0, 640, 360, (dir / "none" / "x.png").string());
  EXPECT_EQ(lost.status, render::Exported::Status::Failed);
  EXPECT_EQ(lost.error.rfind("cannot write '" + (dir / "none" / "x.png").string() + "': ", 0), 0u) << lost.error;
}

// Compare mode's every-stage export (and so its GIF and MP4, which draw the same frames): each
// PNG holds both views, each half exactly the single export at half the width, for every
// stage of the longer run; the shorter rests on its last. Progress counts every stage.
TEST(Export, CompareModeExportsEveryStageSideBySide) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_compare_all";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  backend::TraceRequest req;
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  req.input = core::generate_input({core::InputSpec::Kind::Random, seed, {}}, 32, core::DType::Int);
  req.algorithm = "sequential";
  const core::Trace first = backend::make_sim_backend()->trace(req);  // 6 stages
  req.algorithm = "warp-shuffle";
  const core::Trace second = backend::make_sim_backend()->trace(req);  // 13 stages
  render::Progress progress;
  render::Look look;
  look.progress = &progress;
  const auto both = render::export_all_stages(first, 640, 360, (dir / "both").string(), look, &second);
  if (!both.ok() && both.error.find("headless OpenGL") != std::string::npos && !std::getenv("REDLAB_REQUIRE_GL"))
    GTEST_SKIP() << "SKIPPED: " << both.error;
  ASSERT_TRUE(both.ok()) << both.error;
  EXPECT_EQ(progress.total.load(), 13);
  EXPECT_EQ(progress.done.load(), 13);
  EXPECT_FALSE(std::filesystem::exists(dir / "both-stage13.png"));
  for (int k = 0; k < 13; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "-stage%02d.png", k);
    SCOPED_TRACE(name);
    ASSERT_TRUE(render::export_stage_png(first, std::min(k, 5), 320, 360, (dir / "first.png").string()).ok());
    ASSERT_TRUE(render::export_stage_png(second, k, 320, 360, (dir / "second.png").string()).ok());
    const Image img = load(dir / ("both" + std::string(name))), left = load(dir / "first.png"), right = load(dir / "second.png");
    ASSERT_EQ(img.w, 640);
    const auto half = [&](int x0) {
      std::vector<unsigned char> px;
      for (int y = 0; y < img.h; ++y) {
        const auto row = img.px.begin() + std::ptrdiff_t((std::size_t(y) * img.w + x0) * 4);
        px.insert(px.end(), row, row + 320 * 4);
      }
      return px;
    };
    EXPECT_TRUE(half(0) == left.px) << "the left half is not sequential's stage " << std::min(k, 5);
    EXPECT_TRUE(half(320) == right.px) << "the right half is not warp-shuffle's stage " << k;
  }
  if (!have_ffmpeg()) return;
  const auto gif = render::export_video(first, 320, 180, (dir / "both.gif").string(), {}, &second);
  ASSERT_TRUE(gif.ok()) << gif.error;
  int frames = 0;
  const Image g = load(dir / "both.gif", 0, &frames);
  EXPECT_EQ(frames, 13 * 8 + 12 * 6);  // the longer run's stages, held and faded
  EXPECT_EQ(g.w, 320);
}
