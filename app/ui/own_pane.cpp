#include "own_pane.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <system_error>

#include "../core/embedded.h"
#include "../core/file_io.h"
#include "../core/text.h"
#include "../own/nvrtc.h"
#include "../own/own_check.h"
#include "../own/own_file.h"
#include "../own/own_process.h"
#include "../own/own_trace.h"
#include "colors.h"
#include "open_pane.h"
#include "own_editor.h"
#include "panel_parts.h"

namespace rl::ui {
namespace {

constexpr int kPollFrames = 30;  // the file's time is read about twice a second
// The CPU path's step budget in the window: a kernel that never ends is stopped within about half
// a minute here (2^20 elements through reduce3 take about 2^27 thread-instructions).
constexpr std::uint64_t kWindowSteps = std::uint64_t(1) << 29;
// A GPU run (compile, CUDA's start, the traced run and the other sizes: under a second for the
// starters) still going after this long is stopped: its process ends, the window keeps running.
constexpr double kGpuWatchdogSeconds = 10;
// The checks' GPU process runs the file again at four sizes, 2^24 + 3 elements the largest.
constexpr double kGpuCheckWatchdogSeconds = 30;

std::filesystem::file_time_type time_of(const std::string& path) {
  std::error_code ec;
  const auto t = std::filesystem::last_write_time(path, ec);
  return ec ? std::filesystem::file_time_type{} : t;
}

// Text from the file's run (NVRTC's log holds the student's lines), escaped line by line.
std::string shown_text(const std::string& text) {
  std::string out;
  std::size_t at = 0;
  for (int lines = 0; at <= text.size() && lines < 40; ++lines) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (end > at) out += (out.empty() ? "" : "\n") + core::printable(text.substr(at, end - at));
    at = end + 1;
  }
  return out;
}

std::string outcome(const core::Trace& t, const std::string& file) {
  std::string said = "Ran " + core::printable(file) + " on " + t.device + ": " +
                     core::counted(t.stages.size(), "stage") + " of block " + std::to_string(t.trace_block) +
                     ", value " + core::format_value(t.result, t.type) + ".";
  if (!t.findings.empty()) said += " " + core::counted(t.findings.size(), "finding") + " below.";
  return said;
}

// GPU = CPU: green when the two traces are equal bit for bit, red at their first difference,
// grey when they were not compared.
void agreement_badge(const own::Agreement& a) {
  const bool compared = a.compared;
  const ImVec4 color = a.equal ? kEqualGreen : compared ? kErrorRed : ImGui::GetStyle().Colors[ImGuiCol_TextDisabled];
  ImGui::PushStyleColor(ImGuiCol_Button, ImVec4(color.x, color.y, color.z, 0.25f));
  ImGui::PushStyleColor(ImGuiCol_ButtonHovered, ImVec4(color.x, color.y, color.z, 0.25f));
  ImGui::PushStyleColor(ImGuiCol_ButtonActive, ImVec4(color.x, color.y, color.z, 0.25f));
  ImGui::SmallButton(a.equal ? "GPU = CPU" : compared ? "GPU != CPU" : "GPU, CPU not compared");
  ImGui::PopStyleColor(3);
  wrapped(color, a.text);
}

}  // namespace

