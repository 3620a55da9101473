// The Bandwidth tab: benchmark controls, the chart and its tables.
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
#include "../../kernels/algorithms.h"
#include "../core/catalog.h"
#include "../core/bench.h"
#include "../core/embedded.h"
#include "../core/facts.h"
#include "../core/glossary.h"
#include "../render/bench_chart.h"
#include "../render/export.h"
#include "../render/matrix_view.h"
#include "../core/text.h"
#include "compare.h"
#include "own_bench.h"
#include "colors.h"
#include "race_pane.h"
#include "rich_text.h"
#include "settings.h"
#include "work_pane.h"

namespace rl::ui {

namespace {

void export_all(AppState& s, const core::BenchReport& report) {
  BenchUi& b = s.bench;
  const std::string base = b.export_path;
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(base).parent_path(), ec);
  const render::Exported done = render::export_bench(report, shown_chart(b, report), base, true);
  if (done.ok())
    s.messages.info(Topic::Bench, "Saved " + base + ".png, .csv and .json");
  else
    s.messages.error(Topic::Bench, "Export failed: " + done.error);
}

constexpr const char* kModelTimings =
    "CPU model timings: they show the host's cost of modelling each algorithm, not a GPU's.";

// The first report of each shipped run (one entry a run in the source chooser).
std::vector<const core::ShippedReport*> first_of_each_run() {
  std::vector<const core::ShippedReport*> runs;
  for (const auto& r : core::shipped_reports())
    if (std::none_of(runs.begin(), runs.end(), [&](auto* seen) { return seen->run == r.run; })) runs.push_back(&r);
  return runs;
}

// A shipped run's report of the tab's type, operator and family (arrays or matrices); null where
// that run did not measure them.
const core::BenchReport* run_report(const BenchUi& b, std::string_view run) {
  return core::shipped_report(run, core::to_string(b.type), core::to_string(b.op), b.matrix);
}

// Which timings the tab shows: each shipped GPU run, or the benchmark run here; the
// chooser leaves `right` pixels of its row for the button beside it.
void source_choice(AppState& s, float right) {
  BenchUi& b = s.bench;
  std::vector<std::string> keys, names;
  for (const auto* r : first_of_each_run()) {
    keys.push_back(r->run);
    // The date of the report the tab would show: a run's array and matrix sweeps may be days apart.
    const auto* shown = run_report(b, r->run);
    const core::BenchReport& named = shown ? *shown : r->report;
    names.push_back(named.device + ", " + named.date + " (shipped run, not this machine)");
  }
  if (b.file_report) {
    keys.push_back(kFromFile);
    names.push_back(b.file_report->device + ", " + b.file_report->date + " (from " +
                    core::printable(std::filesystem::path(b.file).filename().string()) + ")");
  }
  keys.push_back(kRunHere);
  names.push_back("Run here (" + (s.backend.backend ? s.backend.backend->device() : std::string("no backend")) + ")");
  int pick = int(std::find(keys.begin(), keys.end(), b.source) - keys.begin());
  std::vector<const char*> items;
  for (const auto& n : names) items.push_back(n.c_str());
  ImGui::SetNextItemWidth(-right);
  if (ImGui::Combo("##source", &pick, items.data(), int(items.size()))) b.source = keys[std::size_t(pick)];
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Whose timings the chart and the table show");
}

// Whose timings these are, in words, under the controls; wrapped, as the panel is narrow.
void source_label(const BenchUi& b, bool gpu) {
  if (b.source == kFromFile && b.file_report) {
    const core::BenchReport& r = *b.file_report;
    wrapped(r.backend == "cuda" ? kShippedBlue : kAmber,
            "From " + core::printable(b.file) + ": measured on " + r.device +
                (r.backend == "cuda" ? "" : " (the CPU model, not a GPU)") + ", " + r.date +
                "; not a run of this machine now.");
    if (!core::report_has(r, core::to_string(b.type), core::to_string(b.op)))
      wrapped(kAmber, "This file has no " + core::to_string(b.type) + " " + core::to_string(b.op) + " rows; it holds " +
                          core::report_contents(r) + ".");
    return;
  }
  if (shows_shipped(b)) {
    // The shown report's own device and date: a run's files may be measured at different times.
    const auto* shown = run_report(b, b.source);
    for (const auto* r : first_of_each_run())
      if (r->run == b.source)
        wrapped(kShippedBlue, "Shipped with the program: " + core::shipped_label(shown ? *shown : r->report) + ".");
    if (!shown)
      wrapped(kAmber, "This run has no " + core::to_string(b.type) + " " + core::to_string(b.op) +
                          (b.matrix ? " over matrix shapes" : "") + "; it holds " + core::shipped_contents(b.source) +
                          ".");
    return;
  }
  if (!gpu) wrapped(kAmber, kModelTimings);
}

// The Bandwidth tab's first rows: whose timings and Run here (or Cancel), what to measure,
// progress, and whose timings in words.
void bench_controls(AppState& s, bool gpu) {
  BenchUi& b = s.bench;
  const float em = ImGui::GetFontSize();
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* button = b.worker.running() || b.own.running.valid() ? "Cancel" : "Run here";
  source_choice(s, ImGui::CalcTextSize(button).x + style.FramePadding.x * 2 + style.ItemSpacing.x);
  ImGui::SameLine();
  if (b.worker.running() || b.own.running.valid()) {
    if (ImGui::Button("Cancel")) b.worker.cancel(), own_bench_cancel(s);
  } else if (ImGui::Button(button) || std::exchange(b.start_requested, false)) {
    start_bench(s);
  }
  static const char* types[] = {"int", "float", "double"};
  static const char* ops[] = {"sum", "min", "max"};
  ImGui::SetNextItemWidth(em * 5);
  combo("##type", b.type, types, 3);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 4.5f);
  combo("##op", b.op, ops, 3);
  ImGui::SameLine();
  ImGui::SameLine();
  static const char* kinds[] = {"arrays", "matrices"};
  int kind = b.matrix ? 1 : 0;
  ImGui::SetNextItemWidth(em * 6.5f);
  if (ImGui::Combo("##kind", &kind, kinds, 2)) b.matrix = kind == 1, b.table_shape = -1;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Arrays: the 1D algorithms over sizes.\nMatrices: the matrix family and its anchors (CUB's "
                      "segmented reduce, cuBLAS gemv) over shapes; x is then the number of rows.");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 7);
  if (b.matrix) {
    ImGui::InputText("shapes", b.shapes, sizeof b.shapes);
    focus_on_near_click("shapes");
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "ROWSxCOLS,... (each N or 2^K, e.g. 2^8x2^20), or sweep: 2^28 elements from 2^4 to 2^24 rows "
          "on a GPU, 2^20 elements on the CPU model; then odd shapes (on a GPU 2^24 x 15, 10^6 x 100, 3 x (2^20 + 1))");
  } else {
    ImGui::InputText("sizes", b.sizes, sizeof b.sizes);
    focus_on_near_click("sizes");
  }
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize("algorithms").x + style.ItemInnerSpacing.x));
  ImGui::InputText("algorithms", b.algorithms, sizeof b.algorithms);
  focus_on_near_click("algorithms");
  if (!shows_shipped(b)) {
    const auto progress = b.worker.progress();
    const float done = progress.total ? float(progress.done) / float(progress.total) : 0.0f;
    char label[160];
    std::snprintf(label, sizeof label, "%zu / %zu  %s", progress.done, progress.total,
                  b.worker.running() ? progress.current.c_str() : "");
    ImGui::ProgressBar(done, {-1, 0}, label);
  }
  source_label(b, gpu);
  own_bench_option(s, gpu);
  own_bench_status(s);
  if (!b.worker.error().empty()) ImGui::TextColored(kErrorRed, "%s", b.worker.error().c_str());
}

