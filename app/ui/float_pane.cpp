#include "float_pane.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "../../kernels/algorithms.h"
#include "../core/catalog.h"
#include "../core/text.h"
#include "app_state.h"
#include "colors.h"
#include "panel_parts.h"

namespace rl::ui {

namespace {
constexpr std::size_t kLadderLimit = std::size_t(1) << 20;  // six sums, once a recording: quick here
}  // namespace

FloatUi::~FloatUi() {
  cancel = lab_cancel = ladder_cancel = true;  // the workers stop after their current run
  if (pending.valid()) pending.wait();
  if (lab_pending.valid()) lab_pending.wait();
  if (ladder_pending.valid()) ladder_pending.wait();
}

void FloatUi::recorded(const backend::TraceRequest& req, const core::Trace& trace) {
  request = req;
  report.reset();
  // A matrix trace's result is its first row's or column's (block-2d: the whole matrix's).
  const bool whole = req.rows == 0 || trace.outputs.size() == 1;
  if (req.op == core::Op::Sum && whole)  // errors in the type the run added in (halves: float, or half itself)
    report = core::float_report(req.input, trace.result, core::accumulator_type(req.type, req.accumulate));
  ladder.clear();
  if (report && req.input.size() <= kLadderLimit) ladder = core::precision_ladder(req.input);
  ++generation;
  // Their runs are of the old request: stop them early.
  if (pending.valid()) cancel = true;
  if (lab_pending.valid()) lab_cancel = true;
  if (ladder_pending.valid()) ladder_cancel = true;
  repeats.reset();
  lab.reset();
  run_ladder.reset();
  error.clear();
}

namespace {

// Starts `work(own backend, request, runs, cancel)` on a thread of its own, with a second backend
// of the same kind; false (and the reason in error) where a GPU cannot be opened again.
template <class Result, class Work>
bool launch(const backend::Backend& backend, const backend::TraceRequest& request, int runs, std::atomic<bool>& cancel,
            std::future<Result>& pending, std::string& error, Work work) {
  std::string why;
  auto own = backend::same_kind(backend, &why);
  if (!own) {
    error = "Cannot open the GPU again: " + why;
    return false;
  }
  error.clear();
  cancel = false;
  pending = std::async(std::launch::async, [own = std::move(own), req = request, runs, &cancel, work]() mutable {
    return work(*own, req, runs, &cancel);
  });
  return true;
}

// Takes a finished job's result, kept only if it is of the recording on screen.
template <class Result>
void take(std::future<Result>& pending, bool current, std::optional<Result>& into, std::string& error,
          const char* what) {
  if (!pending.valid() || pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  try {
    Result r = pending.get();
    if (current) into = std::move(r);
  } catch (const std::exception& e) {
    if (current) error = std::string(what) + " failed: " + e.what();
  }
}

}  // namespace

void FloatUi::start(const backend::Backend& backend) {
  if (launch(backend, *request, runs, cancel, pending, error,
             [](backend::Backend& b, const backend::TraceRequest& r, int n, const std::atomic<bool>* c) {
               return backend::repeat_trace(b, r, n, c);
             }))
    pending_generation = generation;
}

void FloatUi::start_lab(const backend::Backend& backend) {
  if (launch(backend, *request, runs, lab_cancel, lab_pending, error,
             [](backend::Backend& b, const backend::TraceRequest& r, int n, const std::atomic<bool>* c) {
               return backend::repeat_every(b, r, n, c);
             }))
    lab_generation = generation;
}

// The algorithm whose runs make the ladder's rungs: the one on screen where it takes halves, else
// warp-shuffle-vectorized.
static std::string ladder_algorithm(const std::string& on_screen) {
  return backend::ladder_takes(on_screen) ? on_screen : "warp-shuffle-vectorized";
}

void FloatUi::start_ladder(const backend::Backend& backend) {
  const backend::Choice where = backend.name() == "cuda" ? backend::Choice::Cuda : backend::Choice::Sim;
  error.clear();
  ladder_cancel = false;
  ladder_generation = generation;
  ladder_pending = std::async(std::launch::async,
                              [where, algorithm = ladder_algorithm(request->algorithm), values = request->input, this] {
                                return backend::run_ladder(algorithm, values, where, 0.25, &ladder_cancel);
                              });
}

void FloatUi::poll() {
  take(ladder_pending, ladder_generation == generation, run_ladder, error, "The ladder");
  take(lab_pending, lab_generation == generation, lab, error, "The lab");
  take(pending, pending_generation == generation, repeats, error, "Repeat");
}

namespace {

// A term with its meaning on hover.
void term(const char* text, const char* tip) {
  ImGui::TextUnformatted(text);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tip);
}

std::string ulps_text(const std::optional<std::uint64_t>& ulps) {
  if (!ulps) return "no ulp count (NaN or infinity)";
  return core::count_text(std::size_t(*ulps), "ulp", "ulps");
}

std::string printed(const char* format, long double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// A label (padded to one column: the font is monospace), then its value.
void row(const char* label, const char* tip, const std::string& value) {
  term(label, tip);
  ImGui::SameLine(0, 0);
  ImGui::TextUnformatted(value.c_str());
}

void error_line(const core::SumError& e) {
  const std::string relative = "  " + printed("%.2Lg", e.relative) + " relative,";
  term(relative.c_str(), ("The error, " + printed("%.3Lg", e.absolute) + ", divided by the size of the reference.").c_str());
  ImGui::SameLine();
  term(ulps_text(e.ulps).c_str(),
       "Units in the last place: how many steps, from one value of the type to the next, separate this sum "
       "from the reference rounded to the type. 0: the sum is the reference rounded.");
}

void sums(const core::FloatReport& r) {
  const std::string type = core::to_string(r.type);
  row("reference ",
      ("The exact sum to about 18 digits: the same values added with Neumaier's compensated sum in long double, " +
       std::string(r.type == core::DType::Double ? "more" : "far more") + " precise than " + type + ".")
          .c_str(),
      printed("%.18Lg", r.reference));
  row(("as " + type + std::string(std::max<std::size_t>(7, type.size()) - type.size(), ' ')).c_str(),
      "The reference rounded to the type: the value of the type closest to the exact sum.",
      core::format_value(r.reference_rounded, r.type));
  row("this run  ", "The sum the run on screen computed, in its algorithm's order.",
      core::format_value(r.result.value, r.type));
  error_line(r.result);
  row("serial    ",
      "The same values added one after another, x0 + x1, then + x2, and so on, on the CPU in the same "
      "type: the order of a plain loop.",
      core::format_value(r.serial.value, r.type));
  error_line(r.serial);
}

// What the runs showed, against what the algorithm's row says of repeated runs, and why the CPU
// model can show no spread.
void repeat_verdict(const backend::Repeats& r, core::DType type, kernels::RunToRun promise) {
  const bool model = r.backend != "cuda";
  const std::string where = model ? r.device : "GPU: " + r.device;
  const std::size_t k = r.results.size();
  ImGui::TextWrapped("%d run%s on %s: %zu distinct result%s.", r.runs, r.runs == 1 ? "" : "s", where.c_str(), k,
                     k == 1 ? "" : "s");
  constexpr std::size_t kShown = 8;
  for (std::size_t i = 0; i < std::min(k, kShown); ++i)
    ImGui::Text("  %s in %d run%s", core::format_value(r.results[i].result, type).c_str(), r.results[i].count,
                r.results[i].count == 1 ? "" : "s");
  if (k > kShown) ImGui::TextDisabled("  and %zu more", k - kShown);
  const bool arrival = promise == kernels::RunToRun::Arrival;
  if (model && arrival)
    ImGui::TextWrapped(
        "The CPU model adds in one fixed order; the GPU's blocks do not. Run on a GPU to see "
        "whether its results differ.");
  else if (model)
    ImGui::TextWrapped("The CPU model adds in one fixed order, so every run gives the same result.");
  else if (arrival)
    ImGui::TextWrapped(
        "This algorithm's blocks combine their results in whatever order they finish, which can "
        "change from run to run.");
  else if (promise == kernels::RunToRun::Fixed && k > 1)
    ImGui::TextColored(kErrorRed,
                       "This algorithm adds in a fixed order, yet its runs differ: a fault in the "
                       "kernel or the GPU.");
}

// One algorithm's row of the lab's table: its promise and what its runs gave.
static void lab_row(const backend::LabRow& r, core::DType type) {
  const kernels::RunToRun promise = kernels::run_to_run(*kernels::find_row(r.algorithm));
  ImGui::TableNextRow();
  ImGui::TableNextColumn(), ImGui::TextUnformatted(r.algorithm.c_str());
  ImGui::TableNextColumn(), ImGui::TextUnformatted(std::string(kernels::to_string(promise)).c_str());
  ImGui::TableNextColumn();
  const std::size_t k = r.repeats.results.size();
  if (k == 1) {
    ImGui::TextWrapped("%s in %d run%s", core::format_value(r.repeats.results[0].result, type).c_str(), r.repeats.runs,
                       r.repeats.runs == 1 ? "" : "s");
  } else {
    const auto [lo, hi] = std::minmax_element(r.repeats.results.begin(), r.repeats.results.end(),
                                              [](const auto& a, const auto& b) { return a.result < b.result; });
    const std::string text = std::to_string(k) + " results in " + std::to_string(r.repeats.runs) + " runs, " +
                             core::format_value(lo->result, type) + " to " + core::format_value(hi->result, type);
    if (promise == kernels::RunToRun::Fixed) {
      ImGui::PushStyleColor(ImGuiCol_Text, kErrorRed);
      ImGui::TextWrapped("%s: a fixed order differed", text.c_str());
      ImGui::PopStyleColor();
    } else {
      ImGui::TextWrapped("%s", text.c_str());
    }
  }
  if (!r.note.empty()) {  // ran otherwise than asked: at 256 threads where the block was not a power of two
    ImGui::PushTextWrapPos(0), ImGui::TextDisabled("%s", r.note.c_str()), ImGui::PopTextWrapPos();
  }
}

// The determinism lab's table: each algorithm's promise (its row) beside what its runs gave.
void lab_table(const std::vector<backend::LabRow>& rows, core::DType type) {
  const bool model = std::none_of(rows.begin(), rows.end(), [](const auto& r) { return r.repeats.backend == "cuda"; });
  ImGui::TextWrapped(model
                         ? "Every algorithm once, on the CPU model: it adds in one fixed order, so no run can "
                           "differ. Run on a GPU to see which algorithms' results change."
                         : "Every algorithm on this input, on the GPU: what its row promises, and what its runs gave.");
  // The kernels that ran fill the table; those that refused this input share one line a reason.
  std::vector<std::pair<std::string, std::vector<std::string>>> refused;
  for (const auto& r : rows) {
    if (r.error.empty()) continue;
    // "'sequential' takes no half yet: ..." -> "takes no half yet: ...", the reason they share
    const std::string named = "'" + r.algorithm + "' ";
    const std::string why = r.error.rfind(named, 0) == 0 ? r.error.substr(named.size()) : r.error;
    auto same = std::find_if(refused.begin(), refused.end(), [&](const auto& g) { return g.first == why; });
    if (same == refused.end()) same = refused.insert(refused.end(), {why, {}});
    same->second.push_back(r.algorithm);
  }
  if (ImGui::BeginTable("lab", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) {
    for (const char* h : {"algorithm", "promise", "runs gave"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const auto& r : rows)
      if (r.error.empty()) lab_row(r, type);
    ImGui::EndTable();
  }
  for (const auto& [why, ids] : refused) {
    std::string names;
    for (const auto& id : ids) names += (names.empty() ? "" : ", ") + id;
    ImGui::PushTextWrapPos(0);
    ImGui::TextDisabled("Not run: %s. %s %s", names.c_str(), ids.size() == 1 ? "It" : "Each",
                        core::printable(why).c_str());
    ImGui::PopTextWrapPos();
  }
}

void repeat_controls(AppState& s, kernels::RunToRun promise) {
  FloatUi& f = s.floats;
  const float em = ImGui::GetFontSize();
  ImGui::SetNextItemWidth(em * 5);
  ImGui::InputInt("##runs", &f.runs, 0);
  focus_on_near_click("##runs");
  f.runs = std::clamp(f.runs, 1, backend::kMaxRepeats);
  ImGui::SameLine();
  const bool busy = f.pending.valid() || f.lab_pending.valid();
  ImGui::BeginDisabled(busy);
  const std::string label = "Run " + std::to_string(f.runs) + " times";
  if (ImGui::Button(label.c_str())) f.start(*s.backend.backend);
  ImGui::SameLine();
  if (ImGui::Button("Every algorithm")) f.start_lab(*s.backend.backend);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Run every array algorithm but the pitfalls %d times on this input (the CPU model once each) "
        "and count each one's distinct results",
        f.runs);
  ImGui::EndDisabled();
  if (busy) ImGui::TextDisabled("running...");
  if (!f.error.empty()) ImGui::TextWrapped("%s", f.error.c_str());
  if (f.repeats) repeat_verdict(*f.repeats, f.request->type, promise);
  if (f.lab) lab_table(*f.lab, f.request->type);
}

// "half in half": the values' type and the one that adds them.
std::string rung_name(const core::Rung& r) {
  return core::narrow_name(r.element) + " in " + core::narrow_name(r.accumulator);
}

// The chart's labels, narrow enough for six bars in the lesson pane.
const char* short_name(core::Narrow t) {
  switch (t) {
    case core::Narrow::Half: return "f16";
    case core::Narrow::Bf16: return "bf16";
    case core::Narrow::Float: return "f32";
    case core::Narrow::Double: return "f64";
  }
  return "?";
}

// The ladder as bars: each rung's correct decimal digits (a taller bar, a closer sum).
void ladder_chart(const std::vector<core::Rung>& ladder) {
  const float em = ImGui::GetFontSize(), width = ImGui::GetContentRegionAvail().x, height = em * 8;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float label_h = em * 2.4f, top = at.y + em * 1.2f, base = at.y + height - label_h;
  const float slot = width / float(ladder.size());
  draw->AddText({at.x, at.y}, ImGui::GetColorU32(ImGuiCol_TextDisabled), "correct digits: -log10(relative error)");
  for (std::size_t i = 0; i < ladder.size(); ++i) {
    const core::Rung& r = ladder[i];
    const auto digits = core::correct_digits(r);
    const float x0 = at.x + slot * float(i) + slot * 0.15f, x1 = at.x + slot * float(i + 1) - slot * 0.15f;
    const float h = digits ? float(*digits / core::kExactDigits) * (base - top) : 0;
    draw->AddRectFilled({x0, base - h}, {x1, base},
                        ImGui::GetColorU32(digits ? ImGuiCol_PlotHistogram : ImGuiCol_PlotLines));
    char value[32];
    std::snprintf(value, sizeof value, digits ? (*digits >= core::kExactDigits ? "exact" : "%.1f") : "inf",
                  digits.value_or(0));
    draw->AddText({x0, base - h - em}, ImGui::GetColorU32(digits ? ImGuiCol_Text : ImGuiCol_PlotLinesHovered), value);
    draw->AddText({x0, base + em * 0.1f}, ImGui::GetColorU32(ImGuiCol_Text), short_name(r.element));
    draw->AddText({x0, base + em * 1.1f}, ImGui::GetColorU32(ImGuiCol_TextDisabled),
                  (std::string("in ") + short_name(r.accumulator)).c_str());
  }
  ImGui::Dummy({width, height});
}

// The same input in every type, narrowest first, each sum against its own exact one; then where
// each sum first stopped growing (2048 + 1 = 2048 in half).
void ladder_table(const FloatUi& f) {
  if (f.ladder.empty()) {
    ImGui::TextWrapped("The ladder takes inputs of up to %zu values; this one has %zu.", kLadderLimit,
                       f.request ? f.request->input.size() : std::size_t(0));
    return;
  }
  ImGui::TextWrapped(
      "The same values as each type holds them, added left to right on the CPU, each addition "
      "rounded as the GPU rounds it. Half and bfloat16 adding in float is what PyTorch does on the "
      "GPU; adding in their own type is the pitfall. Off by: steps of the adding type from the exact "
      "sum of the values it holds, rounded to that type, as above.");
  if (ImGui::BeginTable("ladder", 3, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) {
    for (const char* h : {"values in type", "sum", "off by"}) ImGui::TableSetupColumn(h);
    ImGui::TableHeadersRow();
    for (const core::Rung& r : f.ladder) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn(), ImGui::TextUnformatted(rung_name(r).c_str());
      ImGui::TableNextColumn(), ImGui::Text("%.*g", r.accumulator == core::Narrow::Double ? 12 : 9, r.result);
      ImGui::TableNextColumn();
      if (r.ulps)
        ImGui::TextUnformatted(ulps_text(r.ulps).c_str());
      else
        ImGui::TextColored(kErrorRed, "%s", std::isinf(r.result) ? "overflow" : "no number");
    }
    ImGui::EndTable();
  }
  ladder_chart(f.ladder);
  for (const core::Rung& r : f.ladder)
    if (r.stalled_at)
      ImGui::TextWrapped("%s: value #%zu changed nothing: %.9g + %.9g = %.9g.", rung_name(r).c_str(), *r.stalled_at,
                         r.stalled_sum, r.stalled_addend, r.stalled_sum);
}

// The ladder's rungs as runs of one algorithm: on the GPU each a timed run whose result is shown,
// with its bandwidth beside its error; on the CPU model the same order of adds, untimed.
void ladder_runs(AppState& s) {
  FloatUi& f = s.floats;
  const bool busy = f.ladder_pending.valid();
  ImGui::BeginDisabled(busy || !s.backend.backend);
  const std::string label = "Run each rung with " + ladder_algorithm(f.request->algorithm);
  if (ImGui::Button(label.c_str()) && s.backend.backend) f.start_ladder(*s.backend.backend);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "The same values through the algorithm's kernel in each type: on a GPU, timed as the "
        "Bandwidth tab times (each rung's result is its timed run's); on the CPU model, its "
        "order of adds, untimed");
  ImGui::EndDisabled();
  if (busy) ImGui::TextDisabled("running...");
  if (!f.run_ladder) return;
  const backend::LadderRun& run = *f.run_ladder;
  ImGui::TextWrapped("%s on %s%s, %zu values:", run.algorithm.c_str(), run.gpu ? "the GPU: " : "",
                     run.gpu ? run.device.c_str() : "the CPU model (its order of adds; no time)",
                     f.request->input.size());
  const int columns = run.gpu ? 5 : 3;
  if (!ImGui::BeginTable("ladder runs", columns, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingStretchProp)) return;
  ImGui::TableSetupColumn("rung");
  ImGui::TableSetupColumn("sum");
  ImGui::TableSetupColumn("off by");
  if (run.gpu) ImGui::TableSetupColumn("us"), ImGui::TableSetupColumn("GB/s");
  ImGui::TableHeadersRow();
  for (const backend::LadderRung& r : run.rungs) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn(), ImGui::TextUnformatted(rung_name(r.rung).c_str());
    ImGui::TableNextColumn(),
        ImGui::TextUnformatted(core::format_value(r.rung.result, core::dtype_of(r.rung.accumulator)).c_str());
    ImGui::TableNextColumn(), ImGui::TextUnformatted(ulps_text(r.rung.ulps).c_str());
    if (!run.gpu) continue;
    ImGui::TableNextColumn(), ImGui::Text("%.2f", r.median_us);
    ImGui::TableNextColumn(), ImGui::Text("%.0f", r.gbps);
  }
  ImGui::EndTable();
  std::vector<core::Rung> rungs;  // the same bars as the CPU ladder's, for the runs
  for (const backend::LadderRung& r : run.rungs) rungs.push_back(r.rung);
  ladder_chart(rungs);
}

void why(const core::FloatReport& r) {
  const char* u = r.type == core::DType::Float  ? "2^-24"
                  : r.type == core::DType::Half ? "2^-11"
                  : r.type == core::DType::Bf16 ? "2^-8"
                                                : "2^-53";
  ImGui::TextWrapped("Why: floating-point addition is not associative: (a + b) + c can round differently "
                     "from a + (b + c), so each order of adding gives its own error.");
  ImGui::TextWrapped("Worst cases: left to right, an early value goes through n - 1 roundings, so the error "
                     "can grow like n * u * sum|x|; a tree (pairwise) sum puts each value through about "
                     "log2(n), so like log2(n) * u * sum|x| (u = %s). Every order's longest chain of roundings "
                     "lies between the two.", u);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("u is the unit roundoff: half the gap between 1 and the next value of the type.\n"
                      "The bounds: Higham, Accuracy and Stability of Numerical Algorithms, chapter 4.");
}

}  // namespace

void float_pane(AppState& s) {
  FloatUi& f = s.floats;
  f.poll();
  if (!s.trace || !f.request) {
    ImGui::TextWrapped("Run an algorithm to see how far its sum is from the exact one.");
    return;
  }
  const backend::TraceRequest& req = *f.request;
  if (req.op != core::Op::Sum) {
    ImGui::TextWrapped("min and max return one of the input values, never a rounded one. Choose the sum "
                       "operator to see rounding.");
    return;
  }
  if (!f.report && req.rows > 0 && req.type != core::DType::Int) {
    ImGui::TextWrapped("This tab follows one sum of the whole input; this algorithm leaves one sum per row or column. "
                       "Choose block-2d, or an array algorithm, to see rounding.");
    return;
  }
  if (!f.report) {
    ImGui::TextWrapped("Integer addition is exact and associative: every order gives the same sum (one that "
                       "overflows wraps modulo 2^32, the same in any order). Choose float or double to see "
                       "rounding.");
    return;
  }
  const auto* row = kernels::find_row(req.algorithm);
  const kernels::RunToRun promise = row ? kernels::run_to_run(*row) : kernels::RunToRun::None;
  ImGui::TextDisabled("sum of %zu %s values, added in %s", req.input.size(), core::to_string(req.type).c_str(),
                      core::to_string(f.report->type).c_str());
  sums(*f.report);
  if (ImGui::CollapsingHeader("Precision ladder: half, bfloat16, float, double", ImGuiTreeNodeFlags_DefaultOpen)) {
    ladder_table(f);
    ladder_runs(s);
  }
  ImGui::Separator();
  if (row)
    ImGui::TextWrapped("Run to run, %s: %s.", req.algorithm.c_str(), core::run_to_run_text(req.algorithm).c_str());
  repeat_controls(s, promise);
  ImGui::Separator();
  why(*f.report);
}

}  // namespace rl::ui
