// Where the app keeps what the user made: the user's config folder, never the working directory.
#pragma once
#include <ostream>
#include <string>
#include <vector>

#include "../core/settings.h"

#include "app_state.h"

namespace rl::ui {

// $XDG_CONFIG_HOME/reduction-lab or ~/.config/reduction-lab, created on demand; empty if
// neither can be found or made (then nothing is saved, and the app still runs).
std::string config_dir();

// The settings file in config_dir(); empty when there is none.
std::string settings_path();
// What the user chose last time, into state. A broken file is reported in the window
// (Topic::Settings), not fatal; an empty path leaves state as it is.
void load_settings(AppState& state, const std::string& path);
// What the user chose, for next time; a failure is a warning on err, not an error.
void save_settings(const AppState& state, const std::string& path, std::ostream& err);

// A scene is the whole state as the settings file holds it: algorithm, compare, view, stage,
// tab, sizes, input, presenter, panel widths.
void apply_scene(AppState& state, const core::Settings& scene);
core::Settings current_scene(const AppState& state);
// Where the scene NAME lives (config_dir()/scenes/NAME.json), or NAME itself when it is a path.
std::string scene_path(const std::string& name);
// Where the Save button keeps the scene NAME: always config_dir()/scenes/NAME.json (a trailing
// ".json" dropped), never a path the name spells ("notes.json" replaced ./notes.json). Empty,
// with *why set, for a name with a '/', one starting with '.', or no config folder.
std::string scene_save_path(const std::string& name, std::string* why);
std::vector<std::string> saved_scenes();  // names, sorted
std::vector<std::string> saved_plans();   // a teacher's plans in config_dir()/plans: names, sorted
// A shipped plan by name (plan_list()), or a plan file. Throws std::runtime_error saying why not.
core::Plan load_plan(const std::string& name);
std::string plan_list();  // "harris"
// Loads the plan (load_plan) and opens its first scene. Throws as load_plan does.
void open_plan(AppState& state, const std::string& name);
// What the window shows of the open plan: "TITLE: scene N of M" and the scene's title, both
// escaped and capped (a plan is a file someone else may have made). Empty without a plan.
struct PlanHeading {
  std::string plan, scene;
};
PlanHeading plan_heading(const AppState& state);

}  // namespace rl::ui
