#include "open_pane.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <system_error>
#include <vector>

#include "../../kernels/stage_tags.h"
#include "../backend/geometry.h"
#include "../core/run_file.h"
#include "../core/text.h"
#include "colors.h"
#include "panel_parts.h"
#include "race_pane.h"

namespace rl::ui {
namespace {

constexpr std::size_t kListed = 200;  // the most files the Open section lists from one folder

// The opened trace's fields become the run's where this build has its algorithm; a trace of a
// kernel this build lacks is shown under the fields as they are.
}  // namespace

void put_trace(AppState& s, core::Trace t, const std::string& path, const std::string& said) {
  backend::complete_geometry(t);
  if (core::find_any(t.algorithm)) {
    RunChoice& c = s.choice;
    c.algorithm = t.algorithm, c.op = t.op, c.type = t.type, c.accumulate = t.accumulate;
    if (!t.collective) c.block = t.block, c.trace_block = t.trace_block;
    if (t.collective) c.gpus = t.collective->gpus;
    if (t.rows > 0) c.rows = int(t.rows), c.cols = int(t.cols);
    else c.size = int(std::min<std::size_t>(t.size, std::size_t(kMaxTracedSize)));
    c.compare.clear();
  }
  OpenedUi& o = s.opened;
  s.messages.info(Topic::Open, said);
  o.trace = std::move(t);
  o.file = path, o.shown = true, o.choice = s.choice;
  s.race.shown = false;
  s.recorded = s.choice;
  s.tab = Tab::Stages, s.select_tab = true;
  show_opened(s);
}

namespace {

void put_results(AppState& s, core::BenchReport report, const std::string& path) {
  BenchUi& b = s.bench;
  b.matrix = core::is_matrix_report(report);
  if (!report.rows.empty()) {
    if (const auto type = core::parse_dtype(report.rows.front().type)) b.type = *type;
    if (const auto op = core::parse_op(report.rows.front().op)) b.op = *op;
  }
  s.messages.info(Topic::Open, "Opened " + core::printable(path) + ": results measured on " + report.device + " (" +
                                   report.backend + "), " + report.date + ".");
  b.file_report = std::move(report);
  b.file = path, b.source = kFromFile;
  s.tab = Tab::Bandwidth, s.select_tab = true;
}

// The JSON files beside path (or in it, when it is a folder), sorted; at most kListed.
std::vector<std::string> folder_files(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path dir = path.empty() ? fs::path(".") : fs::path(path);
  if (!fs::is_directory(dir, ec)) dir = dir.has_parent_path() ? dir.parent_path() : fs::path(".");
  std::vector<std::string> out;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end && out.size() < kListed; it.increment(ec))
    if (it->path().extension() == ".json" && it->is_regular_file(ec)) out.push_back(it->path().string());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

void open_file(AppState& s, const std::string& path) {
  OpenedUi& o = s.opened;
  std::snprintf(o.path, sizeof o.path, "%s", path.c_str());
  try {
    core::OpenedRun run = core::open_run_file(path);
    s.messages.clear(Topic::Open);
    switch (run.kind) {
      case core::RunFile::Trace: {
        const std::string said = "Opened " + core::printable(path) + ": " + run.trace.algorithm + ", " +
                                 core::recorded_label(run.trace) + ".";
        put_trace(s, std::move(run.trace), path, said);
        break;
      }
      case core::RunFile::Race:
        o.shown = false;
        open_race_file(s, path);
        if (s.messages.has(Topic::Race))
          s.messages.warning(Topic::Open, s.messages.text(Topic::Race));
        else
          s.messages.info(Topic::Open, "Opened " + core::printable(path) + ": a race recording.");
        break;
      case core::RunFile::Results: put_results(s, std::move(run.results), path); break;
    }
  } catch (const std::exception& e) {
    s.messages.warning(Topic::Open, e.what());
  }
}

bool show_opened(AppState& s) {
  OpenedUi& o = s.opened;
  if (!o.trace || !o.shown) return false;
  if (!(s.choice == o.choice)) {
    o.shown = false;
    return false;
  }
  show_kept_trace(s, *o.trace);
  return true;
}

void open_section(AppState& s) {
  OpenedUi& o = s.opened;
  if (!ImGui::CollapsingHeader("Open a recorded run")) return;
  ImGui::TextDisabled("A trace, a race recording or a results file (JSON); or drop one on the window");
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
  const bool enter = ImGui::InputText("##open path", o.path, sizeof o.path, ImGuiInputTextFlags_EnterReturnsTrue);
  focus_on_near_click("##open path");
  ImGui::SameLine();
  if (ImGui::Button("Open") || enter) open_file(s, o.path);
  message_line(s.messages, Topic::Open);
  const auto files = folder_files(o.path);
  if (files.empty()) return;
  ImGui::BeginChild("open files", {0, ImGui::GetFontSize() * 6}, true);
  for (const auto& f : files) {
    const std::string name = core::printable(std::filesystem::path(f).filename().string());
    if (ImGui::Selectable(name.c_str(), f == o.file)) open_file(s, f);
  }
  ImGui::EndChild();
}

core::SourceView shown_source(const AppState& s) {
  if (s.opened.shown && s.opened.trace && !s.opened.trace->code.lines.empty()) {
    core::SourceView v;
    static_cast<core::Code&>(v) = s.opened.trace->code;
    return v;
  }
  return core::source_of(s.choice.algorithm);
}

core::Place shown_place(const AppState& s, const core::SourceView& src) {
  if (!s.trace || s.trace->stages.empty()) return {};
  if (s.trace->algorithm != s.choice.algorithm && !shows_foreign_trace(s)) return {};
  const core::Stage& stage =
      s.trace->stages[std::size_t(std::clamp(s.player.stage(), 0, int(s.trace->stages.size()) - 1))];
  const core::Code& own = s.trace->code;
  if (!own.lines.empty() && own == static_cast<const core::Code&>(src)) return core::stage_place(*s.trace, stage);
  return tag_place(stage, src);
}

core::Place tag_place(const core::Stage& stage, const core::SourceView& src) {
  return stage.tag >= 0 ? src.place_of(kernels::tag_marker(stage.tag)) : core::Place{};
}

bool shows_foreign_trace(const AppState& s) {
  return s.opened.shown && s.opened.trace && !core::find_any(s.opened.trace->algorithm);
}

}  // namespace rl::ui
