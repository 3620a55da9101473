// Facts derived from a trace's recordings (never typed in), and captions built from them.
#pragma once
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "../../kernels/raw_trace.h"
#include "../../kernels/matrix_shapes.h"
#include "catalog.h"
#include "trace.h"

namespace rl::core {

// One shared-memory access of a thread: its first cell (-1: none) and the cells it spans.
struct SharedTouch {
  int cell = -1;
  int width = 1;
};

// The worst bank conflict of a stage's warp-wide shared-memory accesses. touches[t][k] is
// thread t's k-th access in program order (a cell of -1: none, where others of its warp made
// one). The k-th accesses of a warp's threads are one warp-wide instruction, served 128 bytes
// at a time: accesses of 8 bytes a thread in two groups of 16 neighbouring threads, of 16 bytes
// in four of 8 (shared memory returns 128 bytes a cycle, so LDS.128 takes four requests: an
// answer on NVIDIA's forums, forums.developer.nvidia.com/t/77228; the exceptions it names for
// threads sharing an address are not modelled). Its degree is the largest number of distinct
// 4-byte words one of the 32 banks serves in one of those groups. Returns 0 when nothing
// touched shared memory.
int bank_conflict_degree(const std::vector<std::vector<SharedTouch>>& touches, std::size_t element_bytes);
// The same where every access is one cell: index[t][k] its cell.
int bank_conflict_degree(const std::vector<std::vector<int>>& index, std::size_t element_bytes = 4);
// The same over a stage's recorded accesses (a cell of -1: the thread took no part in that slot's
// instruction, which others of its warp made).
int bank_conflict_degree(const Stage& stage, std::size_t element_bytes);

// For each of the first `cells` shared cells, the worst bank-conflict degree among the stage's
// warp-wide accesses that touched it (1 when none conflicted). The same rule as
// bank_conflict_degree; each thread's reads come before its writes, as in every kernel here.
std::vector<int> cell_conflicts(const Stage& stage, int cells, std::size_t element_bytes);

// One group of a warp-wide access (the whole warp, or half or a quarter of it for accesses of 8
// or 16 bytes a thread): how many distinct 4-byte words each of the 32 banks had to serve. A
// bank with 2 or more is a conflict of that degree.
struct BankRow {
  int first_thread = 0;  // the group's first thread
  int threads = 32;      // the group's threads: 32, 16 or 8
  int access = 0;        // the k-th access of each thread, in program order
  std::vector<int> words;  // 32 entries, one per bank
};
std::vector<BankRow> bank_rows(const Stage& stage, std::size_t element_bytes);

// Warps that had some but not all of their threads active in the stage, or whose lanes ran apart
// (Stage::split_warps).
int divergent_warps(const Stage& stage, int block);
// Warps with at least one active thread: each of them issues the stage's instructions.
int busy_warps(const Stage& stage, int block);
// Lanes of the busy warps that idled in the stage: a busy warp issues the stage's instructions
// for all its lanes, so each inactive one is a lane-step spent. Warps with no active thread
// issue nothing and are not counted.
int idle_lanes(const Stage& stage, int block);
// "stride 8: 8 of 32 threads active in 1 warp; 0 divergent warps".
std::string stage_caption(const Trace& trace, int stage);
// The first stage a lesson's pointer names (its tag, and its parameter if it gives one); -1
// when the trace has none.
int pointed_stage(const Trace& trace, const Pointer& pointer);
// "banks view, stride 4", from the stage's own label when the trace has it.
std::string pointer_label(const Pointer& pointer, const Trace* trace);

// A lesson with its numbers from a trace: {block} the block size, {conflicts} the bank-conflict
// degree of each tree step, {divergent} the divergent warps of each tree step. Lessons quote
// what a run recorded, never typed figures.
// Constants by name ({grid_waves}, {split_loads}, ...), and figures of the GPU runs shipped with
// the program: {us:h200:float:naive-serial:2^28} ("944 us"), {device:h200}.
std::string fill_lesson(std::string_view lesson, const Trace& trace);
// Every `key` ("{block}") in text replaced by value: the one filler of lessons' placeholders.
void fill_placeholder(std::string& text, std::string_view key, std::string_view value);
// One shipped figure by its spec ("us:h100:float:batched-rows:4096x65536", "device:h200");
// empty when the shipped runs have none.
std::string shipped_figure(std::string_view spec);

// A trace's first-pass grid in x and y, as its run laid it out (Trace::geometry).
kernels::Grid2 matrix_grid_of(const Trace& t);
// Whether a matrix trace's first pass left several partials a line, folded again (by a second
// launch, or by the line's last block); false for a flat array.
bool second_pass(const Trace& t);
// Threads along x in a matrix trace's blocks; 32 for a flat array.
int block_x_of(const Trace& t);
// Columns a matrix trace's block covers (threads in x times the columns each keeps); 32 for an array.
std::size_t tile_cols_of(const Trace& t);

// One warp-wide global load: the slot-th load of each thread of a warp that made one, and the
// 32-byte sectors its addresses fall in (every element of a vector load's width). The input comes from cudaMalloc, aligned to 256 bytes,
// so element i lies in sector i * element_bytes / 32.
struct WarpLoad {
  int warp = 0;
  int slot = 0;
  int lanes = 0;    // threads of the warp that loaded
  int sectors = 0;  // distinct sectors they touched
  int ideal = 0;    // the fewest sectors that many elements can fill
  bool operator==(const WarpLoad&) const = default;
};
// A stage's warp-wide loads, warp by warp, in each warp's program order.
std::vector<WarpLoad> warp_loads(const Stage& stage, std::size_t element_bytes);
// Every input element the stage's recorded loads read, vector loads' whole width included.
std::set<long long> loaded_elements(const Stage& stage);
// Whether some thread of the stage reached the loads a trace keeps (kernels::kLoadSlots): it may
// have loaded more than were recorded.
bool loads_cut(const Stage& stage);
// "4" or "4 to 5": sectors per warp-wide load in the first stage that recorded loads.
std::string sectors_text(const Trace& trace);
// Every text of an algorithm's lesson (one line, brief, pointer, detail) filled from a trace.
AlgorithmInfo fill_lessons(AlgorithmInfo info, const Trace& trace);

}  // namespace rl::core
