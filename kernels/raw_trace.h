// What an instrumented block records (RawTrace) and the sizes that bound it: shared by the
// probes (kernels/probe.cuh), the CPU model and the backend's one conversion into a core::Trace.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "reduce_ops.h"

namespace rl::kernels {

// Global loads a trace records per thread and stage: the first ones, enough for the
// coalescing view's warp-wide accesses.
constexpr int kLoadSlots = 16;
// A recorded global load: the index of its first element and how many elements it read (1, or a
// 16-byte vector's 4 floats or ints, 2 doubles), as one number.
constexpr long long kLoadWidths = 32;
constexpr RL_HD long long load_code(std::size_t index, int width) { return static_cast<long long>(index) * kLoadWidths + width; }
constexpr RL_HD std::size_t load_index(long long code) { return static_cast<std::size_t>(code / kLoadWidths); }
constexpr RL_HD int load_width(long long code) { return static_cast<int>(code % kLoadWidths); }

// Sizes of one trace: stages, access slots per thread and stage, cells of shared memory.
struct TraceShape {
  int stages = 0;
  int slots = 0;
  int shared_size = 0;
  int load_slots = 0;  // global loads recorded per thread and stage (the first ones)
  bool remote = false;  // reads may come from another block's shared memory (a cluster's)
};

// How a matrix run's rows ended, where several blocks share a row (batched-rows-vectorized):
// whether every run's row's first block waited for the others' results (first-waits; else the
// row's last block, by a ticket), and how many of the words first-waits waits on the runs left set
// (it empties each for the next launch).
struct RowEnds {
  bool first_waits = false;
  std::size_t words_left = 0;
};

// What one instrumented block recorded, stage by stage. Per-stage arrays are [stage];
// per-thread ones [stage][thread]; shared [stage][cell]; access [stage][thread][slot], in the
// thread's program order: -1 none, else 2*index for a read and 2*index+1 for a write.
// loads [stage][thread][load slot]: each global load's load_code, in program order, -1 none
// (only the first load_slots of a thread's stage). sources [stage][thread][slot] where
// shape.remote: the block of the thread's cluster whose shared memory a read came from, -1 its own.
template <class T>
struct RawTrace {
  int block = 0;
  std::size_t grid = 0;
  TraceShape shape;
  std::vector<int> tags, params;
  std::vector<int> shared_count;  // cells each stage recorded of shared memory (0: none)
  std::vector<std::uint8_t> has_lanes;
  std::vector<T> shared, lanes;
  std::vector<std::uint8_t> active;
  std::vector<int> access;
  std::vector<int> sources;
  std::vector<long long> loads;
  std::vector<T> partials;  // every block's result of the first pass (up to kMaxPartials)
  std::vector<int> tickets;  // work-queue: the block that took each ticket (up to kMaxTickets)
  bool first_waits = false;  // batched-rows-vectorized: the rows ended with their first block waiting

  void reset(TraceShape s, int threads) {
    shape = s;
    block = threads;
    const std::size_t st = std::size_t(s.stages), cells = st * threads;
    tags.assign(st, -1);
    params.assign(st, 0);
    shared_count.assign(st, 0);
    has_lanes.assign(st, 0);
    shared.assign(st * s.shared_size, T{});
    lanes.assign(cells, T{});
    active.assign(cells, 0);
    access.assign(cells * s.slots, -1);
    sources.assign(s.remote ? cells * s.slots : 0, -1);
    loads.assign(cells * s.load_slots, -1);
    partials.clear();
    tickets.clear();
    first_waits = false;
  }
};

// Traces keep at most this many first-pass partials (the grid view shows far fewer).
constexpr std::size_t kMaxPartials = 4096;
// And at most this many work-queue tickets: twice what the largest trace the app takes needs
// (2^27 doubles in blocks of 32), so a GPU record is always whole.
constexpr std::size_t kMaxTickets = std::size_t(1) << 20;

}  // namespace rl::kernels