// The chart's image, leaving `table_h` below it; the mouse over it, in its pixels, for the caller's hit tests.
void chart_image(BenchUi& b, unsigned chart_texture, float table_h, Area* chart) {
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  *chart = {origin.x, origin.y, avail.x, std::max(ImGui::GetFontSize() * 6, avail.y - table_h)};
  image(chart_texture, *chart);
  const ImVec2 mouse = ImGui::GetMousePos();
  const bool over = ImGui::IsItemHovered();
  b.mouse_x = over ? mouse.x - chart->x : -1;
  b.mouse_y = over ? mouse.y - chart->y : -1;
  b.clicked = over && ImGui::IsMouseClicked(0);
}

// What each column of the Harris table holds, on hover of its header.
std::string harris_tip(int column, double peak_gbps) {
  switch (column) {
    case 0: return "The algorithm: Harris' seven kernels first, in his order, then the others in the catalog's order.\n"
                   "Hover a name for the threads a block it ran with.";
    case 1: return "The median time of one whole reduction of n elements, in microseconds, over the run's samples\n"
                   "(on a GPU each sample reads its input cold: reading a buffer twice the L2's size evicts it first).";
    case 2: return "Bandwidth: the bytes the algorithm must move (the input once, plus the result; copy reads and\n"
                   "writes the input), divided by the median time.";
    case 3: {
      if (peak_gbps <= 0) return "The CPU model has no peak bandwidth to compare with.";
      char buf[200];
      std::snprintf(buf, sizeof buf, "GB/s as a percentage of the device's peak memory bandwidth, %.0f GB/s\n"
                                     "(2 x memory clock x bus width, from the device's attributes).", peak_gbps);
      return buf;
    }
    case 4: return "Step speedup: the time of the kernel before this one in Harris' order over this one's.\n"
                   "The first of his kernels measured shows 1.00x; '-' for the algorithms outside his progression.";
    case 5: return "G80 (Harris), quoted, not measured here: Mark Harris' step speedup of this kernel\n"
                   "over the one before it, on a G80 with 2^22 ints (\"Optimizing Parallel Reduction\n"
                   "in CUDA\", NVIDIA, 2007). Shown where the measured step is over that same kernel.";
    default: return "Total speedup: the first row's time (Harris' kernel 1 where it was measured) over this row's.";
  }
}

