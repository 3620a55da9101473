// The Work tab: the traced block's additions stage by stage, its depth and how busy its
// threads were, beside the fewest a reduction of its values needs.
#pragma once

namespace rl::ui {

struct AppState;

void work_pane(AppState& state);

}  // namespace rl::ui
