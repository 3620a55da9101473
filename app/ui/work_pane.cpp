#include "work_pane.h"

#include <imgui.h>

#include <cstdio>
#include <string>

#include "../core/counters.h"
#include "../core/work.h"
#include "app_state.h"

namespace rl::ui {
namespace {

struct Column {
  const char* name;
  const char* tip;
  float em = 0;  // a fixed width in font sizes; 0 stretches
};

constexpr ImGuiTableFlags kTable = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingStretchProp;

// Sets up the columns and a header row whose cells explain their column on hover.
template <int N>
void headers(const Column (&cols)[N]) {
  for (const Column& c : cols)
    ImGui::TableSetupColumn(c.name, c.em > 0 ? ImGuiTableColumnFlags_WidthFixed : ImGuiTableColumnFlags_WidthStretch,
                            c.em * ImGui::GetFontSize());
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < N; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(cols[c].name);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", cols[c].tip);
  }
}

// Wrapped within its column: the panel is narrow and stage labels are long.
void cell(const std::string& text, const std::string& tip = {}) {
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", text.c_str());
  if (!tip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip.c_str());
}

std::string count_text(std::size_t n, bool exact) { return (exact ? "" : ">= ") + std::to_string(n); }

std::string percent(double x) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%.0f%%", 100 * x);
  return buf;
}

void context_line(const core::Trace& t, const core::Work& w) {
  if (t.memory == core::Memory::Global)
    ImGui::TextWrapped("The array: %d elements, halved launch by launch; one value left.", w.threads);
  else
    ImGui::TextWrapped("Block %d of %zu: %d threads read %s and reduce them to %s.", t.trace_block, t.grid, w.threads,
                       core::count_text(w.elements, "input element", "input elements").c_str(), core::results_text(t, w).c_str());
}

void summary(const core::Work& w) {
  static const Column cols[] = {
      {"measure", "Hover a measure for what it counts."},
      {"this block", "Counted from the trace of the block on screen."},
      {"fewest", "The fewest for the block's values, one a thread (global-halving: the array's elements; "
                 "column sums: one a column of the matrix a thread holds, 4 for column-sums-vectorized): "
                 "merging V values into R results takes V - R additions, in ceil(log2(V / R)) levels of a "
                 "balanced tree."}};
  if (!ImGui::BeginTable("work summary", 3, kTable)) return;
  headers(cols);
  ImGui::TableNextRow();
  cell("additions", "Applications of the operator (sum, min or max) the block ran, padding with the identity "
                    "included; not the first fold of an accumulator that starts at the identity. The stages "
                    "below add up to this.");
  cell(count_text(w.additions, w.exact));
  cell(std::to_string(w.ideal_additions));
  ImGui::TableNextRow();
  cell("depth", "Stages the trace recorded, " + std::to_string(w.adding_stages) +
                    " of them adding. One stage can hold several dependent additions: a serial loop, a "
                    "grid-stride fold, a tile reduction.");
  cell(std::to_string(w.depth) + " (" + std::to_string(w.adding_stages) + " add)");
  cell(std::to_string(w.ideal_depth));
  ImGui::TableNextRow();
  cell("busy", "Thread-stages that did work (the threads the trace marks active, summed over the stages) "
               "out of those available (threads x stages).");
  cell(std::to_string(w.busy) + " / " + std::to_string(w.available));
  cell("");
  ImGui::TableNextRow();
  cell("efficiency", "Busy thread-stages divided by those available.");
  cell(percent(w.efficiency));
  cell("");
  ImGui::EndTable();
}

void stage_rows(const core::Work& w) {
  static const Column cols[] = {
      {"stage", "The recorded stages, in order. Hover one for what its additions count."},
      {"active", "Threads the trace marks active in the stage: those that did its work.", 4},
      {"adds", "Additions in the stage. '>=': a lower bound, where the code's own count is not recorded.", 5.5f}};
  if (!ImGui::BeginTable("work stages", 3, kTable)) return;
  headers(cols);
  for (const core::StageWork& s : w.stages) {
    ImGui::TableNextRow();
    cell(s.label, s.label + "\nadditions: " + s.counted);
    cell(std::to_string(s.active));
    cell(count_text(s.additions, s.exact));
  }
  ImGui::EndTable();
}

// Shuffle steps add in every lane, needed or not: the redundancy the table shows.
void shuffle_note(const core::Work& w) {
  std::size_t adds = 0;
  int steps = 0;
  for (const core::StageWork& s : w.stages)
    if (core::is_shuffle(s.tag)) adds += s.additions, ++steps;
  if (steps == 0) return;
  ImGui::TextWrapped("The %d shuffle steps add %zu times: every active lane adds at every step, needed or not, where "
                     "a warp's 32 values need only 31 additions.", steps, adds);
}

// What the hardware counted over a whole launch of the same kernel, where it did: a warp
// instruction is the warp's, not a lane's add, so it is not the table's count.
void counted_note(const core::Trace& t) {
  const core::CountedLines counted = core::shipped_counted_lines(t.algorithm, "work");
  if (counted.empty()) return;
  ImGui::Spacing();
  ImGui::TextWrapped("%s", counted.context.c_str());
  ImGui::TextWrapped(
      "%s. A warp instruction is the whole warp's, where the table counts a lane's additions, and the "
      "launch is every block, where the table is one.",
      counted.figures.c_str());
}

}  // namespace

void work_pane(AppState& s) {
  if (!s.trace || s.trace->algorithm != s.choice.algorithm) {
    ImGui::TextWrapped("A run of %s is needed: its work is counted from its trace.", s.choice.algorithm.c_str());
    return;
  }
  const core::Work w = core::work_of(*s.trace);
  context_line(*s.trace, w);
  summary(w);
  shuffle_note(w);
  if (!w.exact) ImGui::TextWrapped("'>=': a lower bound; the code's own count is not in the trace.");
  stage_rows(w);
  counted_note(*s.trace);
}

}  // namespace rl::ui
