// The window's state without a window: what applying a scene or a plan's step does to it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <thread>

#include "app/backend/backend.h"
#include "app/core/bench.h"
#include "app/core/file_io.h"
#include "app/core/input.h"
#include "app/core/settings.h"
#include "app/core/trace.h"
#include "app/ui/app_state.h"
#include "app/ui/compare.h"
#include "app/ui/open_pane.h"
#include "app/ui/own_editor.h"
#include "app/ui/own_pane.h"
#include "app/own/nvrtc.h"
#include "app/own/own_file.h"
#include "app/core/embedded.h"
#include "app/ui/panel_parts.h"
#include "app/ui/panels.h"
#include "app/ui/race_pane.h"
#include "app/ui/settings.h"
#include "kernels/algorithms.h"
#include "kernels/stage_tags.h"
#include "own_support.h"
#include "test_support.h"

using namespace rl;

namespace {
// Why the last file was not opened (a warning on the Open topic); empty when it was.
std::string open_failure(const ui::AppState& s) {
  const ui::Message& m = s.messages[ui::Topic::Open];
  return m.level == ui::Level::Info ? "" : m.text;
}
}  // namespace

// Every field lands where it belongs: block and size differ, so swapping them is caught.
TEST(UiState, ApplyingASceneSetsEachFieldFromItsOwn) {
  ui::AppState state;
  core::Settings scene;
  scene.algorithm = "warp-shuffle", scene.block = 64, scene.size = 1000, scene.trace_block = 3;
  scene.rows = 33, scene.cols = 257, scene.stage = 4, scene.view = "banks", scene.tab = "bandwidth";
  scene.op = core::Op::Max, scene.type = core::DType::Double;
  ui::apply_scene(state, scene);
  EXPECT_EQ(state.choice.algorithm, "warp-shuffle");
  EXPECT_EQ(state.choice.block, 64);
  EXPECT_EQ(state.choice.size, 1000);
  EXPECT_EQ(state.choice.trace_block, 3);
  EXPECT_EQ(state.choice.rows, 33);
  EXPECT_EQ(state.choice.cols, 257);
  EXPECT_EQ(state.choice.op, core::Op::Max);
  EXPECT_EQ(state.choice.type, core::DType::Double);
  EXPECT_EQ(state.stage_requested, 4);
  EXPECT_EQ(state.view, render::View::Banks);
  EXPECT_EQ(state.tab, ui::Tab::Bandwidth);
}

// A plan's scene that names neither presenter mode nor panel widths keeps the teacher's; one
// that names them sets them (issue 32, item 1).
TEST(UiState, APlanStepKeepsTheLayoutUnlessTheSceneNamesIt) {
  const auto plan = core::plan_from_json(
      R"({"scenes": [{"algorithm": "sequential"}, {"presenter": false, "panels": {"left": 0.3}}]})", "p");
  ui::AppState state;
  state.presenter = true;
  state.panels = {0.2, 0.25, 0.4};
  ui::apply_scene(state, plan.scenes[0]);
  EXPECT_TRUE(state.presenter);
  EXPECT_EQ(state.panels, (core::PanelWidths{0.2, 0.25, 0.4}));
  ui::apply_scene(state, plan.scenes[1]);
  EXPECT_FALSE(state.presenter);
  EXPECT_DOUBLE_EQ(state.panels.left, 0.3);
}

// Issue 30, finding 7: a settings file that is there but cannot be read (here a FIFO, which
// also must not hang the start) is reported and never written over on quit.
TEST(UiState, AnUnreadableSettingsFileIsNeverWrittenOver) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_unreadable_settings";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const auto path = dir / "settings.json";
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  ui::AppState state;
  ui::load_settings(state, path.string());
  EXPECT_TRUE(state.keep_settings_file);
  EXPECT_NE(state.messages.text(ui::Topic::Settings).find("left as it is"), std::string::npos)
      << state.messages.text(ui::Topic::Settings);
  std::ostringstream err;
  ui::save_settings(state, path.string(), err);
  EXPECT_TRUE(std::filesystem::is_fifo(path));
  EXPECT_NE(err.str().find("settings not saved"), std::string::npos) << err.str();
}

// Issue 30: a plan someone else made cannot put control bytes or a page of text on the
// projector, and its typed values and file path fit the window's fields or are refused.
TEST(UiState, APlansTextIsEscapedCappedAndBounded) {
  const std::string title = "\x1b]0;owned\x07" + std::string(5000, 'T');
  nlohmann::json j = {{"title", title}, {"scenes", {{{"title", "a\nb"}}}}};
  ui::AppState state;
  state.plan = core::plan_from_json(j.dump(), "p");
  const auto heading = ui::plan_heading(state);
  EXPECT_EQ(heading.plan.find('\x1b'), std::string::npos) << heading.plan;
  EXPECT_LT(heading.plan.size(), 300u);
  EXPECT_EQ(heading.scene, "a\\nb");
  const ui::AppState no_plan;
  EXPECT_EQ(ui::plan_heading(no_plan).plan, "");
  for (const char* field : {"values", "input"}) {
    const auto too_long = core::settings_from_json(
        nlohmann::json{{field, std::string(core::Settings::kMaxTyped + 1, '7')}}.dump(), "scene");
    EXPECT_NE(too_long.problem.find(std::string("'") + field + "'"), std::string::npos) << field << ": " << too_long.problem;
  }
  const auto fits = core::settings_from_json(nlohmann::json{{"values", std::string(core::Settings::kMaxTyped, '7')}}.dump(), "s");
  EXPECT_EQ(fits.problem, "");
}

