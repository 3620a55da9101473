#include "cli.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <cstring>
#include <cstdio>
#include <utility>
#include <fstream>
#include <sstream>
#include <map>
#include <nlohmann/json.hpp>

#include "../backend/bench_runner.h"
#include "../core/bench.h"
#include "../core/catalog.h"
#include "../core/input.h"
#include "render_command.h"

namespace rl::cli {
namespace {

constexpr std::size_t kMaxTraceSize = std::size_t(1) << 27;

// Options shared by `trace` and `render`: everything that picks a run to record.
struct RunOptions {
  std::string algorithm;
  std::string size;
  int block = 32;
  int trace_block = 0;
  std::string input = "random:1";
  std::string op = "sum";
  std::string type = "int";
  std::string backend = "auto";
};

const std::map<std::string, backend::Choice> kBackends = {
    {"auto", backend::Choice::Auto}, {"cuda", backend::Choice::Cuda}, {"sim", backend::Choice::Sim}};

// Refuses a negative number in words (CLI11's own range check prints the double's maximum).
CLI::Validator not_negative(const std::string& what) {
  return CLI::Validator(
      [what](const std::string& v) {
        return v.rfind('-', 0) == 0 ? what + " cannot be negative, got " + v : std::string();
      },
      "N>=0");
}

// Refuses nan and inf, which pass CLI11's Range (every comparison with nan is false).
CLI::Validator finite(const std::string& flag) {
  return CLI::Validator(
      [flag](const std::string& v) {
        double d = 0;
        const auto r = std::from_chars(v.data(), v.data() + v.size(), d);
        return r.ec == std::errc() && !std::isfinite(d) ? flag + " must be a finite number, got " + v : std::string();
      },
      "FINITE");
}

CLI::Option* add_run_options(CLI::App* cmd, RunOptions& o) {
  auto* algorithm = cmd->add_option("--algorithm,-a", o.algorithm, "Algorithm id (see `list`)")
                        ->check(CLI::IsMember(core::algorithm_ids()));
  cmd->add_option("--size,-n", o.size, "Elements: N or 2^K (default: one block, or the file's count)");
  // Which block sizes an algorithm takes is the kernels' to say (check_launch).
  cmd->add_option("--block,-b", o.block, "Threads per block: a power of two, 32..1024 (non-pow2-block: 2..1024)");
  cmd->add_option("--trace-block", o.trace_block, "Which block to record (0-based)")
      ->check(not_negative("the traced block's index"));
  cmd->add_option("--input", o.input, "iota | ones | random[:SEED] | PATH (numbers file)");
  cmd->add_option("--op", o.op, "sum | min | max")->check(CLI::IsMember({"sum", "min", "max"}));
  cmd->add_option("--type", o.type, "int | float | double")->check(CLI::IsMember({"int", "float", "double"}));
  cmd->add_option("--backend", o.backend, "auto | cuda | sim")->check(CLI::IsMember({"auto", "cuda", "sim"}));
  return algorithm;
}

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Runs the chosen backend. UsageError for requests that cannot be, runtime_error otherwise.
core::Trace record(const RunOptions& o) {
  const core::DType type = *core::parse_dtype(o.type);
  std::string why;
  const auto spec = core::parse_input_spec(o.input, &why);
  if (!spec) throw UsageError("--input: " + why);
  // Checked here, before the default size (one block) is taken from it; the algorithm's own
  // rule (a power of two from 32, or 2..1024) comes with the launch.
  if (o.block < 1) throw UsageError("--block: a block needs at least 1 thread, got " + std::to_string(o.block));
  std::size_t n = static_cast<std::size_t>(o.block);
  if (!o.size.empty()) {
    const auto parsed = parse_size(o.size);
    if (!parsed) throw UsageError("--size: '" + o.size + "' is not a size (use N or 2^K)");
    n = *parsed;
  }
  if (n == 0) throw UsageError("--size: must be at least 1");
  if (n > kMaxTraceSize) throw UsageError("--size: traces take at most 2^27 elements, got " + o.size);

  backend::TraceRequest req;
  req.algorithm = o.algorithm;
  req.op = *core::parse_op(o.op);
  req.type = type;
  req.block = o.block;
  req.trace_block = o.trace_block;
  if (spec->kind == core::InputSpec::Kind::File) {
    req.input = core::read_input_file(spec->path, type);  // runtime_error names file and line
    if (!o.size.empty() && req.input.size() != n)
      throw UsageError("--size " + o.size + " disagrees with the " + std::to_string(req.input.size()) +
                       " numbers in " + spec->path);
  } else {
    req.input = core::generate_input(*spec, n, type);
  }
  auto sel = backend::select(kBackends.at(o.backend));
  try {
    return sel.backend->trace(req);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

struct BenchOptions {
  std::string algorithms = "all";
  std::string sizes;
  std::string type = "float";
  std::string op = "sum";
  std::string format = "text";
  std::string out;
  std::string backend = "auto";
  int block = 0;
  double seconds = 1.0;
};

std::vector<std::string> split_ids(const std::string& text) {
  std::vector<std::string> ids;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) ids.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return ids;
}

std::string text_row(const core::BenchRow& r) {
  char line[256];
  std::snprintf(line, sizeof line, "%-28s %-6s %-4s %12zu %5s %12.2f %7.2f%% %5d %10.1f %7.1f%%  %s\n", r.algorithm.c_str(),
                r.type.c_str(), r.op.c_str(), r.n, r.block ? std::to_string(r.block).c_str() : "-", r.median_us, r.noise_pct, r.samples, r.gbps, r.pct_of_peak,
                r.check_ok ? "ok" : ("WRONG: " + r.check).c_str());
  return line;
}

int cmd_bench(const BenchOptions& o, std::ostream& out, std::ostream& err) {
  backend::BenchRequest req;
  req.algorithms = o.algorithms == "all" ? backend::default_bench_algorithms() : split_ids(o.algorithms);
  for (const auto& id : req.algorithms)
    if (!core::find_algorithm(id)) throw UsageError("--algorithm: unknown algorithm '" + id + "' (see `list`)");
  const auto choice = kBackends.at(o.backend);
  std::string why;
  const bool gpu = choice != backend::Choice::Sim && backend::make_cuda_backend(&why);
  const std::string sizes = o.sizes.empty() ? (gpu ? "2^16..2^28" : "2^10..2^16") : o.sizes;
  auto parsed = core::parse_sizes(sizes, &why);
  if (!parsed) throw UsageError("--sizes: " + why);
  req.sizes = *parsed;
  req.type = *core::parse_dtype(o.type);
  req.op = *core::parse_op(o.op);
  req.block = o.block;
  req.max_seconds = o.seconds;
  std::ofstream file;
  if (!o.out.empty()) {  // before measuring: an unwritable path fails now, not after minutes
    file.open(o.out, std::ios::binary | std::ios::trunc);
    if (!file) throw std::runtime_error("cannot write '" + o.out + "'");
  }
  std::ostream& dest = o.out.empty() ? out : file;
  bool header = false;
  const auto stream_row = [&](const core::BenchRow& r) {
    if (o.format != "text") return;
    if (!std::exchange(header, true))
      dest << "algorithm                    type   op              n block    median_us   noise  samp       GB/s  of peak  check\n";
    dest << text_row(r) << std::flush;
  };
  const auto report = backend::run_bench(req, choice, stream_row, {}, nullptr);
  if (o.format == "csv") dest << core::to_csv(report);
  else if (o.format == "json") dest << core::to_json(report) << "\n";
  else
    dest << "device: " << report.device << (report.backend == "sim" ? " (times of the CPU model, not of a GPU)" : "")
         << "; peak " << report.peak_gbps << " GB/s; " << report.date << "\n";
  errno = 0;
  if (file.is_open()) file.close();  // close flushes: a full disk shows here, not after exit
  if (!dest) throw std::runtime_error("cannot write the results" + (o.out.empty() ? std::string() : " to '" + o.out + "'") +
                                      (errno ? std::string(": ") + std::strerror(errno) : std::string()));
  for (const auto& r : report.rows)
    if (!r.check_ok) {
      err << "reduction-lab: error: " << r.algorithm << " n=" << r.n << " computed a wrong result: " << r.check << "\n";
      return 1;
    }
  return 0;
}

// docs/algorithms.md's generated part (scripts/algorithms-doc.sh splices it in).
void list_markdown(std::ostream& out) {
  for (const auto& a : core::algorithms()) {
    out << "### `" << a.id << "`: " << a.title << "\n\n*" << a.family << "*"
        << (a.file.empty() ? "" : ", `" + a.file + "`") << ". " << a.lesson << "\n\n";
    if (!a.detail.empty()) out << a.detail << "\n\n";
  }
}

int cmd_list(std::ostream& out, const std::string& format) {
  if (format == "markdown") return list_markdown(out), 0;
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& a : core::algorithms())
      j.push_back({{"id", a.id}, {"family", a.family}, {"title", a.title}, {"lesson", a.lesson}});
    out << j.dump(2) << "\n";
    return 0;
  }
  for (const auto& a : core::algorithms())
    out << a.id << "  [" << a.family << "]  " << a.title << "\n    " << a.lesson << "\n";
  return 0;
}

}  // namespace

