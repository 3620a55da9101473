// The window's state without a window: what applying a scene or a plan's step does to it.
#include <gtest/gtest.h>

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
