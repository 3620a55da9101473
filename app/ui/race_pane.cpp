#include "race_pane.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <map>

#include "../../kernels/race_api.h"
#include "../../kernels/algorithms.h"
#include "../backend/geometry.h"
#include "../backend/repeat.h"
#include "../core/race.h"
#include "colors.h"
#include "panel_parts.h"

namespace rl::ui {
namespace {


std::string fix_of(const std::string& id) {
  const auto* row = kernels::find_row(id);
  return row ? std::string(row->fix) : std::string();
}

bool on_gpu(const AppState& s) { return s.backend.backend && s.backend.backend->name() == "cuda"; }

// The fields of two runs, compare mode aside.
bool same_run(RunChoice a, RunChoice b) {
  a.compare.clear(), b.compare.clear();
  return a == b;
}

// The recording shipped for an algorithm, parsed once.
const std::optional<core::Trace>& shipped(const std::string& id) {
  static std::map<std::string, std::optional<core::Trace>> cache;
  const auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  std::optional<core::Trace> t;
  try {
    t = core::shipped_race(id);
    if (t) backend::complete_geometry(*t);
  } catch (const std::exception&) {
    t.reset();  // a broken embedded file: the tests catch it, the window shows none
  }
  return cache.emplace(id, std::move(t)).first->second;
}

// The recording's fields become the run's, and the views show it.
void put_on_screen(AppState& s, core::Trace t, RaceUi::From from, const std::string& file) {
  backend::complete_geometry(t);  // a recording from before traces carried their layout
  RunChoice& c = s.choice;
  if (!s.race.shown) s.race.before = c;  // what the next algorithm picked goes back to
  c.algorithm = t.algorithm, c.op = t.op, c.type = t.type, c.block = t.block, c.trace_block = t.trace_block;
  c.size = int(std::min<std::size_t>(t.size, std::size_t(kMaxTracedSize)));
  RaceUi& r = s.race;
  r.recording = std::move(t);
  r.fix.reset();
  r.from = from, r.file = file, r.shown = true, r.choice = c;
  s.messages.clear(Topic::Race);
  r.focus_stage = -1;
  s.stale_read = 0;
  s.recorded = c;
  show_recording(s);
}

// What stands beside the recording in compare mode: the fix race-recorded with it, else the
// algorithm traced over the recorded block's own inputs (one block).
core::Trace beside(const AppState& s, const std::string& id) {
  const RaceUi& r = s.race;
  if (r.fix && r.fix->algorithm == id) return *r.fix;
  const core::Trace& rec = *r.recording;
  backend::TraceRequest req;
  req.algorithm = id, req.op = rec.op, req.type = rec.type, req.block = rec.block, req.input = rec.input;
  return s.backend.backend->trace(req);
}

// Where the recording on screen came from, in words.
std::string origin(const RaceUi& r) {
  const core::Trace& t = *r.recording;
  const bool says = t.device.find("not a GPU") != std::string::npos;
  std::string text = t.backend == "cuda" ? "Recorded on " + t.device + " on " + t.race->date
                                         : (says ? "" : "Not a GPU run: ") + t.device + ", " + t.race->date;
  text[0] = char(std::toupper(static_cast<unsigned char>(text[0])));
  switch (r.from) {
    case RaceUi::From::Gpu: return text + ": the runs just made here.";
    case RaceUi::From::File: return text + ", from " + r.file + ".";
    case RaceUi::From::Shipped: return text + ", shipped with the program, not a live run.";
  }
  return text;
}

// The compared side's own words: race-recorded with the same runs, or traced once over the
// recorded block's inputs (and on what).
std::string beside_text(const AppState& s) {
  if (!s.compare_trace || !s.race.shown) return {};
  const core::Trace& t = *s.compare_trace;
  if (t.race)
    return "Beside it: " + t.algorithm + ", race-recorded on the same input on " + t.device + ": " + core::race_headline(*t.race) + ".";
  const std::string inputs = std::to_string(t.input.size()) + " inputs";
  if (t.backend != "cuda")
    return "Beside it: " + t.algorithm + " on the CPU model, over the recorded block's " + inputs +
           ": its stages as the code means them, not a GPU run.";
  return "Beside it: " + t.algorithm + ", one plain traced run on " + t.device + " over the recorded block's " + inputs +
         " (not race-recorded).";
}

// Where every read came in the order it needed: promised by a fix's barriers; for a pitfall,
// why that proves nothing, and racecheck's finding.
void luck_text(const core::Race& race, const std::string& id, bool presenter) {
  const std::string runs = race.runs == 1 ? "the 1 run" : "all " + std::to_string(race.runs) + " runs";
  if (fix_of(id).empty()) {
    ImGui::TextWrapped("In %s every block gave the result the code means, and the replayed block read nothing stale: "
                       "its barriers order every read after the write it waits for and before the next write to that "
                       "cell, so no run can go wrong.", runs.c_str());
    return;
  }
  ImGui::TextWrapped("In %s every block gave the result the code means, and the replayed block read nothing stale: as far "
                     "as these runs show, each read came after the write it waited for and before any later write to its "
                     "cell.", runs.c_str());
  ImGui::TextWrapped("That proves nothing: the order is not promised, and another run, GPU, block size or load may differ.");
  const auto finding = core::racecheck_finding(id);
  if (!finding) return;
  wrapped(kShippedBlue, "The evidence: compute-sanitizer racecheck on " + finding->device + ", " + finding->date + ": " +
                            finding->summary + (presenter ? "" : "\n" + finding->command));
  if (presenter && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", finding->command.c_str());
  if (finding->summary.find("(0 errors") != std::string::npos)
    ImGui::TextWrapped("Warnings are the level racecheck gives hazards from code that assumes a warp's threads proceed "
                       "together; since Volta they are not promised to (independent thread scheduling).");
}

// The runs field: 1 to 10000, a refusal said beside it.
void runs_field(RaceUi& r) {
  int typed = r.runs;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  const bool changed = ImGui::InputInt("runs", &typed, 0);
  focus_on_near_click("runs");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("How many times the GPU runs the whole reduction on the same input (1 to 10000)");
  const bool refused = typed < 1 || typed > kernels::kMaxRaceRuns;
  if (changed && refused)
    r.runs_note = "runs: 1 to " + std::to_string(kernels::kMaxRaceRuns) + ", not " + std::to_string(typed) + "; kept " + std::to_string(r.runs);
  else if (changed)
    r.runs = typed, r.runs_note.clear();
  if (!r.runs_note.empty()) {
    ImGui::SameLine();
    wrapped(kAmber, r.runs_note);
  }
}

// N runs of the pitfall and N of its fix, same input, on a thread with a GPU of its own.
void start_runs(AppState& s) {
  RaceUi& r = s.race;
  std::string why;
  auto own = backend::same_kind(*s.backend.backend, &why);
  if (!own) {
    s.messages.error(Topic::Race, "Cannot open the GPU again: " + why);
    return;
  }
  backend::TraceRequest req;
  try {
    req = run_request(s.choice);
  } catch (const std::exception& e) {
    s.messages.error(Topic::Race, e.what());
    return;
  }
  s.messages.clear(Topic::Race);
  r.pending_choice = s.choice;
  r.pending = std::async(std::launch::async, [own = std::move(own), req, fix = fix_of(req.algorithm), n = r.runs] {
    RaceUi::Runs out{own->race(req, n), {}};
    backend::TraceRequest other = req;
    other.algorithm = fix, other.trace_block = out.pitfall.race->block;  // the fix replays the same block
    out.fix = own->race(other, n);
    return out;
  });
}

void gpu_controls(AppState& s) {
  RaceUi& r = s.race;
  const bool busy = r.pending.valid();
  ImGui::BeginDisabled(busy);
  const std::string label = "Run " + (r.runs == 1 ? std::string("once") : std::to_string(r.runs) + " times") + " on the GPU";
  if (ImGui::Button(label.c_str())) start_runs(s);
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Runs the whole reduction, and then its fix, on this input with a recording that adds no barrier");
  const std::string times = r.runs == 1 ? "once" : std::to_string(r.runs) + " times";
  if (busy) ImGui::TextDisabled("running %s, then the fix %s...", times.c_str(), times.c_str());
}

// Without a GPU: why not, and a recording to look at instead (shipped, or how to make one).
void model_note(const std::string& id) {
  wrapped(kAmber, "The race needs a GPU run: the CPU model runs the threads one after another, so it cannot race.");
  if (shipped(id)) return;
  ImGui::TextWrapped("No recording ships in this build. Make one on a GPU machine:");
  const std::string cmd = "reduction-lab trace -a " + id + " --runs 100 --block 1024 -n 2^20 --format json > rec.json";
  wrapped(ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled), cmd);
  ImGui::TextWrapped("then open it with --race-file rec.json.");
}

void shipped_controls(AppState& s, const std::string& id) {
  const auto& t = shipped(id);
  if (!t) return;
  const bool on = s.race.shown && s.race.from == RaceUi::From::Shipped && s.race.recording &&
                  s.race.recording->algorithm == id;
  wrapped(kShippedBlue, "A recording ships with the program: recorded on " + t->device + " on " + t->race->date +
                            ", shipped with the program, not a live run.");
  ImGui::BeginDisabled(on);
  if (ImGui::Button("Show the shipped recording")) put_on_screen(s, *t, RaceUi::From::Shipped, "");
  ImGui::EndDisabled();
}

// A recording of this algorithm put aside by a change of the fields: show it again.
void again_control(AppState& s, const std::string& id) {
  RaceUi& r = s.race;
  if (!r.recording || r.recording->algorithm != id) return;
  if (r.shown) {
    ImGui::TextWrapped("The views show the recording (n = %zu, block %d replayed); a change above shows %s instead.",
                       r.recording->size, r.recording->trace_block, on_gpu(s) ? "a plain traced GPU run" : "the CPU model's run");
    return;
  }
  if (ImGui::Button("Show the recording again")) {
    core::Trace t = *r.recording;
    auto fix = r.fix;
    put_on_screen(s, std::move(t), r.from, r.file);
    r.fix = std::move(fix);
    show_recording(s);
  }
}

}  // namespace

void open_race_file(AppState& s, const std::string& path) {
  try {
    put_on_screen(s, core::read_race_file(path), RaceUi::From::File, path);
  } catch (const std::exception& e) {
    s.messages.error(Topic::Race, e.what());
  }
}

bool show_recording(AppState& s) {
  RaceUi& r = s.race;
  if (!r.recording || !r.shown) return false;
  if (!same_run(s.choice, r.choice)) {
    r.shown = false;
    return false;
  }
  const int keep = show_kept_trace(s, *r.recording);
  int stages = int(s.trace->stages.size());
  try {
    if (!s.choice.compare.empty()) s.compare_trace = beside(s, s.choice.compare);
    if (s.compare_trace) stages = std::max(stages, int(s.compare_trace->stages.size()));
  } catch (const std::exception& e) {
    s.messages.error(Topic::Run, "Compare failed: " + std::string(e.what()));
  }
  s.player.reset(stages);
  s.player.seek(keep);
  return true;
}

void poll_race(AppState& s) {
  RaceUi& r = s.race;
  if (!r.pending.valid() || r.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
  try {
    RaceUi::Runs runs = r.pending.get();
    s.choice = r.pending_choice;
    put_on_screen(s, std::move(runs.pitfall), RaceUi::From::Gpu, "");
    r.fix = std::move(runs.fix);
    show_recording(s);
  } catch (const std::exception& e) {
    s.messages.error(Topic::Race, "The GPU runs failed: " + std::string(e.what()));
  }
}

void race_section(AppState& s) {
  const std::string id = s.choice.algorithm, fix = fix_of(id);
  if (fix.empty()) return;
  ImGui::Separator();
  ImGui::TextDisabled("Race");
  RaceUi& r = s.race;
  ImGui::BeginDisabled(!on_gpu(s));
  runs_field(r);
  ImGui::EndDisabled();
  if (on_gpu(s)) gpu_controls(s);
  else model_note(id);
  shipped_controls(s, id);
  again_control(s, id);  // a failure is said under the view, whatever the algorithm
  const bool showing = s.choice.compare == fix;
  if (ImGui::Button(showing ? "Hide the fix (F)" : "Show the fix (F)")) toggle_fix(s);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s beside it on the same input, in lockstep (compare mode)", fix.c_str());
}

void race_summary(AppState& s) {
  if (!s.trace || !s.trace->race) return;
  const core::Race& race = *s.trace->race;
  const bool presenter = s.presenter;
  wrapped(core::wrong_runs(race) > 0 ? kErrorRed : ImGui::GetStyleColorVec4(ImGuiCol_Text),
          "Race: " + core::race_headline(race) + "; " + core::replayed_text(race) + ".");
  ImGui::TextWrapped("Results: %s.", core::spread_text(race, s.trace->type, presenter ? 3 : 6).c_str());
  if (core::ordered_by_luck(race)) luck_text(race, s.trace->algorithm, presenter);
  else if (core::wrong_runs(race) == 0 && !race.stale.empty())
    ImGui::TextWrapped("No run gave a wrong result, yet the replayed block read %s: the result can come out right with a "
                       "stale read in it (the read fed a cell the result never uses, or a min or max did not need the "
                       "value it missed).", core::count_text(race.stale.size(), "stale value", "stale values").c_str());
  if (s.race.shown && s.race.recording) {
    const bool gpu = s.trace->backend == "cuda";
    wrapped(!gpu ? kAmber : s.race.from == RaceUi::From::Gpu ? kGpuGreen : kShippedBlue, origin(s.race));
  }
  if (const std::string b = beside_text(s); !b.empty()) wrapped(s.compare_trace->backend == "cuda" ? kGpuGreen : kAmber, b);
  const std::string fix = fix_of(s.trace->algorithm);
  if (fix.empty()) return;
  if (ImGui::SmallButton(s.choice.compare == fix ? "Hide the fix (F)" : "Show the fix (F)")) toggle_fix(s);
}

void stale_pager(AppState& s) {
  if (!s.trace || !s.trace->race) return;
  const int stage = s.player.stage();
  const auto here = core::stale_in(*s.trace->race, stage);
  RaceUi& r = s.race;
  if (r.focus_stage != stage) s.stale_read = 0;
  s.stale_read = std::clamp(s.stale_read, 0, std::max(0, int(here.size()) - 1));
  if (!here.empty() && (r.focus_stage != stage || r.focus_read != s.stale_read)) {
    const int thread =
        here[std::size_t(s.stale_read)].thread;  // the reader's warp (and part), where a view enlarges one
    s.warp = thread / 32, s.part = thread % 32 / (32 / std::max(1, s.parts_zoomed));
  }
  r.focus_stage = stage, r.focus_read = s.stale_read;
  if (s.view != render::View::Memory || here.size() < 2) return;
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 12) ImGui::NewLine();
  if (ImGui::ArrowButton("##previous stale read", ImGuiDir_Left)) s.stale_read = std::max(0, s.stale_read - 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The previous stale read of this stage");
  ImGui::SameLine();
  if (ImGui::ArrowButton("##next stale read", ImGuiDir_Right)) s.stale_read = std::min(int(here.size()) - 1, s.stale_read + 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The next stale read of this stage");
  ImGui::SameLine();
  ImGui::Text("stale read %d of %zu", s.stale_read + 1, here.size());
}

void race_key(AppState& s) {
  if (fix_of(s.choice.algorithm).empty()) return;
  if (!on_gpu(s)) {
    // Without a GPU, R shows the recording that ships for this kernel (presenter mode has no
    // button for it), unless a recording is on screen already.
    const auto& t = shipped(s.choice.algorithm);
    if (t && !(s.trace && s.trace->race)) {
      put_on_screen(s, *t, RaceUi::From::Shipped, "");
      s.messages.clear(Topic::Race);
      return;
    }
    s.messages.error(Topic::Race, "R runs the race on a GPU; this is the CPU model, which cannot race.");
    return;
  }
  if (!s.race.pending.valid()) start_runs(s);
}

void toggle_fix(AppState& s) {
  const std::string fix = fix_of(s.choice.algorithm);
  if (!fix.empty()) s.choice.compare = s.choice.compare == fix ? "" : fix;
}

std::vector<std::pair<std::string, std::string>> race_words(const AppState& s) {
  std::vector<std::pair<std::string, std::string>> out;
  if (s.messages.has(Topic::Race)) out.emplace_back("race_error", s.messages.text(Topic::Race));
  if (!s.trace || !s.trace->race) return out;
  const core::Race& race = *s.trace->race;
  out.emplace_back("race_summary", core::race_headline(race));
  out.emplace_back("race_replayed", core::replayed_text(race));
  out.emplace_back("race_caption", core::stale_caption(race, s.player.stage(), s.stale_read));
  if (s.race.shown && s.race.recording) out.emplace_back("race_origin", origin(s.race));
  out.emplace_back("compare", s.compare_trace ? s.compare_trace->algorithm : "");
  if (const std::string b = beside_text(s); !b.empty()) out.emplace_back("race_beside", b);
  return out;
}

}  // namespace rl::ui
