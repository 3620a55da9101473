#include "export.h"

#include <sys/wait.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <utility>
#include <vector>

#include "../core/file_io.h"
#include "../core/text.h"
#include "../platform/headless.h"
#include "canvas.h"
#include "offscreen.h"

namespace rl::render {
namespace {

Exported failed(std::string why) { return {Exported::Status::Failed, std::move(why)}; }

// Each PNG's folder must take a file (the writer's own check): checked before a GL context is
// made, so an unwritable path fails at once and names itself.
Exported folders_writable(const std::vector<std::string>& paths) {
  std::filesystem::path last;
  std::string why;
  for (const auto& p : paths) {
    if (std::filesystem::path(p).parent_path() == last && !last.empty()) continue;
    last = std::filesystem::path(p).parent_path();
    if (!core::can_write_beside(p, &why)) return failed(why);
  }
  return {};
}

// Runs paint() in a headless context made for it, or in the caller's current one; an
// exception while rendering becomes a failure that says so.
template <class Paint>
Exported in_context(bool current_context, Paint paint) {
  std::string why;
  const auto ctx = current_context ? nullptr : platform::HeadlessContext::create(&why);
  if (!ctx && !current_context) return failed("cannot render: " + why);
  try {
    return paint();
  } catch (const std::exception& e) {
    return failed(std::string("rendering failed: ") + e.what());
  }
}

// One headless context (or the caller's current one), offscreen target and canvas for all
// frames: pixels(canvas, target, i) gives frame i, top row first, which is written to paths[i].
// With `together`, the files are one set (core::FileSet): none replaces an old one until all are written.
template <class Pixels>
Exported render_pngs(int width, int height, const std::vector<std::string>& paths, bool current_context, Pixels pixels,
                     Progress* progress = nullptr, bool together = false) {
  if (Exported checked = folders_writable(paths); !checked.ok()) return checked;
  return in_context(current_context, [&]() -> Exported {
    Offscreen target;
    Canvas canvas;
    core::FileSet set;
    std::string why, png;
    if (progress) progress->total = int(paths.size());
    for (std::size_t i = 0; i < paths.size(); ++i) {
      if (progress && progress->cancel) return failed("cancelled");
      if (progress) progress->done = int(i);
      const auto rgba = pixels(canvas, target, i);
      const bool ok = together ? encode_png(paths[i], width, height, rgba, &png, &why) && set.add(paths[i], png, &why)
                               : write_png(paths[i], width, height, rgba, &why);
      if (!ok) return failed(together ? "PNGs not saved (the old ones are left as they were): " + why : why);
    }
    if (together && !set.commit(&why)) return failed("PNGs not all saved: " + why);
    if (progress) progress->done = int(paths.size());
    return {};
  });
}

// A trace's view of a stage at width x height, top row first. Past its last stage a trace
// shows its last, as the shorter run rests in the window's compare mode.
std::vector<std::uint8_t> view_pixels(Canvas& c, Offscreen& target, const core::Trace& trace, int stage, int width,
                                      int height, View view, const ViewOptions& options) {
  target.resize(width, height);
  target.bind();
  draw_stage_view(c, view, trace, std::clamp(stage, 0, std::max(0, int(trace.stages.size()) - 1)), width, height, options);
  Offscreen::unbind();
  return target.read_rgba();
}

// Copies a width-pixel-wide image into `out` (out_width wide) from column x on.
void paste(std::vector<std::uint8_t>& out, int out_width, const std::vector<std::uint8_t>& image, int width, int x) {
  const std::size_t row = std::size_t(width) * 4;
  for (std::size_t y = 0; y < image.size() / row; ++y)
    std::copy_n(image.begin() + std::ptrdiff_t(y * row), row, out.begin() + std::ptrdiff_t((y * out_width + x) * 4));
}

struct ExportFrame {
  int stage;
  float blend;
  std::string path;
};

// What an export draws: one trace, or compare mode's two side by side (`second` on the right).
struct Drawn {
  const core::Trace& first;
  const core::Trace* second;
  int stages() const { return std::max(int(first.stages.size()), second ? int(second->stages.size()) : 0); }
};

// ExportFrame f of an export: the view, or compare mode's two views each in its half.
std::vector<std::uint8_t> frame_pixels(Canvas& c, Offscreen& target, const Drawn& drawn, const ExportFrame& f,
                                       int width, int height, const Look& look) {
  ViewOptions options;
  options.blend = f.blend;
  options.warp = look.warp;
  options.part = look.part;
  options.first_bank_row = look.first_row;
  options.stale = look.stale;
  if (look.presenter) {
    options.high_contrast = true;
    options.text_scale = kPresenterTextScale;
    options.min_text_px = min_text_px(true, 1);
  }
  if (!drawn.second) return view_pixels(c, target, drawn.first, f.stage, width, height, look.view, options);
  const int left = width / 2, right = width - left;
  std::vector<std::uint8_t> out(std::size_t(width) * std::size_t(height) * 4);
  paste(out, width, view_pixels(c, target, drawn.first, f.stage, left, height, look.view, options), left, 0);
  paste(out, width, view_pixels(c, target, *drawn.second, f.stage, right, height, look.view, options), right, left);
  return out;
}

// The view (or the two) at each frame's (stage, blend).
Exported render_frames(const Drawn& drawn, int width, int height, const std::vector<ExportFrame>& frames,
                       const Look& look, bool together = false) {
  if (drawn.second && width < 2)
    return {Exported::Status::BadRequest, "a side-by-side image needs a width of 2 pixels or more"};
  std::vector<std::string> paths;
  for (const ExportFrame& f : frames) paths.push_back(f.path);
  return render_pngs(
      width, height, paths, look.current_context,
      [&](Canvas& c, Offscreen& target, std::size_t i) {
        return frame_pixels(c, target, drawn, frames[i], width, height, look);
      },
      look.progress, together);
}

std::string quoted(const std::string& s) {  // for the shell: single quotes, escaped
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

bool ends_with(const std::string& s, const char* tail) {
  const std::size_t n = std::strlen(tail);
  return s.size() > n && s.compare(s.size() - n, n, tail) == 0;
}

constexpr core::FileKind kVideoFile{"video", std::int64_t(4) << 30};  // ffmpeg's own output, read back
constexpr core::FileKind kFfmpegLog{"ffmpeg's messages", std::int64_t(64) << 10};  // shown in one line

constexpr int kHold = 8, kFade = 6, kFps = 12;  // a video holds each stage 8 frames, then fades 6 into the next

// The video's frames, their files in dir.
std::vector<ExportFrame> video_frames(int stages, const std::filesystem::path& dir) {
  std::vector<ExportFrame> frames;
  char name[32];
  for (int k = 0; k < stages; ++k)
    for (int i = 0; i < kHold + (k + 1 < stages ? kFade : 0); ++i) {
      std::snprintf(name, sizeof name, "f%05zu.png", frames.size());
      frames.push_back({k, i < kHold ? 0.0f : float(i - kHold + 1) / (kFade + 1), (dir / name).string()});
    }
  return frames;
}

}  // namespace

Exported export_stage_png(const core::Trace& trace, int stage, int width, int height, const std::string& path,
                          const Look& look) {
  return render_frames({trace, nullptr}, width, height, {{stage, 0, path}}, look);
}

Exported export_compare_png(const core::Trace& first, const core::Trace& second, int stage, int width, int height,
                            const std::string& path, const Look& look) {
  return render_frames({first, &second}, width, height, {{stage, 0, path}}, look);
}

Exported export_all_stages(const core::Trace& trace, int width, int height, const std::string& prefix, const Look& look,
                           const core::Trace* second) {
  const Drawn drawn{trace, second};
  std::vector<ExportFrame> frames;
  char name[32];
  for (int k = 0; k < drawn.stages(); ++k) {
    std::snprintf(name, sizeof name, "-stage%02d.png", k);
    frames.push_back({k, 0, prefix + name});
  }
  return render_frames(drawn, width, height, frames, look, true);
}

Exported export_video(const core::Trace& trace, int width, int height, const std::string& path, const Look& look,
                      const core::Trace* second) {
  const bool gif = ends_with(path, ".gif");
  if (!gif && !ends_with(path, ".mp4"))
    return {Exported::Status::BadRequest, "--video needs a .mp4 or .gif file name, got '" + path + "'"};
  if (std::system("command -v ffmpeg >/dev/null 2>&1") != 0)
    return failed("--video needs ffmpeg (Debian's ffmpeg package); PNGs need no ffmpeg: --all-stages");
  // A folder that cannot take the video fails now, not after every frame is rendered.
  std::string why;
  if (!core::can_write_beside(path, &why)) return failed(why);
  // Frames and ffmpeg's output in a private folder (mkdtemp), removed whatever happens, a
  // SIGINT or SIGTERM included; the video reaches path through the one writer. ffmpeg sees
  // only "file:" paths of ours: a name like "-version.mp4" or "tcp:x.mp4" is never its argument.
  try {
    const core::ScratchFolder dir;
    const std::filesystem::path base(dir.path());
    const Drawn drawn{trace, second};
    Exported done = render_frames(drawn, width, height, video_frames(drawn.stages(), base), look);
    if (!done.ok()) return done;
    const std::string made = (base / (gif ? "out.gif" : "out.mp4")).string(), said = (base / "ffmpeg.txt").string();
    const std::string cmd =
        "ffmpeg -nostdin -y -loglevel error -xerror -framerate " + std::to_string(kFps) + " -i " +
        quoted("file:" + (base / "f%05d.png").string()) +
        (gif ? " -vf 'split[a][b];[a]palettegen[p];[b][p]paletteuse' " : " -c:v libx264 -pix_fmt yuv420p ") +
        quoted("file:" + made) + " 2>" + quoted(said);
    const int status = std::system(cmd.c_str());
    // system() ignores SIGINT and SIGQUIT here while ffmpeg runs, and ffmpeg ends on Ctrl+C with
    // 255 ("received signal 2"): the program then ends as Ctrl+C would have (130), cleaning up.
    if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGQUIT))
      std::raise(WTERMSIG(status));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 255) std::raise(SIGINT);
    std::string bytes, complaint;
    core::read_file(said, kFfmpegLog, &complaint, &why);  // what ffmpeg said, if anything
    if (status != 0 || complaint.find("Error") != std::string::npos)
      return failed("ffmpeg could not make the video for '" + core::printable(path) + "'" +
                    (complaint.empty() ? "" : ": " + core::printable(complaint.substr(0, complaint.find('\n')))));
    if (!core::read_file(made, kVideoFile, &bytes, &why)) return failed(why);
    if (!video_whole(bytes, gif))
      return failed("ffmpeg left an incomplete video for '" + core::printable(path) +
                    "' (a full disk or a file-size limit?); " + core::printable(path) + " is unchanged");
    if (!core::write_file(path, bytes, &why)) return failed(why);
    return done;
  } catch (const std::exception& e) {
    return failed(e.what());
  }
}

bool video_whole(std::string_view bytes, bool gif) {
  if (gif) return bytes.size() > 13 && bytes.substr(0, 4) == "GIF8" && bytes.back() == ';';
  return bytes.size() > 16 && bytes.substr(4, 4) == "ftyp" && bytes.find("moov") != std::string_view::npos;
}

Exported export_chart_png(const PlotSpec& chart, int width, int height, const std::string& path, bool current_context) {
  return render_pngs(width, height, {path}, current_context, [&](Canvas& c, Offscreen& target, std::size_t) {
    target.resize(width, height);
    target.bind();
    draw_plot(c, chart, width, height);
    Offscreen::unbind();
    return target.read_rgba();
  });
}

Exported export_bench(const core::BenchReport& report, const PlotSpec& chart, const std::string& base,
                      bool current_context) {
  std::string why;
  for (const auto& [path, text] : {std::pair{base + ".csv", core::to_csv(report)}, std::pair{base + ".json", core::to_json(report)}})
    if (!core::write_file(path, text, &why)) return failed(why);
  return export_chart_png(chart, 1600, 900, base + ".png", current_context);
}

}  // namespace rl::render
