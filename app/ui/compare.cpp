#include "compare.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>

#include "../core/bench.h"
#include "../core/catalog.h"
#include "../core/compare.h"
#include "../../kernels/algorithms.h"
#include "colors.h"
#include "panel_parts.h"
#include "panels.h"

namespace rl::ui {
namespace {

struct Column {
  const char* name;
  const char* tip;
};

constexpr Column kColumns[] = {
    {"algorithm", "The algorithm on screen, then the one compared with it, run on the same input."},
    {"stages", "Stages the trace recorded: the steps the player walks through."},
    {"idle",
     "Idle lane-steps: in each stage, the lanes of warps that worked but were not active "
     "themselves, added over the stages. A warp issues each instruction for all its lanes; a "
     "warp with no active lane is not counted here, though it still issues the step's loop "
     "test, branch and barrier."},
    {"worst",
     "The worst bank conflict of any stage: N-way means one warp-wide shared-memory access was "
     "served in N passes. '-': no stage touched shared memory."},
    {"total",
     "Bank conflicts, all stages: the conflict degrees of the stages that had one (2-way or "
     "worse), added; 8 can be two 4-way stages. '-': no stage touched shared memory."},
    {"adds",
     "Applications of the operator (sum, min or max) the traced block ran, padding with the "
     "identity included; the Work tab counts them stage by stage. '>=': a lower bound."},
    {"time",
     "The median time of a whole reduction, from the Bandwidth tab's results at the size named "
     "under the table; the speedup there is the first's time over the second's. Hover a time "
     "for its samples and its result check."},
};
constexpr int kColumnCount = int(sizeof kColumns / sizeof kColumns[0]);
constexpr int kTime = kColumnCount - 1;

struct Row {
  std::string cells[kColumnCount];
  std::string time_tip;
};

// What the table shows, worked out before drawing so its height is known.
struct Table {
  Row rows[2];
  std::string note;  // whose times, at which size; or why there are none
  // The note's colour: whose times (shipped, the model's, measured here), or none. Named, not
  // looked up, so the note can be worked out without a window (the tests).
  enum class Tone { Muted, Shipped, Model, Plain } tone = Tone::Plain;
};

std::string time_text(double us) {
  char buf[32];
  if (us < 1000) std::snprintf(buf, sizeof buf, "%.1f us", us);
  else std::snprintf(buf, sizeof buf, "%.2f ms", us / 1000);
  return buf;
}

std::string speedup_text(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, ratio >= 0.1 ? "%.1fx" : "%.2gx", ratio);  // "0.0x" would hide a slowdown
  return buf;
}

std::string time_tip(const core::BenchRow& r) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "median of %d samples, noise %.1f %%, %s; result check: ", r.samples, r.noise_pct,
                r.block > 0 ? (std::to_string(r.block) + " threads a block").c_str() : "the library's own blocks");
  return buf + r.check;
}

Row figures_row(const core::Trace& t) {
  const core::TraceFigures f = core::figures_of(t);
  const bool shared = f.worst_conflict > 0;
  return {{t.algorithm, std::to_string(f.stages), std::to_string(f.idle_lanes),
           !shared ? "-" : f.worst_conflict > 1 ? std::to_string(f.worst_conflict) + "-way" : "none",
           !shared ? "-" : std::to_string(f.conflict_sum),
           (f.additions_exact ? "" : ">= ") + std::to_string(f.additions), ""},
          ""};
}


// Why the table has no times, and how to get them where that can be done.
std::string no_times(const AppState& s, const core::BenchReport& report) {
  for (const auto* t : {&*s.trace, &*s.compare_trace}) {
    const auto* about = core::find_algorithm(t->algorithm);
    if (about && about->kind == core::Kind::ModelOnly)
      return "No times: " + t->algorithm + " is never launched, so it is never timed.";
  }
  if (report.rows.empty()) return "No times yet: run the benchmark, or pick a shipped GPU run, in the Bandwidth tab.";
  return "No times: the Bandwidth tab's results (" + report.device + ") do not time both at one size; run the "
         "benchmark with both for times.";
}

