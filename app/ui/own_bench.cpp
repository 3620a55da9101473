#include "own_bench.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "../core/file_io.h"
#include "../core/input.h"
#include "../core/text.h"
#include "../own/own_process.h"
#include "colors.h"
#include "panel_parts.h"

namespace rl::ui {
namespace {

// The child's time limit: generous (its harness takes up to a second a size for each of its two
// kernels, and NVRTC compiles first), but a kernel that never ends is stopped.
double watchdog_for(std::size_t sizes) { return 60.0 + 20.0 * double(sizes); }

bool applies(const AppState& s, bool gpu) { return gpu && !s.bench.matrix && !s.own.file.empty(); }

void start_timing(AppState& s) {
  OwnTiming& o = s.bench.own;
  std::string why;
  own::OwnRequest r;
  if (!core::read_file(s.own.file, core::files::kKernel, &r.source, &why)) {
    o.said = core::printable(why);
    return;
  }
  r.file = s.own.file, r.value_type = core::to_string(s.bench.type);
  const auto sizes = core::parse_sizes(s.bench.sizes, &why);
  const std::vector<std::string> options = {"--type",  r.value_type,  "--op", core::to_string(s.bench.op),
                                            "--sizes", s.bench.sizes, "-a",   "cub"};
  const own::ProcessOptions p{own::this_program(), "cuda", watchdog_for(sizes ? sizes->size() : 1)};
  *o.stop = false, o.started = std::chrono::steady_clock::now(), o.file = s.own.file;
  o.running = std::async(std::launch::async,
                         [r, options, p, stop = o.stop] { return own::bench_in_process(r, options, p, stop.get()); });
}

}  // namespace

void own_bench_option(AppState& s, bool gpu) {
  if (!applies(s, gpu)) return;
  const std::string name = std::filesystem::path(s.own.file).filename().string();
  ImGui::Checkbox(("with your kernel, " + core::printable(name)).c_str(), &s.bench.own.wanted);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "After the run here, time the file open in \"Your own kernel\" with the same harness, in a "
        "process of its own");
}

void own_bench_start(AppState& s, bool gpu) {
  OwnTiming& o = s.bench.own;
  o.rows.clear(), o.said.clear();
  o.waiting = o.wanted && applies(s, gpu);
}

void own_bench_poll(AppState& s) {
  OwnTiming& o = s.bench.own;
  if (o.waiting && !s.bench.worker.running()) o.waiting = false, start_timing(s);
  if (!o.running.valid() || o.running.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  try {
    for (core::BenchRow& row : o.running.get().rows)
      if (row.algorithm.rfind("own:", 0) == 0) o.rows.push_back(std::move(row));
  } catch (const std::exception& e) {
    o.said = core::printable(e.what());
  }
}

void own_bench_cancel(AppState& s) {
  s.bench.own.waiting = false;
  *s.bench.own.stop = true;
}

void own_bench_status(const AppState& s) {
  const OwnTiming& o = s.bench.own;
  if (o.running.valid()) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - o.started).count();
    char line[200];
    std::snprintf(line, sizeof line, "Timing %s in a process of its own... %.0f s",
                  core::printable(std::filesystem::path(o.file).filename().string()).c_str(), secs);
    wrapped(kAmber, line);
  }
  if (!o.said.empty()) wrapped(kErrorRed, "Your kernel was not timed: " + o.said);
}

}  // namespace rl::ui
