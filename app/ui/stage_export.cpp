// The Stages tab's exports: the view, every stage, a GIF or an MP4.
#include "panel_parts.h"

#include <imgui.h>
#include <GLFW/glfw3.h>  // key codes: the ImGui GLFW backend reports GLFW keys
#include <algorithm>
#include <optional>
#include <limits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sys/resource.h>
#include <chrono>
#include <filesystem>
#include <future>
#include <tuple>
#include <ostream>
#include <utility>
#include "../backend/backend.h"
#include "../core/catalog.h"
#include "../core/bench.h"
#include "../core/embedded.h"
#include "../core/facts.h"
#include "../core/text.h"
#include "../core/glossary.h"
#include "../render/bench_chart.h"
#include "../render/export.h"
#include "../render/matrix_view.h"
#include "compare.h"
#include "colors.h"
#include "race_pane.h"
#include "rich_text.h"
#include "settings.h"
#include "work_pane.h"

namespace rl::ui {

std::string default_export_dir() {
  const char* home = std::getenv("HOME");
  return std::string(home && *home ? home : ".") + "/reduction-lab-exports";
}

std::string default_export_base() { return default_export_dir() + "/bandwidth"; }

// An export's outcome, posted: "Saved PATH", or why it failed.
static void export_done(AppState& s, const render::Exported& done, const std::string& path) {
  if (done.ok())
    s.messages.info(Topic::Export, "Saved " + path);
  else
    s.messages.error(Topic::Export, "Export failed: " + done.error);
}

void export_stages(AppState& s, StageExport what) {
  // Compare mode: both views side by side, named after both.
  const std::string base = std::string(s.export_dir) + "/" + s.trace->algorithm +
                           (s.compare_trace ? "-vs-" + s.compare_trace->algorithm : "") + "-" + render::to_string(s.view);
  std::error_code ec;
  std::filesystem::create_directories(s.export_dir, ec);
  constexpr int w = 1600, h = 900;
  if (what == StageExport::Png) {  // one frame: drawn at once in the window's own context
    char stage[16];
    std::snprintf(stage, sizeof stage, "-stage%02d.png", s.player.stage());
    const std::string path = base + stage;
    const render::Look look{s.view, true, nullptr, s.warp, s.bank_row, s.stale_read, s.presenter, s.part};
    const auto done = s.compare_trace ? render::export_compare_png(*s.trace, *s.compare_trace, s.player.stage(), w, h, path, look)
                                      : render::export_stage_png(*s.trace, s.player.stage(), w, h, path, look);
    export_done(s, done, path);
    return;
  }
  if (s.export_job.running()) {
    s.messages.warning(Topic::Export, "An export is running: wait for it or cancel it first");
    return;
  }
  auto& job = s.export_job;
  job.progress = std::make_shared<render::Progress>();
  job.path = what == StageExport::AllStages ? base + "-stageNN.png" : base + (what == StageExport::Gif ? ".gif" : ".mp4");
  const render::Look look{s.view, false, job.progress.get(), s.warp, s.bank_row, s.stale_read, s.presenter, s.part};
  job.result = std::async(std::launch::async, [trace = *s.trace, second = s.compare_trace, look, what, base, path = job.path,
                                               keep = job.progress] {
    (void)keep;  // holds the progress the worker writes to, whatever the window does meanwhile
    // Lowest priority, for this thread and the renderer threads it starts (Linux: nice is per
    // thread, and inherited): the window's frames come first.
    if (setpriority(PRIO_PROCESS, 0, 19) != 0) {
      // Not allowed: the export still runs, only at the window's priority.
    }
    const core::Trace* beside = second ? &*second : nullptr;
    return what == StageExport::AllStages ? render::export_all_stages(trace, w, h, base, look, beside)
                                          : render::export_video(trace, w, h, path, look, beside);
  });
  s.messages.clear(Topic::Export);
}

// A running export's progress and Cancel; its outcome once it ends.
void export_status(AppState& s) {
  auto& job = s.export_job;
  if (!job.running()) return;
  if (job.result.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    const auto done = job.result.get();
    export_done(s, done, job.path);
    return;
  }
  const int total = std::max(job.progress->total.load(), 1), done = job.progress->done.load();
  char label[64];
  std::snprintf(label, sizeof label, "frame %d of %d", done, total);
  ImGui::ProgressBar(float(done) / float(total), {-ImGui::GetFontSize() * 6, 0}, label);
  ImGui::SameLine();
  if (ImGui::Button("Cancel")) job.progress->cancel = true;
}

// --export-gif: the window's exit waits for the export it was asked for (the job's destructor
// would cancel it) and says how it ended; a failed or never-started export exits 1 (issue 48,
// item 14: it was dropped at the end with exit 0).
int finish_requested_export(AppState& s, std::ostream& err) {
  if (s.gif_requested) {
    err << "reduction-lab: error: --export-gif: no run came on screen before the window closed, so no GIF was made\n";
    return 1;
  }
  if (s.export_job.running()) {
    const auto done = s.export_job.result.get();
    export_done(s, done, s.export_job.path);
  }
  const Message& m = s.messages[Topic::Export];
  const bool ok = !m.empty() && m.level == Level::Info;
  err << (ok ? "reduction-lab: " : "reduction-lab: error: --export-gif: ")
      << core::terminal_text(m.empty() ? "the export did not run" : m.text) << "\n";
  return ok ? 0 : 1;
}

}  // namespace rl::ui
