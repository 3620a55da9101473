// Repeated race-revealing runs: the first pass recorded by every block (RaceProbe), later
// passes as timed, each run's block results checked against the model's.
#include <stdexcept>

#include "algorithms.h"
#include "launch_impl.cuh"
#include "race_api.h"

namespace rl::kernels {
namespace {

static_assert(RaceProbe<int>::kSlots == kRaceSlots, "the log's layout is stated twice");

// Only the four kernels with a recording, so this file instantiates nothing else.
template <class T, class Op, class Probe>
void launch_race_kernel(Algo algo, std::size_t grid, int block, const T* in, T* out, std::size_t n, const Probe& p) {
  const dim3 g(static_cast<unsigned>(grid));
  const std::size_t sh = std::size_t(block) * sizeof(T);
  switch (algo) {
    case Algo::Sequential: sequential<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::UnrollLastWarp: unroll_last_warp<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::MissingSyncthreads: missing_syncthreads<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::LegacyWarpSynchronous: legacy_warp_synchronous<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    default: throw std::invalid_argument("no race-revealing recording for this algorithm");
  }
  RL_CUDA(cudaGetLastError());
}

template <class T, class Op>
class RaceRunner {
 public:
  RaceRunner(Algo algo, const Launch& l, std::size_t n)
      : algo_(algo),
        block_(l.block),
        traced_(l.trace_block),
        n_(n),
        per_block_(std::size_t(tiles_on_load(algo)) * std::size_t(l.block)),
        grid_(ceil_div(n, per_block_)),
        stages_(trace_shape(algo, l.block, n).stages),
        input_(n),
        a_(grid_),
        b_(grid_),
        log_(grid_ * std::size_t(stages_) * std::size_t(l.block) * kRaceSlots) {
    log_.fill_bytes(0);  // the slots of idle threads are copied back too
  }

  RaceRuns<T> run(const T* host_in, int runs, const std::vector<T>& expected) {
    input_.from_host(host_in, n_);
    RaceRuns<T> out;
    std::vector<T> partials(grid_);
    for (int r = 0; r < runs; ++r) {
      const T result = once(partials);
      int wrong = 0, first = -1;
      for (std::size_t b = 0; b < grid_; ++b)
        if (!same(partials[b], expected[b])) first = first < 0 ? int(b) : first, ++wrong;
      out.results.push_back(result);
      out.wrong_blocks.push_back(wrong);
      const bool keep = (wrong > 0 && out.first_wrong < 0) || (r == runs - 1 && out.first_wrong < 0);
      if (!keep) continue;
      if (wrong > 0) out.first_wrong = r;
      const bool traced_wrong = !same(partials[std::size_t(traced_)], expected[std::size_t(traced_)]);
      out.block = wrong > 0 && !traced_wrong ? first : traced_;
      out.partials = partials;
      copy_log(out.block, out.log);
    }
    return out;
  }

 private:
  static bool same(T a, T b) { return a == b || (a != a && b != b); }

  // One whole reduction: the recorded first pass, then the timed kernel over the partials.
  T once(std::vector<T>& partials) {
    const RaceProbe<T> probe{{}, log_.get(), stages_};
    launch_race_kernel<T, Op>(algo_, grid_, block_, input_.get(), a_.get(), n_, probe);
    a_.to_host(partials);
    T* src = a_.get();
    T* dst = b_.get();
    for (std::size_t count = grid_; count > 1; count = ceil_div(count, per_block_)) {
      launch_race_kernel<T, Op>(algo_, ceil_div(count, per_block_), block_, src, dst, count, NoProbe{});
      std::swap(src, dst);
    }
    T result{};
    RL_CUDA(cudaMemcpy(&result, src, sizeof(T), cudaMemcpyDeviceToHost));
    return result;
  }

  void copy_log(int block, std::vector<T>& dst) const {
    const std::size_t count = std::size_t(stages_) * std::size_t(block_) * kRaceSlots;
    dst.resize(count);
    RL_CUDA(cudaMemcpy(dst.data(), log_.get() + std::size_t(block) * count, count * sizeof(T), cudaMemcpyDeviceToHost));
  }

  Algo algo_;
  int block_, traced_;
  std::size_t n_, per_block_, grid_;
  int stages_;
  DeviceArray<T> input_, a_, b_, log_;
};

}  // namespace

template <class T>
RaceRuns<T> gpu_race_runs(Algo algo, OpKind op, const T* host_in, std::size_t n, const Launch& launch, int runs,
                          const std::vector<T>& expected) {
  if (runs < 1 || runs > kMaxRaceRuns)
    throw std::invalid_argument("race runs: 1 to " + std::to_string(kMaxRaceRuns) + " runs, got " + std::to_string(runs));
  const std::size_t grid = check_race_launch(algo, n, launch);
  if (expected.size() != grid)  // before the log (up to a GiB) is allocated
    throw std::invalid_argument("race runs: " + std::to_string(expected.size()) + " expected block results for a grid of " +
                                std::to_string(grid));
  switch (op) {
    case OpKind::Sum: return RaceRunner<T, ops::Sum>(algo, launch, n).run(host_in, runs, expected);
    case OpKind::Min: return RaceRunner<T, ops::Min>(algo, launch, n).run(host_in, runs, expected);
    case OpKind::Max: return RaceRunner<T, ops::Max>(algo, launch, n).run(host_in, runs, expected);
  }
  throw std::invalid_argument("unknown operator");
}

#define RL_RACE(T)                                                                                      \
  template RaceRuns<T> gpu_race_runs<T>(Algo, OpKind, const T*, std::size_t, const Launch&, int, \
                                        const std::vector<T>&);
RL_RACE(int)
RL_RACE(float)
RL_RACE(double)
#undef RL_RACE

}  // namespace rl::kernels
