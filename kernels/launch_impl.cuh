// The host side of every algorithm: device buffers, trace buffers, and the Reducer that
// covers a whole array with an algorithm's launches (repeated passes, a fixed grid and a
// second pass, atomics, a cooperative launch). Shared by launch.cu (results and traces) and
// bench.cu (timing).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cg.cuh"
#include "cuda_check.cuh"
#include "algorithms.h"
#include "raw_trace.h"
#include "shapes.h"
#include "gpu_api.h"
#include "plan.h"
#include "shuffle.cuh"
#include "shuffle_launch.cuh"
#include "single_pass.cuh"
#include "tree.cuh"

namespace rl::kernels {
inline namespace launch_detail {


// Owns one device allocation; freed on every path, exceptions included.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count_ > 0) ptr_ = static_cast<T*>(device_alloc(count_ * sizeof(T), "an array of " + std::to_string(count_) + " elements"));
  }
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return ptr_; }
  void to_host(T* dst, std::size_t count) const {
    if (count > 0) RL_CUDA(cudaMemcpy(dst, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  void to_host(std::vector<T>& dst) const { to_host(dst.data(), dst.size()); }
  void from_host(const T* src, std::size_t count) {
    if (count > 0) RL_CUDA(cudaMemcpy(ptr_, src, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  // On `stream`, so launches there come after it (a non-blocking stream is not ordered after
  // the legacy default stream's work).
  void fill_bytes(int byte, cudaStream_t stream = nullptr) {
    if (count_ > 0) RL_CUDA(cudaMemsetAsync(ptr_, byte, count_ * sizeof(T), stream));
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_;
};

inline std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Device buffers behind a TraceProbe, copied into a RawTrace afterwards.
template <class T>
struct TraceBuffers {
  TraceShape shape;
  int block;
  DeviceArray<int> tags, params;
  DeviceArray<int> shared_count;
  DeviceArray<std::uint8_t> has_lanes, active;
  DeviceArray<T> shared, lanes;
  DeviceArray<int> access, sources;
  DeviceArray<long long> loads;
  std::size_t partial_count;
  DeviceArray<T> partials;
  std::size_t ticket_count;
  DeviceArray<int> tickets;

  // partial_count: how many first-pass results to record (0: none); ticket_count: how many
  // work-queue tickets (0: none).
  TraceBuffers(TraceShape s, int b, std::size_t partial_count, std::size_t ticket_count)
      : shape(s),
        block(b),
        tags(s.stages),
        params(s.stages),
        shared_count(s.stages),
        has_lanes(s.stages),
        active(std::size_t(s.stages) * b),
        shared(std::size_t(s.stages) * s.shared_size),
        lanes(std::size_t(s.stages) * b),
        access(std::size_t(s.stages) * b * std::max(s.slots, 1)),
        sources(s.remote ? std::size_t(s.stages) * b * std::max(s.slots, 1) : 0),
        loads(std::size_t(s.stages) * b * s.load_slots),
        partial_count(partial_count),
        partials(partial_count),
        ticket_count(ticket_count),
        tickets(ticket_count) {
    tags.fill_bytes(0xff);  // -1: a stage the kernel never reached
    params.fill_bytes(0);
    shared_count.fill_bytes(0);
    has_lanes.fill_bytes(0);
    active.fill_bytes(0);
    access.fill_bytes(0xff);
    sources.fill_bytes(0xff);  // -1: a block's own shared memory
    loads.fill_bytes(0xff);  // -1: no load
    shared.fill_bytes(0);  // stages that record no shared memory or lanes still copy back
    lanes.fill_bytes(0);
    partials.fill_bytes(0);
    tickets.fill_bytes(0xff);  // -1: a ticket nobody took (a test would see it)
  }
  TraceProbe<T> probe(int traced_block) const {
    return {traced_block,      std::max(shape.slots, 1),
            shape.shared_size, tags.get(),
            params.get(),      shared_count.get(),
            has_lanes.get(),   shared.get(),
            lanes.get(),       active.get(),
            access.get(),      sources.get(),
            shape.load_slots,  loads.get(),
            partials.get(),    partial_count,
            tickets.get(),     ticket_count};
  }
  void copy_to(RawTrace<T>& raw) const {
    raw.reset(shape, block);
    tags.to_host(raw.tags);
    params.to_host(raw.params);
    shared_count.to_host(raw.shared_count);
    has_lanes.to_host(raw.has_lanes);
    shared.to_host(raw.shared);
    lanes.to_host(raw.lanes);
    active.to_host(raw.active);
    if (shape.slots > 0) access.to_host(raw.access);
    sources.to_host(raw.sources);
    loads.to_host(raw.loads);
    raw.partials.resize(partial_count);
    partials.to_host(raw.partials);
    raw.tickets.resize(ticket_count);
    tickets.to_host(raw.tickets);
  }
};

// Whether a reduction adds or reads half or bfloat16: only the rows that take them
// (AlgorithmRow::narrow) are instantiated for it.
template <class T, class In>
inline constexpr bool kNarrowRun = narrow::is_narrow<T> || narrow::is_narrow<In>;

// Whether a row's columns let its kernels be instantiated for these types (narrow: half and
// bfloat16; ints_only: int alone); where not, the launch throws why.
template <Algo A, class T, class In>
inline constexpr bool kTypesFit = (!kNarrowRun<T, In> || row(A).narrow) &&
                                  (!row(A).ints_only || std::is_same_v<T, int>);
[[noreturn]] inline void refuse_types(const AlgorithmRow& r, bool narrow_run) {
  if (narrow_run && !r.narrow)
    throw std::invalid_argument(std::string(r.id) + " takes no half or bfloat16 (AlgorithmRow::narrow)");
  throw std::invalid_argument(std::string(r.id) + " reduces int only (AlgorithmRow::ints_only)");
}

// Every array row launched on a GPU has its entry in its kernel file, except global-halving,
// whose launches are the Reducer's own (one a halving); no other row has one.
constexpr bool array_listed(const AlgorithmRow& r) {
  return r.gpu && r.shape == Shape::Array && r.combine != Combine::Halving;
}
template <int... I>
constexpr bool table_matches_rows(std::integer_sequence<int, I...>) {
  return ((array_listed(row(Algo(I))) == ArrayLaunch<Algo(I)>::kListed) && ...);
}
static_assert(table_matches_rows(std::make_integer_sequence<int, int(kLastAlgo) + 1>{}),
              "every array kernel's row has its ArrayLaunch entry in its kernel file, and no other row has one");

// algo's entry of the launch table, for the types its row's columns allow.
template <class T, class Op, class Probe, class In>
void launch_listed(Algo algo, const LaunchArgs<T, In>& a, const Probe& p) {
  with_algo(algo, [&](auto id) {
    constexpr Algo A = decltype(id)::value;
    if constexpr (!ArrayLaunch<A>::kListed)
      throw std::invalid_argument(std::string(row(A).id) + " has no array kernel in the launch table");
    else if constexpr (!kTypesFit<A, T, In>)
      refuse_types(row(A), kNarrowRun<T, In>);
    else
      ArrayLaunch<A>::template launch<T, Op>(a, p);
  });
  RL_CUDA(cudaGetLastError());
}

// In: the input's element type; T: the accumulator's, which later passes and the result take.
// Traceable: false for a reducer that only times (bench.cu): its traced first pass is then not
// compiled (cg-grid-sync's traced kernel still is: resident_grid's occupancy query names it).
template <class T, class Op, class In = T, bool Traceable = true>
class Reducer {
 public:
  // The plan decides the grid and the passes (kernels/plan.h); cg-grid-sync's grid is settled
  // here, where occupancy is known.
  Reducer(const Plan& plan, RawTrace<T>* trace, cudaStream_t stream) : plan_(plan), trace_(trace), stream_(stream) {
    if (!Traceable && trace) throw std::invalid_argument("a timing reducer records no trace");
    if (plan.matrix()) throw std::invalid_argument(std::string(plan.row->id) + " reduces a matrix, not an array");
    if (plan.elem_bytes != sizeof(In))
      throw std::invalid_argument("the plan was made for " + std::to_string(plan.elem_bytes) +
                                  "-byte elements, and this run reads " + std::to_string(sizeof(In)));
    require_compute(needs(info()));
  }

  // Allocates what every later enqueue needs, so timed runs allocate nothing.
  void prepare() {
    n_ = plan_.size();
    if constexpr (kNarrowRun<T, In>) {  // the narrow rows: warp-shuffle-vectorized, work-queue, or passes
      if (info().combine == Combine::Atomics) return prepare_slots();
      prepare_passes();
    } else {
      prepare_for(n_);
    }
  }

  void prepare_for(std::size_t n) {
    switch (info().combine) {  // how the blocks' results become one decides the buffers
      case Combine::Halving: a_ = std::make_unique<DeviceArray<T>>((n + 1) / 2); break;
      case Combine::Atomics:
      case Combine::BulkReduce:
        if (!rotates_slots()) {
          result_ = std::make_unique<DeviceArray<T>>(1);
          break;
        }
        prepare_slots();
        break;
      case Combine::GridSync: grid_ = resident_grid(), a_ = std::make_unique<DeviceArray<T>>(1 + grid_); break;
      case Combine::LastBlock:
        a_ = std::make_unique<DeviceArray<T>>(plan_grid());
        result_ = std::make_unique<DeviceArray<T>>(1);
        retired_ = std::make_unique<DeviceArray<unsigned>>(1);
        retired_->fill_bytes(0, stream_);  // atomicInc wraps it back to 0 at the end of every launch
        break;
      case Combine::SecondKernel:
        a_ = std::make_unique<DeviceArray<T>>(plan_grid());
        result_ = std::make_unique<DeviceArray<T>>(1);
        break;
      default: prepare_passes();
    }
  }

  // Repeated passes: two buffers of the first pass's partials, swapped pass by pass.
  void prepare_passes() {
    // Every block writes all its outputs, a warp's with no data too (cg-warp: the identity), so
    // the buffer holds blocks x outputs a block, more than the outputs later passes read.
    const std::size_t count = plan_.passes[0].blocks * outputs_per_block();
    a_ = std::make_unique<DeviceArray<T>>(count);
    b_ = std::make_unique<DeviceArray<T>>(count);
  }

  // Enqueues every launch of one whole-array reduction of in[0..n) on the stream and returns
  // where the result will be. Traced runs synchronise to copy the recording back.
  const T* enqueue(const In* in) {
    if constexpr (kNarrowRun<T, In>) {  // the narrow rows: warp-shuffle-vectorized and work-queue, or passes
      if (info().combine == Combine::Atomics) return rotating_single_pass(in);
      return repeated_passes(in);
    } else {
      switch (info().combine) {
        case Combine::Halving: return halving(in);
        case Combine::Atomics:
        case Combine::BulkReduce: return rotates_slots() ? rotating_single_pass(in) : atomic_single_pass(in);
        case Combine::GridSync: return grid_sync(in);
        case Combine::LastBlock: return last_block_folds(in);
        case Combine::SecondKernel: return fixed_grid_two_pass(in);
        default: return repeated_passes(in);
      }
    }
  }

  T run(const In* host_in) {
    DeviceArray<In> input(plan_.size());
    input.from_host(host_in, plan_.size());
    prepare();
    const T* result = enqueue(input.get());
    T out{};
    RL_CUDA(cudaMemcpyAsync(&out, result, sizeof(T), cudaMemcpyDeviceToHost, stream_));
    RL_CUDA(cudaStreamSynchronize(stream_));
    return out;
  }

 private:
  const AlgorithmRow& info() const { return *plan_.row; }
  std::size_t plan_grid() const { return plan_.grid.x; }
  std::size_t outputs_per_block() const { return std::size_t(plan_.outputs_per_block()); }
  // Clusters, bulk copies and the warp reduce instruction need newer GPUs: said in words before a
  // launch could trap (the kernels trap where the build's architecture lacks them).
  void require_compute(Needs need) const {
    if (need.major == 0) return;
    const int major = cuda_compute_major();
    if (major < need.major)
      throw std::invalid_argument(std::string(info().id) + " needs " + std::string(need.what) +
                                  ": compute capability " + std::to_string(need.major) +
                                  ".0 or later, and this GPU's is " + std::to_string(major) + ".x");
  }

  // The first pass, traced when asked; later passes are never traced.
  template <class Kernel>
  void first_pass(Kernel kernel) {
    if (!trace_) return kernel(NoProbe{});
    if constexpr (Traceable) traced_first_pass(kernel);
  }
  template <class Kernel>
  void traced_first_pass(Kernel kernel) {
    const std::size_t grid = info().combine == Combine::GridSync ? grid_ : plan_grid();  // occupancy's
    const std::size_t outputs =
        records_partials(plan_.algo()) ? grid * outputs_per_block() / std::size_t(plan_.cluster) : 0;
    const std::size_t tickets = info().indexing == Indexing::Tickets ? queue_tickets(n_, plan_.block, sizeof(In)) : 0;
    TraceBuffers<T> buf(trace_shape(plan_.algo(), plan_.block, n_), plan_.block, std::min(outputs, kMaxPartials),
                        std::min(tickets, kMaxTickets));
    kernel(buf.probe(plan_.trace_block));
    RL_CUDA(cudaStreamSynchronize(stream_));
    buf.copy_to(*trace_);
    trace_->grid = grid;
  }

  // One pass of `grid` blocks over n elements at in; the rest of the arguments are the caller's.
  template <class Src>
  LaunchArgs<T, Src> args(std::size_t grid, const Src* in, T* out, std::size_t n) const {
    LaunchArgs<T, Src> a;
    a.in = in, a.out = out, a.m = {1, n}, a.grid = {grid, 1}, a.block = dim3(unsigned(plan_.block));
    a.threads = plan_.block, a.cluster = plan_.cluster, a.stream = stream_;
    return a;
  }

  // Src: the first pass's element type (In), or T for the passes over partials.
  template <class Src, class Probe>
  void block_pass(std::size_t grid, const Src* in, T* out, std::size_t n, const Probe& p) {
    launch_listed<T, Op>(plan_.algo(), args(grid, in, out, n), p);
  }

  // Block partials, then the same kernel over the partials until one value is left.
  const T* repeated_passes(const In* in) {
    const std::vector<Pass>& passes = plan_.passes;
    first_pass([&](auto probe) { block_pass(passes[0].blocks, in, a_->get(), n_, probe); });
    T* src = a_->get();
    T* dst = b_->get();
    for (std::size_t p = 1; p < passes.size(); ++p) {
      block_pass(passes[p].blocks, src, dst, passes[p].count, NoProbe{});
      std::swap(src, dst);
    }
    return src;
  }

  // A fixed grid strides over the array; one block then reduces the grid's partials.
  const T* fixed_grid_two_pass(const T* in) {
    const std::size_t grid = plan_grid();
    first_pass([&](auto probe) { block_pass(grid, in, a_->get(), n_, probe); });
    block_pass(1, a_->get(), result_->get(), grid, NoProbe{});
    return result_->get();
  }

  const T* atomic_single_pass(const T* in) {
    // The result starts as the identity. Measured (docs/perf-notes.md): a memset is about
    // 1.5 us faster than a copy from the host and than a one-thread kernel; it can write the
    // sums' zero, and the kernel writes the min/max identities (+-inf, INT_MAX...).
    const T id = Op::template identity<T>();
    const unsigned char* bytes = reinterpret_cast<const unsigned char*>(&id);
    if (std::all_of(bytes, bytes + sizeof(T), [](unsigned char b) { return b == 0; })) {
      RL_CUDA(cudaMemsetAsync(result_->get(), 0, sizeof(T), stream_));
    } else {
      set_identity<T, Op><<<1, 1, 0, stream_>>>(result_->get());
      RL_CUDA(cudaGetLastError());
    }
    first_pass([&](auto probe) { block_pass(plan_grid(), in, result_->get(), n_, probe); });
    return result_->get();
  }

  // warp-shuffle-vectorized and work-queue: each launch combines into one of three slots and
  // sets the next slot to the identity (and work-queue's next ticket counter to 0), so nothing
  // runs before it: a memset before each launch cost the most where the kernel is shortest
  // (measured: docs/perf-notes.md, "Initialisation"). A result stays valid until the second
  // enqueue after it.
  // warp-shuffle-vectorized, work-queue and bulk-async ready the next launch's slot themselves
  // (block 0 sets it to the identity); cg-reduce-update-async's kernel does not, so its one result
  // is set before each launch (atomic_single_pass).
  bool rotates_slots() const { return info().tree != Tree::CgTilesAsync; }
  // A bulk reduction fills kBulkReduceBytes of its slot (cp.reduce.async.bulk moves multiples of 16).
  std::size_t slot_cells() const { return info().combine == Combine::BulkReduce ? kBulkReduceBytes / sizeof(T) : 1; }
  void prepare_slots() {
    result_ = std::make_unique<DeviceArray<T>>(kSlots * slot_cells());
    if (info().indexing == Indexing::Tickets) taken_ = std::make_unique<DeviceArray<unsigned long long>>(kSlots);
    fill_slots();
  }
  void fill_slots() {
    const std::vector<T> identity(kSlots * slot_cells(), Op::template identity<T>());
    result_->from_host(identity.data(), identity.size());
    if (taken_) taken_->fill_bytes(0, stream_);
    launches_ = 0;
    slots_ready_ = true;
  }
  const T* rotating_single_pass(const In* in) {
    if (!slots_ready_) fill_slots();  // a launch failed half-way: start again from known slots
    const std::size_t now = launches_ % kSlots, later = (launches_ + 1) % kSlots;
    T* out = result_->get() + now * slot_cells();
    T* next = result_->get() + later * slot_cells();
    slots_ready_ = false;
    LaunchArgs<T, In> a = args(plan_grid(), in, out, n_);
    a.next = next;
    if (taken_) a.taken = taken_->get() + now, a.next_taken = taken_->get() + later;
    first_pass([&](auto probe) { launch_listed<T, Op>(plan_.algo(), a, probe); });
    slots_ready_ = true;
    ++launches_;
    return out;
  }

  // Blocks store partials and take tickets; the block that takes the last folds the partials.
  const T* last_block_folds(const T* in) {
    auto a = args(plan_grid(), in, result_->get(), n_);
    a.partials = a_->get(), a.retired = retired_->get();
    first_pass([&](auto probe) { launch_listed<T, Op>(plan_.algo(), a, probe); });
    return result_->get();
  }

  // Every block must be resident at once: the grid is capped by what the device holds.
  std::size_t resident_grid() const {
    int per_sm = 0, per_sm_timed = 0;
    const std::size_t sh = std::size_t(plan_.block) * sizeof(T);
    RL_CUDA(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cg_grid_sync<T, Op, TraceProbe<T>>, plan_.block, sh));
    RL_CUDA(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_timed, cg_grid_sync<T, Op, NoProbe>, plan_.block, sh));
    const std::size_t resident = std::size_t(std::min(per_sm, per_sm_timed)) * cuda_sm_count();
    if (resident == 0) throw CudaError("cg-grid-sync: no block of this size fits on the device");
    if (plan_.asked_grid && plan_.asked_grid > resident)
      throw std::invalid_argument("cg-grid-sync: a grid of " + std::to_string(plan_.asked_grid) +
                                  " blocks cannot all be resident (at most " + std::to_string(resident) + ")");
    const std::size_t grid = std::min(plan_grid(), resident);
    if (trace_ && std::size_t(plan_.trace_block) >= grid)
      throw std::invalid_argument("trace block " + std::to_string(plan_.trace_block) + " is outside the grid of " +
                                  std::to_string(grid) + " block(s)");
    return grid;
  }

  const T* grid_sync(const In* in) {
    first_pass([&](auto probe) { block_pass(grid_, in, a_->get(), n_, probe); });
    return a_->get();
  }

  // global-halving: launches as the barrier; the trace holds the live part after each one.
  const T* halving(const T* in) {
    const std::size_t n = n_;
    const int stages = trace_shape(plan_.algo(), plan_.block, n).stages;
    DeviceArray<std::uint8_t> active(trace_ ? n : 0);
    DeviceArray<int> access(trace_ ? 3 * n : 0);
    if (trace_) {
      trace_->reset({stages, 3, int(n)}, int(n));
      trace_->grid = 1;
      trace_->tags[0] = kTagInput;
      trace_->shared_count[0] = int(n);
      RL_CUDA(cudaMemcpy(trace_->shared.data(), in, n * sizeof(T), cudaMemcpyDeviceToHost));
      for (std::size_t i = 0; i < n; ++i) trace_->active[i] = 1;
    }
    if (n == 1) return in;
    const T* src = in;
    T* x = a_->get();
    std::size_t live = n;
    for (int k = 1; live > 1; ++k) {
      const std::size_t half = (live + 1) / 2;
      HalvingProbe probe;
      if (trace_) {
        active.fill_bytes(0);
        access.fill_bytes(0xff);
        probe = {active.get(), access.get()};
      }
      global_halving<T, Op>
          <<<unsigned(ceil_div(half, plan_.block)), plan_.block, 0, stream_>>>(src, x, live, half, probe);
      RL_CUDA(cudaGetLastError());
      src = x;
      if (trace_) {
        RL_CUDA(cudaStreamSynchronize(stream_));
        const std::size_t at = std::size_t(k) * n;
        trace_->tags[k] = kTagHalving;
        trace_->params[k] = int(half);
        trace_->shared_count[k] = int(half);
        a_->to_host(trace_->shared.data() + at, half);
        active.to_host(trace_->active.data() + at, half);
        access.to_host(trace_->access.data() + 3 * at, 3 * half);
      }
      live = half;
    }
    return x;
  }

  Plan plan_;
  RawTrace<T>* trace_;
  cudaStream_t stream_;
  static constexpr std::size_t kSlots = 3;
  std::size_t n_ = 0, grid_ = 0;
  std::size_t launches_ = 0;
  bool slots_ready_ = false;
  std::unique_ptr<DeviceArray<T>> a_, b_, result_;
  std::unique_ptr<DeviceArray<unsigned>> retired_;
  std::unique_ptr<DeviceArray<unsigned long long>> taken_;  // work-queue's ticket counters

 public:
  Reducer(const Reducer&) = delete;
  Reducer& operator=(const Reducer&) = delete;
};

}  // namespace launch_detail
}  // namespace rl::kernels
