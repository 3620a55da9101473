// The window's state without a window: what applying a scene or a plan's step does to it.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/core/settings.h"
#include "app/ui/app_state.h"
#include "app/ui/settings.h"

using namespace rl;

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
  EXPECT_NE(state.notice.find("left as it is"), std::string::npos) << state.notice;
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
