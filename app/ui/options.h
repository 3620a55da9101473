// What the window is asked to do from the command line. Plain data: the command line fills it
// (cli.h) without depending on the window's code.
#pragma once
#include <string>

#include "../backend/backend.h"

namespace rl::ui {

struct GuiOptions {
  backend::Choice backend = backend::Choice::Auto;
  int quit_after_frames = 0;  // > 0: close by itself after that many frames (tests)
  std::string screenshot;     // with quit_after_frames: PNG of the last frame
  std::string tab;             // the centre tab to open: stages | bandwidth (empty: as saved)
  bool present = false;        // presenter mode from the start
  std::string compare;         // compare mode: a second algorithm beside the first
  bool run_bench = false;      // start the Bandwidth tab's benchmark at once
  bool export_gif = false;     // start a GIF export of the run at once (frame times during export)
  std::string bench_sizes, bench_algorithms;  // overrides for it (empty: the tab's defaults)
  std::string bench_shapes;  // the tab on the matrix family, over these shapes
  bool headless = false;       // no window: the same UI drawn off screen through EGL
  bool play = false;           // start the stage player playing
  bool soak = false;           // keep everything moving: every algorithm and view, benchmarks again and again
  std::string export_dir;      // where the Stages tab's exports go
  std::string view;            // the Stages tab's view: memory | lanes | divergence | banks | grid | coalescing
  std::string algorithm;       // the algorithm to open on (empty: the settings' choice)
  int stage = -1;              // the stage to show once its run is in (-1: the first)
  std::string pane;            // the lesson pane's tab: lesson | work | float | glossary
  std::string scene;           // a saved scene's name, or a scene file, to open on
  std::string plan;            // a lesson plan (shipped name or file) to open on its first scene
  int width = 1600, height = 900;  // the window's size (off screen: the frame's)
  bool size_asked = false;         // --window-size: the window opens at that size on any screen
  int rows = 0, cols = 0;      // a matrix algorithm's shape (0: as saved)
  std::string frame_report;    // JSON of every frame's time, and whether a benchmark ran
  std::string open;            // a trace, race recording or results file to open on (--open)
  std::string race_file;       // a race recording (`trace --runs N --format json`) to open on
  std::string kernel;          // a kernel of your own to run, and run again whenever it is saved
};

}  // namespace rl::ui
