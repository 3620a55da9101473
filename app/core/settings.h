// What the user chose, kept between runs in the user's config folder as JSON. A broken or
// partial file is reported and left in place (renamed aside), and defaults fill what is missing.
#pragma once
#include <string>

#include "input.h"
#include "types.h"

namespace rl::core {

struct Settings {
  std::string algorithm = "sequential";
  Op op = Op::Sum;
  DType type = DType::Int;
  int block = 32;
  int size = 32;
  int trace_block = 0;
  InputSpec input;
  bool typed = false;       // the learner's own values instead of `input`
  std::string values;       // what they typed or pasted
  double speed = 1.0;       // stages per second
  bool presenter = false;   // large type, high contrast, the view filling the screen
  bool operator==(const Settings&) const = default;
};

std::string to_json(const Settings& s);

struct LoadedSettings {
  Settings settings;
  std::string problem;  // empty when the file was read cleanly (or absent)
};
// Reads path. A missing file gives defaults silently; an unreadable, malformed or partly
// wrong one gives defaults (for the wrong fields) and says what was wrong. A malformed file
// is kept, renamed to path + ".broken", so nothing the user made is lost.
LoadedSettings load_settings(const std::string& path);
// Writes atomically (a temporary file, then rename); false with *error set on failure.
bool save_settings(const Settings& s, const std::string& path, std::string* error);

}  // namespace rl::core
