// No subcommand: the window, with the options that open it on a run, a file, a plan or a scene.
#include <filesystem>

#include "../backend/geometry.h"
#include "../core/bench.h"
#include "../core/input.h"
#include "../core/race.h"
#include "../core/run_file.h"
#include "../core/text.h"
#include "../core/views.h"

#include "commands.h"

namespace rl::cli {
namespace {

// --race-file is read before the window opens: a file it cannot show is a usage error naming
// the file and what is wrong with it.
void check_race_file(const GuiOptions& opts) {
  if (opts.race_file.empty()) return;
  core::Trace t;
  try {
    t = core::read_race_file(opts.race_file);
    backend::complete_geometry(t);
  } catch (const std::runtime_error& e) {
    throw UsageError("--race-file " + std::string(e.what()));
  }
  if (!opts.algorithm.empty() && opts.algorithm != t.algorithm)
    throw UsageError("--race-file " + core::printable(opts.race_file) + " records " + t.algorithm +
                     ", but --algorithm asks for " + opts.algorithm);
}

// --open is read before the window opens, as --race-file is; a file it cannot show is named on
// standard error and the window opens anyway, saying the same in its status line.
void check_open_file(const GuiOptions& opts, std::ostream& err) {
  if (opts.open.empty()) return;
  try {
    core::OpenedRun run = core::open_run_file(opts.open);
    if (run.kind != core::RunFile::Results) backend::complete_geometry(run.trace);
  } catch (const std::runtime_error& e) {
    err << "reduction-lab: --open " << core::terminal_text(e.what()) << "; the window opens without it\n";
  }
}

int open_window(GuiOptions opts, const std::string& backend, const Io& io) {
  opts.backend = kBackends.at(backend);
  if (opts.headless && opts.quit_after_frames == 0)
    throw UsageError("--headless needs --quit-after-frames N: there is no window to close");
  if (opts.soak && opts.quit_after_frames == 0) throw UsageError("--soak needs --quit-after-frames N");
  if (!opts.frame_report.empty() && opts.quit_after_frames == 0)
    throw UsageError("--frame-report needs --quit-after-frames N");
  if (std::int64_t(opts.rows) * opts.cols > core::kMaxWindowElements)
    throw UsageError("--rows/--cols: the window traces at most 2^20 elements, got " + std::to_string(opts.rows) +
                     " x " + std::to_string(opts.cols));
  check_race_file(opts);
  check_open_file(opts, io.err);
  if (!io.gui) {
    io.err << "reduction-lab: error: this build has no window; use the list, trace or render commands\n";
    return 1;
  }
  return io.gui(opts, io.err);
}

// The window's size and a matrix algorithm's shape.
void add_size_options(CLI::App& app, GuiOptions& g) {
  app.add_option_function<std::string>(
      "--window-size",
      [&g](const std::string& v) {
        int w = 0, h = 0;
        char x = 0;
        int used = 0;
        if (std::sscanf(v.c_str(), "%d%c%d%n", &w, &x, &h, &used) != 3 || used != int(v.size()) || x != 'x' ||
            w < 640 || h < 480 || w > 7680 || h > 4320)
          throw CLI::ValidationError("--window-size",
                                     "wants WxH from 640x480 to 7680x4320, got '" + core::printable(v) + "'");
        g.width = w, g.height = h, g.size_asked = true;
      },
      "The window's size, WxH (default 1600x900, scaled up to fill as much of a larger screen; off screen, the "
      "frame's)");
  for (const auto& [flag, side, what] :
       {std::tuple{"--rows", &g.rows, "rows"}, std::tuple{"--cols", &g.cols, "columns"}})
    app.add_option_function<std::string>(
        flag,
        [flag = std::string(flag), side = side](const std::string& v) {
          const auto n = core::parse_count(v);
          if (!n || *n < 1 || *n > core::kMaxWindowElements)
            throw CLI::ValidationError(flag, "wants N or 2^K from 1 to 2^20, got '" + v + "'");
          *side = int(*n);
        },
        std::string("A matrix algorithm's ") + what + ": N or 2^K (rows x cols at most 2^20; default as saved)");
}

// What the window opens on besides an algorithm: a scene, a plan, a recorded run, a race recording.
void add_file_options(CLI::App& app, GuiOptions& g) {
  auto* scene = app.add_option("--scene", g.scene, "Open on a saved scene (its name, or a scene file)");
  auto* plan = app.add_option("--plan", g.plan,
                              "Open a lesson plan on its first scene; PageDown and PageUp step its scenes (shipped: "
                              "harris, coalescing; or a file)");
  app.add_option("--frame-report", g.frame_report, "Write every frame's time as JSON (with --quit-after-frames)");
  auto* open = app.add_option("--open", g.open,
                              "Open on a recorded run: a trace (`trace --format json`), a race recording or a results "
                              "file (`bench --format json`), checked before it is shown");
  auto* race = app.add_option("--race-file", g.race_file,
                              "Open on a race recording made on a GPU (`trace --runs N --format json`): its runs, and "
                              "the replay of its block");
  auto* kernel = app.add_option("--kernel", g.kernel,
                                "Open on a kernel of your own (a .cu file with //! launch lines, docs/own-kernel.md): "
                                "run on the GPU, or its PTX interpreted on the CPU, and again whenever it is saved");
  // Each opens the window on something of its own: two at once would drop one silently (issue 48).
  open->excludes(race)->excludes(scene)->excludes(plan)->excludes(app.get_option("--algorithm"))->excludes(kernel);
  kernel->excludes(race)->excludes(scene)->excludes(plan);
  scene->excludes(plan);
  // An empty value is no value: '' was taken as "the default" where the user meant a name.
  for (auto* named : {open, race, scene, plan, kernel})
    named->check(
        CLI::Validator([](std::string& v) { return v.empty() ? std::string("is empty") : std::string(); }, "NONEMPTY"));
}

}  // namespace

// No subcommand: the window, with its options on the program itself.
Handler window_command(CLI::App& app) {
  struct Options {
    GuiOptions gui;
    std::string backend = "auto";
  };
  auto o = std::make_shared<Options>();
  GuiOptions& g = o->gui;
  app.add_option("--backend", o->backend, "Window's backend: auto | cuda | sim")
      ->check(CLI::IsMember({"auto", "cuda", "sim"}));
  app.add_option("--quit-after-frames", g.quit_after_frames, "Close the window after N frames (for tests)")
      ->check(CLI::Range(1, 100000000));
  app.add_option("--screenshot", g.screenshot,
                 "Save the last frame as PNG (at --quit-after-frames, or when Ctrl+Q quits)");
  app.add_option("--tab", g.tab, "Open the window on: stages | bandwidth")
      ->check(CLI::IsMember({"stages", "bandwidth"}));
  app.add_flag("--run-bench", g.run_bench, "Start the Bandwidth tab's benchmark at once");
  app.add_flag("--export-gif", g.export_gif,
               "Start a GIF export of the run at once (with --frame-report: the frames drawn while it runs)");
  app.add_option("--compare", g.compare, "Show a second algorithm beside the first, in lockstep")
      ->check(CLI::IsMember(core::traced_ids()));
  app.add_flag("--present", g.present, "Presenter mode: full screen, large type, high contrast (F11 or P toggles)");
  app.add_option("--bench-sizes", g.bench_sizes, "Sizes for --run-bench (2^A..2^B or N,N,...)")
      ->check(CLI::Validator(
          [](std::string& v) {  // checked here: a wrong list showed an empty chart with no message
            std::string why;
            return core::parse_sizes(v, &why) ? std::string() : why;
          },
          "SIZES"));
  app.add_option("--bench-shapes", g.bench_shapes,
                 "The Bandwidth tab on the matrix family, over these shapes (ROWSxCOLS,... or sweep)");
  app.add_option("--bench-algorithms", g.bench_algorithms, "Algorithms for --run-bench (all or ID,ID,...)");
  app.add_flag("--headless", g.headless,
               "Run the window's UI off screen through EGL, at 60 frames a second (needs --quit-after-frames)");
  app.add_flag("--play", g.play, "Start playing the stages");
  app.add_flag("--soak", g.soak,
               "Soak test: play every algorithm in every view and rerun the benchmark, sampling memory "
               "(with --quit-after-frames; the frame report holds the samples)");
  app.add_option("--export-dir", g.export_dir, "Folder for the Stages tab's exports (E, A, G, M keys)");
  app.add_option("--view", g.view, "The Stages tab's view: " + core::view_names() + " (V cycles)")
      ->check(CLI::IsMember(view_list()));
  std::vector<std::string> ids = core::traced_ids();
  for (const auto& a : core::collectives()) ids.push_back(a.id);
  app.add_option("--algorithm", g.algorithm, "The algorithm to open on")->check(CLI::IsMember(ids));
  app.add_option("--stage", g.stage, "The stage to show first (0-based; past the last shows the last)")
      ->check(CLI::Range(0, kMaxStage));
  app.add_option("--pane", g.pane, "The lesson pane's tab: lesson | work | float | glossary")
      ->check(CLI::IsMember({"lesson", "work", "float", "glossary"}));
  add_size_options(app, g);
  add_file_options(app, g);
  return [o](const Io& io) { return open_window(o->gui, o->backend, io); };
}

}  // namespace rl::cli