namespace {

std::string write_temp(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::path(testing::TempDir()) / name;
  std::ofstream(path) << text;
  return path.string();
}

}  // namespace

// Issue 31: any recorded run opens. A trace of a kernel this build lacks is shown from its own
// layout and source lines; a results file goes to the Bandwidth tab; a file that is none of
// them is refused by name and the window keeps what it showed.
TEST(UiState, AnyRecordedRunOpens) {
  auto sim = backend::make_sim_backend();
  backend::TraceRequest req;
  req.algorithm = "block-2d", req.type = core::DType::Float, req.block = 64, req.rows = 20, req.cols = 70;
  req.input = core::generate_input(core::InputSpec{core::InputSpec::Kind::Random, 5, {}}, 1400, req.type);
  core::Trace foreign = sim->trace(req);
  foreign.algorithm = "students-own-2d";
  foreign.code.lines.back() += "  // the student's last line";
  ui::AppState state;
  ui::open_file(state, write_temp("redlab_foreign.json", core::to_json(foreign)));
  ASSERT_EQ(open_failure(state), "");
  ASSERT_TRUE(state.trace);
  EXPECT_EQ(state.trace->algorithm, "students-own-2d");
  EXPECT_TRUE(ui::shows_foreign_trace(state));
  EXPECT_EQ(ui::shown_source(state).lines, foreign.code.lines);
  EXPECT_EQ(state.player.stage_count(), int(foreign.stages.size()));

  const auto shown_before = state.trace->algorithm;
  ui::open_file(state, write_temp("redlab_junk.json", R"({"x": 1})"));
  EXPECT_NE(open_failure(state).find("redlab_junk.json"), std::string::npos) << open_failure(state);
  EXPECT_EQ(state.trace->algorithm, shown_before);

  core::BenchReport results;
  results.device = "NVIDIA H200", results.date = "2026-11-26 07:00 UTC", results.backend = "cuda", results.peak_gbps = 4800;
  core::BenchRow row;
  row.algorithm = "sequential", row.type = "float", row.op = "sum", row.n = 1 << 20, row.block = 256;
  row.median_us = 10, row.gbps = 419.4, row.check_ok = true, row.check = "exact";
  results.rows.push_back(row);
  ui::open_file(state, write_temp("redlab_results.json", core::to_json(results)));
  EXPECT_EQ(open_failure(state), "");
  EXPECT_EQ(state.bench.source, ui::kFromFile);
  EXPECT_EQ(ui::shown_report(state.bench), results);
  EXPECT_EQ(state.tab, ui::Tab::Bandwidth);

  ui::open_file(state, (std::filesystem::path(REDLAB_SOURCE_DIR) / "tests/data/recorded/sequential-d59dd79.json").string());
  EXPECT_EQ(open_failure(state), "");
  EXPECT_EQ(state.choice.algorithm, "sequential");  // a kernel this build has: its fields become the run's
  EXPECT_FALSE(ui::shows_foreign_trace(state));
  EXPECT_TRUE(state.trace->geometry.known());
}

// --open FILE that cannot be shown: the window's first run leaves the failure in the status line
// (the terminal was told the window says so); the next run asked for replaces it.
TEST(UiState, AFailedOpenOutlastsTheFirstRunNotTheNext) {
  ui::AppState state;
  state.backend.backend = backend::make_sim_backend();
  ui::open_file(state, write_temp("redlab_junk_first.json", R"({"x": 1})"));
  ASSERT_NE(open_failure(state), "");
  ui::record_trace(state);
  ASSERT_TRUE(state.trace);
  EXPECT_NE(open_failure(state).find("redlab_junk_first.json"), std::string::npos) << open_failure(state);
  state.choice.size = 64;
  ui::record_trace(state);
  EXPECT_EQ(open_failure(state), "");
}

// The family across GPUs in the window: picked, it runs in the CPU model whatever the backend, its
// steps the stages, its source the model's lines; typed values split among the GPUs or refused in
// words; a trace of it saved and opened again is known, its GPUs the run's.
TEST(UiState, AnAllReduceAcrossGpusRunsInTheWindow) {
  ui::AppState state;
  state.backend.backend = backend::make_sim_backend();
  state.choice.algorithm = "ring-all-reduce", state.choice.gpus = 3, state.choice.size = 10;
  ui::record_trace(state);
  ASSERT_TRUE(state.trace && state.trace->collective) << state.messages[ui::Topic::Run].text;
  EXPECT_EQ(state.trace->collective->gpus, 3);
  EXPECT_EQ(state.trace->size, 10u);
  EXPECT_EQ(state.trace->stages.size(), 5u);
  const core::SourceView src = ui::shown_source(state);
  EXPECT_EQ(src.file, "kernels/model/all_reduce.cpp");
  state.player.seek(1);
  const core::Place line = ui::shown_place(state, src);
  ASSERT_NE(src.text_at(line), nullptr);
  EXPECT_NE(src.text_at(line)->find("[reduce-scatter]"), std::string::npos) << *src.text_at(line);
  state.choice.typed = true, state.choice.values = "1 2 3 4 5";
  ui::record_trace(state);
  EXPECT_FALSE(state.trace);
  EXPECT_NE(state.messages[ui::Topic::Run].text.find("do not make 3 buffers"), std::string::npos);
  state.choice.values = "1 2 3 4 5 6";
  ui::record_trace(state);
  ASSERT_TRUE(state.trace);
  EXPECT_EQ(state.trace->collective->results[0], (std::vector<double>{1 + 3 + 5, 2 + 4 + 6}));
  const auto saved = write_temp("redlab_ring.json", core::to_json(*state.trace));
  ui::AppState other;
  ui::open_file(other, saved);
  EXPECT_EQ(open_failure(other), "");
  EXPECT_FALSE(ui::shows_foreign_trace(other));
  EXPECT_EQ(other.choice.gpus, 3);
}

