#include "settings.h"

#include <cstdlib>
#include <filesystem>

#include "../core/settings.h"

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

void load_settings(AppState& state, const std::string& path) {
  if (path.empty()) return;
  const auto loaded = core::load_settings(path);
  const auto& st = loaded.settings;
  state.choice = {st.algorithm, st.op, st.type, st.block, st.size, st.trace_block, st.input, st.typed,
                  st.values.empty() ? RunChoice{}.values : st.values, ""};
  state.player.set_speed(st.speed);
  state.presenter = st.presenter;
  state.notice = loaded.problem;
}

void save_settings(const AppState& state, const std::string& path, std::ostream& err) {
  if (path.empty()) return;
  const auto& c = state.choice;
  const core::Settings st{c.algorithm, c.op, c.type, c.block, c.size, c.trace_block, c.input,
                          c.typed, c.values, state.player.speed(), state.presenter};
  std::string problem;
  if (!core::save_settings(st, path, &problem)) err << "reduction-lab: warning: " << problem << "\n";
}

}  // namespace rl::ui
