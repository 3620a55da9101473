// What the window shows and what the user chose; panels read it and change it.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <future>
#include <memory>
#include <optional>
#include <string>

#include <set>
#include <utility>

#include "../../kernels/plan.h"
#include "../backend/backend.h"
#include "../backend/bench_runner.h"
#include "../backend/collective.h"
#include "../core/input.h"
#include "../core/player.h"
#include "../core/settings.h"
#include "../core/trace.h"
#include "../core/undo.h"
#include "../own/own_compare.h"
#include "../own/own_process.h"
#include "../render/export.h"
#include "../render/warp_views.h"
#include "code_editor.h"
#include "float_pane.h"
#include "messages.h"

namespace rl::ui {

using core::RunChoice;

// The Bandwidth tab's source for the live benchmark on this machine's backend; any other
// source is a shipped GPU run's name ("h200", core::shipped_runs).
inline constexpr const char* kRunHere = "here";
inline constexpr const char* kFromFile = "file";  // the Bandwidth tab's source: a results file opened

// The Bandwidth tab: what to measure, the worker measuring it, and the chart's interaction.
// A kernel of your own timed in the Bandwidth tab (own_bench.h), after the tab's run.
struct OwnTiming {
  bool wanted = true;                      // the tab's "with your kernel" box
  bool waiting = false;                    // timed when the tab's run ends
  std::future<core::BenchReport> running;  // bench --kernel in a process of its own
  std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
  std::chrono::steady_clock::time_point started{};
  std::string file;                  // the file being timed
  std::vector<core::BenchRow> rows;  // its own:NAME rows, shown with the run's
  std::string said;                  // why it was not timed

  OwnTiming() = default;
  ~OwnTiming() { *stop = true; }  // running's destructor then waits for the stopped process only
  OwnTiming(const OwnTiming&) = delete;
  OwnTiming& operator=(const OwnTiming&) = delete;
};

struct BenchUi {
  backend::BenchWorker worker;
  OwnTiming own;  // a kernel of your own, timed after the run here
  // kRunHere or a shipped run. Empty until the tab first opens: then this machine's run on a
  // GPU, and without one the first shipped run, so the CPU model is never taken for a GPU.
  std::string source;
  char sizes[64] = "";
  bool matrix = false;            // arrays (sizes) or the matrix family (shapes)
  std::string followed;           // the algorithm whose family and run the tab last took (follow_algorithm)
  bool int_to_follow = false;     // the type is int because the algorithm followed takes ints alone
  char shapes[256] = "sweep";     // "sweep" or ROWSxCOLS,...
  int table_shape = -1;           // index into the measured shapes; -1: the first
  char algorithms[512] = "all";
  char export_path[512] = "";
  core::DType type = core::DType::Float;
  core::Op op = core::Op::Sum;
  std::set<std::string> toggled;  // series the legend turned on or off, against shown_chart's default
  int table_n = -1;              // index into the measured sizes; -1: the largest
  float mouse_x = -1, mouse_y = -1;  // over the chart, in its pixels
  bool clicked = false;
  bool start_requested = false;  // press Run on the next frame (--run-bench)
  std::optional<core::BenchReport> file_report;  // a results file opened (source kFromFile)
  std::string file;                              // its path
};

enum class Tab { Stages, Bandwidth };

// A trace opened from a file (--open, the Open section, a file dropped on the window): shown
// while the run's fields are the ones it was opened under, as a race recording is.
struct OpenedUi {
  char path[512] = "";  // the Open section's path field
  std::optional<core::Trace> trace;
  std::string file;      // its path
  bool shown = false;    // the views show it while the run's fields are `choice`
  RunChoice choice;      // the fields it was shown under
};

// A kernel of your own (own_pane.h): the file, the run in progress, and what the last one said.
struct OwnUi {
  char path[512] = "";                      // the section's path field
  std::string file;                         // the file watched: rerun when its time changes
  std::filesystem::file_time_type stamp{};  // its time when last read
  bool watch = true;                        // rerun on save
  std::future<core::Trace> pending;         // the run in progress, on a thread of its own
  own::OwnRequest request;                  // what it runs (the comparison runs it again on the CPU)
  core::Op op = core::Op::Sum;
  bool gpu = false;
  std::string running;                      // what it runs on, while it runs ("the GPU", "the CPU path")
  std::string said;                         // the last run's outcome, or why it failed
  bool failed = false;
  std::vector<core::Finding> findings;  // what the CPU path found in the last run
  std::optional<own::Agreement> agreement;  // a GPU run's against the CPU path's (GPU = CPU)
  std::future<own::Compared> comparing;     // the CPU path's run beside a GPU run on screen
  // The checks after a run on screen (other sizes; a second warp schedule on the CPU): findings.
  std::future<std::vector<core::Finding>> checking;
  int polls = 0;                        // frames since the file's time was last read
  CodeEditor editor;                    // the file's text in the editor (own_editor.h)
  bool editing = false;                 // the editor is open, in the source panel's place
  bool disk_changed = false;            // the file changed on disk while its text was edited here
  // Set to stop a GPU run's process (Stop, or the window closing: ~OwnUi).
  std::shared_ptr<std::atomic<bool>> stop = std::make_shared<std::atomic<bool>>(false);
  std::chrono::steady_clock::time_point started{};  // when the run in progress began
  // A GPU run's process started before Run, CUDA already up (own_process.h); when it last started.
  std::unique_ptr<own::Standby> standby;
  std::chrono::steady_clock::time_point standby_at{};