// A trace opened from a file highlights each stage's line in the file that marks it: a
// warp-shuffle run's shuffles in kernels/block_shuffle.cuh, whose line numbers the kernel's own
// file also has.
TEST(UiState, AnOpenedTraceHighlightsTheLineInItsHelpersFile) {
  backend::TraceRequest req{
      "warp-shuffle",
      core::Op::Sum,
      core::DType::Int,
      64,
      0,
      core::generate_input(core::InputSpec{core::InputSpec::Kind::Random, 3, {}}, 100, core::DType::Int)};
  const core::Trace t = backend::make_sim_backend()->trace(req);
  ui::AppState state;
  ui::open_file(state, write_temp("redlab_helpers.json", core::to_json(t)));
  ASSERT_EQ(open_failure(state), "");
  const core::SourceView src = ui::shown_source(state);
  int shuffles = 0;
  for (int k = 0; k < int(state.trace->stages.size()); ++k) {
    state.player.seek(k);
    if (state.trace->stages[std::size_t(k)].tag != kernels::kTagShuffle) continue;
    ++shuffles;
    const core::Place place = ui::shown_place(state, src);
    EXPECT_EQ(place.file, "kernels/block_shuffle.cuh") << "stage " << k;
    const int at = src.index_of(place);
    ASSERT_GE(at, 0) << "stage " << k;
    EXPECT_EQ(src.file_of(std::size_t(at)), "kernels/block_shuffle.cuh");
    EXPECT_NE(src.lines[std::size_t(at)].find("[shfl]"), std::string::npos) << src.lines[std::size_t(at)];
  }
  EXPECT_EQ(shuffles, 5);
}

// A race recording made by another version of tree.cuh (the shipped one numbers other lines)
// highlights, stage by stage, the line of this build's source that holds the stage's [tag]
// (issue 32, item 3): never a probe call, a comment or a brace.
TEST(UiState, ARecordingHighlightsTheLineOfItsStagesTag) {
  ui::AppState state;
  ui::open_file(state, (std::filesystem::path(REDLAB_SOURCE_DIR) / "assets/races/missing-syncthreads.json").string());
  ASSERT_EQ(open_failure(state), "");
  ASSERT_TRUE(state.trace && state.trace->race);
  const core::SourceView src = ui::shown_source(state);
  bool moved = false;
  for (int k = 0; k < int(state.trace->stages.size()); ++k) {
    state.player.seek(k);
    const core::Stage& stage = state.trace->stages[std::size_t(k)];
    const int line = ui::shown_place(state, src).line;
    const std::string* text = src.text_at(ui::shown_place(state, src));
    ASSERT_NE(text, nullptr) << "stage " << k << ": line " << line << " is not shown";
    const std::string marker = std::string("[") + (stage.tag == kernels::kTagLoad ? "load" : "step") + "]";
    EXPECT_NE(text->find(marker), std::string::npos) << "stage " << k << " highlights line " << line << ": " << *text;
    moved |= line != stage.line;
  }
  EXPECT_TRUE(moved) << "the recording's own numbers already fit this source: the test shows nothing";
}

// R without a GPU shows the recording that ships for the kernel (issue 32, item 3: presenter
// mode has no button for it), with its [step] line highlighted; with a recording already on
// screen it leaves it and says the model cannot race.
TEST(UiState, RWithoutAGpuShowsTheShippedRecording) {
  ui::AppState state;
  state.choice.algorithm = "missing-syncthreads";
  state.presenter = true;
  ui::race_key(state);
  ASSERT_TRUE(state.trace && state.trace->race) << state.messages.text(ui::Topic::Race);
  EXPECT_EQ(state.messages.text(ui::Topic::Race), "");
  EXPECT_EQ(state.race.from, ui::RaceUi::From::Shipped);
  EXPECT_TRUE(state.presenter);
  const core::SourceView src = ui::shown_source(state);
  state.player.seek(state.player.stage_count() - 1);
  const std::string* text = src.text_at(ui::shown_place(state, src));
  ASSERT_NE(text, nullptr);
  EXPECT_NE(text->find("[step]"), std::string::npos) << *text;
  ui::race_key(state);
  EXPECT_NE(state.messages.text(ui::Topic::Race).find("cannot race"), std::string::npos);
}