// A report without a peak (the CPU model's) shows "-" for % of peak, not 0.
void harris_rows(const std::vector<core::HarrisRow>& rows, double peak_gbps) {
  const bool has_peak = peak_gbps > 0;
  if (!ImGui::BeginTable("harris", 7, ImGuiTableFlags_RowBg | ImGuiTableFlags_Borders | ImGuiTableFlags_ScrollY)) return;
  ImGui::TableSetupColumn("algorithm", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 14);
  // Short headers: the panel is narrow. Each says in full what it is in its tooltip.
  for (const char* h : {"time us", "GB/s", "% peak", "step", "G80", "total"}) ImGui::TableSetupColumn(h);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < 7; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(ImGui::TableGetColumnName(c));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", harris_tip(c, peak_gbps).c_str());
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (i > 0 && rows[i - 1].harris && !r.harris) {  // Harris' progression ends here
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextDisabled("others");
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.algorithm.c_str());
    if (ImGui::IsItemHovered()) {
      if (r.block > 0) ImGui::SetTooltip("%d threads a block", r.block);
      else ImGui::SetTooltip("No block size recorded: a baseline chooses its own, and older files did not record it");
    }
    ImGui::TableNextColumn();
    ImGui::Text("%.2f", r.median_us);
    ImGui::TableNextColumn();
    ImGui::Text(r.gbps < 10 ? "%.3f" : "%.0f", r.gbps);
    ImGui::TableNextColumn();
    if (has_peak) ImGui::Text("%.1f%%", r.pct_of_peak);
    else ImGui::TextDisabled("-");
    ImGui::TableNextColumn();
    if (std::isnan(r.step_speedup)) ImGui::TextDisabled("-");
    else ImGui::Text("%.2fx", r.step_speedup);
    ImGui::TableNextColumn();
    if (std::isnan(r.g80_step)) ImGui::TextDisabled("-");
    else ImGui::Text("%.2fx", r.g80_step);
    ImGui::TableNextColumn();
    ImGui::Text("%.2fx", r.cumulative_speedup);
  }
  ImGui::EndTable();
}

