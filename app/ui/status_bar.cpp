// The status bar: backend, device, result, frame time.
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
#include <utility>
#include "../backend/backend.h"
#include "../core/catalog.h"
#include "../core/bench.h"
#include "../core/embedded.h"
#include "../core/facts.h"
#include "../core/glossary.h"
#include "../render/bench_chart.h"
#include "../render/export.h"
#include "../render/matrix_view.h"
#include "../core/run_file.h"
#include "../core/text.h"
#include "compare.h"
#include "colors.h"
#include "race_pane.h"
#include "rich_text.h"
#include "settings.h"
#include "work_pane.h"

namespace rl::ui {

std::string result_text(const core::Trace& t) {
  const std::string op = core::to_string(t.op);
  const std::string narrow = core::is_narrow(t.type) ? " " + core::to_string(t.type) : "";
  const std::string added = narrow.empty() ? "" : ", added in " + core::to_string(core::value_type(t));
  const std::string value = core::format_value(t.result, core::value_type(t));
  // A kernel of your own whose value was found wrong: its value is not the sum.
  if (t.collective)
    return op + " across " + std::to_string(t.collective->gpus) + " GPUs of " + std::to_string(t.size) + narrow +
           " elements each; every GPU's result " + (t.collective->agree ? "the same bits" : "NOT the same bits");
  const bool wrong = std::any_of(t.findings.begin(), t.findings.end(),
                                 [](const core::Finding& f) { return f.kind == "wrong-result"; });
  if (t.rows == 0 || render::matrix_lines(t) == render::MatrixLines::Whole)
    return op + " of " + std::to_string(t.size) + narrow + " elements" + added +
           (wrong ? ": the kernel left " + value + ", which is wrong (see its findings)" : " = " + value);
  const bool rows = render::matrix_lines(t) == render::MatrixLines::Rows;
  return std::to_string(t.rows) + " x " + std::to_string(t.cols) + " matrix: " + std::to_string(rows ? t.rows : t.cols) +
         (rows ? " row " : " column ") + op + "s";
}

void status_bar(const AppState& s, const Area& f) {
  place(f, "Status", ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  // An opened trace is labelled with where it was recorded, not with this machine's backend.
  const bool opened = s.opened.shown && s.trace;
  // The window runs the family across GPUs in the CPU model, whatever GPUs are here.
  const bool model_run = s.trace && s.trace->collective && s.trace->backend != "cuda";
  const ImVec4 color = opened      ? (s.trace->backend == "cuda" ? kShippedBlue : kAmber)
                       : model_run ? kAmber
                       : gpu       ? kGpuGreen
                                   : kAmber;
  // A file that could not be opened says so here, in words, until a run or another file replaces it.
  if (const Message& open = s.messages[Topic::Open]; !open.empty() && open.level != Level::Info) {
    const std::string why = "Not opened: " + open.text.substr(0, 2 * core::kShownChars);
    ImGui::TextColored(kAmber, "%s", why.c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", why.c_str());
    ImGui::End();
    return;
  }
  const std::string line =
      opened ? "From " + core::printable(std::filesystem::path(s.opened.file).filename().string()) + ": " +
                   core::recorded_label(*s.trace)
      : model_run ? "CPU model: the window runs an all-reduce across GPUs in the model (trace --backend cuda: on GPUs)"
                  : backend::status_line(s.backend);
  char result[160] = "";
  if (s.trace) std::snprintf(result, sizeof result, "  |  %s", result_text(*s.trace).c_str());
  // Where the whole line does not fit (presenter mode's large type), the reason in brackets
  // moves to a tooltip; "CPU model" or the GPU's name always stays.
  const bool fits = ImGui::CalcTextSize((line + result).c_str()).x < f.w - ImGui::GetStyle().WindowPadding.x * 2;
  const auto bracket = line.find(" (");
  ImGui::TextColored(color, "%s", fits || bracket == std::string::npos ? line.c_str() : line.substr(0, bracket).c_str());
  if (!fits && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", line.c_str());
  if (s.trace) {
    ImGui::SameLine(0, 0);
    ImGui::TextUnformatted(result);
  }
  char frame[32];
  std::snprintf(frame, sizeof frame, "frame %.1f ms", s.frame_ms);
  // The frame time in the right corner, where the line leaves room (presenter mode's large
  // type may not: then it drops rather than overprints the result).
  const float x = f.w - ImGui::CalcTextSize(frame).x - ImGui::GetStyle().WindowPadding.x * 2;
  const float used = ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x;
  if (x > used) {
    ImGui::SameLine(x);
    ImGui::TextDisabled("%s", frame);
  }
  ImGui::End();
}

}  // namespace rl::ui
