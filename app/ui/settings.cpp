#include "settings.h"

#include <cstdlib>
#include <filesystem>

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

}  // namespace rl::ui