void run_own(AppState& s, const std::string& path) {
  OwnUi& o = s.own;
  if (o.busy()) return;  // one run at a time; a save meanwhile is seen after
  if (path != o.file) {
    if (o.editor.dirty() && !save_editor(o)) return;  // the edits of the file before are kept
    o.editor = {}, o.disk_changed = false;
  }
  o.file = path, o.stamp = time_of(path), o.polls = 0, o.failed = true, o.findings.clear(), o.agreement.reset();
  std::snprintf(o.path, sizeof o.path, "%s", path.c_str());
  std::string source;
  if (!core::read_file(path, core::files::kKernel, &source, &o.said)) return;
  if (!o.editor.dirty())
    o.editor.text = o.editor.saved = source;  // a save from another editor shows here
  else if (source != o.editor.saved)
    o.disk_changed = true;  // edits here are never overwritten
  const RunChoice c = s.choice;
  o.gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  try {
    std::vector<double> values = run_request(c).input;
    o.request = own::own_request(std::move(source), path, c.type, values, 0, unsigned(c.trace_block));
    o.request.step_budget = kWindowSteps, o.op = c.op;
    if (!c.typed && c.input.kind != core::InputSpec::Kind::File)  // drawn: the child draws it again (fill_input)
      o.request.input_spec = core::to_string(c.input);
    *o.stop = false, o.started = std::chrono::steady_clock::now();
    // The run alone first, so that its trace is on screen soonest; the checks follow (start_checks).
    if (o.gpu)  // in a process of its own, under a watchdog (own_process.h), started already where one waits
      o.pending = std::async(
          std::launch::async, [r = o.request, op = c.op, stop = o.stop, ready = std::move(o.standby)]() mutable {
            return own::trace_in_process(r, op, {own::this_program(), "cuda", kGpuWatchdogSeconds, false}, stop.get(),
                                         std::move(ready));
          });
    else
      o.pending =
          std::async(std::launch::async, [r = o.request, op = c.op] { return own::trace_own(r, false, op, 0); });
    o.running = o.gpu ? "the GPU" : "the CPU (NVRTC's PTX, interpreted)";
    o.failed = false, o.said.clear();
  } catch (const std::exception& e) {
    o.said = shown_text(e.what());
  }
}

namespace {

bool ready(const auto& future) {
  return future.valid() && future.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// The checks of a run on screen: on the GPU, the run again in a process of its own with its checks
// at other sizes (their findings kept); on the CPU, the second warp schedule and the other sizes.
void start_checks(OwnUi& o, const core::Trace& t) {
  if (o.gpu)
    o.checking = std::async(std::launch::async, [r = o.request, op = o.op, stop = o.stop] {
      const own::ProcessOptions p{own::this_program(), "cuda", kGpuCheckWatchdogSeconds, true};
      std::vector<core::Finding> out;
      for (core::Finding& f : own::trace_in_process(r, op, p, stop.get()).findings)
        if (f.kind == "wrong-size") out.push_back(std::move(f));
      return out;
    });
  else
    o.checking = std::async(std::launch::async, [r = o.request, op = o.op, t, seed = own::fresh_seed()] {
      return own::later_findings(r, false, op, t, seed);
    });
}

void land_checks(AppState& s) {
  OwnUi& o = s.own;
  try {
    const std::vector<core::Finding> found = o.checking.get();
    o.findings.insert(o.findings.end(), found.begin(), found.end());
    if (s.trace && s.trace->source == o.file) own::add_findings(*s.trace, found);
  } catch (const std::exception& e) {
    o.said += "\nThe checks at other sizes did not finish: " + shown_text(e.what());
  }
}

// The run lands on screen; a GPU run's comparison with the CPU path starts beside it, so the
// GPU's trace is shown without waiting for the interpreter, and the checks after it.
void land_run(AppState& s) {
  OwnUi& o = s.own;
  o.running.clear();
  try {
    core::Trace t = o.pending.get();
    o.said = outcome(t, o.file), o.findings = t.findings, o.failed = false;
    // Run to screen: the target, measured where the student sees it (the frame after this).
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - o.started).count();
    o.said += " On screen " + std::to_string(int(ms + 0.5)) + " ms after Run.";
    std::fprintf(stderr, "reduction-lab: own run on screen %d ms after Run (%s)\n", int(ms + 0.5),
                 o.gpu ? "GPU" : "CPU path");
    if (o.gpu)
      o.comparing =
          std::async(std::launch::async, [r = o.request, op = o.op, t] { return own::compare_on_cpu(r, op, t); });
    if (t.findings.empty()) start_checks(o, t);
    const bool timing = s.tab == Tab::Bandwidth && (s.bench.worker.running() || s.bench.own.waiting);
    put_trace(s, std::move(t), o.file, o.said);
    if (timing) s.tab = Tab::Bandwidth;  // a run landing does not pull the view off a benchmark in progress
  } catch (const std::exception& e) {
    o.failed = true, o.said = shown_text(e.what());
    // A compile error or a bad launch line: the editor opens at the marked lines.
    if (!own::line_messages(o.said, o.file).empty()) open_in_editor(s, o.file);
  }
}

// The comparison lands: the badge, and what the CPU path found joins the trace on screen.
void land_comparison(AppState& s) {
  OwnUi& o = s.own;
  own::Compared cpu = o.comparing.get();  // compare_on_cpu does not throw
  o.agreement = cpu.agreement;
  o.findings.insert(o.findings.end(), cpu.trace.findings.begin(), cpu.trace.findings.end());
  if (s.trace && s.trace->source == o.file) own::add_findings(*s.trace, cpu.trace.findings);
}

// Keeps a GPU run's process waiting while a file of your own is open on a GPU: the next Run skips
// CUDA's start. One start every few seconds at most, so one that cannot start is not retried at
// every frame.
void keep_standby(AppState& s) {
  OwnUi& o = s.own;
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  if (!gpu || o.file.empty() || o.pending.valid() || (o.standby && o.standby->waiting())) return;
  const auto now = std::chrono::steady_clock::now();
  if (now - o.standby_at < std::chrono::seconds(5)) return;
  o.standby_at = now, o.standby.reset();
  try {
    o.standby = std::make_unique<own::Standby>(own::this_program());
  } catch (const std::exception&) {
    // the run itself then starts a process of its own, and says what went wrong
  }
}

}  // namespace

