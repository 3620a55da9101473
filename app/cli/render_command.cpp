// `render`: a stage's view, a run's video or frames, or a results file's chart, headless.
#include <filesystem>
#include <sys/stat.h>

#include "../core/bench.h"
#include "../core/file_io.h"
#include "../core/input.h"
#include "../core/text.h"
#include "../core/views.h"
#include "../render/bench_chart.h"

#include "commands.h"

namespace rl::cli {
namespace {

struct RenderOptions {
  RunOptions run;
  int stage = 0, width = 1280, height = 720;
  std::string out, chart, shipped, video, view = "memory";
  bool all_stages = false, presenter = false;
  int warp = 0;
};

// The results file's report (--chart FILE).
core::BenchReport read_results(const std::string& path) {
  std::string text, why;
  if (!core::read_file(path, core::files::kResults, &text, &why)) throw std::runtime_error(why);
  return core::bench_from_json(text);
}

// The shipped run's report of the type and operator (--shipped RUN).
core::BenchReport shipped_results(const std::string& run, const std::string& type, const std::string& op) {
  if (const auto* r = core::shipped_report(run, type, op)) return *r;
  throw UsageError("--shipped " + run + " has no " + type + " " + op + "; it holds " + core::shipped_contents(run));
}

// render --chart FILE or --shipped RUN: a bandwidth chart. Without --type the chart is of floats.
int render_chart(const RenderOptions& o, bool type_given) {
  if (o.out.empty()) throw UsageError("--out is required");
  const std::string type = type_given ? o.run.type : "float";
  const bool shipped = !o.shipped.empty();
  const auto report = shipped ? shipped_results(o.shipped, type, o.run.op) : read_results(o.chart);
  const auto chart =
      render::bench_chart(report, type, o.run.op, shipped ? render::Origin::Shipped : render::Origin::ThisMachine);
  if (chart.series.empty()) {
    std::string held, unknown;  // what the file does hold, so the next try names it
    for (const auto& r : report.rows) {
      if (!kernels::find_row(r.algorithm)) {  // drawn by no series: a fuzzed file's "" said "they hold float sum"
        if (unknown.empty()) unknown = "'" + core::printable(r.algorithm) + "'";
        continue;
      }
      if (const std::string k = r.type + " " + r.op; held.find(k) == std::string::npos)
        held += (held.empty() ? "" : ", ") + k;
    }
    throw UsageError("the results hold no rows for " + o.run.op + " of " + type +
                     (!held.empty() ? "; they hold " + core::printable(held) + " (--type and --op pick)"
                      : unknown.empty()
                          ? std::string(": they hold no rows at all")
                          : ": no row names an algorithm this program knows (the first: " + unknown + ")"));
  }
  return exported(render::export_chart_png(chart, o.width, o.height, o.out));
}

// An output that is one of the inputs (the same file, under any name) would replace what the
// run reads: refused before anything is read or written.
void refuse_output_over(const std::string& out, const std::vector<std::string>& inputs) {
  std::error_code ec;
  for (const auto& in : inputs)
    if (!out.empty() && !in.empty() && std::filesystem::equivalent(out, in, ec))
      throw UsageError("--out '" + core::printable(out) + "' is the input '" + core::printable(in) +
                       "': writing it would replace what this run reads; name another file");
}

int run_render(const RenderOptions& o, const CLI::App& cmd, std::ostream& err) {
  refuse_output_over(o.out.empty() ? o.video : o.out, {o.chart, o.run.input});
  // PNG bytes under another name (x.jpg) open as nothing in most viewers: the name says PNG.
  std::string ext = std::filesystem::path(o.out).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  std::error_code kind_ec;  // a pipe or device (/dev/stdout) takes the bytes under its own name
  const auto kind = std::filesystem::status(o.out, kind_ec).type();
  const bool stream = kind == std::filesystem::file_type::character || kind == std::filesystem::file_type::fifo;
  if (!o.out.empty() && !o.all_stages && ext != ".png" && !stream)
    throw UsageError("--out: render writes PNG; name the file .png, got '" + core::printable(o.out) + "'");
  if (!o.chart.empty() || !o.shipped.empty()) return render_chart(o, cmd.count("--type") > 0);
  if (o.run.algorithm.empty() && o.run.kernel.empty())
    throw UsageError("render needs --algorithm (or --kernel FILE) and --stage, --chart FILE or --shipped RUN");
  render::Look look{*render::parse_view(o.view)};
  look.warp = o.warp;
  look.presenter = o.presenter;
  if (o.video.empty()) {
    if (o.out.empty()) throw UsageError("--out is required");
    if (o.all_stages && (o.out.ends_with('/') || std::filesystem::is_directory(o.out)))
      throw UsageError("--out: --all-stages takes a file name prefix (PREFIX-stage00.png, ...), got the folder '" +
                       core::printable(o.out) + "'; add a name, e.g. " + core::printable(o.out) +
                       (o.out.ends_with('/') ? "" : "/") + "run");
    if (!o.all_stages && !cmd.count("--stage")) throw UsageError("--stage is required with --algorithm or --kernel");
  }
  const core::Trace t = record(o.run);
  // The views of the trace's kind: an all-reduce across GPUs opens on the gpus view, and a view of
  // the other kind is refused in words rather than drawn empty.
  if (!cmd.count("--view"))
    look.view = core::home_view(t);
  else if (!core::of_its_kind(look.view, t))
    throw UsageError("--view " + o.view + ": " + core::why_not(look.view, t));
  int rc = 0;
  if (!o.video.empty()) {
    rc = exported(render::export_video(t, o.width, o.height, o.video, look));
  } else if (o.all_stages) {
    rc = exported(render::export_all_stages(t, o.width, o.height, o.out, look));
  } else {
    if (o.stage >= int(t.stages.size()))
      throw UsageError("--stage: " + std::to_string(o.stage) + " is past the last stage (" +
                       std::to_string(t.stages.size()) + " recorded)");
    rc = exported(render::export_stage_png(t, o.stage, o.width, o.height, o.out, look));
  }
  return std::max(rc, report_findings(t, err));
}

}  // namespace

Handler render_command(CLI::App& cmd) {
  auto o = std::make_shared<RenderOptions>();
  auto* algorithm = add_run_options(&cmd, o->run);
  auto* stage = cmd.add_option("--stage", o->stage, "Stage to draw (0 = the load)")->check(CLI::Range(0, kMaxStage));
  auto* chart = cmd.add_option("--chart", o->chart, "A results file from `bench --format json`: draw its chart");
  chart->excludes(algorithm)->excludes(stage);
  auto* shipped =
      cmd.add_option("--shipped", o->shipped,
                     "Draw the chart of a GPU run shipped with the program (measured there, not on this machine)")
          ->check(CLI::IsMember(core::shipped_runs()));
  shipped->excludes(algorithm)->excludes(stage)->excludes(chart);
  cmd.add_option("--view", o->view, "Which view: " + core::view_names())->check(CLI::IsMember(view_list()));
  cmd.add_flag("--presenter", o->presenter,
               "Draw as presenter mode does: larger text, high contrast, none under 18 px");
  cmd.add_option("--warp", o->warp, "The warp a view enlarges (0-based): the lanes view, a wide block's memory view")
      ->check(CLI::Range(0, 31));  // a block holds at most 32 warps (NonNegativeNumber printed a 309-digit range)
  auto* all =
      cmd.add_flag("--all-stages", o->all_stages, "One PNG per stage: OUT-stage00.png, ... (--out is the prefix)");
  auto* video = cmd.add_option("--video", o->video, "The whole run as FILE.mp4 or FILE.gif (ffmpeg)");
  all->excludes(stage)->excludes(chart)->excludes(shipped);
  video->excludes(stage)->excludes(chart)->excludes(shipped)->excludes(all);
  cmd.add_option("--out,-o", o->out, "PNG file to write (with --all-stages: the files' prefix)");
  cmd.add_option("--width", o->width, "Image width in pixels")->check(CLI::Range(64, 8192));
  cmd.add_option("--height", o->height, "Image height in pixels")->check(CLI::Range(64, 8192));
  return [o, &cmd](const Io& io) { return run_render(*o, cmd, io.err); };
}

}  // namespace rl::cli
