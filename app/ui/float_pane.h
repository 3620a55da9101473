// The Float tab: the run's sum beside a reference far more precise than the type, the same
// values added left to right for contrast, and the run repeated to show whether its result changes.
#pragma once
#include <atomic>
#include <future>
#include <optional>
#include <string>

#include "../backend/ladder.h"
#include "../backend/repeat.h"
#include "../core/float_error.h"
#include "../core/precision_ladder.h"

namespace rl::ui {

struct AppState;

struct FloatUi {
  std::optional<backend::TraceRequest> request;  // what the trace on screen was recorded for
  std::optional<core::FloatReport> report;       // float and double sums only
  std::vector<core::Rung> ladder;                // the same input in half, bf16, float, double
  int generation = 0;  // counts recordings: repeats started for an older one are dropped
  int runs = backend::kDefaultRepeats;
  std::optional<backend::Repeats> repeats;
  std::string error;  // the last repeat's failure
  std::future<backend::Repeats> pending;
  int pending_generation = -1;
  std::atomic<bool> cancel{false};
  // The determinism lab: every array algorithm over the same input (backend::repeat_every).
  std::optional<std::vector<backend::LabRow>> lab;
  std::future<std::vector<backend::LabRow>> lab_pending;
  int lab_generation = -1;
  std::atomic<bool> lab_cancel{false};
  // The ladder on a real run (backend::run_ladder): the input through one algorithm in every rung.
  std::optional<backend::LadderRun> run_ladder;
  std::future<backend::LadderRun> ladder_pending;
  int ladder_generation = -1;
  std::atomic<bool> ladder_cancel{false};

  FloatUi() = default;
  FloatUi(const FloatUi&) = delete;
  FloatUi& operator=(const FloatUi&) = delete;
  ~FloatUi();
  // record_trace calls this once a trace is in; the error is computed once here, not every frame.
  void recorded(const backend::TraceRequest& req, const core::Trace& trace);
  void start(const backend::Backend& backend);  // repeats `request` on a thread of its own
  void start_lab(const backend::Backend& backend);  // every algorithm over `request`'s input
  void start_ladder(const backend::Backend& backend);  // the ladder's rungs as runs of an algorithm
  void poll();                                  // takes the repeats once they are done
};

void float_pane(AppState& state);

}  // namespace rl::ui