// A racy kernel beside its fix records the same figures in a traced run: the table says why
// rather than leave two identical rows unexplained; presenter mode says what the columns count
// (issue 32, item 5).
TEST(UiState, TheCompareTableSaysWhyAPitfallAndItsFixMatch) {
  ui::AppState state;
  const auto sim = backend::make_sim_backend();
  backend::TraceRequest req{"missing-syncthreads",
                            core::Op::Sum,
                            core::DType::Int,
                            64,
                            0,
                            core::generate_input({core::InputSpec::Kind::Random, 5, {}}, 64, core::DType::Int)};
  state.trace = sim->trace(req);
  req.algorithm = "sequential";
  state.compare_trace = sim->trace(req);
  const std::string note = ui::compare_note(state);
  EXPECT_EQ(note.rfind("The same figures: missing-syncthreads and sequential do the same work", 0), 0u) << note;
  EXPECT_EQ(note.find("idle: lane-steps"), std::string::npos) << note;
  state.presenter = true;
  EXPECT_NE(ui::compare_note(state).find("idle: lane-steps of working warps spent idle"), std::string::npos);
  req.algorithm = "interleaved-divergent";  // different work: no such line
  state.compare_trace = sim->trace(req);
  EXPECT_EQ(ui::compare_note(state).find("The same figures"), std::string::npos);
}

// Harris' scene 7 (multiple-per-thread) sets a small grid, so each thread combines many pairs
// before the tree (issue 32, item 6: at the device's wave each thread took one pair and the scene
// looked like scene 4); picking another algorithm by hand gives the device's wave back.
TEST(UiState, ASceneSetsTheGridAndAHandPickResetsIt) {
  ui::AppState state;
  ui::open_plan(state, "harris");
  while (state.scene < 6) ui::step_scene(state, 1);
  ASSERT_EQ(state.choice.algorithm, "multiple-per-thread");
  ASSERT_GT(state.choice.grid, 0);
  const auto req = ui::run_request(state.choice);
  EXPECT_EQ(req.grid, std::size_t(state.choice.grid));
  const auto t = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(t.grid, std::size_t(state.choice.grid));
  const std::size_t threads = std::size_t(state.choice.grid) * std::size_t(state.choice.block);
  EXPECT_GE(std::size_t(state.choice.size) / threads, 8u) << "elements a thread";
  EXPECT_EQ(core::to_json(ui::current_scene(state)).find("\"grid\": " + std::to_string(state.choice.grid)) !=
                std::string::npos,
            true);
  ui::pick_algorithm(state, "warp-shuffle-vectorized");
  EXPECT_EQ(state.choice.grid, 0);
}

// The state on screen appended to a teacher's plan (issue 32, item 6): the file made where there
// is none, later scenes appended with the file's own fields kept, a file that is not a plan left
// byte for byte; stepping to an added scene keeps presenter mode.
TEST(UiState, AddToPlanAppendsTheStateOnScreen) {
  const auto dir = std::filesystem::path(testing::TempDir()) / "redlab_add_to_plan";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "class.json").string();
  ui::AppState state;
  state.choice.algorithm = "warp-shuffle", state.choice.block = 128, state.choice.size = 1000;
  state.presenter = true;
  std::string why;
  EXPECT_EQ(core::add_to_plan(path, ui::current_scene(state), "Shuffles", &why), 1) << why;
  state.choice.algorithm = "cg-warp";
  EXPECT_EQ(core::add_to_plan(path, ui::current_scene(state), "ignored: the file has its title", &why), 2) << why;
  std::string text;
  ASSERT_TRUE(core::read_file(path, core::files::kPlan, &text, &why)) << why;
  const core::Plan plan = core::plan_from_json(text, "test");
  EXPECT_EQ(plan.title, "Shuffles");
  ASSERT_EQ(plan.scenes.size(), 2u);
  EXPECT_EQ(plan.scenes[0].algorithm, "warp-shuffle");
  EXPECT_EQ(plan.scenes[0].size, 1000);
  EXPECT_EQ(plan.scenes[1].algorithm, "cg-warp");
  EXPECT_FALSE(plan.scenes[1].names_presenter);
  EXPECT_FALSE(plan.scenes[1].names_panels);
  ui::AppState teacher;
  teacher.presenter = true;
  ui::open_plan(teacher, path);
  ui::step_scene(teacher, 1);
  EXPECT_EQ(teacher.choice.algorithm, "cg-warp");
  EXPECT_TRUE(teacher.presenter);
  // Not a plan: refused, left as it was.
  const std::string other = (dir / "notes.json").string(), mine = "{\"shopping\": [\"milk\"]}\n";
  { std::ofstream(other) << mine; }
  EXPECT_EQ(core::add_to_plan(other, ui::current_scene(state), "x", &why), 0);
  EXPECT_NE(why.find("left as it is"), std::string::npos) << why;
  std::ifstream f(other);
  std::stringstream kept;
  kept << f.rdbuf();
  EXPECT_EQ(kept.str(), mine);
}