// The table's own line saying whose timings it holds: it is read apart from the chart.
void table_caption(const BenchUi& b, const core::BenchReport& report) {
  if (b.source == kFromFile) ImGui::TextColored(kShippedBlue, "Table: from a file, measured on %s.", report.device.c_str());
  else if (shows_shipped(b)) ImGui::TextColored(kShippedBlue, "Table: measured on %s, not this machine.", report.device.c_str());
  else if (report.backend == "sim") ImGui::TextColored(kAmber, "Table: %s timings (the host's cost, not a GPU's).", report.device.c_str());
  else ImGui::TextDisabled("Table: measured here, on %s.", report.device.c_str());
}

// The export's path and button (on the current line), then the last outcome.
void export_row(AppState& s, const core::BenchReport& report) {
  BenchUi& b = s.bench;
  const char* button = "Export PNG + CSV + JSON";
  const ImGuiStyle& style = ImGui::GetStyle();
  ImGui::SetNextItemWidth(-(ImGui::CalcTextSize(button).x + style.FramePadding.x * 2 + style.ItemSpacing.x));
  ImGui::InputText("##export", b.export_path, sizeof b.export_path);
  focus_on_near_click("##export");
  ImGui::SameLine();
  if (ImGui::Button(button)) export_all(s, report);
  message_line(s.messages, Topic::Bench);
}

// Below the chart: which n the Harris table is for, the export, and the table.
void harris_section(AppState& s, const core::BenchReport& report) {
  BenchUi& b = s.bench;
  std::vector<std::size_t> ns;
  for (const auto& r : report.rows)
    if (std::find(ns.begin(), ns.end(), r.n) == ns.end()) ns.push_back(r.n);
  std::sort(ns.begin(), ns.end());
  if (ns.empty()) return;
  const float em = ImGui::GetFontSize();
  int idx = b.table_n < 0 || b.table_n >= int(ns.size()) ? int(ns.size()) - 1 : b.table_n;
  char n_label[48];
  std::snprintf(n_label, sizeof n_label, "n = %zu", ns[idx]);
  ImGui::SetNextItemWidth(em * 12);
  if (ImGui::SliderInt("##n", &idx, 0, int(ns.size()) - 1, n_label)) b.table_n = idx;
  ImGui::SameLine();
  export_row(s, report);
  table_caption(b, report);
  harris_rows(core::harris_table(report, ns[idx], core::to_string(b.type), core::to_string(b.op)), report.peak_gbps);
}

// Below the chart of a matrix sweep: which shape the table is for, and each algorithm's row.
void matrix_section(AppState& s, const core::BenchReport& report) {
  BenchUi& b = s.bench;
  std::vector<std::pair<std::size_t, std::size_t>> shapes;
  for (const auto& r : report.rows)
    if (std::find(shapes.begin(), shapes.end(), std::pair(r.rows, r.cols)) == shapes.end()) shapes.push_back({r.rows, r.cols});
  if (shapes.empty()) {
    message_line(s.messages, Topic::Bench);
    return;
  }
  int idx = b.table_shape < 0 || b.table_shape >= int(shapes.size()) ? 0 : b.table_shape;
  char label[64];
  std::snprintf(label, sizeof label, "%zu x %zu", shapes[idx].first, shapes[idx].second);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  if (ImGui::SliderInt("##shape", &idx, 0, int(shapes.size()) - 1, label)) b.table_shape = idx;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The shape (rows x columns) the table below is for");
  ImGui::SameLine();
  export_row(s, report);
  table_caption(b, report);
  if (!ImGui::BeginTable("##matrix", 5, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingStretchProp))
    return;
  static const char* heads[] = {"algorithm", "time us", "GB/s", "% peak", "check"};
  static const char* tips[] = {
      "The matrix kernel, or an anchor: cub-segmented (CUB's segmented reduce, a segment per row) and cuBLAS gemv with "
      "a ones vector (rows, or the transpose for columns). Hover a name for its block.",
      "Median time of one whole reduction of the matrix over the run's samples.",
      "Bytes over the median time: the matrix read once, plus one value written per output (row, column, or one).",
      "GB/s over the device's peak (2 x memory clock x bus width), read from the device.",
      "Every output against the exact row or column result: exact for ints, min and max; within rounding for float sums."};
  for (int c = 0; c < 5; ++c) ImGui::TableSetupColumn(heads[c]);
  ImGui::TableNextRow(ImGuiTableRowFlags_Headers);
  for (int c = 0; c < 5; ++c) {
    ImGui::TableSetColumnIndex(c);
    ImGui::TableHeader(heads[c]);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tips[c]);
  }
  for (const auto& r : report.rows) {
    if (r.rows != shapes[idx].first || r.cols != shapes[idx].second) continue;
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.algorithm.c_str());
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s", r.block ? ("blocks of " + std::to_string(r.block) + " threads").c_str() : "a library: its own blocks");
    ImGui::TableNextColumn();
    ImGui::Text("%.1f", r.median_us);
    ImGui::TableNextColumn();
    ImGui::Text("%.0f", r.gbps);
    ImGui::TableNextColumn();
    if (report.peak_gbps > 0) ImGui::Text("%.1f", r.pct_of_peak);
    else ImGui::TextUnformatted("-");
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.check_ok ? "ok" : r.check.c_str());
  }
  ImGui::EndTable();
}

