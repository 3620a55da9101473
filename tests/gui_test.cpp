// The real program's window: opened under Xvfb, a frame captured and checked; and the
// message when there is no display.
#include <gtest/gtest.h>
#include <stb/stb_image.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <vector>
#include <fstream>
#include <sstream>

namespace {

std::string capture(const std::string& cmd, int* code) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return out;
  std::array<char, 512> buf;
  while (fgets(buf.data(), buf.size(), p)) out += buf.data();
  const int status = pclose(p);
  *code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// A config folder of the test's own, so the user's saved settings cannot change what is drawn.
std::string clean_config() {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_empty_config";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return "XDG_CONFIG_HOME=" + dir.string() + " ";
}

bool have_xvfb() { return std::system("command -v xvfb-run >/dev/null 2>&1") == 0; }

// Pixels within 8 levels of (r, g, b) among pixels [first, last).
int count_near(const unsigned char* px, int first, int last, int r, int g, int b) {
  int count = 0;
  for (int i = first; i < last; ++i)
    count += std::abs(px[4 * i] - r) < 8 && std::abs(px[4 * i + 1] - g) < 8 && std::abs(px[4 * i + 2] - b) < 8;
  return count;
}

// The window's last frame, taken under Xvfb: `env` prefixes the command (a config folder),
// `args` go to the program. Empty pixels with the program's output in `log` on failure.
struct Shot {
  std::vector<unsigned char> px;
  int w = 0, h = 0;
  std::string log;
};

Shot window_shot(const std::string& env, const std::string& args, const std::string& name) {
  const auto path = std::filesystem::path(testing::TempDir()) / name;
  std::filesystem::remove(path);
  Shot shot;
  int code = -1;
  shot.log = capture(env + "xvfb-run -a -s '-screen 0 1600x900x24' " REDLAB_BINARY " " + args + " --screenshot " +
                         path.string(), &code);
  int ch = 0;
  unsigned char* px = code == 0 ? stbi_load(path.c_str(), &shot.w, &shot.h, &ch, 4) : nullptr;
  if (px) shot.px.assign(px, px + std::size_t(shot.w) * shot.h * 4);
  stbi_image_free(px);
  return shot;
}

}  // namespace

#define REQUIRE_XVFB()                                                                \
  if (!have_xvfb()) {                                                                 \
    if (std::getenv("REDLAB_REQUIRE_GL")) FAIL() << "xvfb-run is not installed";     \
    GTEST_SKIP() << "SKIPPED: xvfb-run is not installed";                             \
  }

TEST(Gui, OpensAWindowUnderXvfbAndDrawsTheView) {
  REQUIRE_XVFB();
  const Shot shot = window_shot(clean_config(), "--backend sim --quit-after-frames 8", "redlab_gui.png");
  ASSERT_FALSE(shot.px.empty()) << shot.log;
  const int w = shot.w, h = shot.h;
  const unsigned char* px = shot.px.data();
  EXPECT_GE(w, 800);
  EXPECT_GE(h, 500);
  // The load stage: every thread's strip is the 'worked' green (0x009E73).
  EXPECT_GT(count_near(px, 0, w * h, 0x00, 0x9E, 0x73), 200);
  // The status line at the bottom names the CPU model in amber (0.95, 0.72, 0.2); text is
  // antialiased, so only the glyphs' cores match exactly.
  EXPECT_GT(count_near(px, w * (h - h / 20), w * h, 242, 184, 51), 20);
  EXPECT_EQ(count_near(px, 0, w * (h - h / 20), 242, 184, 51), 0);
}

TEST(Gui, BandwidthTabRunsABenchmarkAndDrawsItsChart) {
  REQUIRE_XVFB();
  const Shot shot = window_shot(clean_config(),
                                "--backend sim --tab bandwidth --run-bench --bench-sizes 2^10..2^12"
                                " --bench-algorithms sequential,cpu --quit-after-frames 120",
                                "redlab_bandwidth.png");
  ASSERT_FALSE(shot.px.empty()) << shot.log;
  const int w = shot.w, h = shot.h;
  const unsigned char* px = shot.px.data();
  // The first series (sequential) is drawn in Okabe-Ito orange, the second (cpu) in sky blue.
  EXPECT_GT(count_near(px, 0, w * h, 0xE6, 0x9F, 0x00), 30);
  EXPECT_GT(count_near(px, 0, w * h, 0x56, 0xB4, 0xE9), 30);
  // And the tab says, in amber, that these are the CPU model's timings.
  EXPECT_GT(count_near(px, 0, w * (h - h / 20), 242, 184, 51), 20);
}

