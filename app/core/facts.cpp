#include "facts.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

#include "../../kernels/raw_trace.h"
#include "../../kernels/matrix_shapes.h"
#include "../../kernels/shapes.h"
#include "bench.h"
#include "compare.h"
#include "counters.h"
#include "machine_code.h"

namespace rl::core {
namespace {

std::vector<int> active_per_warp(const Stage& stage, int block) {
  std::vector<int> count((block + 31) / 32, 0);
  for (int t : stage.active)
    if (t >= 0 && t < block) ++count[t / 32];
  return count;
}

}  // namespace

namespace {

// A 4-byte word a thread's access touched in one bank, and the access's cells lying in it
// [cell, end): two halves, one float, part of a double.
struct BankWord {
  int word = 0, cell = 0, end = 0;
};
using Touches = std::vector<std::vector<SharedTouch>>;

// Bytes a thread of the warp from `first` moves in its k-th access: the widest of theirs (a
// warp-wide instruction moves the same width in every thread).
std::size_t access_bytes(const Touches& touches, std::size_t first, std::size_t last, std::size_t k, std::size_t eb) {
  std::size_t bytes = eb;
  for (std::size_t t = first; t < last; ++t)
    if (k < touches[t].size() && touches[t][k].cell >= 0)
      bytes = std::max(bytes, std::size_t(std::max(touches[t][k].width, 1)) * eb);
  return bytes;
}

using Banks = std::vector<std::vector<BankWord>>;  // 32: the words each bank serves

// Adds the 4-byte words one access touches to the banks that serve them; the same word twice is
// served once.
void touch_words(const SharedTouch& a, std::size_t eb, Banks& bank) {
  const std::size_t lo = std::size_t(a.cell) * eb, hi = lo + std::size_t(std::max(a.width, 1)) * eb;
  for (std::size_t w = lo / 4; w * 4 < hi; ++w) {
    auto& b = bank[w % 32];
    if (std::none_of(b.begin(), b.end(), [&](const BankWord& x) { return x.word == int(w); }))
      b.push_back({int(w), int(std::max(lo, w * 4) / eb), int((std::min(hi, w * 4 + 4) + eb - 1) / eb)});
  }
}

// The banks of threads [first, last)'s k-th accesses, one group served at once; empty where none
// of them made one (such a group is not served).
Banks group_banks(const Touches& touches, std::size_t first, std::size_t last, std::size_t k, std::size_t eb) {
  Banks bank;
  for (std::size_t t = first; t < last; ++t) {
    if (k >= touches[t].size() || touches[t][k].cell < 0) continue;
    if (bank.empty()) bank.resize(32);
    touch_words(touches[t][k], eb, bank);
  }
  return bank;
}

// Calls visit(group's first thread, group's threads, k, bank, words of that bank) for every bank
// of every group of every warp-wide access (the k-th access of each thread of a warp), served 128
// bytes at a time (bank_conflict_degree).
template <class Visit>
void each_bank(const Touches& touches, std::size_t eb, Visit visit) {
  for (std::size_t warp = 0; warp < touches.size(); warp += 32) {
    const std::size_t end = std::min(touches.size(), warp + 32);
    std::size_t slots = 0;
    for (std::size_t t = warp; t < end; ++t) slots = std::max(slots, touches[t].size());
    for (std::size_t k = 0; k < slots; ++k) {
      const std::size_t bytes = access_bytes(touches, warp, end, k, eb);
      const std::size_t group = bytes >= 16 ? 8 : bytes >= 8 ? 16 : 32;
      for (std::size_t first = warp; first < end; first += group) {
        const Banks bank = group_banks(touches, first, std::min(end, first + group), k, eb);
        for (std::size_t b = 0; b < bank.size(); ++b) visit(first, int(group), k, int(b), bank[b]);
      }
    }
  }
}

// Each thread's accesses in program order: its reads, then its writes (as in every kernel here).
// Reads through distributed shared memory (Access::sources) are left out: how a cluster's
// addresses meet the banks, another block's or this one's, is not modelled.
Touches thread_touches(const Stage& stage) {
  int threads = 0;
  for (const auto& a : stage.accesses) threads = std::max(threads, a.thread + 1);
  Touches touches(std::size_t(std::max(threads, 0)));
  for (const auto& a : stage.accesses) {
    auto& mine = touches[std::size_t(a.thread)];
    if (a.sources.empty())
      for (std::size_t k = 0; k < a.reads.size(); ++k) mine.push_back({a.reads[k], a.read_width(k)});
    for (std::size_t k = 0; k < a.writes.size(); ++k) mine.push_back({a.writes[k], a.write_width(k)});
  }
  return touches;
}

}  // namespace

int bank_conflict_degree(const Touches& touches, std::size_t element_bytes) {
  int worst = 0;
  each_bank(touches, element_bytes, [&](std::size_t, int, std::size_t, int, const std::vector<BankWord>& b) {
    worst = std::max(worst, int(b.size()));
  });
  return worst;
}

int bank_conflict_degree(const std::vector<std::vector<int>>& index, std::size_t element_bytes) {
  Touches touches(index.size());
  for (std::size_t t = 0; t < index.size(); ++t)
    for (int c : index[t]) touches[t].push_back({c, 1});
  return bank_conflict_degree(touches, element_bytes);
}

int bank_conflict_degree(const Stage& stage, std::size_t element_bytes) {
  return bank_conflict_degree(thread_touches(stage), element_bytes);
}

std::vector<BankRow> bank_rows(const Stage& stage, std::size_t element_bytes) {
  std::vector<BankRow> rows;
  each_bank(thread_touches(stage), element_bytes,
            [&](std::size_t first, int threads, std::size_t k, int bank, const std::vector<BankWord>& b) {
              if (rows.empty() || rows.back().first_thread != int(first) || rows.back().access != int(k))
                rows.push_back({int(first), threads, int(k), std::vector<int>(32, 0)});
              rows.back().words[std::size_t(bank)] = int(b.size());
            });
  return rows;
}

std::vector<int> cell_conflicts(const Stage& stage, int cells, std::size_t element_bytes) {
  std::vector<int> degree(std::size_t(std::max(cells, 0)), 1);
  each_bank(thread_touches(stage), element_bytes,
            [&](std::size_t, int, std::size_t, int, const std::vector<BankWord>& b) {
              if (b.size() < 2) return;
              for (const BankWord& w : b)
                for (int c = std::max(w.cell, 0); c < w.end && c < cells; ++c)
                  degree[std::size_t(c)] = std::max(degree[std::size_t(c)], int(b.size()));
            });
  return degree;
}

int divergent_warps(const Stage& stage, int block) {
  int n = 0;
  const auto count = active_per_warp(stage, block);
  for (std::size_t w = 0; w < count.size(); ++w) {
    const int size = std::min(32, block - int(w) * 32);
    const bool split = std::binary_search(stage.split_warps.begin(), stage.split_warps.end(), int(w));
    if ((count[w] > 0 && count[w] < size) || split) ++n;
  }
  return n;
}

int busy_warps(const Stage& stage, int block) {
  int n = 0;
  for (int c : active_per_warp(stage, block)) n += c > 0;
  return n;
}

int idle_lanes(const Stage& stage, int block) {
  int n = 0;
  const auto count = active_per_warp(stage, block);
  for (std::size_t w = 0; w < count.size(); ++w)
    if (count[w] > 0) n += std::min(32, block - int(w) * 32) - count[w];
  return n;
}

// An all-reduce's step in words, from its transfers: how many chunks moved, and what the
// receivers did with them.
static std::string collective_caption(const Trace& t, int k) {
  const Collective& c = *t.collective;
  const Stage& s = t.stages[std::size_t(k)];
  const GpuStage& g = c.stages[std::size_t(k)];
  if (g.transfers.empty())
    return s.label + ": " + count_text(std::size_t(c.gpus), "GPU", "GPUs") + " of " +
           count_text(t.size, "value", "values") + " each, cut in " + count_text(c.chunks(), "chunk", "chunks");
  std::size_t values = 0, added = 0;
  for (const Transfer& x : g.transfers) {
    values += c.chunk_begin[std::size_t(x.chunk) + 1] - c.chunk_begin[std::size_t(x.chunk)];
    added += x.add ? 1 : 0;
  }
  const std::string what = added == g.transfers.size() ? "each added to the receiver's copy"
                           : added == 0                ? "each copied over the receiver's copy"
                                                       : std::to_string(added) + " added, the rest copied";
  const bool whole = c.chunks() == 1;  // one-shot: a GPU's whole buffer
  return s.label + ": " +
         count_text(g.transfers.size(), whole ? "buffer sent" : "chunk sent", whole ? "buffers sent" : "chunks sent") +
         ", " + what + "; " + count_text(values, "value", "values") + " moved over the links";
}

std::string stage_caption(const Trace& t, int k) {
  if (k < 0 || k >= int(t.stages.size())) return {};
  if (t.collective && std::size_t(k) < t.collective->stages.size()) return collective_caption(t, k);
  const Stage& s = t.stages[k];
  if (!records_work(t))  // a GPU run of a kernel of your own: which threads worked is not recorded
    return s.line > 0 ? s.label + " at line " + std::to_string(s.line) : s.label;
  // global-halving's threads span the array, not one block.
  const int threads = t.memory == core::Memory::Global ? int(t.size) : t.block;
  const int busy = busy_warps(s, threads), divergent = s.divergent_warps;
  std::string out = s.label + ": " + std::to_string(s.active.size()) + " of " +
                    std::to_string(threads) + " threads active in " + count_text(std::size_t(busy), "warp", "warps");
  out += "; " + count_text(std::size_t(divergent), "divergent warp", "divergent warps");
  if (s.bank_conflicts) {
    if (*s.bank_conflicts > 1) out += "; " + std::to_string(*s.bank_conflicts) + "-way bank conflict";
    else out += "; no bank conflicts";
  }
  return out;
}

kernels::Grid2 matrix_grid_of(const Trace& t) {
  return t.geometry.known() ? kernels::Grid2{t.geometry.grid_x, t.geometry.grid_y} : kernels::Grid2{t.grid, 1};
}

bool second_pass(const Trace& t) { return t.rows > 0 && t.geometry.passes > 1; }

int block_x_of(const Trace& t) { return t.rows == 0 || !t.geometry.known() ? 32 : t.geometry.block_x; }

std::size_t tile_cols_of(const Trace& t) {
  return t.rows == 0 ? 32 : std::size_t(block_x_of(t)) * std::size_t(t.geometry.thread_cols);
}

std::set<long long> loaded_elements(const Stage& stage) {
  std::set<long long> out;
  for (const Load& l : stage.loads)
    for (std::size_t k = 0; k < l.elements.size(); ++k)
      for (long long e = l.elements[k]; e >= 0 && e < l.elements[k] + l.width(k); ++e) out.insert(e);
  return out;
}

bool loads_cut(const Stage& stage) {
  return std::any_of(stage.loads.begin(), stage.loads.end(),
                     [](const auto& l) { return l.elements.size() >= std::size_t(kernels::kLoadSlots); });
}

std::vector<WarpLoad> warp_loads(const Stage& stage, std::size_t element_bytes) {
  std::map<std::pair<int, int>, std::set<long long>> sectors;
  std::map<std::pair<int, int>, int> lanes;
  std::map<std::pair<int, int>, std::size_t> read;  // elements the warp's lanes read in that load
  for (const Load& l : stage.loads)
    for (std::size_t k = 0; k < l.elements.size(); ++k) {
      if (l.elements[k] < 0) continue;  // no load in this slot
      const std::pair<int, int> key{l.thread / 32, int(k)};
      const long long first = l.elements[k], width = l.width(k);
      for (long long e = first; e < first + width; ++e) sectors[key].insert(e * (long long)element_bytes / 32);
      ++lanes[key];
      read[key] += std::size_t(width);
    }
  std::vector<WarpLoad> out;
  for (const auto& [key, s] : sectors)
    out.push_back({key.first, key.second, lanes[key], int(s.size()), int((read[key] * element_bytes + 31) / 32)});
  return out;
}

std::string sectors_text(const Trace& trace) {
  for (const Stage& s : trace.stages) {
    const auto loads = warp_loads(s, element_bytes(trace.type));
    if (loads.empty()) continue;
    const auto [lo, hi] = std::minmax_element(loads.begin(), loads.end(),
                                              [](const WarpLoad& a, const WarpLoad& b) { return a.sectors < b.sectors; });
    return lo->sectors == hi->sectors ? std::to_string(lo->sectors)
                                      : std::to_string(lo->sectors) + " to " + std::to_string(hi->sectors);
  }
  return "-";
}

// The worst bank conflict the trace recorded in its stages of one tag ("-" where none touched shared memory).
static std::string tag_conflicts(const Trace& trace, int tag) {
  int worst = 0;
  for (const Stage& s : trace.stages)
    if (s.tag == tag && s.bank_conflicts) worst = std::max(worst, *s.bank_conflicts);
  return worst ? std::to_string(worst) : "-";
}

// thread-per-row: the walk's recorded reads laid out without the pad (rows tile_cols cells apart
// instead of tile_pitch), and the worst conflict they would have made.
static std::string unpadded_conflicts(const Trace& trace) {
  const int cols = trace.geometry.tile_cols, pitch = trace.geometry.tile_pitch;
  for (const Stage& s : trace.stages) {
    if (s.tag != kernels::kTagRowWalk || cols < 1 || pitch < 1) continue;
    auto touches = thread_touches(s);
    for (auto& mine : touches)
      for (SharedTouch& a : mine) a.cell = a.cell / pitch * cols + a.cell % pitch;
    return std::to_string(bank_conflict_degree(touches, shared_cell_bytes(trace)));
  }
  return "-";
}

// flat-rows: who adds a row of the tile, as the run's lanes a row make it.
static std::string flat_row_work(int lanes) {
  if (lanes <= 1) return "each thread adds a row of its own there";
  const std::string k = std::to_string(lanes);
  return k + " neighbouring threads add each row there, " + k +
         " cells apart, and meet through __shfl_down_sync with a width of " + k;
}

// The shortest row whose sums flat-rows' timed kernel holds, lanes aside (flat_held_rows), for
// the trace's elements and the sums they add into (halves added in float: twice the rows).
static std::size_t flat_held_from(const Trace& t) {
  const std::size_t elem = element_bytes(t.type), sum = element_bytes(value_type(t));
  std::size_t cols = 1;
  while (kernels::kFlatHeldTiles * kernels::flat_tile_rows(cols, elem) > kernels::kFlatHeldBytes / sum) ++cols;
  return cols;
}

static std::string one_decimal(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", x);
  return buf;
}

// redux-sync: what the shipped machine code holds (assets/machine_code/redux-sync.txt).
static std::string code_fact(std::string_view what) {
  static const std::optional<MachineCode> code = [] {
    try {
      return shipped_machine_code("redux-sync");
    } catch (const std::invalid_argument&) {
      return std::optional<MachineCode>{};
    }
  }();
  if (!code) return "-";
  if (what == "device") return code->device;
  if (what == "recorded") return code->recorded;
  if (what == "redux") return std::to_string(count_opcode(*code, "redux-sync int sum", "REDUX"));
  if (what == "shfl") return std::to_string(count_opcode(*code, "warp-shuffle int sum", "SHFL"));
  const bool redux = what == "redux_total" || what == "redux_cycles";
  const auto* k = code->find(redux ? "redux-sync int sum" : "warp-shuffle int sum");
  if (!k) return "-";
  if (what == "redux_cycles" || what == "shuffle_cycles")
    return k->stage_cycles > 0 ? one_decimal(k->stage_cycles) : "-";
  return std::to_string(k->instructions);
}

// thread-per-row: the rows of the block's first tile (its walk's threads).
static std::string tile_rows(const Trace& trace) {
  for (const Stage& s : trace.stages)
    if (s.tag == kernels::kTagRowWalk) return std::to_string(s.active.size());
  return "-";
}

// Whether the traced matrix's rows take 16-byte loads (column-sums-vectorized's batches).
static bool vector_rows(const Trace& trace) { return kernels::rows_hold_vectors(trace.cols, element_bytes(trace.type)); }

// A run's shipped counters; null where it has none or they do not parse (the lesson keeps
// its placeholder, which the test that reads every lesson names).
static const Counters* counters_of(std::string_view run) {
  try {
    return shipped_counters(run);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// A shipped run's sum row of one algorithm at one size ("2^28" or "4096x65536"); null if none.
static const BenchRow* shipped_row(std::string_view run, std::string_view type, std::string_view algorithm,
                                   std::string_view size) {
  const std::size_t x = size.find('x');
  const bool matrix = x != std::string_view::npos;
  const BenchReport* r = shipped_report(run, type, "sum", matrix);
  const auto n = parse_size(matrix ? size.substr(0, x) : size, 40);
  const auto cols = matrix ? parse_size(size.substr(x + 1), 40) : std::optional<std::size_t>(1);
  if (!r || !n || !cols) return nullptr;
  for (const BenchRow& row : r->rows)
    if (row.algorithm == algorithm && (matrix ? row.rows == *n && row.cols == *cols : row.n == *n && row.rows == 0))
      return &row;
  return nullptr;
}

// One figure of a GPU run shipped with the program: {us:RUN:TYPE:ALGO:SIZE} its median time
// ("983 us"; SIZE "2^28" or "4096x65536"), {pct:RUN:TYPE:ALGO:SIZE} its bandwidth ("93.4 % of
// peak"), {device:RUN} the GPU it ran on. Empty when the run has no such row (a test holds every
// lesson to figures that exist).
std::string shipped_figure(std::string_view spec) {
  std::vector<std::string_view> f;
  for (std::size_t at = 0; at <= spec.size();) {
    const std::size_t end = std::min(spec.find(':', at), spec.size());
    f.push_back(spec.substr(at, end - at));
    at = end + 1;
  }
  if (f.size() == 3 && f[0] == "inst") {  // {inst:RUN:ALGO}: warp instructions Nsight Compute counted
    const auto c = counters_of(f[1]);
    const KernelCounters* k = c ? c->find(f[2]) : nullptr;
    return k ? millions(k->instructions) : "";
  }
  if (f.size() == 2 && f[0] == "counted") {  // {counted:RUN}: the tool, the GPU, the date, the input
    const auto c = counters_of(f[1]);
    return c ? "Nsight Compute, on an " + c->device + " (" + c->recorded + ") over " + size_text(c->n) + " " + c->type +
                   "s,"
             : "";
  }
  if (f.size() == 2 && f[0] == "device") {
    const BenchReport* r = shipped_report(f[1], "float", "sum");
    return r ? r->device : "";
  }
  if (f.size() != 5) return "";
  const BenchRow* row = shipped_row(f[1], f[2], f[3], f[4]);
  if (!row) return "";
  // {block:...} the row's threads a block; {blocks:...} its blocks of one element a thread; {each:...}
  // those blocks' results a thread of one block.
  const auto b = std::size_t(std::max(row->block, 0)), blocks = b ? (row->n + b - 1) / b : 0;
  if (f[0] == "block") return b ? std::to_string(b) : "";
  if (f[0] == "blocks") return b ? size_text(blocks) : "";
  if (f[0] == "each") return b ? std::to_string((blocks + b - 1) / b) : "";
  if (f[0] != "us" && f[0] != "pct") return "";
  char buf[32];
  if (f[0] == "pct")
    std::snprintf(buf, sizeof buf, "%.1f %% of peak", row->pct_of_peak);
  else
    std::snprintf(buf, sizeof buf, row->median_us >= 100 ? "%.0f us" : "%.1f us", row->median_us);
  return buf;
}

// Every {us:...}, {device:...} and the rest of shipped_figure's kinds in a lesson replaced by its
// shipped figure.
static std::string fill_shipped(std::string text) {
  for (const std::string_view kind :
       {"{us:", "{pct:", "{device:", "{inst:", "{counted:", "{block:", "{blocks:", "{each:"})
    for (std::size_t at = text.find(kind); at != std::string::npos; at = text.find(kind, at)) {
      const std::size_t end = text.find('}', at);
      if (end == std::string::npos) break;
      const std::string value = shipped_figure(std::string_view(text).substr(at + 1, end - at - 1));
      if (value.empty()) {
        at = end;  // left as written: the test that reads every lesson names it
        continue;
      }
      text.replace(at, end - at + 1, value);
      at += value.size();
    }
  return text;
}

// The lessons' numbers that are the kernels' constants, the same in every run.
static const std::vector<std::pair<std::string_view, std::string>>& constant_fills() {
  static const std::vector<std::pair<std::string_view, std::string>> fills = {
      {"{tile_row_bytes}", std::to_string(kernels::kTileRowBytes)},
      {"{tile_kb}", std::to_string(kernels::kTileBytes / 1024)},
      {"{deep_block}", std::to_string(kernels::kDeepColumnBlock)},
      {"{deep_bytes}", std::to_string(kernels::column_batch_bytes(kernels::kDeepColumnBlock, true))},
      {"{wide_bytes}", std::to_string(kernels::column_batch_bytes(1024, true))},
      {"{single_bytes}", std::to_string(kernels::column_batch_bytes(kernels::kDeepColumnBlock, false))},
      {"{grid_waves}", std::to_string(kernels::kGridWaves)},
      {"{split_loads}", std::to_string(kernels::kSplitLoads)},
      {"{chunk_align}", std::to_string(kernels::kChunkAlignCols)},
      {"{row_loads}", std::to_string(kernels::kRowLoadsInFlight)},
      {"{first_waits_chunks}", std::to_string(kernels::kFirstWaitsMinChunks)},
      {"{long_row_loads}", std::to_string(kernels::kLongRowLoads)},
      {"{long_row_block}", std::to_string(kernels::kLongRowBlock)},
      {"{max_row_lanes}", std::to_string(kernels::kMaxRowLanes)},
      {"{held_min_rows}", std::to_string(kernels::kHeldMinRows)},
      {"{held_sum_bytes}", std::to_string(kernels::kHeldSumBytes)},
      {"{round_row_bytes}", std::to_string(kernels::kRoundRowBytes)},
      {"{round_max_gbps_per_sm}", std::to_string(kernels::kRoundMaxGbpsPerSm)},
      {"{sm_registers}", std::to_string(kernels::kRegistersPerSm)},
      {"{wide_registers}", std::to_string(kernels::kRegistersPerSm / 1024)},
      {"{queue_vectors}", std::to_string(kernels::kQueueVectors)},
      {"{stride_blocks}", std::to_string(kernels::kStrideBlocksPerSm)},
      {"{bulk_stages}", std::to_string(kernels::kBulkStages)},
      {"{stream_tile_kb}", std::to_string(kernels::row(kernels::Algo::BulkAsyncStreaming).tile_bytes / 1024)},
      {"{stream_stages}", std::to_string(kernels::row(kernels::Algo::BulkAsyncStreaming).stages)},
      {"{flat_tile_kb}", std::to_string(kernels::kFlatTileBytes / 1024)},
      {"{flat_stages}", std::to_string(kernels::kFlatStages)},
      {"{flat_lane_elements}", std::to_string(kernels::kFlatLaneElements)},
      {"{flat_lane_limit}", std::to_string(kernels::kFlatLaneLimit)},
      {"{flat_held_kb}", std::to_string(kernels::kFlatHeldBytes / 1024)},
      {"{flat_run_block}", std::to_string(kernels::kFlatRunMaxBlock)},
      {"{flat_run_kb}", std::to_string(kernels::kFlatRunBytes / 1024)},
      {"{vector_columns}", std::to_string(kernels::kVectorColumns)},
      {"{chunk_elements}", std::to_string(kernels::row_chunk_elements(4))},
      {"{chunk_halves}", std::to_string(kernels::row_chunk_elements(2))},
      {"{chunk_halves_few}", std::to_string(kernels::row_chunk_elements(2, true))}};
  return fills;
}

std::string fill_lesson(std::string_view lesson, const Trace& trace) {
  std::string conflicts, divergent;
  for (const auto& s : trace.stages) {
    if (s.tag != kernels::kTagStep && s.tag != kernels::kTagWarpStep) continue;
    const std::string sep = conflicts.empty() && divergent.empty() ? "" : ", ";
    conflicts += sep + (s.bank_conflicts ? std::to_string(*s.bank_conflicts) : "-");
    divergent += sep + std::to_string(s.divergent_warps);
  }
  const std::pair<std::string_view, std::string> fills[] = {
      {"{block}", std::to_string(trace.block)},
      {"{block_warps}", std::to_string(std::max(1, trace.block / 32))},
      {"{cluster}", std::to_string(trace.geometry.cluster)},
      {"{cluster_reads}", std::to_string(trace.geometry.cluster * std::max(1, trace.block / 32))},
      {"{block_results}", std::to_string((trace.size + std::size_t(std::max(trace.block, 1)) - 1) /
                                         std::size_t(std::max(trace.block, 1)))},
      {"{cluster_results}",
       count_text(trace.pass_outputs.empty() ? trace.grid : trace.pass_outputs[0], "result", "results")},
      {"{row_lanes}", std::to_string(trace.geometry.segment_lanes)},
      {"{rows_a_warp}", std::to_string(32 / std::max(1, trace.geometry.segment_lanes))},
      {"{tile_row_cols}", std::to_string(trace.geometry.tile_cols)},
      {"{tile_rows}", tile_rows(trace)},
      {"{tile_pitch}", std::to_string(trace.geometry.tile_pitch)},
      {"{code_device}", code_fact("device")},
      {"{code_recorded}", code_fact("recorded")},
      {"{redux_ops}", code_fact("redux")},
      {"{shfl_ops}", code_fact("shfl")},
      {"{redux_instructions}", code_fact("redux_total")},
      {"{shuffle_instructions}", code_fact("shuffle_total")},
      {"{redux_cycles}", code_fact("redux_cycles")},
      {"{shuffle_cycles}", code_fact("shuffle_cycles")},
      {"{pad_cells}", trace.geometry.tile_pitch > trace.geometry.tile_cols ? "one pad cell" : "no pad cell"},
      {"{walk_conflicts}", tag_conflicts(trace, kernels::kTagRowWalk)},
      {"{lane_conflicts}", tag_conflicts(trace, kernels::kTagRowLanes)},
      {"{copy_conflicts}", tag_conflicts(trace, kernels::kTagTileCopy)},
      {"{unpadded_conflicts}", unpadded_conflicts(trace)},
      {"{conflicts}", conflicts},
      {"{divergent}", divergent},
      {"{rows_apart}", std::to_string(std::max(1, trace.block / block_x_of(trace)))},
      {"{block_x}", std::to_string(block_x_of(trace))},
      {"{sectors}", sectors_text(trace)},
      {"{tile_cols}", std::to_string(tile_cols_of(trace))},
      {"{batch_bytes}", std::to_string(kernels::column_batch_bytes(trace.block, vector_rows(trace)))},
      {"{batch_rows}",
       std::to_string(kernels::column_batch_rows(trace.block, element_bytes(trace.type), vector_rows(trace)))},
      {"{grid}", std::to_string(trace.grid)},
      {"{grid_blocks}", count_text(trace.grid, "block", "blocks")},
      {"{rows}", std::to_string(trace.rows)},
      {"{chunks}", count_text(trace.rows ? trace.grid / trace.rows : 0, "chunk", "chunks")},
      {"{tile_bytes}", std::to_string(trace.block * 16)},
      {"{flat_row_work}", flat_row_work(trace.geometry.segment_lanes)},
      {"{flat_held_from}", std::to_string(flat_held_from(trace))}};
  std::string out(lesson);
  for (const auto& [key, value] : fills) fill_placeholder(out, key, value);
  for (const auto& [key, value] : constant_fills()) fill_placeholder(out, key, value);
  return fill_shipped(out);
}

void fill_placeholder(std::string& text, std::string_view key, std::string_view value) {
  for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size()))
    text.replace(at, key.size(), value);
}

int pointed_stage(const Trace& trace, const Pointer& pointer) {
  for (std::size_t i = 0; i < trace.stages.size(); ++i) {
    const Stage& s = trace.stages[i];
    if (s.tag == pointer.tag && (!pointer.param || s.param == *pointer.param)) return int(i);
  }
  return -1;
}

// "serial" for the source marker "[serial]": a label a student reads has no brackets.
static std::string marker_name(int tag) {
  const std::string marker = kernels::tag_marker(tag);
  return marker.substr(1, marker.size() - 2);
}

std::string pointer_label(const Pointer& pointer, const Trace* trace) {
  const int stage = trace ? pointed_stage(*trace, pointer) : -1;
  std::string where = stage >= 0      ? trace->stages[std::size_t(stage)].label
                      : pointer.param ? stage_label(pointer.tag, *pointer.param, true)
                                      : "the " + marker_name(pointer.tag) + " stage";
  return pointer.view + " view, " + where;
}

AlgorithmInfo fill_lessons(AlgorithmInfo info, const Trace& trace) {
  for (std::string* text : {&info.lesson, &info.brief, &info.detail}) *text = fill_lesson(*text, trace);
  if (info.look) info.look->text = fill_lesson(info.look->text, trace);
  return info;
}

}  // namespace rl::core