// The times and the speedup, from the report the Bandwidth tab shows, and the note naming them.
void add_times(const AppState& s, Table& table) {
  const core::BenchReport report = shown_report(s.bench);
  const bool columns = s.trace->rows > 0 && s.trace->geometry.lines() == kernels::Lines::Columns;
  const auto pair = core::pair_time(report, s.trace->algorithm, s.compare_trace->algorithm,
                                    columns ? s.trace->rows : s.trace->cols, columns);
  if (!pair) {
    table.note = no_times(s, report);
    table.tone = Table::Tone::Muted;
    return;
  }
  const core::BenchRow* rows[2] = {&pair->first, &pair->second};
  for (int i = 0; i < 2; ++i) {
    table.rows[i].cells[kTime] = time_text(rows[i]->median_us);
    table.rows[i].time_tip = time_tip(*rows[i]);
  }
  if (pair->first.median_us > 0 && pair->second.median_us > 0) {
    // The faster one named with its speedup: "sequential is 2.1x faster than ...", never "0.5x".
    const bool second_faster = pair->second.median_us <= pair->first.median_us;
    const core::BenchRow& fast = second_faster ? pair->second : pair->first;
    const core::BenchRow& slow = second_faster ? pair->first : pair->second;
    table.note = fast.algorithm + " is " + speedup_text(slow.median_us / fast.median_us) + " faster than " +
                 slow.algorithm + ". ";
  }
  table.note += "Times at " + core::shape_text(pair->first) + ", " + report.device + " (" + pair->type + " " + pair->op + "): ";
  if (shows_shipped(s.bench)) {
    table.note += "a shipped GPU measurement, not this machine.";
    table.tone = Table::Tone::Shipped;
  } else if (report.backend == "sim") {
    table.note += "the CPU model's timing, the host's cost of modelling each algorithm, not a GPU's.";
    table.tone = Table::Tone::Model;
  } else {
    table.note += "measured here.";
    table.tone = Table::Tone::Plain;
  }
}

// A pitfall beside its fix records the same figures: why (they differ only in what a real,
// racing run reads, which a traced run, in order, cannot show).
std::string same_work_note(const AppState& s, const Table& table) {
  if (!std::equal(table.rows[0].cells + 1, table.rows[0].cells + kTime, table.rows[1].cells + 1)) return "";
  const std::string& a = s.trace->algorithm;
  const std::string& b = s.compare_trace->algorithm;
  const auto* row = kernels::find_row(a);
  const auto* other = kernels::find_row(b);
  const bool fix = (row && row->fix == b) || (other && other->fix == a);
  if (!fix || s.trace->race || s.compare_trace->race) return "";  // equal rows say it themselves
  return "The same figures: " + a + " and " + b +
         " do the same work when the threads run in order, as a traced run "
         "does; the missing barrier shows only in a race recording (R). ";
}

// Presenter mode: what the columns count, said under the table (the room sees no tooltips).
constexpr const char* kColumnsInShort =
    "idle: lane-steps of working warps spent idle; worst, total: bank conflicts; adds: operator applications. ";

Table table_of(const AppState& s) {
  Table table{{figures_row(*s.trace), figures_row(*s.compare_trace)}, "", {}};
  add_times(s, table);
  // Presenter mode leaves out why there are no times: the empty column says it, and the views keep the height.
  const bool no_times = table.rows[0].cells[kTime].empty();
  table.note =
      same_work_note(s, table) + (s.presenter ? kColumnsInShort : "") + (s.presenter && no_times ? "" : table.note);
  return table;
}

float row_height() { return ImGui::GetTextLineHeight() + 2 * ImGui::GetStyle().CellPadding.y + 1; }

