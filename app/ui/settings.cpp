#include "settings.h"

#include <cstdlib>
#include <algorithm>
#include <filesystem>
#include <stdexcept>

#include "../core/embedded.h"
#include "../core/file_io.h"
#include "../core/settings.h"
#include "../core/text.h"

namespace rl::ui {

std::string config_dir() {
  std::filesystem::path base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg && *xdg) base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home) base = std::filesystem::path(home) / ".config";
  else return {};
  std::error_code ec;
  const auto dir = base / "reduction-lab";
  std::filesystem::create_directories(dir, ec);
  return ec ? std::string() : dir.string();
}

std::string settings_path() {
  const std::string dir = config_dir();
  return dir.empty() ? std::string() : dir + "/settings.json";
}

void apply_scene(AppState& state, const core::Settings& st) {
  state.choice = st;  // the run it chose
  if (state.choice.values.empty()) state.choice.values = RunChoice::kSampleValues;
  state.choice.input.quiet = true;  // a path from a file: its content never shown (core::InputSpec)
  state.player.set_speed(st.speed);
  if (st.names_presenter && state.presenter != st.presenter) state.presenter = st.presenter, state.presenter_changed = true;
  if (const auto v = render::parse_view(st.view)) state.view = *v;
  state.stage_requested = st.stage, state.requests_for_own = false;  // the scene's stage, for the trace it runs
  state.tab = st.tab == "bandwidth" ? Tab::Bandwidth : Tab::Stages;
  state.select_tab = true;
  if (st.names_panels) state.panels = st.panels;
  state.settle = 2;
}

core::Settings current_scene(const AppState& state) {
  const auto& c = state.choice;
  core::Settings st;
  static_cast<RunChoice&>(st) = c;
  st.speed = state.player.speed(), st.presenter = state.presenter;
  st.view = render::to_string(state.view);
  st.stage = state.player.stage();
  st.tab = state.tab == Tab::Bandwidth ? "bandwidth" : "stages";
  st.panels = state.panels;
  st.names_presenter = st.names_panels = true;
  return st;
}

void load_settings(AppState& state, const std::string& path) {
  if (path.empty()) return;
  const auto loaded = core::load_settings(path, core::Whose::Own);
  apply_scene(state, loaded.settings);
  if (loaded.problem.empty())
    state.messages.clear(Topic::Settings);
  else
    state.messages.error(Topic::Settings, loaded.problem);
  state.keep_settings_file = loaded.unreadable;
}

void save_settings(const AppState& state, const std::string& path, std::ostream& err) {
  if (path.empty()) return;
  if (state.keep_settings_file) {
    err << "reduction-lab: warning: settings not saved: '" << core::printable(path) << "' could not be read at start, so it is left as it is\n";
    return;
  }
  std::string problem;
  if (!core::save_settings(current_scene(state), path, &problem)) err << "reduction-lab: warning: " << problem << "\n";
}

std::string scene_path(const std::string& name) {
  if (name.find('/') != std::string::npos || name.ends_with(".json")) return name;  // a file the user names
  const std::string dir = config_dir();
  if (dir.empty()) return {};
  std::error_code ec;
  std::filesystem::create_directories(dir + "/scenes", ec);
  return dir + "/scenes/" + name + ".json";
}

std::string scene_save_path(const std::string& typed, std::string* why) {
  std::string name = typed;
  if (name.ends_with(".json")) name.resize(name.size() - 5);
  if (name.empty() || name.find('/') != std::string::npos || name.front() == '.') {
    *why = "a scene's name is a name, not a path: '" + core::printable(typed) + "' (no '/', not starting with '.')";
    return {};
  }
  const std::string dir = config_dir();
  if (dir.empty()) {
    *why = "no config folder to save scenes in";
    return {};
  }
  std::error_code ec;
  std::filesystem::create_directories(dir + "/scenes", ec);
  return dir + "/scenes/" + name + ".json";
}

// The .json files of config_dir()/FOLDER, as names without the extension, sorted.
static std::vector<std::string> saved_names(const char* folder) {
  std::vector<std::string> names;
  const std::string dir = config_dir();
  std::error_code ec;
  if (!dir.empty())
    for (const auto& e : std::filesystem::directory_iterator(dir + "/" + folder, ec))
      if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> saved_scenes() { return saved_names("scenes"); }
std::vector<std::string> saved_plans() { return saved_names("plans"); }

core::Plan load_plan(const std::string& name) {
  if (const auto text = embedded::plan(name); !text.empty()) return core::plan_from_json(std::string(text), "plan '" + name + "'");
  std::string text, why;
  if (!core::read_file(name, core::files::kPlan, &text, &why))
    throw std::runtime_error("no plan called '" + name + "' (shipped: " + plan_list() + "), and " + why);
  return core::plan_from_json(text, "plan file '" + name + "'");
}

void open_plan(AppState& state, const std::string& name) {
  state.plan = load_plan(name);
  state.scene = 0;
  state.messages.clear(Topic::Plan);
  apply_scene(state, state.plan->scenes.front());
}

PlanHeading plan_heading(const AppState& state) {
  if (!state.plan) return {};
  const auto& scene = state.plan->scenes[std::size_t(state.scene)];
  return {core::printable(state.plan->title) + ", scene " + std::to_string(state.scene + 1) + " of " +
              std::to_string(state.plan->scenes.size()),
          core::printable(scene.title)};
}

std::string plan_list() {
  std::string out;
  for (const auto& n : embedded::plan_names()) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

}  // namespace rl::ui