// A plan says where it ends (issue 32, item 6), and an algorithm picked by hand leaves it, so
// the next PageDown does not jump back into it.
TEST(UiState, APlanSaysItsEndAndAHandPickedAlgorithmLeavesIt) {
  ui::AppState state;
  ui::open_plan(state, "harris");
  const int count = int(state.plan->scenes.size());
  ASSERT_GT(count, 1);
  for (int i = 1; i < count; ++i) ui::step_scene(state, 1);
  EXPECT_EQ(state.scene, count - 1);
  EXPECT_TRUE(state.messages.text(ui::Topic::Plan).empty()) << state.messages.text(ui::Topic::Plan);
  const std::string last = state.choice.algorithm;
  ui::step_scene(state, 1);
  EXPECT_EQ(state.scene, count - 1);
  EXPECT_EQ(state.choice.algorithm, last);
  EXPECT_NE(state.messages.text(ui::Topic::Plan).find("End of the plan"), std::string::npos)
      << state.messages.text(ui::Topic::Plan);
  ui::step_scene(state, -1);
  EXPECT_TRUE(state.messages.text(ui::Topic::Plan).empty()) << state.messages.text(ui::Topic::Plan);
  ui::pick_algorithm(state, "cg-block");
  EXPECT_FALSE(state.plan);
  EXPECT_EQ(state.choice.algorithm, "cg-block");
  EXPECT_NE(state.messages.text(ui::Topic::Plan).find("Left the plan"), std::string::npos)
      << state.messages.text(ui::Topic::Plan);
  ui::open_plan(state, "harris");
  EXPECT_TRUE(state.messages.text(ui::Topic::Plan).empty());
}

// A chart of every algorithm starts with Harris' seven steps, CUB and the copy (issue 32, item
// 7), those first in the legend; a legend click adds another; a small chart shows all.
TEST(UiState, AFullChartStartsWithHarrisSevenCubAndCopy) {
  ui::BenchUi b;
  b.source = core::shipped_reports().front().run;  // as the tab picks without a GPU
  const core::BenchReport report = ui::shown_report(b);
  auto spec = ui::shown_chart(b, report);
  ASSERT_GT(spec.series.size(), 12u) << report.device;
  std::vector<std::string> shown;
  for (const auto& s : spec.series)
    if (s.visible) shown.push_back(s.name.substr(0, s.name.find(' ')));
  EXPECT_EQ(shown, (std::vector<std::string>{"interleaved-divergent", "interleaved-bank-conflicts", "sequential",
                                             "first-add-on-load", "unroll-last-warp", "complete-unroll",
                                             "multiple-per-thread", "cub", "copy"}));
  b.toggled.insert(spec.series.back().name);
  spec = ui::shown_chart(b, report);
  EXPECT_EQ(std::count_if(spec.series.begin(), spec.series.end(), [](const auto& s) { return s.visible; }), 10);
  core::BenchReport few = report;
  few.rows.erase(
      std::remove_if(few.rows.begin(), few.rows.end(),
                     [](const core::BenchRow& r) { return r.algorithm != "cpu" && r.algorithm != "warp-shuffle"; }),
      few.rows.end());
  for (const auto& s : ui::shown_chart(ui::BenchUi{}, few).series) EXPECT_TRUE(s.visible) << s.name;
}

// The Bandwidth tab follows the algorithm chosen on the left: its family, and a shipped run that
// measured it, its line shown in a chart of every algorithm; ints for redux-sync. The tab's own
// choice holds until the algorithm changes again.
TEST(UiState, TheBandwidthTabFollowsTheChosenAlgorithm) {
  ui::AppState state;
  ui::settle_source(state);  // no GPU: the first shipped run
  ASSERT_TRUE(ui::shows_shipped(state.bench));
  const auto shows = [&](const std::string& id) {
    for (const auto& s : ui::shown_chart(state.bench, ui::shown_report(state.bench)).series)
      if (s.name.substr(0, s.name.find(' ')) == id) return s.visible;
    return false;
  };
  for (const std::string id : {"lanes-per-row", "cluster-dsmem-streaming", "warp-shuffle", "redux-sync"}) {
    SCOPED_TRACE(id);
    ui::pick_algorithm(state, id);
    ui::follow_algorithm(state);
    EXPECT_EQ(state.bench.matrix, core::is_matrix_id(id));
    EXPECT_TRUE(shows(id)) << "shown: " << state.bench.source;
  }
  EXPECT_EQ(state.bench.type, core::DType::Int);
  ui::pick_algorithm(state, "flat-rows");  // floats again: the matrix sweeps of ints hold no flat-rows
  ui::follow_algorithm(state);
  EXPECT_EQ(state.bench.type, core::DType::Float);
  EXPECT_TRUE(shows("flat-rows")) << "shown: " << state.bench.source;
  state.bench.matrix = false;  // the kind chooser
  ui::follow_algorithm(state);
  EXPECT_FALSE(state.bench.matrix);
  ui::pick_algorithm(state, "warp-shuffle");  // hidden by default in a chart of every algorithm
  ui::follow_algorithm(state);
  EXPECT_FALSE(state.bench.matrix);
  ASSERT_GT(ui::shown_chart(state.bench, ui::shown_report(state.bench)).series.size(), 12u);
  EXPECT_TRUE(shows("warp-shuffle"));
  EXPECT_FALSE(shows("cg-warp"));
  // A results file keeps the family it was opened with, whatever is chosen after it.
  state.bench.source = ui::kFromFile;
  ui::pick_algorithm(state, "lanes-per-row");
  ui::follow_algorithm(state);
  EXPECT_FALSE(state.bench.matrix);
  EXPECT_EQ(state.bench.source, ui::kFromFile);
  // On this machine's run too, a line hidden by a legend click shows again once it is chosen.
  state.bench.source = ui::kRunHere;
  const core::BenchReport every = *core::shipped_report(core::shipped_runs().front(), "float", "sum");
  const auto visible = [&](const std::string& id) {
    for (const auto& x : ui::shown_chart(state.bench, every).series)
      if (x.name == id) return x.visible;
    return false;
  };
  ASSERT_TRUE(visible("sequential"));  // one of Harris' steps
  state.bench.toggled.insert("sequential");
  EXPECT_FALSE(visible("sequential"));
  ui::pick_algorithm(state, "sequential");
  ui::follow_algorithm(state);
  EXPECT_TRUE(visible("sequential"));
  ui::pick_algorithm(state, "lanes-per-row");
  ui::follow_algorithm(state);
  EXPECT_FALSE(state.bench.matrix);  // the run here keeps its family
}