// The width at which every header and cell fits on its line.
float natural_width(const Table& table) {
  float total = 1;
  for (int c = 0; c < kColumnCount; ++c) {
    float widest = ImGui::CalcTextSize(kColumns[c].name).x;
    for (const Row& row : table.rows) widest = std::max(widest, ImGui::CalcTextSize(row.cells[c].c_str()).x);
    total += widest + 2 * ImGui::GetStyle().CellPadding.x + 1;
  }
  return total;
}

// The rows' height; a table wider than `width` scrolls sideways, its names held in place.
struct TableBox {
  float height = 0;
  bool scrolls = false;
};
TableBox table_box(const Table& table, float width) {
  const bool scrolls = natural_width(table) > width;
  return {3 * row_height() + 2 + (scrolls ? ImGui::GetStyle().ScrollbarSize : 0), scrolls};
}

// The table and its note, wrapped at `width`, with the spacing above each.
float table_height(const Table& table, float width) {
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  const float note_h = ImGui::CalcTextSize(table.note.c_str(), nullptr, false, width).y;
  return spacing + table_box(table, width).height + spacing + note_h;
}

void draw_table(const Table& table, float width) {
  const TableBox box = table_box(table, width);
  const ImGuiTableFlags flags = ImGuiTableFlags_Borders | ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit |
                                (box.scrolls ? ImGuiTableFlags_ScrollX : ImGuiTableFlags_None);
  if (ImGui::BeginTable("compare", kColumnCount, flags, {0, box.scrolls ? box.height : 0})) {
    if (box.scrolls) ImGui::TableSetupScrollFreeze(1, 0);
    for (int c = 0; c < kColumnCount; ++c)  // names take the room left over, unless scrolling
      ImGui::TableSetupColumn(kColumns[c].name, c == 0 && !box.scrolls ? ImGuiTableColumnFlags_WidthStretch : 0);
    ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
    for (int c = 0; c < kColumnCount; ++c) {
      ImGui::TableSetColumnIndex(c);
      ImGui::TableHeader(kColumns[c].name);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kColumns[c].tip);
    }
    for (const Row& row : table.rows) {
      ImGui::TableNextRow();
      for (int c = 0; c < kColumnCount; ++c) {
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(row.cells[c].c_str());
        if (c == kTime && !row.time_tip.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", row.time_tip.c_str());
      }
    }
    ImGui::EndTable();
  }
  using Tone = Table::Tone;
  const ImVec4 color =
      table.tone == Tone::Shipped ? kShippedBlue
      : table.tone == Tone::Model
          ? kAmber
          : ImGui::GetStyleColorVec4(table.tone == Tone::Muted ? ImGuiCol_TextDisabled : ImGuiCol_Text);
  wrapped(color, table.note);
}

// How far a view's shape is from 16:9, either way.
float misfit(float w, float h) { return std::abs(std::log(w / std::max(h, 1.0f) * 9 / 16)); }

}  // namespace

ViewPair split_views(const Area& a, float gap) {
  const float half_w = (a.w - gap) / 2, half_h = (a.h - gap) / 2;
  if (misfit(a.w, half_h) <= misfit(half_w, a.h))
    return {{a.x, a.y, a.w, half_h}, {a.x, a.y + half_h + gap, a.w, half_h}, true};
  return {{a.x, a.y, half_w, a.h}, {a.x + half_w + gap, a.y, half_w, a.h}, false};
}

Area compare_views(AppState& s, float height, unsigned first_texture, unsigned second_texture) {
  settle_source(s);
  follow_algorithm(s);
  const Table table = table_of(s);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x, em = ImGui::GetFontSize();
  const float views_h = std::max(em * 8, height - table_height(table, width));
  const ViewPair pair = split_views({origin.x, origin.y, width, views_h}, em * 0.5f);
  image(first_texture, pair.first);
  image(second_texture, pair.second);
  draw_table(table, width);
  return pair.first;
}

std::string compare_note(const AppState& s) { return table_of(s).note; }

}  // namespace rl::ui
