// The host side of the matrix family: the launches that reduce each row, each column, or the
// whole matrix. Shared by launch.cu (results and traces) and bench.cu (timing).
#pragma once
#include "launch_impl.cuh"
#include "matrix.cuh"
#include "flat_rows.cuh"
#include "short_rows.cuh"

namespace rl::kernels {
inline namespace launch_detail {

// In: the input's element type; T: the accumulator's, which the outputs take.
// Every matrix row launched on a GPU has its entry in its kernel file, and no other row has one.
template <int... I>
constexpr bool matrix_table_matches_rows(std::integer_sequence<int, I...>) {
  return (((row(Algo(I)).gpu && row(Algo(I)).shape == Shape::Matrix) == MatrixLaunch<Algo(I)>::kListed) && ...);
}
static_assert(matrix_table_matches_rows(std::make_integer_sequence<int, int(kLastAlgo) + 1>{}),
              "every matrix kernel's row has its MatrixLaunch entry in its kernel file, and no other row has one");

// Whether a launch table entry chooses its timed kernel's grid (timed_grid).
template <class Entry, class T, class Op, class In, class = void>
inline constexpr bool kChoosesTimedGrid = false;
template <class Entry, class T, class Op, class In>
inline constexpr bool kChoosesTimedGrid<
    Entry, T, Op, In, std::void_t<decltype(Entry::template timed_grid<T, Op, In>(Matrix{}, 0, DeviceShape(1)))>> = true;

// The grid that the row's timed kernel runs in, in blocks of `block` threads on `device`, where its
// entry of the launch table chooses one (timed_grid); 0 where it does not (the plan's rule).
template <class T, class Op, class In>
std::size_t timed_matrix_grid(Algo algo, Matrix m, int block, DeviceShape device) {
  std::size_t grid = 0;
  with_algo(algo, [&](auto a) {
    constexpr Algo A = decltype(a)::value;
    if constexpr (kTypesFit<A, T, In> && kChoosesTimedGrid<MatrixLaunch<A>, T, Op, In>)
      grid = MatrixLaunch<A>::template timed_grid<T, Op, In>(m, block, device);
  });
  return grid;
}

// Traceable: false for a reducer that only times (bench.cu): its traced first pass is then not
// compiled.
template <class T, class Op, class In = T, bool Traceable = true>
class MatrixReducer {
 public:
  // plan: a matrix plan (make_plan) for elements of In, checked for the kernel when it was made.
  MatrixReducer(const Plan& plan, RawTrace<T>* trace, cudaStream_t stream)
      : plan_(plan), trace_(trace), stream_(stream) {
    if (!Traceable && trace) throw std::invalid_argument("a timing reducer records no trace");
    if (plan.elem_bytes != sizeof(In))
      throw std::invalid_argument("a plan for elements of " + std::to_string(plan.elem_bytes) +
                                  " bytes launched over elements of " + std::to_string(sizeof(In)));
  }

  // Allocates what every later enqueue needs and, for a timed reducer, asks the runtime what its
  // launches need (the entry's prepare), so timed runs allocate and ask nothing.
  void prepare() {
    out_ = std::make_unique<DeviceArray<T>>(plan_.outputs);
    partials_.reset(), tickets_.reset(), words_.reset();
    if (second_pass()) partials_ = std::make_unique<DeviceArray<T>>(plan_.passes[0].outputs);
    if (second_pass() && plan_.row->combine == Combine::LastBlock) {  // a ticket counter a row
      tickets_ = std::make_unique<DeviceArray<unsigned>>(plan_.shape.rows);
      tickets_->fill_bytes(0, stream_);  // the last block of a row wraps its counter back to 0
      // ... or, where the shape allows first-waits (the entry's prepare checks the fit), a word a block
      if (first_waits_shape(plan_.grid.x, unsigned(plan_.block_x), unsigned(plan_.block_y), sizeof(T))) {
        words_ = std::make_unique<DeviceArray<unsigned long long>>(plan_.grid.count());
        words_->fill_bytes(0, stream_);  // empty; the row's first block empties them again
      }
    }
    first_ = first_args();
    if (trace_) return;  // a traced pass asks nothing of the runtime
    with_algo(plan_.algo(), [&](auto a) {
      constexpr Algo A = decltype(a)::value;
      if constexpr (MatrixLaunch<A>::kListed && kTypesFit<A, T, In>) MatrixLaunch<A>::template prepare<T, Op>(first_);
    });
  }

  // Enqueues every launch of one reduction of the matrix at in; returns where the outputs
  // will be. Traced runs synchronise to copy the recording back.
  const T* enqueue(const In* in) {
    LaunchArgs<T, In> first = first_;
    first.in = in;
    first_waited_ = false;
    first.first_waited = &first_waited_;
    with_algo(plan_.algo(), [&](auto a) { enqueue_listed<decltype(a)::value>(first); });
    RL_CUDA(cudaGetLastError());
    return out_->get();
  }

  std::vector<T> run(const In* host_in) { return run_each({host_in})[0]; }

  // One prepare, then each input in turn through the same buffers; `ends`, where given, gets how
  // the runs ended their rows.
  std::vector<std::vector<T>> run_each(const std::vector<const In*>& host_ins, RowEnds* ends = nullptr) {
    DeviceArray<In> input(plan_.size());
    prepare();
    std::vector<std::vector<T>> outs;
    if (ends) *ends = {!host_ins.empty(), 0};
    for (const In* host_in : host_ins) {
      input.from_host(host_in, plan_.size());
      const T* result = enqueue(input.get());
      std::vector<T>& out = outs.emplace_back(plan_.outputs);
      RL_CUDA(cudaMemcpyAsync(out.data(), result, out.size() * sizeof(T), cudaMemcpyDeviceToHost, stream_));
      RL_CUDA(cudaStreamSynchronize(stream_));
      if (ends) ends->first_waits = ends->first_waits && first_waited_, ends->words_left += words_left();
    }
    return outs;
  }

 private:
  bool second_pass() const { return plan_.pass_count > 1; }

  // The words a run left set: first-waits empties every one for the next launch.
  std::size_t words_left() const {
    if (!words_) return 0;
    std::vector<unsigned long long> host(plan_.grid.count());
    words_->to_host(host);
    return std::size_t(std::count_if(host.begin(), host.end(), [](unsigned long long w) { return w != 0; }));
  }

  LaunchArgs<T, In> first_args() const {
    LaunchArgs<T, In> a;
    a.out = partials_ ? partials_->get() : out_->get(), a.outputs = out_->get();
    a.m = plan_.shape, a.grid = plan_.grid, a.block = dim3(unsigned(plan_.block_x), unsigned(plan_.block_y));
    a.threads = plan_.block, a.lanes = plan_.lanes, a.tile_cols = plan_.tile_cols;
    a.tickets = tickets_ ? tickets_->get() : nullptr, a.words = words_ ? words_->get() : nullptr;
    a.stream = stream_;
    return a;
  }

  // The row's entry of the launch table: its first pass, then its fold of the partials where
  // the plan has a second pass.
  template <Algo A>
  void enqueue_listed(const LaunchArgs<T, In>& first) {
    if constexpr (!MatrixLaunch<A>::kListed) {
      throw std::invalid_argument(std::string(row(A).id) + " has no matrix kernel");
    } else if constexpr (!kTypesFit<A, T, In>) {
      refuse_types(row(A), kNarrowRun<T, In>);
    } else {
      first_pass([&](auto probe) { MatrixLaunch<A>::template launch<T, Op>(first, probe); });
      if (second_pass()) MatrixLaunch<A>::template fold<T, Op>(first.second());
    }
  }

  template <class Kernel>
  void first_pass(Kernel kernel) {
    if (!trace_) return kernel(NoProbe{});
    if constexpr (Traceable) traced_first_pass(kernel);
  }
  template <class Kernel>
  void traced_first_pass(Kernel kernel) {
    const std::size_t partials = std::min(plan_.passes[0].outputs, kMaxPartials);
    TraceBuffers<T> buf(matrix_trace_shape(plan_.algo(), plan_.block, plan_.shape, sizeof(In)), plan_.block, partials,
                        0);
    kernel(buf.probe(plan_.trace_block));
    RL_CUDA(cudaStreamSynchronize(stream_));
    buf.copy_to(*trace_);
    trace_->grid = plan_.grid.count();
    trace_->first_waits = first_waited_;
  }

  Plan plan_;
  RawTrace<T>* trace_;
  cudaStream_t stream_;
  std::unique_ptr<DeviceArray<T>> out_, partials_;
  std::unique_ptr<DeviceArray<unsigned>> tickets_;
  std::unique_ptr<DeviceArray<unsigned long long>> words_;
  bool first_waited_ = false;  // the last enqueue's: set by the launch entry
  LaunchArgs<T, In> first_;  // the first pass's arguments but its input (prepare)

 public:
  MatrixReducer(const MatrixReducer&) = delete;
  MatrixReducer& operator=(const MatrixReducer&) = delete;
};

}  // namespace launch_detail
}  // namespace rl::kernels