// Clicking a text field's label, or beside it on its row, puts the cursor in the field (issue
// 32, item 8): what is typed next goes there, not to the one-key shortcuts. A click on a button
// on the row, or in the empty space below, leaves it alone. Driven through Dear ImGui's own
// input state, one frame at a time, without a window.
TEST(UiState, AClickBesideATextFieldPutsTheCursorInIt) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = {800, 600};
  io.DeltaTime = 1.0f / 60;
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  char text[16] = "2^10";
  ImVec2 label{}, beside{}, button{};
  bool typing = false;
  auto frame = [&] {
    ImGui::NewFrame();
    ui::place({0, 0, 400, 300}, "panel");  // as the app's panels are placed
    ImGui::SetNextItemWidth(100);
    ImGui::InputText("array size", text, sizeof text);
    ui::focus_on_near_click("array size");
    typing = ImGui::IsItemActive();
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    label = {max.x - 5, (min.y + max.y) / 2}, beside = {max.x + 60, label.y};
    ImGui::SetNextItemWidth(100);
    ImGui::InputText("##path", text, sizeof text);
    ui::focus_on_near_click("##path");
    ImGui::SameLine();
    ImGui::Button("Open");
    button = {ImGui::GetItemRectMin().x + 5, (ImGui::GetItemRectMin().y + ImGui::GetItemRectMax().y) / 2};
    ImGui::End();
    ImGui::Render();
  };
  auto click = [&](ImVec2 at) {
    io.MousePos = at;
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    for (int i = 0; i < 3; ++i) frame();
  };
  frame();
  click({200, 250});
  EXPECT_FALSE(typing) << "a click in the empty panel";
  click(label);
  EXPECT_TRUE(typing) << "a click on the label at " << label.x << "," << label.y;
  click({200, 250});
  EXPECT_FALSE(typing);
  click(beside);
  EXPECT_TRUE(typing) << "a click beside the field at " << beside.x << "," << beside.y;
  click({200, 250});
  click(button);
  EXPECT_FALSE(typing) << "the Open button took its own click";
  EXPECT_FALSE(io.WantTextInput) << "the button's click put the cursor in the path field";
  ImGui::DestroyContext();
}

// Issue 48, item 9: a scene's name stays a name. "notes.json" went to ./notes.json and
// "lessons/week1" outside the scenes folder; both now land in (or are refused by) it.
TEST(UiState, ASceneNameIsNeverAPath) {
  const auto home = std::filesystem::path(testing::TempDir()) / "redlab_scene_names";
  std::filesystem::remove_all(home);
  const char* was = std::getenv("XDG_CONFIG_HOME");
  const std::string before = was ? was : "";
  ::setenv("XDG_CONFIG_HOME", home.c_str(), 1);
  std::string why;
  EXPECT_EQ(ui::scene_save_path("notes.json", &why), (home / "reduction-lab" / "scenes" / "notes.json").string());
  EXPECT_EQ(ui::scene_save_path("week 1", &why), (home / "reduction-lab" / "scenes" / "week 1.json").string());
  for (const char* bad : {"lessons/week1", "../x", ".hidden", "/etc/passwd", ".json", ""}) {
    why.clear();
    EXPECT_EQ(ui::scene_save_path(bad, &why), "") << bad;
    EXPECT_NE(why.find("a name, not a path"), std::string::npos) << bad << ": " << why;
  }
  if (was)
    ::setenv("XDG_CONFIG_HOME", before.c_str(), 1);
  else
    ::unsetenv("XDG_CONFIG_HOME");
}

// Issue 48, item 6: a plan, scene or settings file that names someone's secret file as its input
// gets an error naming the file and line, never the secret's bytes; a path typed by the user
// still shows the token that is not a number.
TEST(UiState, AnInputPathFromAFileNeverShowsTheFilesContent) {
  const auto secret = std::filesystem::path(testing::TempDir()) / "redlab_credentials";
  { std::ofstream(secret) << "https://user:hunter2@example.com\n"; }
  ui::AppState state;
  core::Settings scene;
  scene.input.kind = core::InputSpec::Kind::File;
  scene.input.path = secret.string();
  ui::apply_scene(state, scene);
  try {
    core::generate_input(state.choice.input, 32, core::DType::Int);
    ADD_FAILURE() << "a credentials file read as numbers";
  } catch (const std::runtime_error& e) {
    const std::string why = e.what();
    EXPECT_EQ(why.find("hunter2"), std::string::npos) << why;
    EXPECT_EQ(why.find("https"), std::string::npos) << why;
    EXPECT_NE(why.find(":1: a value is not a number"), std::string::npos) << why;
  }
  core::InputSpec typed = state.choice.input;
  typed.quiet = false;
  try {
    core::generate_input(typed, 32, core::DType::Int);
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("'https://user:hunter2"), std::string::npos) << e.what();
  }
}

