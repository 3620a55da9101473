#include "render_command.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <vector>

#include "../platform/headless.h"
#include "../render/bench_chart.h"
#include "../render/canvas.h"
#include "../render/memory_view.h"
#include "../render/offscreen.h"

namespace rl::cli {

namespace {

// The folder each PNG goes to must exist and be writable: checked before a GL context is
// made, so an unwritable path fails at once and names itself.
bool folders_writable(const std::vector<std::string>& paths, std::ostream& err) {
  std::string last;
  for (const auto& p : paths) {
    const auto parent = std::filesystem::path(p).parent_path();
    const std::string dir = parent.empty() ? "." : parent.string();
    if (dir == last) continue;
    last = dir;
    if (::access(dir.c_str(), W_OK) != 0) {
      err << "reduction-lab: error: cannot write PNG '" << p << "': " << std::strerror(errno) << "\n";
      return false;
    }
  }
  return true;
}

// One headless context (or the caller's current one), offscreen target and canvas for all
// frames: draw(canvas, i) paints frame i, which is written to paths[i].
template <class Draw>
int render_pngs(int width, int height, const std::vector<std::string>& paths, std::ostream& err, Draw draw,
                bool current_context = false) {
  if (!folders_writable(paths, err)) return 1;
  std::string why;
  auto ctx = current_context ? nullptr : platform::HeadlessContext::create(&why);
  if (!ctx && !current_context) {
    err << "reduction-lab: error: cannot render: " << why << "\n";
    return 1;
  }
  try {
    render::Offscreen target;
    target.resize(width, height);
    render::Canvas canvas;
    for (std::size_t i = 0; i < paths.size(); ++i) {
      target.bind();
      draw(canvas, i);
      render::Offscreen::unbind();
      if (!render::write_png(paths[i], width, height, target.read_rgba(), &why)) {
        err << "reduction-lab: error: " << why << "\n";
        return 1;
      }
    }
  } catch (const std::exception& e) {
    err << "reduction-lab: error: rendering failed: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

struct Frame {
  int stage;
  float blend;
  std::string path;
};

// The view at each frame's (stage, blend).
int render_frames(const core::Trace& trace, int width, int height, const std::vector<Frame>& frames, std::ostream& err,
                  const Look& look) {
  std::vector<std::string> paths;
  for (const Frame& f : frames) paths.push_back(f.path);
  return render_pngs(width, height, paths, err, [&](render::Canvas& c, std::size_t i) {
    render::draw_stage_view(c, look.view, trace, frames[i].stage, width, height, {false, frames[i].blend});
  }, look.current_context);
}

std::string quoted(const std::string& s) {  // for the shell: single quotes, escaped
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

}  // namespace

int render_stage_png(const core::Trace& trace, int stage, int width, int height, const std::string& path,
                     std::ostream& err, const Look& look) {
  return render_frames(trace, width, height, {{stage, 0, path}}, err, look);
}

int render_all_stages(const core::Trace& trace, int width, int height, const std::string& prefix, std::ostream& err,
                      const Look& look) {
  std::vector<Frame> frames;
  char name[32];
  for (int k = 0; k < int(trace.stages.size()); ++k) {
    std::snprintf(name, sizeof name, "-stage%02d.png", k);
    frames.push_back({k, 0, prefix + name});
  }
  return render_frames(trace, width, height, frames, err, look);
}

int render_video(const core::Trace& trace, int width, int height, const std::string& path, std::ostream& err,
                 const Look& look) {
  const bool gif = path.size() > 4 && path.compare(path.size() - 4, 4, ".gif") == 0;
  const bool mp4 = path.size() > 4 && path.compare(path.size() - 4, 4, ".mp4") == 0;
  if (!gif && !mp4) {
    err << "reduction-lab: error: --video needs a .mp4 or .gif file name, got '" << path << "'\n";
    return 2;
  }
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0) {
    err << "reduction-lab: error: --video needs ffmpeg (Debian's ffmpeg package); PNGs need no ffmpeg: --all-stages\n";
    return 1;
  }
  // Frames into a private temporary folder, removed afterwards whatever happens.
  std::error_code ec;
  const auto dir = std::filesystem::temp_directory_path(ec) / ("reduction-lab-video-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    err << "reduction-lab: error: cannot make a temporary folder: " << ec.message() << "\n";
    return 1;
  }
  constexpr int kHold = 8, kFade = 6, kFps = 12;  // each stage 8 frames, then 6 fading into the next
  std::vector<Frame> frames;
  char name[32];
  const int stages = int(trace.stages.size());
  for (int k = 0; k < stages; ++k)
    for (int i = 0; i < kHold + (k + 1 < stages ? kFade : 0); ++i) {
      std::snprintf(name, sizeof name, "f%05zu.png", frames.size());
      frames.push_back({k, i < kHold ? 0.0f : float(i - kHold + 1) / (kFade + 1), (dir / name).string()});
    }
  int code = render_frames(trace, width, height, frames, err, look);
  if (code == 0) {
    const std::string in = quoted((dir / "f%05d.png").string());
    const std::string cmd =
        "ffmpeg -y -loglevel error -framerate " + std::to_string(kFps) + " -i " + in +
        (gif ? " -vf 'split[a][b];[a]palettegen[p];[b][p]paletteuse' " : " -c:v libx264 -pix_fmt yuv420p ") + quoted(path);
    if (std::system(cmd.c_str()) != 0) {
      err << "reduction-lab: error: ffmpeg could not write '" << path << "'\n";
      code = 1;
    }
  }
  std::filesystem::remove_all(dir, ec);
  return code;
}

int render_chart_png(const core::BenchReport& report, const std::string& type, const std::string& op, int width,
                     int height, const std::string& path, std::ostream& err) {
  const auto spec = render::bench_chart(report, type, op);
  if (spec.series.empty()) {
    err << "reduction-lab: error: the results hold no rows for " << op << " of " << type << "\n";
    return 2;
  }
  return render_pngs(width, height, {path}, err,
                     [&](render::Canvas& c, std::size_t) { render::draw_plot(c, spec, width, height); });
}

}  // namespace rl::cli
