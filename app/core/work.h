// Work, depth and cost of the traced block, counted from what its trace recorded.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "trace.h"

namespace rl::core {

// An addition is one application of the operator (a sum, min or max) that the block's code
// runs, padding with the identity included. Not counted: the first fold of an accumulator that
// starts at the identity (grid-stride and vector loads), which only copies the first element.
struct StageWork {
  std::string label;
  int tag = -1;
  int active = 0;              // threads the trace marks active
  std::size_t additions = 0;   // exact, or a lower bound when !exact
  bool exact = true;
  std::string counted;         // what was counted, in a few words
};

struct Work {
  std::vector<StageWork> stages;
  std::size_t additions = 0;  // their sum; a lower bound when !exact
  bool exact = true;
  int depth = 0;              // the stages the trace recorded
  int adding_stages = 0;      // of those, the stages that added
  int threads = 0;            // the block (global-halving: the array's length)
  std::size_t elements = 0;   // input elements the traced block read
  int results = 1;            // values the block reduces to (one a tile for cg-warp and cg's atomics)
  std::size_t busy = 0;       // thread-stages that did work: the sum of active threads
  std::size_t available = 0;  // thread-stages available: threads x stages
  double efficiency = 0;      // busy / available
  std::size_t ideal_additions = 0;  // threads - results: each addition merges two values
  int ideal_depth = 0;              // ceil(log2(threads / results)): levels of a balanced tree
};

Work work_of(const Trace& trace);
// What the block reduces to, in words: "1 value", "16 values (one a column)" for column sums,
// "4 values (one a tile)" for tiled results.
std::string results_text(const Trace& trace, const Work& work);

}  // namespace rl::core
