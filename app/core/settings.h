// What the user chose, kept between runs in the user's config folder as JSON. A broken or
// partial file is reported and left in place (renamed aside), and defaults fill what is missing.
#pragma once
#include <string>
#include <vector>

#include "../../kernels/collectives.h"
#include "input.h"
#include "types.h"

namespace rl::core {

// The side panels' widths as fractions of the window's width, set by dragging the splitters;
// 0 is the default layout's width.
struct PanelWidths {
  double left = 0, right = 0;  // the normal layout's algorithm and source panels
  double presenter = 0;        // presenter mode's right column
  bool operator==(const PanelWidths&) const = default;
};

// The side panels' widths in pixels for a window `width` wide: each fraction asked (`fallback`
// where it is 0), held at least `min_side` wide and leaving the centre at least `min_center`.
// A window too narrow for all three minima gives each side its minimum.
struct PanelSplit {
  float left = 0, right = 0;
};
PanelSplit clamp_panels(double left, double right, PanelSplit fallback, float width, PanelSplit min_side,
                        float min_center);

// What a run is of: the algorithm, its operator and types, its launch and its input. The window's
// choice (ui::AppState::choice) and the part of a settings file or plan scene that picks a run.
struct RunChoice {
  std::string algorithm = "sequential";
  Op op = Op::Sum;
  DType type = DType::Int;
  Accumulate accumulate = Accumulate::Float;  // half and bf16: what they add in
  int block = 32;
  int size = 32;
  static constexpr int kRows = 8, kCols = 256;  // the matrix family's default shape
  int rows = kRows, cols = kCols;  // the matrix family's shape (rows x cols at most kMaxWindowElements)
  int trace_block = 0;
  int grid = 0;     // blocks of a grid-stride kernel's first pass; 0: one wave of the device
  int cluster = 0;  // kernels of clusters: blocks a cluster, 2, 4 or 8; 0: the row's own
  int gpus = kernels::kModelGpus;  // the family across GPUs: GPUs, 2 to 8, each a buffer of `size` values
  InputSpec input;  // random:1 by default
  bool typed = false;  // the learner's own values instead of `input` (the size follows them)
  // What they typed or pasted (at most kMaxTyped characters); the digits of pi to start with.
  static constexpr const char* kSampleValues = "3 1 4 1 5 9 2 6 5 3 5 8 9 7 9 3 2 3 8 4 6 2 6 4 3 3 8 3 2 7 9 5";
  std::string values = kSampleValues;
  static constexpr std::size_t kMaxTyped = 8191;  // the window's text box holds this many
  std::string compare;                            // a second algorithm beside the first; empty: none
  bool operator==(const RunChoice&) const = default;
};

// The run chosen, and how the window shows it: what a settings file or a plan's scene holds.
struct Settings : RunChoice {
  static constexpr std::size_t kMaxPath = 511;    // the window's path field holds this many
  double speed = 1.0;       // stages per second
  bool presenter = false;   // large type, high contrast, the view filling the screen
  std::string view = "memory";  // memory | lanes | divergence | banks | grid | coalescing
  int stage = 0;            // the stage on screen
  std::string tab = "stages";   // stages | bandwidth
  std::string title;        // a scene's name in a lesson plan (escaped where shown)
  // A plan scene's own "Look: <view> <step>: <text>" line, shown instead of its lesson's: a
  // coalescing scene of sequential is not about its lesson's banks. Empty: the lesson's.
  std::string look;
  PanelWidths panels;
  // Whether the file named `presenter` and `panels`. A plan's scene that names neither keeps
  // the teacher's layout: the clicker must not leave presenter mode (apply_scene).
  bool names_presenter = false, names_panels = false;
  bool operator==(const Settings&) const = default;
};

std::string to_json(const Settings& s);

struct LoadedSettings {
  Settings settings;
  std::string problem;  // empty when the file was read cleanly (or absent)
  bool unreadable = false;  // the file is there but could not be read: never write over it
};
// Whose file is read: only the program's own settings file is ever set aside as ".broken";
// a scene or plan the user named is reported and left exactly where it is.
enum class Whose { Own, Named };
// Reads path. A missing file gives defaults silently; an unreadable, malformed or partly
// wrong one gives defaults (for the wrong fields) and says what was wrong. The program's own
// malformed file is kept, renamed to path + ".broken", so nothing the user made is lost.
LoadedSettings load_settings(const std::string& path, Whose whose);
// The same reading of a JSON object, from text; `origin` names it in the problem.
LoadedSettings settings_from_json(const std::string& text, const std::string& origin);

// A lesson plan: scenes (each a whole state, as the settings file holds it) stepped with
// PageDown and PageUp.
struct Plan {
  std::string title;
  std::vector<Settings> scenes;
};
// {"title": ..., "scenes": [{...}, ...]}. Throws std::runtime_error naming the scene and the
// field that is wrong: a plan is prepared ahead, so a mistake in it is an error, not a default.
Plan plan_from_json(const std::string& text, const std::string& origin);
// Appends `scene` to the plan file at path, made (titled `title`) where there is none: its other
// scenes and fields stay as they were. The scene leaves out presenter mode and panel widths, so
// stepping to it keeps the teacher's layout. A file there that is not a plan is refused and left
// as it is. Returns the scene's number (1-based), or 0 with *error set.
int add_to_plan(const std::string& path, const Settings& scene, const std::string& title, std::string* error);
// Writes atomically (a temporary file, then rename); false with *error set on failure.
bool save_settings(const Settings& s, const std::string& path, std::string* error);

}  // namespace rl::core