TEST(Gui, BrokenSettingsAreReportedKeptAndReplacedByDefaults) {
  REQUIRE_XVFB();
  const auto home = std::filesystem::path(testing::TempDir()) / "redlab_config";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home / "reduction-lab");
  { std::ofstream(home / "reduction-lab" / "settings.json") << "{ broken"; }
  const Shot shot = window_shot("XDG_CONFIG_HOME=" + home.string() + " ", "--backend sim --present --quit-after-frames 6",
                                "redlab_present.png");
  ASSERT_FALSE(shot.px.empty()) << shot.log;
  EXPECT_TRUE(std::filesystem::exists(home / "reduction-lab" / "settings.json.broken"));
  const int w = shot.w, h = shot.h;
  const unsigned char* px = shot.px.data();
  EXPECT_GT(count_near(px, 0, w * h, 255, 115, 76), 20);  // the notice, in the warning colour
  // Presenter mode: high contrast, so the view's background is black.
  EXPECT_GT(count_near(px, 0, w * h, 0, 0, 0), w * h / 5);
}

TEST(Gui, CompareModeShowsTwoAlgorithmsSideBySide) {
  REQUIRE_XVFB();
  const Shot shot = window_shot(clean_config(), "--backend sim --compare interleaved-divergent --quit-after-frames 6",
                                "redlab_compare.png");
  ASSERT_FALSE(shot.px.empty()) << shot.log;
  // Along one row of thread strips ('worked' green), count separate green runs: one view of a
  // 32-thread block shows 8 strips a row; two views side by side show 16.
  const auto green = [&](int x, int y) {
    const unsigned char* p = &shot.px[(std::size_t(y) * shot.w + x) * 4];
    return std::abs(p[0] - 0x00) < 8 && std::abs(p[1] - 0x9E) < 8 && std::abs(p[2] - 0x73) < 8;
  };
  int most = 0;
  for (int y = 0; y < shot.h; ++y) {
    int runs = 0;
    for (int x = 1; x < shot.w; ++x) runs += green(x, y) && !green(x - 1, y);
    most = std::max(most, runs);
  }
  EXPECT_EQ(most, 16);
}

TEST(Gui, WithoutADisplaySaysSoAndPointsToTheHeadlessCommands) {
  int code = -1;
  const auto out = capture("env -u DISPLAY -u WAYLAND_DISPLAY " REDLAB_BINARY " --backend sim", &code);
  EXPECT_EQ(code, 1) << out;
  EXPECT_NE(out.find("no display"), std::string::npos) << out;
  EXPECT_NE(out.find("render"), std::string::npos) << out;
}

TEST(Gui, HeadlessModeRunsTheSameUiOffScreenAndReportsFrameTimes) {
  const auto dir = std::filesystem::path(testing::TempDir());
  const auto report = dir / "redlab_frames.json", shot = dir / "redlab_headless.png";
  std::filesystem::remove(report), std::filesystem::remove(shot);
  int code = -1;
  const auto log = capture(clean_config() + "env -u DISPLAY " REDLAB_BINARY
                           " --headless --backend sim --tab bandwidth --run-bench --bench-sizes 2^10..2^16"
                           " --bench-algorithms sequential,cpu --quit-after-frames 60 --frame-report " +
                               report.string() + " --screenshot " + shot.string(),
                           &code);
  if (code != 0 && log.find("EGL") != std::string::npos && !std::getenv("REDLAB_REQUIRE_GL"))
    GTEST_SKIP() << "SKIPPED: no EGL here: " << log;
  ASSERT_EQ(code, 0) << log;
  std::ifstream f(report);
  std::stringstream text;
  text << f.rdbuf();
  const std::string js = text.str();
  // The renderer and a summary of the frames taken while the benchmark ran.
  EXPECT_NE(js.find("\"renderer\""), std::string::npos) << js.substr(0, 300);
  EXPECT_NE(js.find("\"bench_running\": {"), std::string::npos);
  int w = 0, h = 0, ch = 0;
  unsigned char* px = stbi_load(shot.c_str(), &w, &h, &ch, 4);
  ASSERT_TRUE(px) << log;
  EXPECT_EQ(w, 1600);
  EXPECT_EQ(h, 900);
  EXPECT_GT(count_near(px, 0, w * h, 0xE6, 0x9F, 0x00), 30);  // the sequential series, orange
  stbi_image_free(px);
  // --headless alone would never end: refused as a usage error.
  capture(REDLAB_BINARY " --headless", &code);
  EXPECT_EQ(code, 2);
}

