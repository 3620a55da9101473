// What the window shows and what the user chose; panels read it and change it.
#pragma once
#include <optional>
#include <string>

#include "../backend/backend.h"
#include "../core/input.h"
#include "../core/player.h"
#include "../core/trace.h"

namespace rl::ui {

struct RunChoice {
  std::string algorithm = "sequential";
  core::Op op = core::Op::Sum;
  core::DType type = core::DType::Int;
  int block = 32;
  int size = 32;
  int trace_block = 0;
  core::InputSpec input;  // random:1 by default
  bool operator==(const RunChoice&) const = default;
};

struct AppState {
  backend::Selection backend;
  RunChoice choice;
  std::optional<RunChoice> recorded;  // the choice the trace was recorded for
  std::optional<core::Trace> trace;
  std::string error;                  // the last run's failure, shown until the next run
  core::Player player;
  float frame_ms = 0;
};

// Records a trace for state.choice on the state's backend; on failure keeps the old trace
// and sets state.error.
void record_trace(AppState& state);

}  // namespace rl::ui
