// Exports from the command line, headless: a PNG per stage, and a whole run as GIF and MP4.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/cli/cli.h"

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
  for (int k = 0; k < 6; ++k) {
    char name[32];
    std::snprintf(name, sizeof name, "seq-stage%02d.png", k);
    EXPECT_EQ(read(dir / name).substr(1, 3), "PNG") << name;
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
  EXPECT_EQ(run({"render", "-a", "sequential", "--backend", "sim", "--video", (dir / "run.avi").string()}, &err), 2);
  EXPECT_NE(err.find(".mp4 or .gif"), std::string::npos);
}
