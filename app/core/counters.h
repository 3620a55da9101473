// The hardware's own counters, shipped with the program: Nsight Compute's figures of one GPU
// call (assets/counters/RUN.json, written by scripts/ncu-counters.py), checked field by field
// before a lesson quotes them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rl::core {

// A warp-state stall reason and the cycles a warp spent in it per instruction issued
// (smsp__average_warps_issue_stalled_REASON_per_issue_active.ratio).
struct Stall {
  std::string reason;  // "long_scoreboard", "barrier", ...
  double cycles = 0;
};

struct KernelCounters {
  std::string algorithm;           // the catalog id
  std::string kernel;              // the kernel ncu profiled, as it named it
  int launches = 1;                // the launches summed: 1, or every launch of one reduction
  std::uint64_t instructions = 0;  // warp instructions executed (smsp__inst_executed.sum)
  double duration_us = 0;
  std::size_t grid = 0;
  int block = 0;
  // Where the recording holds them (older ones do not): the whole launch's shared-memory bank
  // conflicts (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld/st) and shared load and
  // store warp instructions, global load sectors and requests, threads active a warp
  // instruction, DRAM throughput (% of peak), the three largest stall reasons (largest first), and
  // what the bench ran over ("2^24 floats") and its cluster size.
  std::optional<std::uint64_t> shared_load_conflicts, shared_store_conflicts, shared_loads, shared_stores;
  std::optional<std::uint64_t> global_load_sectors, global_load_requests;
  std::optional<double> threads_per_instruction, dram_pct;
  // Lanes whose predicate was on a warp instruction (..._pred_on_...): the lanes that did work. The
  // figure above also counts lanes a predicate switched off, so it stays near 32 when a branch is
  // compiled to predication (interleaved-divergent's `if`).
  std::optional<double> pred_on_per_instruction;
  std::vector<Stall> stalls;
  std::string input;
  int cluster = 0;
  std::string recorded;  // when, where it was counted in another call than the file's (else empty)
};

struct Counters {
  std::string device, driver, recorded, tool, metric, request, type;
  std::size_t n = 0;
  std::vector<KernelCounters> kernels;
  const KernelCounters* find(std::string_view algorithm) const;
};

// Throws std::runtime_error naming the field that is missing, of the wrong type or out of range.
Counters parse_counters(const std::string& json_text);
// The shipped counters of a GPU run ("h100"), parsed once; null where the program has none.
// Throws as parse_counters does.
const Counters* shipped_counters(std::string_view run);
// "42.8 million": a count for a sentence.
std::string millions(std::uint64_t count);

// What the hardware counted, in words, beside a view ("banks", "coalescing", "divergence") or in
// the Work tab ("work"): two lines, where the first says what was measured (the tool, the GPU,
// the input, the launch) and the second the figures. Empty where the algorithm was not measured,
// or its recording lacks the figures that view needs.
struct CountedLines {
  std::string context, figures;
  bool empty() const { return figures.empty(); }
};
CountedLines counted_lines(const Counters& c, std::string_view algorithm, std::string_view view);
// The same from the program's shipped counters (its one GPU run of them, "h100").
CountedLines shipped_counted_lines(std::string_view algorithm, std::string_view view);

}  // namespace rl::core
