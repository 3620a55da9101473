#include "work.h"

#include <algorithm>
#include <set>

#include "facts.h"

namespace rl::core {
namespace {

using kernels::Algo;

// How many of first, first + stride, ... lie below limit.
std::size_t count(std::size_t first, std::size_t limit, std::size_t stride) {
  return first < limit ? (limit - 1 - first) / stride + 1 : 0;
}

std::size_t per_vector(const Trace& t) { return t.type == DType::Double ? 2 : 4; }  // 16-byte loads

// cg's grid-stride loop: thread t of block k reads k*B + t, then every grid-wide stride.
std::vector<Fold> strided(const Trace& t) {
  const std::size_t b = std::size_t(t.block), first = std::size_t(t.trace_block) * b;
  std::vector<Fold> out(b);
  for (std::size_t i = 0; i < b; ++i) {
    const std::size_t e = count(first + i, t.size, t.grid * b);
    out[i] = {e, e};
  }
  return out;
}

// multiple-per-thread: pairs a block apart, every stride of grid x 2B; two additions a pair.
std::vector<Fold> pairs(const Trace& t) {
  const std::size_t b = std::size_t(t.block), stride = t.grid * 2 * b, first = std::size_t(t.trace_block) * 2 * b;
  std::vector<Fold> out(b);
  for (std::size_t i = 0; i < b; ++i) {
    const std::size_t pair_count = count(first + i, t.size, stride);
    out[i] = {pair_count + count(first + i + b, t.size, stride), 2 * pair_count};
  }
  return out;
}

// The scalar tail past the last whole vector, by grid stride (vectorized and work-queue).
std::size_t tail(const Trace& t, std::size_t tid) {
  const std::size_t b = std::size_t(t.block), per = per_vector(t);
  return count(per * (t.size / per) + std::size_t(t.trace_block) * b + tid, t.size, t.grid * b);
}

std::vector<Fold> vectors(const Trace& t, const std::vector<std::size_t>& vector_count) {
  std::vector<Fold> out(vector_count.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::size_t e = per_vector(t) * vector_count[i] + tail(t, i);
    out[i] = {e, e};
  }
  return out;
}

std::vector<Fold> vectorized(const Trace& t) {
  const std::size_t b = std::size_t(t.block);
  std::vector<std::size_t> v(b);
  for (std::size_t i = 0; i < b; ++i) v[i] = count(std::size_t(t.trace_block) * b + i, t.size / per_vector(t), t.grid * b);
  return vectors(t, v);
}

// work-queue: the vectors of every ticket the block took, then the scalar tail.
std::vector<Fold> queue(const Trace& t) {
  const std::size_t b = std::size_t(t.block), vecs = t.size / per_vector(t), chunk = kernels::kQueueVectors * b;
  if (t.tickets.size() != (vecs + chunk - 1) / chunk) return {};  // the record was cut short
  std::vector<std::size_t> v(b);
  for (std::size_t c = 0; c < t.tickets.size(); ++c)
    if (t.tickets[c] == t.trace_block)
      for (std::size_t i = 0; i < b; ++i) v[i] += count(c * chunk + i, std::min(vecs, (c + 1) * chunk), b);
  return vectors(t, v);
}

bool is_pairs(const Trace& t) {
  const auto* row = kernels::find_row(t.algorithm);
  return row && !kernels::is_baseline(*row) && row->algo == Algo::MultiplePerThread;
}

void fold_work(const Trace& t, const std::vector<Fold>& folds, StageWork& w) {
  if (folds.empty()) {  // a lower bound: the elements, less one for each thread that may hold some
    const std::size_t holders = std::min<std::size_t>(t.input.size(), std::size_t(w.active));
    w.additions = t.input.size() - holders;
    w.exact = false;
    w.counted = "at least: elements less one a thread (who read what is not recorded)";
    return;
  }
  for (const Fold& f : folds) w.additions += f.applications ? f.applications - 1 : 0;
  w.counted = is_pairs(t) ? "each thread: two a pair, less the first (onto the identity)"
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
  for (const Access& a : s.accesses) n += a.reads.empty() ? 0 : a.reads.size() - 1;
  return n;
}

// The matrix family's loading stage: each thread folds the elements it reads, by the kernels'
// indexing (kernels::matrix_thread_elements); the first fold only copies, as above.
// column-sums-vectorized's threads fold each of their columns apart: less one a column.
void matrix_fold_work(const Trace& t, StageWork& w) {
  const auto algo = kernels::find_row(t.algorithm)->algo;
  for (int thread = 0; thread < t.block; ++thread) {
    const auto elements = kernels::matrix_thread_elements(algo, {t.rows, t.cols}, t.block, matrix_grid_of(t),
                                                          t.trace_block, thread, element_bytes(t.type));
    std::set<std::size_t> sums;
    for (std::size_t e : elements) sums.insert(kernels::matrix_thread_cols(algo) > 1 ? e % t.cols : 0);
    w.additions += elements.size() - sums.size();
  }
  w.counted = kernels::matrix_thread_cols(algo) > 1 ? "its elements less one a column, a thread" : "its elements less one, a thread";
}

StageWork stage_work(const Trace& t, const Stage& s, const std::vector<Fold>& folds) {
  StageWork w{s.label, s.tag, int(s.active.size()), 0, true, "none: loads or stores only"};
  const std::size_t active = s.active.size();
  switch (s.tag) {
    case kernels::kTagLoadAdd: w.additions = active, w.counted = "one a thread: two elements a block apart"; break;
    case kernels::kTagGridStride:
    case kernels::kTagVectorLoad: fold_work(t, folds, w); break;
    case kernels::kTagRowStride:
    case kernels::kTagColumnStride:
    case kernels::kTagColumnVector:
    case kernels::kTagRowVector:
    case kernels::kTagColumnWalk:
    case kernels::kTagTileStride: matrix_fold_work(t, w); break;
    case kernels::kTagColumnStep:
      if (const int cols = kernels::matrix_thread_cols(kernels::find_row(t.algorithm)->algo); cols > 1) {
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
    case kernels::kTagTileReduce:
    case kernels::kTagFinalReduce: tile_work(s, w, 0, "at least 31 a tile (cg::reduce's count is not recorded)"); break;
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
    return s.tag == kernels::kTagGridStride || s.tag == kernels::kTagVectorLoad;
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
    const auto algo = kernels::find_row(t.algorithm)->algo;
    if (algo == Algo::ColumnSumsNaive) return std::max(1, int(t.stages.front().active.size()));
    if (kernels::is_column_sums(algo)) {
      const std::size_t tile = kernels::matrix_tile_cols(algo, t.block, t.cols);
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
  const auto* row = kernels::find_row(t.algorithm);
  if (t.rows == 0 || !row || !kernels::is_column_sums(row->algo)) return threads;
  const int bx = block_x_of(t);
  const std::size_t tile = std::size_t(t.trace_block) % matrix_grid_of(t).x;
  std::size_t n = 0;
  for (int x = 0; x < bx; ++x)
    for (std::size_t c : kernels::matrix_thread_columns(row->algo, t.block, t.cols, tile, std::size_t(x), element_bytes(t.type)))
      n += c < t.cols ? std::size_t(t.block / bx) : 0;
  return std::max<std::size_t>(n, 1);
}

}  // namespace

std::vector<Fold> thread_folds(const Trace& t) {
  const auto* row = kernels::find_row(t.algorithm);
  if (!row || kernels::is_baseline(*row) || t.grid == 0 || t.block <= 0) return {};
  switch (row->algo) {
    case Algo::MultiplePerThread: return pairs(t);
    case Algo::WarpShuffleVectorized: return vectorized(t);
    case Algo::WorkQueue: return queue(t);
    case Algo::CgTwoPhase:
    case Algo::CgReduceUpdateAsync:
    case Algo::CgGridSync: return strided(t);
    default: return {};
  }
}

Work work_of(const Trace& t) {
  Work w;
  w.threads = t.memory == Memory::Global ? int(t.size) : t.block;
  w.elements = t.input.size();
  w.depth = int(t.stages.size());
  const std::vector<Fold> folds = folds_loads(t) ? thread_folds(t) : std::vector<Fold>{};
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