// The Run panel previews the grid of the plan the backend will run (issue 49): for every
// kernel, over seeded sizes and blocks, the planned grid is the one the run then took, where
// ceil(size / block) was wrong for pair-tile and grid-stride kernels.
TEST(UiState, ThePlannedGridIsTheGridTheRunTakes) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  ui::AppState state;
  state.backend.backend = backend::make_sim_backend();
  for (const auto& row : kernels::kAlgorithms) {
    if (kernels::is_baseline(row)) continue;
    ui::RunChoice& c = state.choice;
    c.algorithm = std::string(row.id);
    c.type = row.ints_only ? core::DType::Int : core::DType::Float;
    c.block = 32 << (rng() % 4);
    c.size = 1 + int(rng() % 20000);
    c.rows = 1 + int(rng() % 40), c.cols = 1 + int(rng() % 700);
    const auto plan = ui::planned_run(state);
    ASSERT_TRUE(plan) << row.id << " block " << c.block << " size " << c.size;
    ui::record_trace(state);
    ASSERT_TRUE(state.trace) << row.id << ": " << state.messages[ui::Topic::Run].text;
    EXPECT_EQ(plan->grid.count(), state.trace->grid)
        << row.id << " block " << c.block << " size " << c.size << " shape " << c.rows << " x " << c.cols;
  }
}