// Whether a shipped run measured the algorithm in the tab's type, operator and family.
bool run_measured(const BenchUi& b, std::string_view run, std::string_view id) {
  const core::BenchReport* r = run_report(b, run);
  return r && std::any_of(r->rows.begin(), r->rows.end(), [&](const core::BenchRow& x) { return x.algorithm == id; });
}

// On matrices, a shipped run without matrix shapes gives way to one that has them.
void prefer_run_with_matrices(BenchUi& b) {
  if (!b.matrix || !shows_shipped(b) || b.source == kFromFile || run_report(b, b.source)) return;
  for (const auto& run : core::shipped_runs())
    if (run_report(b, run)) b.source = run;
}

}  // namespace

void bench_tab(AppState& s, unsigned chart_texture, Area* chart) {
  BenchUi& b = s.bench;
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  settle_source(s);
  follow_algorithm(s);
  prefer_run_with_matrices(b);
  if (!*b.sizes) std::snprintf(b.sizes, sizeof b.sizes, "%s", gpu ? "2^16..2^28" : "2^10..2^16");
  // Into --export-dir (the Stages tab's folder) when one was given, as the Stages tab's exports go.
  if (!*b.export_path)
    std::snprintf(b.export_path, sizeof b.export_path, "%s",
                  (*s.export_dir ? std::string(s.export_dir) + "/bandwidth" : default_export_base()).c_str());
  bench_controls(s, gpu);
  const core::BenchReport report = shown_report(b);
  // Presenter mode: the chart is what the room reads; the table scrolls in what is left.
  chart_image(b, chart_texture, ImGui::GetFontSize() * (s.presenter ? 6.0f : 10.4f), chart);
  if (b.matrix)
    matrix_section(s, report);
  else
    harris_section(s, report);
}

bool shows_shipped(const BenchUi& b) { return !b.source.empty() && b.source != kRunHere; }

void settle_source(AppState& s) {
  if (!s.bench.source.empty()) return;
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  const auto runs = core::shipped_runs();
  s.bench.source = gpu || runs.empty() ? kRunHere : runs.front();
}

void follow_algorithm(AppState& s) {
  BenchUi& b = s.bench;
  const std::string& id = s.choice.algorithm;
  if (id == b.followed) return;
  // The chosen line is shown by default on any source: both lines go back to their defaults.
  b.toggled.erase(b.followed), b.toggled.erase(id);
  b.followed = id;
  // A results file and this machine's run keep the family and type they were opened or run with.
  const core::AlgorithmInfo* info = core::find_algorithm(id);
  if (!info || !shows_shipped(b) || b.source == kFromFile) return;
  if (b.matrix != info->matrix) b.matrix = info->matrix, b.table_shape = -1;
  if (info->ints_only && b.type != core::DType::Int) {  // redux-sync: ints alone
    b.type = core::DType::Int, b.int_to_follow = true;
  } else if (!info->ints_only && std::exchange(b.int_to_follow, false) && b.type == core::DType::Int) {
    b.type = core::DType::Float;  // back from the ints the last follow took, unless the type was changed since
  }
  if (run_measured(b, b.source, id)) return;
  for (const auto& run : core::shipped_runs())
    if (run_measured(b, run, id)) {
      b.source = run;
      return;
    }
}