std::optional<std::size_t> parse_size(std::string_view text) {
  const auto whole = [](std::string_view s, std::size_t& v) {
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc() && r.ptr == s.data() + s.size();
  };
  std::size_t v = 0;
  if (text.starts_with("2^")) {
    if (!whole(text.substr(2), v) || v > 62) return std::nullopt;
    return std::size_t(1) << v;
  }
  if (!whole(text, v)) return std::nullopt;
  return v;
}

namespace {

int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui) {
  CLI::App app{"Reduction Lab: watch GPUs reduce an array, stage by stage", "reduction-lab"};
  app.set_version_flag("--version", std::string("reduction-lab ") + REDLAB_VERSION);
  app.require_subcommand(0, 1);

  GuiOptions gui_opts;
  std::string gui_backend = "auto";
  app.add_option("--backend", gui_backend, "Window's backend: auto | cuda | sim")
      ->check(CLI::IsMember({"auto", "cuda", "sim"}));
  app.add_option("--quit-after-frames", gui_opts.quit_after_frames,
                 "Close the window after N frames (for tests)")
      ->check(CLI::PositiveNumber);
  app.add_option("--screenshot", gui_opts.screenshot, "Save the last frame as PNG (at --quit-after-frames, or when Ctrl+Q quits)");
  app.add_option("--tab", gui_opts.tab, "Open the window on: stages | bandwidth")->check(CLI::IsMember({"stages", "bandwidth"}));
  app.add_flag("--run-bench", gui_opts.run_bench, "Start the Bandwidth tab's benchmark at once");
  app.add_option("--compare", gui_opts.compare, "Show a second algorithm beside the first, in lockstep")
      ->check(CLI::IsMember(core::traced_ids()));
  app.add_flag("--present", gui_opts.present, "Presenter mode: full screen, large type, high contrast (F11 or P toggles)");
  app.add_option("--bench-sizes", gui_opts.bench_sizes, "Sizes for --run-bench (2^A..2^B or N,N,...)");
  app.add_option("--bench-algorithms", gui_opts.bench_algorithms, "Algorithms for --run-bench (all or ID,ID,...)");
  app.add_flag("--headless", gui_opts.headless,
               "Run the window's UI off screen through EGL, at 60 frames a second (needs --quit-after-frames)");
  app.add_flag("--play", gui_opts.play, "Start playing the stages");
  app.add_flag("--soak", gui_opts.soak,
               "Soak test: play every algorithm in every view and rerun the benchmark, sampling memory "
               "(with --quit-after-frames; the frame report holds the samples)");
  app.add_option("--export-dir", gui_opts.export_dir, "Folder for the Stages tab's exports (E, A, G, M keys)");
  app.add_option("--view", gui_opts.view, "The Stages tab's view: memory | lanes | divergence | banks | grid (V cycles)")
      ->check(CLI::IsMember({"memory", "lanes", "divergence", "banks", "grid"}));
  app.add_option("--frame-report", gui_opts.frame_report, "Write every frame's time as JSON (with --quit-after-frames)");

  std::string list_format = "text";
  auto* list = app.add_subcommand("list", "List the algorithms");
  list->add_option("--format", list_format, "text | json | markdown")->check(CLI::IsMember({"text", "json", "markdown"}));

  RunOptions trace_opts;
  std::string trace_format = "json";
  auto* trace = app.add_subcommand("trace", "Record every stage of one block of a run");
  add_run_options(trace, trace_opts)->required();
  trace->add_option("--format", trace_format, "json | text")->check(CLI::IsMember({"json", "text"}));

  RunOptions render_opts;
  int stage = 0, width = 1280, height = 720;
  std::string png;
  std::string chart;
  auto* render = app.add_subcommand("render", "Draw a stage's view, or a results file's chart, to PNG, headless (EGL)");
  auto* render_algo = add_run_options(render, render_opts);
  auto* stage_opt = render->add_option("--stage", stage, "Stage to draw (0 = the load)")->check(CLI::NonNegativeNumber);
  auto* chart_opt = render->add_option("--chart", chart, "A results file from `bench --format json`: draw its chart");
  chart_opt->excludes(render_algo)->excludes(stage_opt);
  bool all_stages = false;
  std::string video;
  std::string view_name = "memory";
  render->add_option("--view", view_name, "Which view: memory | lanes | divergence | banks | grid")
      ->check(CLI::IsMember({"memory", "lanes", "divergence", "banks", "grid"}));
  auto* all_opt = render->add_flag("--all-stages", all_stages, "One PNG per stage: OUT-stage00.png, ... (--out is the prefix)");
  auto* video_opt = render->add_option("--video", video, "The whole run as FILE.mp4 or FILE.gif (ffmpeg)");
  all_opt->excludes(stage_opt)->excludes(chart_opt);
  video_opt->excludes(stage_opt)->excludes(chart_opt)->excludes(all_opt);
  render->add_option("--out,-o", png, "PNG file to write (with --all-stages: the files' prefix)");
  render->add_option("--width", width, "Image width in pixels")->check(CLI::Range(64, 8192));
  render->add_option("--height", height, "Image height in pixels")->check(CLI::Range(64, 8192));

  BenchOptions bench_opts;
  auto* bench = app.add_subcommand("bench", "Time algorithms on large arrays (GB/s against the peak and CUB)");
  bench->add_option("--algorithm,-a", bench_opts.algorithms, "all, or ID,ID,...");
  bench->add_option("--sizes", bench_opts.sizes, "2^A..2^B or N,N,... (default 2^16..2^28 on a GPU, 2^10..2^16 on the CPU model)");
  bench->add_option("--type", bench_opts.type, "int | float | double")->check(CLI::IsMember({"int", "float", "double"}));
  bench->add_option("--op", bench_opts.op, "sum | min | max")->check(CLI::IsMember({"sum", "min", "max"}));
  bench->add_option("--format", bench_opts.format, "text | csv | json")->check(CLI::IsMember({"text", "csv", "json"}));
  bench->add_option("--out,-o", bench_opts.out, "Write the results to FILE instead of stdout");
  bench->add_option("--backend", bench_opts.backend, "auto | cuda | sim")->check(CLI::IsMember({"auto", "cuda", "sim"}));
  bench->add_option("--block", bench_opts.block, "Threads per block for every algorithm (default: 256, or an algorithm's own choice where it has one)")
      ->check(not_negative("a block size (0: each algorithm's own)"));
  bench->add_option("--seconds", bench_opts.seconds, "Time limit per point (default 1)")->check(finite("--seconds"))->check(CLI::Range(0.01, 60.0));

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    err << "reduction-lab: error: " << e.what() << " (see --help)\n";
    return 2;
  }

  try {
    if (*list) return cmd_list(out, list_format);
    if (*bench) return cmd_bench(bench_opts, out, err);
    if (*trace) {
      const core::Trace t = record(trace_opts);
      out << (trace_format == "json" ? core::to_json(t) + "\n" : core::to_text(t));
      return 0;
    }
    if (*render && !chart.empty()) {
      if (png.empty()) throw UsageError("--out is required");
      std::ifstream in(chart, std::ios::binary);
      if (!in) throw std::runtime_error("cannot open results file '" + chart + "'");
      std::ostringstream text;
      text << in.rdbuf();
      return render_chart_png(core::bench_from_json(text.str()), render_opts.type == "int" && !render->count("--type") ? "float" : render_opts.type,
                              render_opts.op, width, height, png, err);
    }
    if (*render) {
      if (render_opts.algorithm.empty()) throw UsageError("render needs --algorithm and --stage, or --chart FILE");
      const render::View view = *render::parse_view(view_name);
      if (!video.empty()) return render_video(record(render_opts), width, height, video, err, {view});
      if (png.empty()) throw UsageError("--out is required");
      if (all_stages) return render_all_stages(record(render_opts), width, height, png, err, {view});
      if (!render->count("--stage")) throw UsageError("--stage is required with --algorithm");
      const core::Trace t = record(render_opts);
      if (stage >= int(t.stages.size()))
        throw UsageError("--stage: " + std::to_string(stage) + " is past the last stage (" +
                         std::to_string(t.stages.size() - 1) + ")");
      return render_stage_png(t, stage, width, height, png, err, {view});
    }
    gui_opts.backend = kBackends.at(gui_backend);
    if (gui_opts.headless && gui_opts.quit_after_frames == 0)
      throw UsageError("--headless needs --quit-after-frames N: there is no window to close");
    if (gui_opts.soak && gui_opts.quit_after_frames == 0) throw UsageError("--soak needs --quit-after-frames N");
    if (!gui_opts.frame_report.empty() && gui_opts.quit_after_frames == 0)
      throw UsageError("--frame-report needs --quit-after-frames N");
    if (!gui) {
      err << "reduction-lab: error: this build has no window; use the list, trace or render commands\n";
      return 1;
    }
    return gui(gui_opts, err);
  } catch (const UsageError& e) {
    err << "reduction-lab: error: " << e.what() << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    err << "reduction-lab: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "reduction-lab: error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace

// What a command printed counts only once it is flushed: `list >/dev/full` fails, saying so.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui) {
  const int code = run_command(argc, argv, out, err, gui);
  errno = 0;
  if (out.flush()) return code;
  err << "reduction-lab: error: cannot write the output" << (errno ? std::string(": ") + std::strerror(errno) : "") << "\n";
  return 1;
}

}  // namespace rl::cli