// A kernel of your own in the window: its run lands as an opened trace, and a save runs it again
// (here with the loop's barrier taken out: the rerun names the race).
TEST(UiState, AKernelOfYourOwnRunsAndRunsAgainWhenSaved) {
  std::string why;
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  ui::AppState s;
  s.backend = backend::select(backend::Choice::Sim);
  s.choice.type = core::DType::Int, s.choice.size = 1000;
  const core::ScratchFolder dir;
  const std::string path = dir.path() + "/mine.cu";
  std::string text(embedded::own_file("reduce3"));
  ASSERT_TRUE(core::write_file(path, text, &why)) << why;
  const auto finish = [&] {
    for (int i = 0; i < 6000 && s.own.busy(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ui::poll_own(s);
    }
  };
  ui::run_own(s, path);
  finish();
  ASSERT_TRUE(s.opened.trace) << s.own.said;
  EXPECT_EQ(s.opened.trace->algorithm, "own:reduce3");
  EXPECT_EQ(s.opened.trace->size, 1000u);
  EXPECT_TRUE(s.own.findings.empty()) << s.own.findings[0].text;

  const std::size_t second = text.find("__syncthreads();", text.find("__syncthreads();") + 1);
  text.replace(second, 16, "");
  ASSERT_TRUE(core::write_file(path, text, &why)) << why;
  std::filesystem::last_write_time(path, std::filesystem::last_write_time(path) + std::chrono::seconds(2));
  // The file's time is read every 30 frames. Polling stops once the run starts: a poll after it
  // may land it (a run of 10 ms, the main thread descheduled between polls under load).
  for (int i = 0; i < 40 && !s.own.pending.valid(); ++i) ui::poll_own(s);
  ASSERT_TRUE(s.own.pending.valid()) << "the save did not start a run";
  finish();
  ASSERT_FALSE(s.own.findings.empty()) << s.own.said;
  EXPECT_EQ(s.own.findings[0].kind, "race");
}

// --stage and --play with --kernel are for the kernel's trace: they wait while the catalog's
// trace, drawn first, is on screen, and land once the kernel's is; a run that failed drops them.
// Without --kernel the first trace takes them.
TEST(UiState, AStageAskedWithAKernelLandsOnTheKernelsTrace) {
  ui::AppState s;
  s.backend = backend::select(backend::Choice::Sim);
  const backend::TraceRequest req{"sequential",
                                  core::Op::Sum,
                                  core::DType::Int,
                                  64,
                                  0,
                                  test::random_values(64, core::DType::Int, test::test_seed())};
  const core::Trace catalog = s.backend.backend->trace(req);
  ASSERT_GE(catalog.stages.size(), 4u);
  core::Trace own = catalog;
  own.geometry.indexing = kernels::Indexing::Own;  // as a kernel of your own's trace says
  const auto show = [&](const core::Trace& t) { s.trace = t, s.player.reset(int(t.stages.size())); };
  show(catalog);
  s.stage_requested = 2, s.play_requested = true, s.requests_for_own = true;
  ui::apply_requests(s);
  EXPECT_EQ(s.player.stage(), 0);
  EXPECT_FALSE(s.player.playing());
  show(own);
  ui::apply_requests(s);
  EXPECT_EQ(s.player.stage(), 2);
  EXPECT_TRUE(s.player.playing());  // from the stage asked for
  EXPECT_EQ(s.stage_requested, -1);
  EXPECT_FALSE(s.requests_for_own);
  // The kernel's run failed: nothing lands, and a later kernel's trace is not sent to stage 1.
  show(catalog);
  s.stage_requested = 1, s.requests_for_own = true, s.own.failed = true;
  ui::apply_requests(s);
  show(own);
  ui::apply_requests(s);
  EXPECT_EQ(s.player.stage(), 0);
  s.stage_requested = 3, s.requests_for_own = false;
  show(catalog);
  ui::apply_requests(s);
  EXPECT_EQ(s.player.stage(), 3);
}

// The editor (issue 50, item 7): a starter is copied into the student's folder and never over an
// edited copy; a compile error opens the editor at its line; edits are never lost, whether
// another file is run or the file changes on disk meanwhile.
TEST(UiState, TheEditorKeepsTheStudentsTextAndMarksTheLineThatFailed) {
  std::string why;
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const core::ScratchFolder dir;
  setenv("XDG_DATA_HOME", dir.path().c_str(), 1);
  ui::AppState s;
  s.backend = backend::select(backend::Choice::Sim);
  s.choice.type = core::DType::Int, s.choice.size = 300;
  const auto finish = [&] {
    for (int i = 0; i < 6000 && s.own.busy(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ui::poll_own(s);
    }
  };
  ui::open_starter(s, "reduce2");
  const std::string copy = dir.path() + "/reduction-lab/kernels/reduce2.cu";
  EXPECT_EQ(s.own.file, copy);
  EXPECT_TRUE(s.own.editing);
  EXPECT_EQ(s.own.editor.text, embedded::own_file("reduce2"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/reduction-lab/kernels/reduction_lab.cuh"));
  finish();
  ASSERT_TRUE(s.opened.trace) << s.own.said;
  EXPECT_EQ(s.opened.trace->algorithm, "own:reduce2");

  // A compile error at a known line: the run fails, the message names the line, the editor is open.
  std::string text = s.own.editor.text;
  const int line = 1 + int(std::count(text.begin(), text.begin() + text.find("__syncthreads();"), '\n'));
  text.replace(text.find("__syncthreads();"), 16, "__syncthreads() oops;");
  s.own.editor.text = text;
  s.own.editing = false;
  ASSERT_TRUE(ui::save_editor(s.own));
  ui::run_own(s, copy);
  finish();
  EXPECT_TRUE(s.own.failed);
  const auto messages = own::line_messages(s.own.said, copy);
  ASSERT_FALSE(messages.empty()) << s.own.said;
  EXPECT_EQ(messages[0].line, line) << s.own.said;
  EXPECT_TRUE(s.own.editing);

  // The starter again: the edited copy is kept, not replaced by the shipped file.
  ui::open_starter(s, "reduce2");
  finish();
  EXPECT_EQ(s.own.editor.text, text);
  std::string kept;
  ASSERT_TRUE(core::read_file(copy, core::files::kKernel, &kept, &why)) << why;
  EXPECT_EQ(kept, text);

  // Edits not saved survive the file changing on disk, and running another file writes them first.
  s.own.editor.text = text + "// mine\n";
  ASSERT_TRUE(core::write_file(copy, "// changed elsewhere\n" + text, &why)) << why;
  ui::run_own(s, copy);
  finish();
  EXPECT_TRUE(s.own.disk_changed);
  EXPECT_EQ(s.own.editor.text, text + "// mine\n");
  const std::string other = dir.path() + "/other.cu";
  ASSERT_TRUE(core::write_file(other, std::string(embedded::own_file("reduce3")), &why)) << why;
  ui::run_own(s, other);
  finish();
  std::string on_disk;
  ASSERT_TRUE(core::read_file(copy, core::files::kKernel, &on_disk, &why)) << why;
  EXPECT_EQ(on_disk, text + "// mine\n");
  EXPECT_EQ(s.own.editor.text, embedded::own_file("reduce3"));
  unsetenv("XDG_DATA_HOME");
}

// The status bar never calls a wrong value of a kernel of your own "the sum".
TEST(UiState, TheStatusBarSaysAWrongValueIsWrong) {
  core::Trace t;
  t.size = 1000, t.op = core::Op::Sum, t.type = core::DType::Int, t.result = 1047;
  EXPECT_EQ(ui::result_text(t), "sum of 1000 elements = 1047");
  t.findings.push_back({"wrong-result", "the kernel left 1047; the sum of the 1000 inputs is -902", 0});
  EXPECT_EQ(ui::result_text(t), "sum of 1000 elements: the kernel left 1047, which is wrong (see its findings)");
}

// A run of your own landing while the Bandwidth tab times does not pull the view off the chart.
TEST(UiState, AnOwnRunLandingKeepsABenchmarkInView) {
  std::string why;
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  ui::AppState s;
  s.backend = backend::select(backend::Choice::Sim);
  const core::ScratchFolder dir;
  const std::string path = dir.path() + "/mine.cu";
  ASSERT_TRUE(core::write_file(path, std::string(embedded::own_file("reduce3")), &why)) << why;
  for (const bool timing : {true, false}) {
    s.tab = ui::Tab::Bandwidth, s.bench.own.waiting = timing;
    ui::run_own(s, path);
    for (int i = 0; i < 6000 && s.own.busy(); ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
      ui::poll_own(s);
    }
    ASSERT_TRUE(s.opened.trace) << s.own.said;
    EXPECT_EQ(s.tab, timing ? ui::Tab::Bandwidth : ui::Tab::Stages);
  }
  s.bench.own.waiting = false;
}