core::BenchReport shown_report(const BenchUi& b) {
  if (!shows_shipped(b)) {  // the run here, and a kernel of your own timed after it
    core::BenchReport here = b.worker.report();
    here.rows.insert(here.rows.end(), b.own.rows.begin(), b.own.rows.end());
    return here;
  }
  if (b.source == kFromFile) return b.file_report ? *b.file_report : core::BenchReport{};
  if (const auto* r = run_report(b, b.source)) return *r;
  for (const auto& r : core::shipped_reports())
    if (r.run == b.source) {  // its device and date, and no rows: this run did not measure the type
      core::BenchReport named = r.report;
      named.rows.clear();
      return named;
    }
  return {};
}

// The series a chart shows before any legend click: where it has more than a dozen (a run of
// every algorithm: 26 lines of near-alike colours cannot be told apart from the back of the room,
// issue 32 item 7), Harris' seven steps, CUB, the copy and the algorithm chosen on the left; a
// matrix sweep, or a chart of the few algorithms a user picked, shows all of its series.
constexpr std::size_t kMostShownAtOnce = 12;
static bool shown_by_default(const std::string& series, std::size_t count, bool matrix, const std::string& chosen) {
  if (matrix || count <= kMostShownAtOnce || series.rfind("own:", 0) == 0) return true;  // yours is always shown
  const std::string id = series.substr(0, series.find(' '));
  if (id == chosen) return true;
  const auto* row = kernels::find_row(id);
  const bool reference = row && kernels::is_baseline(*row) &&
                         (row->baseline == kernels::Baseline::Cub || row->baseline == kernels::Baseline::Copy);
  return row && (row->harris_step > 0 || reference);
}

render::PlotSpec shown_chart(const BenchUi& b, const core::BenchReport& report) {
  const auto origin = b.source == kFromFile ? render::Origin::File
                      : shows_shipped(b)      ? render::Origin::Shipped
                                              : render::Origin::ThisMachine;
  auto spec = render::bench_chart(report, core::to_string(b.type), core::to_string(b.op), origin);
  const std::size_t count = spec.series.size();
  const bool matrix = core::is_matrix_report(report);
  for (auto& series : spec.series)
    series.visible = shown_by_default(series.name, count, matrix, b.followed) != bool(b.toggled.count(series.name));
  // The shown series head the legend: where it has room for only some entries, those stay.
  std::stable_partition(spec.series.begin(), spec.series.end(), [](const render::Series& x) { return x.visible; });
  return spec;
}

void start_bench(AppState& s) {
  BenchUi& b = s.bench;
  b.source = kRunHere;  // the run's rows stream into the chart
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  if (!*b.sizes) std::snprintf(b.sizes, sizeof b.sizes, "%s", gpu ? "2^16..2^28" : "2^10..2^16");
  std::string why;
  backend::BenchRequest req;
  req.type = b.type;
  req.op = b.op;
  if (b.matrix) {
    const std::string text = b.shapes;
    const auto shapes =
        text == "sweep" ? std::optional(core::sweep_shapes(gpu ? 28 : 20)) : core::parse_shapes(text, &why);
    if (!shapes) {
      s.messages.error(Topic::Bench, "Shapes: " + why);
      return;
    }
    req.shapes = *shapes;
  } else {
    const auto sizes = core::parse_sizes(b.sizes, &why);
    if (!sizes) {
      s.messages.error(Topic::Bench, "Sizes: " + why);
      return;
    }
    req.sizes = *sizes;
  }
  const std::string ids = b.algorithms;
  if (ids == "all") {
    req.algorithms = b.matrix ? backend::default_matrix_bench_algorithms(b.type, b.op)
                              : backend::default_bench_algorithms(b.type, b.op);
  } else {
    for (std::size_t at = 0; at <= ids.size();) {
      const std::size_t comma = std::min(ids.find(',', at), ids.size());
      if (comma > at) req.algorithms.push_back(ids.substr(at, comma - at));
      at = comma + 1;
    }
  }
  s.messages.clear(Topic::Bench);
  b.worker.start(req, gpu ? backend::Choice::Cuda : backend::Choice::Sim);
  own_bench_start(s, gpu);
}

}  // namespace rl::ui
