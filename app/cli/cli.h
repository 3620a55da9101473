// The command line: subcommands list, trace and render; no subcommand opens the window.
#pragma once
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

#include "../backend/backend.h"

namespace rl::cli {

struct GuiOptions {
  backend::Choice backend = backend::Choice::Auto;
  int quit_after_frames = 0;  // > 0: close by itself after that many frames (tests)
  std::string screenshot;     // with quit_after_frames: PNG of the last frame
  std::string tab = "stages";  // the centre tab to open: stages | bandwidth
  bool present = false;        // presenter mode from the start
  std::string compare;         // compare mode: a second algorithm beside the first
  bool run_bench = false;      // start the Bandwidth tab's benchmark at once
  std::string bench_sizes, bench_algorithms;  // overrides for it (empty: the tab's defaults)
  bool headless = false;       // no window: the same UI drawn off screen through EGL
  bool play = false;           // start the stage player playing
  bool soak = false;           // keep everything moving: every algorithm and view, benchmarks again and again
  std::string export_dir;      // where the Stages tab's exports go
  std::string view;            // the Stages tab's view: memory | lanes | divergence | banks | grid
  std::string frame_report;    // JSON of every frame's time, and whether a benchmark ran
};

using GuiEntry = std::function<int(const GuiOptions&, std::ostream& err)>;

// Exit codes: 0 success, 1 the work failed (device, file, display), 2 a usage error.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui);

// "1000" or "2^20"; nullopt for anything else (negative, non-numeric, overflowing).
std::optional<std::size_t> parse_size(std::string_view text);

}  // namespace rl::cli