  // A run, its comparison or its checks in progress: one run at a time.
  bool busy() const { return pending.valid() || comparing.valid() || checking.valid(); }

  OwnUi() = default;
  ~OwnUi() { *stop = true; }  // pending's destructor then waits a few milliseconds, not for the kernel
  OwnUi(const OwnUi&) = delete;
  OwnUi& operator=(const OwnUi&) = delete;
};

// A racy pitfall's race: a recording of N runs (core::Trace::race) made here on a GPU, opened
// from a file (--race-file) or shipped with the program, and the Race section's controls.
struct RaceUi {
  enum class From { Gpu, File, Shipped };
  struct Runs {  // what a GPU run brings back: the pitfall's recording and its fix's, same input and runs
    core::Trace pitfall, fix;
  };
  std::optional<core::Trace> recording;
  std::optional<core::Trace> fix;  // the fix race-recorded beside it (a GPU run here only)
  From from = From::Gpu;
  std::string file;                // --race-file's path
  bool shown = false;              // the views show the recording while the run's fields are `choice`
  RunChoice choice;                // the fields it was shown under
  RunChoice before;                // the fields before it: an algorithm picked next starts from them
  int runs = 100;
  std::string runs_note;           // why the runs field holds another value than typed
  std::future<Runs> pending;       // GPU runs, on a thread of their own
  RunChoice pending_choice;        // the fields those runs are of
  int focus_stage = -1, focus_read = -1;  // the stale read the enlarged warp last moved to
};

// A GIF, MP4 or every-stage export running on a worker thread with its own headless context,
// so the window keeps its frame rate; Cancel stops it between frames.
struct ExportJob {
  std::future<render::Exported> result;
  std::shared_ptr<render::Progress> progress;
  std::string path;  // what it writes, for the message when it ends
  bool running() const { return result.valid(); }
  ~ExportJob() {
    if (progress) progress->cancel = true;  // the future's destructor then waits for the worker
  }
};

struct AppState {
  backend::Selection backend;
  RunChoice choice;
  std::optional<RunChoice> recorded;  // the choice the trace was recorded for
  std::optional<core::Trace> trace;
  std::optional<core::Trace> compare_trace;  // compare mode's second algorithm
  // An all-reduce across GPUs on screen: where the ring's and the one-shot's bits differ on its input.
  std::optional<backend::OrderDifference> orders;
  bool gif_requested = false;  // --export-gif: start a GIF export once the run is on screen
  Messages messages;           // the window's messages, each drawn where its topic lives (messages.h)
  core::Player player;
  render::View view = render::View::Memory;  // which picture of the stage the Stages tab shows
  char export_dir[512] = "";                 // where the Stages tab's exports go (default ~/reduction-lab-exports)
  ExportJob export_job;
  float frame_ms = 0;
  bool presenter = false;     // large type, high contrast, the view filling the screen
  bool presenter_changed = false;
  bool keep_settings_file = false;  // it was there but unreadable: never written over on quit
  Tab tab = Tab::Stages;
  bool select_tab = false;  // make `tab` the open tab on the next frame
  bool quit_requested = false;  // Ctrl+Q
  bool help = false;            // the keys window (? or F1)
  bool black = false;           // the screen blanked (B or ., a clicker's blank key)
  float zoom = 1;               // the UI's scale on top of the monitor's (Ctrl+ and Ctrl-)
  int bank_row = 0;             // the banks or coalescing view's first row shown (16 accesses, 8 loads a page)
  int warp = 0;                 // the warp a view enlarges when a block is too wide to read ([ and ])
  int warps_zoomed = 0;         // the last view drawn enlarged one of this many warps; 0: the whole block
  int part = 0;                 // the part of that warp enlarged, where even one warp is too small to read
  int parts_zoomed = 1;         // the last view drawn showed its warp in this many parts (16 or 8 cells)
  int page_drawn = 0;           // the last view drawn paged this many rows (banks, coalescing); 0: its default
  core::PanelWidths panels;     // the side panels' widths, as the splitters left them
  core::History history;        // undo and redo (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y)
  int settle = 0;               // frames before undo looks again after a scene is applied (a tab lands a frame late)
  std::optional<core::Plan> plan;  // a lesson plan: PageDown and PageUp step its scenes
  int scene = 0;                   // the plan's scene on screen
  char scene_name[64] = "";        // the Scenes section's name field
  char plan_path[512] = "";        // the plan file "Add to plan" writes (empty: config_dir()/plans/class.json)
  bool play_requested = false;  // start playing once the first trace is in (--play)
  int stage_requested = -1;     // show this stage once the first trace is in (--stage)
  bool requests_for_own = false;  // --stage and --play with --kernel: for the kernel's trace, not the one before it
  bool look_pending = false;    // a lesson's Look set a larger block: look once that run is in
  std::string look_shown;       // the lesson pane's Look and its text this frame (the frame report says it)
  std::string pane;             // the lesson pane's tab to open on the next frame (--pane)
  BenchUi bench;
  FloatUi floats;  // the Float tab
  RaceUi race;     // the Race section and the recording on screen
  OpenedUi opened; // a trace opened from a file
  OwnUi own;       // a kernel of your own
  int stale_read = 0;  // which of the stage's stale reads the memory view describes
  struct {
    std::string block, size, trace_block, rows, cols, type, op;  // why a field holds another value than chosen
  } notes;
  struct {
    char rows[24] = "", cols[24] = "", size[24] = "";  // the Rows, Cols and array size fields' text while edited
  } shape_text;
  // What widgets keep from one frame to the next.
  struct {
    char values[core::Settings::kMaxTyped + 1] = "";  // the typed values' text box
    int source_line = -1;                             // the position in the listing the source panel last scrolled to
    float controls_h = 0;     // the Stages tab's controls' height last frame (they wrap)
    bool file_pending = false;
    bool float_open = false;  // the lesson pane's Float tab is the open one: the left panel widens  // the input combo
                              // says "file" and waits for a path and Enter
    float lesson_h = 0;       // presenter mode's lesson: its height last frame, so the source takes the rest
  } widgets;
};

constexpr std::int64_t kMaxTracedSize = core::kMaxWindowElements;  // the window records whole runs

// Records a trace for state.choice on the state's backend; on failure clears the trace (the
// list and source show the new choice) and posts the failure (Topic::Run). A race recording shown for these
// fields (RaceUi) stays on screen instead.
void record_trace(AppState& state);
// The request a choice records: its algorithm, sizes and input. Throws std::invalid_argument
// for a shape or typed values the window cannot trace, and as core::generate_input does.
backend::TraceRequest run_request(const RunChoice& choice);
// The plan the choice would run on the backend's device, before it runs (the panel's preview of
// its grid); none where the kernel refuses the choice (the run says why) or where typed values
// or a file set the size. cg-grid-sync's GPU grid may come out smaller (occupancy, at launch).
std::optional<kernels::Plan> planned_run(const AppState& s);

// --stage and --play: applied once the trace they are for is on screen (with --kernel, the
// kernel's own, which lands frames after the catalog's first trace; dropped if its run failed).
inline void apply_requests(AppState& s) {
  if (s.requests_for_own && s.own.failed && !s.own.pending.valid())
    s.requests_for_own = false, s.stage_requested = -1, s.play_requested = false;
  if (!s.trace || (s.requests_for_own && !core::own_kernel(*s.trace))) return;
  if (s.stage_requested >= 0) s.player.seek(std::exchange(s.stage_requested, -1));  // seeking pauses: first
  if (std::exchange(s.play_requested, false)) s.player.play();
  s.requests_for_own = false;
}

}  // namespace rl::ui
