// GPU = CPU, visibly: a kernel of your own traced on the GPU and (NVRTC's PTX for the same file,
// interpreted) on the CPU, compared stage by stage and cell by cell, bit for bit. A race-free
// kernel gives equal traces; where they differ, the first stage and cell that do are named.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "../core/trace.h"
#include "own_run.h"

namespace rl::own {

struct Agreement {
  bool compared = false;  // both runs finished and were compared
  bool equal = false;
  std::string text;  // for the student: what was compared, or the first difference in words
  int stage = -1;    // the first stage that differs (-1: none, or not a stage: the value, the partials)
  long cell = -1;    // the first cell of it that differs (a thread's, -1: the stage's line or label)
};

// How the two runs compared are named in the text.
struct Sides {
  const char* first = "GPU";
  const char* second = "CPU";
  const char* on_first = "on the GPU";  // "shared[3] is 5 on the GPU and 7 on the CPU"
  const char* on_second = "on the CPU";
  const char* first_the = "the GPU";  // "the GPU recorded 9 stages, the CPU 8"
  const char* second_the = "the CPU";
  const char* second_whose = "the CPU's";
  const char* equal = "GPU = CPU";
};

// Compares what both runs recorded: every stage's label, line, shared memory and lanes, the
// blocks' results and the value. A run that stopped on a finding (no value) is not compared.
Agreement agreement(const core::Trace& gpu, const core::Trace& cpu, const Sides& sides = {});

// The sizes a GPU run is interpreted beside (2^20 takes the CPU path about 3 s here).
constexpr std::size_t kMaxCompared = std::size_t(1) << 20;

struct Compared {
  core::Trace trace;  // the GPU's (compare_on_cpu: only the CPU path's findings)
  Agreement agreement;
};
// The CPU path's half: up to kMaxCompared elements, the request traced on the CPU path and
// compared with `gpu`; the returned trace holds only what the CPU path found (kinds other than
// wrong-result, their text starting "on the CPU path: "). Never throws: a refusal is in the text.
Compared compare_on_cpu(const OwnRequest& request, core::Op op, const core::Trace& gpu);
// Races, seen in the snapshots: the request run again on the CPU path with its warps interleaved
// at random (seed) and compared with `in_turn`, its run with warps in turn. Where the two differ,
// a "schedule" finding names the first stage and cell and both values. Runs where in_turn holds
// a race, or has at most kScheduleChecked elements; not where it stopped on a finding.
constexpr std::size_t kScheduleChecked = std::size_t(1) << 16;
std::optional<core::Finding> schedule_finding(const OwnRequest& request, core::Op op, const core::Trace& in_turn,
                                              std::uint64_t seed);
// Appends findings to a trace, up to kMaxFindings.
void add_findings(core::Trace& trace, const std::vector<core::Finding>& findings);

// Traces the request on the GPU (trace_own), then, up to kMaxCompared elements, on the CPU path
// with the same input and traced block, and compares the two. Throws what trace_own throws for
// the GPU run; the CPU path's refusal is said in the agreement's text.
Compared trace_on_both(const OwnRequest& request, core::Op op, std::uint64_t check_seed);

}  // namespace rl::own