void poll_own(AppState& s) {
  OwnUi& o = s.own;
  keep_standby(s);
  if (ready(o.pending)) land_run(s);
  if (ready(o.comparing)) land_comparison(s);
  if (ready(o.checking)) land_checks(s);
  if (!o.watch || o.file.empty() || o.busy() || ++o.polls < kPollFrames) return;
  o.polls = 0;
  if (time_of(o.file) != o.stamp) run_own(s, o.file);
}

namespace {

// The starters (assets/own/), copied into the student's folder and opened in the editor.
void starter_picker(AppState& s) {
  ImGui::SetNextItemWidth(-1);
  if (!ImGui::BeginCombo("##starter", "Start from a starter file...")) return;
  for (const std::string_view id : embedded::own_file_names())
    if (id != "reduction_lab" && ImGui::Selectable(std::string(id).c_str())) open_starter(s, std::string(id));
  ImGui::EndCombo();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copied into %s, then opened in the editor", own_folder().c_str());
}

}  // namespace

void own_section(AppState& s) {
  OwnUi& o = s.own;
  if (!o.file.empty()) ImGui::SetNextItemOpen(true, ImGuiCond_Once);  // opened with --kernel or a drop
  if (!ImGui::CollapsingHeader("Your own kernel")) return;
  ImGui::TextDisabled("A .cu file with //! launch lines (docs/own-kernel.md); or drop one on the window");
  if (std::string why; !own::nvrtc_ready(&why)) {
    wrapped(kAmber, why);  // what to install
    return;
  }
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
  const bool enter = ImGui::InputText("##own path", o.path, sizeof o.path, ImGuiInputTextFlags_EnterReturnsTrue);
  focus_on_near_click("##own path");
  ImGui::SameLine();
  ImGui::BeginDisabled(o.busy());
  if (ImGui::Button("Run##own") || enter) run_own(s, o.path);
  ImGui::EndDisabled();
  if (o.gpu && o.pending.valid()) {  // a GPU run runs in a process of its own: it can be stopped
    ImGui::SameLine();
    if (ImGui::Button("Stop##own")) *o.stop = true;
  }
  ImGui::SameLine();
  if (ImGui::Button("Edit##own")) open_in_editor(s, o.path);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Edit the file here, in the kernel source's place");
  starter_picker(s);
  ImGui::Checkbox("Run again when the file is saved", &o.watch);
  own_status(s);
}

void own_status(const AppState& s) {
  const OwnUi& o = s.own;
  if (!o.running.empty()) {
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - o.started).count();
    char line[160];
    std::snprintf(line, sizeof line, "Running on %s... %.0f s", o.running.c_str(), secs);
    wrapped(kAmber,
            o.gpu ? std::string(line) + " (stopped at " + std::to_string(int(kGpuWatchdogSeconds)) + " s)" : line);
  }
  if (o.comparing.valid()) wrapped(kAmber, "Running the CPU path beside it, to compare...");
  if (o.checking.valid()) wrapped(kAmber, "Checking other sizes...");
  if (!o.said.empty()) wrapped(o.failed ? kErrorRed : ImGui::GetStyle().Colors[ImGuiCol_Text], o.said);
  if (o.agreement) agreement_badge(*o.agreement);
  for (const auto& f : o.findings) wrapped(kErrorRed, f.kind + ": " + f.text);
}

}  // namespace rl::ui