// A scripted walk through the real window under Xvfb, driven by xdotool's key presses as a
// user would: pick an algorithm (3), play and pause (Space), go to the last stage and one back
// (End, Left), cycle to the banks view (V V V), export it (E), open presenter mode (P), quit
// (Ctrl+Q). The exported file's name says which algorithm, view and stage the window was on.
TEST(Gui, ScriptedWalkWithXdotool) {
  REQUIRE_XVFB();
  if (std::system("command -v xdotool >/dev/null 2>&1") != 0) {
    if (std::getenv("REDLAB_REQUIRE_GL")) FAIL() << "xdotool is not installed";
    GTEST_SKIP() << "SKIPPED: xdotool is not installed";
  }
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_walk";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "exports");
  const auto shot = dir / "walk.png";
  const std::string walk =
      "set -e; " REDLAB_BINARY " --backend sim --export-dir " + (dir / "exports").string() + " --screenshot " +
      shot.string() + " & app=$!; "
      "win=$(xdotool search --sync --name 'Reduction Lab' | head -n 1); xdotool windowfocus --sync \"$win\"; "
      "k() { xdotool key --delay 150 \"$@\"; sleep 0.4; }; "
      "sleep 1; k 3; k space; sleep 1; k space; k End; k Left; k v v v; k e; sleep 1; k p; sleep 1; k ctrl+q; wait $app";
  const auto script = dir / "walk.sh";
  std::ofstream(script) << walk << "\n";
  int code = -1;
  const auto log = capture(clean_config() + "xvfb-run -a -s '-screen 0 1600x900x24' sh " + script.string(), &code);
  ASSERT_EQ(code, 0) << log;
  // interleaved-divergent (the third traced algorithm), 32 values: stages 0..5; one back from the last is 4.
  const auto exported = dir / "exports" / "interleaved-divergent-banks-stage04.png";
  std::vector<std::string> found;
  for (const auto& e : std::filesystem::directory_iterator(dir / "exports")) found.push_back(e.path().filename().string());
  ASSERT_TRUE(std::filesystem::exists(exported)) << "exports: " << testing::PrintToString(found) << "\n" << log;
  int w = 0, h = 0, ch = 0;
  unsigned char* px = stbi_load(exported.c_str(), &w, &h, &ch, 4);
  ASSERT_TRUE(px);
  EXPECT_EQ(w, 1600);
  stbi_image_free(px);
  // Presenter mode at the end: the high-contrast palette's black fills most of the screen.
  px = stbi_load(shot.c_str(), &w, &h, &ch, 4);
  ASSERT_TRUE(px) << log;
  EXPECT_GT(count_near(px, 0, w * h, 0, 0, 0), w * h / 3);
  stbi_image_free(px);
}

// A run that fails in the window (here: typed values that are not numbers) is reported there,
// in the warning colour, and the window goes on drawing; the settings file is left as it was.
TEST(Gui, AFailedRunIsShownAndTheWindowGoesOn) {
  REQUIRE_XVFB();
  const auto home = std::filesystem::path(testing::TempDir()) / "redlab_failing_run";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home / "reduction-lab");
  const std::string settings = R"({"algorithm": "sequential", "typed": true, "values": "1 two 3"})";
  { std::ofstream(home / "reduction-lab" / "settings.json") << settings; }
  const Shot shot = window_shot("XDG_CONFIG_HOME=" + home.string() + " ", "--backend sim --quit-after-frames 6",
                                "redlab_failed_run.png");
  ASSERT_FALSE(shot.px.empty()) << shot.log;
  const int w = shot.w, h = shot.h;
  EXPECT_GT(count_near(shot.px.data(), 0, w * h, 255, 115, 76), 20);  // "Run failed: ... 'two' is not a number"
  EXPECT_GT(count_near(shot.px.data(), 0, w * h, 242, 184, 51), 20);  // the status line still names the CPU model
  std::ifstream f(home / "reduction-lab" / "settings.json");
  std::stringstream kept;
  kept << f.rdbuf();
  EXPECT_EQ(kept.str(), settings);  // scripted runs never rewrite the user's settings
}
