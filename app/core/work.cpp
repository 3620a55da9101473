#include "work.h"

#include <algorithm>
#include <set>

#include "facts.h"

namespace rl::core {
namespace {

using kernels::Indexing;

bool is_pairs(const Trace& t) { return t.geometry.indexing == Indexing::GridStridePairs; }

void fold_work(const Trace& t, const std::vector<ThreadFold>& folds, StageWork& w) {
  if (folds.empty()) {  // a lower bound: the elements, less one for each thread that may hold some
    const std::size_t holders = std::min<std::size_t>(t.input.size(), std::size_t(w.active));
    w.additions = t.input.size() - holders;
    w.exact = false;
    w.counted = "at least: elements less one a thread (who read what is not recorded)";
    return;
  }
  const bool compensated =
      std::any_of(t.stages.begin(), t.stages.end(), [](const Stage& s) { return s.tag == kernels::kTagCompensate; });
  for (const ThreadFold& f : folds) w.additions += compensated ? 4 * f.elements : f.additions;
  w.counted = compensated   ? "each thread: four an element (the sum, two for its rounding error, one into the "
                              "error's total)"
              : is_pairs(t) ? "each thread: two a pair, less the first (onto the identity)"
                            : "each thread: one an element, less the first (onto the identity)";
}

// cg::reduce's own code (a butterfly, or redux.sync for ints) is not recorded: merging a
// tile's lanes into one value takes at least lanes - 1 additions.
void tile_work(const Stage& s, StageWork& w, int extra_per_tile, const char* counted) {
  const std::size_t tile = std::size_t(s.param > 0 ? s.param : 32);
  const std::size_t tiles = (std::size_t(w.active) + tile - 1) / tile;
  w.additions = tiles * (tile - 1 + std::size_t(extra_per_tile));
  w.exact = false;
  w.counted = counted;
}

std::size_t serial_additions(const Stage& s) {
  std::size_t n = 0;
  for (const Access& a : s.accesses) {
    const auto made = std::size_t(std::count_if(a.reads.begin(), a.reads.end(), [](int c) { return c >= 0; }));
    n += made == 0 ? 0 : made - 1;
  }
  return n;
}

// The matrix family's loading stage: each thread folds the elements it read (Geometry::folds);
// the first fold only copies, as above. column-sums-vectorized's threads fold each of their
// columns apart: less one a column.
void matrix_fold_work(const Trace& t, StageWork& w) {
  for (const ThreadFold& f : t.geometry.folds) w.additions += f.additions;
  w.exact = t.geometry.known();
  w.counted = t.geometry.thread_cols > 1 ? "its elements less one a column, a thread" : "its elements less one, a thread";
}

StageWork stage_work(const Trace& t, const Stage& s, const std::vector<ThreadFold>& folds) {
  StageWork w{s.label, s.tag, int(s.active.size()), 0, true, "none: loads or stores only"};
  const std::size_t active = s.active.size();
  switch (s.tag) {
    case kernels::kTagLoadAdd: w.additions = active, w.counted = "one a thread: two elements a block apart"; break;
    case kernels::kTagGridStride:
    case kernels::kTagVectorLoad:
    case kernels::kTagTileFold: fold_work(t, folds, w); break;
    case kernels::kTagRowStride:
    case kernels::kTagColumnStride:
    case kernels::kTagColumnVector:
    case kernels::kTagRowVector:
    case kernels::kTagRowLanes:
    case kernels::kTagRowSegment:
    case kernels::kTagRowWalk:
    case kernels::kTagColumnWalk:
    case kernels::kTagTileStride: matrix_fold_work(t, w); break;
    case kernels::kTagColumnStep:
      if (const int cols = t.geometry.thread_cols; cols > 1) {
        w.additions = active * std::size_t(cols), w.counted = "one a column an active thread holds";
        break;
      }
      [[fallthrough]];
    case kernels::kTagStep:
    case kernels::kTagWarpStep:
    case kernels::kTagHalving: w.additions = active, w.counted = "one an active thread"; break;
    case kernels::kTagSerial: w.additions = serial_additions(s), w.counted = "one a cell read, less the first"; break;
    case kernels::kTagShuffle:
    case kernels::kTagFinalShuffle: w.additions = active, w.counted = "one an active lane, needed or not"; break;
    case kernels::kTagRedux:
    case kernels::kTagFinalRedux:
      tile_work(s, w, 0, "31 a warp, inside one instruction (the hardware's own way is not documented)");
      break;
    case kernels::kTagTileReduce:
    case kernels::kTagFinalReduce: tile_work(s, w, 0, "at least 31 a tile (cg::reduce's count is not recorded)"); break;
    case kernels::kTagBulkReduce:
      w.additions = active, w.counted = "one bulk reduction by thread 0, into the result";
      break;
    case kernels::kTagCompensate:
      w.additions = active, w.counted = "one a thread: what its roundings lost, added back";
      break;
    case kernels::kTagAtomic:
      if (s.param > 0) tile_work(s, w, 1, "at least 31 a tile, then its atomic (not recorded)");
      else w.additions = active, w.counted = "one atomic an active thread, into the result";
      break;
    default: break;
  }
  return w;
}

bool folds_loads(const Trace& t) {
  return std::any_of(t.stages.begin(), t.stages.end(), [](const Stage& s) {
    return s.tag == kernels::kTagGridStride || s.tag == kernels::kTagVectorLoad || s.tag == kernels::kTagTileFold;
  });
}

int ceil_log2(std::size_t x) {
  int k = 0;
  while ((std::size_t(1) << k) < x) ++k;
  return k;
}

// Values the block reduces to: one, or one a tile when it ends on tile reductions (cg-warp's
// partials, cg-reduce-update-async's atomics).
int results_of(const Trace& t) {
  if (t.stages.empty()) return 1;
  if (t.rows > 0) {  // column sums leave one value a column of the block's; the others one in all
    // No block tree: each thread's own walk is an output (column-sums-naive, thread-per-row).
    if (t.geometry.tree == kernels::Tree::None) return std::max(1, int(t.stages.back().active.size()));
    if (t.geometry.indexing == Indexing::ColumnTiles) {
      const std::size_t tile = tile_cols_of(t);
      const std::size_t first = (std::size_t(t.trace_block) % matrix_grid_of(t).x) * tile;
      return int(std::clamp<std::size_t>(t.cols > first ? t.cols - first : 1, 1, tile));
    }
    return 1;
  }
  const Stage& s = t.stages.back();
  if (s.tag != kernels::kTagTileReduce && !(s.tag == kernels::kTagAtomic && s.param > 0)) return 1;
  const int tile = s.param > 0 ? s.param : 32;
  return std::max(1, (int(s.active.size()) + tile - 1) / tile);
}

// The values the block merges into its results: one a thread, or for column sums one a column of
// the matrix a thread holds (a lane past the last column holds padding no result takes).
std::size_t held_values(const Trace& t, std::size_t threads) {
  if (t.rows == 0 || t.geometry.indexing != Indexing::ColumnTiles || t.geometry.folds.empty()) return threads;
  std::size_t n = 0;
  for (const ThreadFold& f : t.geometry.folds) n += f.held;
  return std::max<std::size_t>(n, 1);
}

}  // namespace

Work work_of(const Trace& t) {
  Work w;
  w.threads = t.memory == Memory::Global ? int(t.size) : t.block;
  w.elements = t.input.size();
  w.depth = int(t.stages.size());
  const std::vector<ThreadFold> folds = folds_loads(t) ? t.geometry.folds : std::vector<ThreadFold>{};
  for (const Stage& s : t.stages) {
    w.stages.push_back(stage_work(t, s, folds));
    const StageWork& sw = w.stages.back();
    w.additions += sw.additions;
    w.exact = w.exact && sw.exact;
    w.adding_stages += sw.additions > 0;
    w.busy += std::size_t(sw.active);
  }
  w.available = std::size_t(std::max(w.threads, 0)) * std::size_t(w.depth);
  w.efficiency = w.available ? double(w.busy) / double(w.available) : 0;
  w.results = results_of(t);
  const std::size_t values = held_values(t, std::size_t(std::max(w.threads, 1))), results = std::size_t(w.results);
  w.ideal_additions = values > results ? values - results : 0;
  w.ideal_depth = ceil_log2((values + results - 1) / results);
  return w;
}

std::string results_text(const Trace& t, const Work& w) {
  const std::string n = count_text(std::size_t(w.results), "value", "values");
  if (w.results == 1) return n;
  return n + (t.rows > 0 ? " (one a column)" : " (one a tile)");
}

}  // namespace rl::core
