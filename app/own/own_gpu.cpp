// The GPU path of a kernel of your own (own_run.h): the cubin NVRTC made for this GPU, loaded as
// a CUDA library, launched pass after pass; the trace read back from reduction_lab.cuh's sink.
#include <chrono>
#include <stdexcept>

#include "../../kernels/cuda_check.cuh"
#include "own_bench.h"
#include "own_passes.h"

namespace rl::own {
namespace {

class GpuTarget : public Target {
 public:
  GpuTarget(const Compiled& c, const std::string& name) {
    RL_CUDA(cudaLibraryLoadData(&library_, c.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    RL_CUDA(cudaLibraryGetKernel(&kernel_, library_, c.lowered.c_str()));
    void* sink = nullptr;
    std::size_t bytes = 0;
    RL_CUDA(cudaLibraryGetGlobal(&sink, &bytes, library_, "rl_sink"));
    if (bytes != 64) throw std::invalid_argument(name + ": rl_sink is not reduction_lab.cuh's (64 bytes)");
    sink_ = reinterpret_cast<std::uint64_t>(sink);
  }
  ~GpuTarget() override {
    for (void* p : buffers_) cudaFree(p);
    if (library_) cudaLibraryUnload(library_);
  }
  GpuTarget(const GpuTarget&) = delete;
  GpuTarget& operator=(const GpuTarget&) = delete;

  std::uint64_t alloc(std::size_t bytes, const std::string& name) override {
    buffers_.push_back(kernels::device_alloc(std::max<std::size_t>(bytes, 1), name));
    // Zeroed, as the CPU path's buffers are: the sink's lanes are read back whole, written or not
    // (compute-sanitizer's initcheck named the unwritten bytes, 2026-11-28).
    RL_CUDA(cudaMemset(buffers_.back(), 0, std::max<std::size_t>(bytes, 1)));
    return reinterpret_cast<std::uint64_t>(buffers_.back());
  }
  void write(std::uint64_t at, const void* src, std::size_t n) override {
    RL_CUDA(cudaMemcpy(reinterpret_cast<void*>(at), src, n, cudaMemcpyHostToDevice));
  }
  void read(std::uint64_t at, void* dst, std::size_t n) override {
    RL_CUDA(cudaMemcpy(dst, reinterpret_cast<const void*>(at), n, cudaMemcpyDeviceToHost));
  }
  std::uint64_t sink() override { return sink_; }
  std::uint64_t traced_block() override {
    void* at = nullptr;
    std::size_t bytes = 0;
    RL_CUDA(cudaLibraryGetGlobal(&at, &bytes, library_, "rl_traced_block"));
    if (bytes != 4) throw std::invalid_argument("rl_traced_block is not reduction_lab.cuh's (4 bytes)");
    return reinterpret_cast<std::uint64_t>(at);
  }
  bool launch(unsigned grid, unsigned block, std::size_t shared, std::uint64_t in, std::uint64_t out, std::uint64_t n,
              bool cooperative) override {
    if (cooperative) check_resident(grid, block, shared);
    enqueue(grid, block, shared, in, out, n, cooperative, nullptr);
    RL_CUDA(cudaDeviceSynchronize());
    return true;
  }
  // One launch on `stream`, not waited for (a cooperative one: check_resident first).
  void enqueue(unsigned grid, unsigned block, std::size_t shared, std::uint64_t in, std::uint64_t out, std::uint64_t n,
               bool cooperative, cudaStream_t stream) {
    const void* f = kernel_taking(shared);
    void* in_p = reinterpret_cast<void*>(in);
    void* out_p = reinterpret_cast<void*>(out);
    unsigned n32 = unsigned(n);
    void* args[] = {&in_p, &out_p, &n32};
    if (cooperative)
      RL_CUDA(cudaLaunchCooperativeKernel(f, dim3(grid), dim3(block), args, shared, stream));
    else
      RL_CUDA(cudaLaunchKernel(f, dim3(grid), dim3(block), args, shared, stream));
    RL_CUDA(cudaGetLastError());
  }
  // A cooperative launch of `grid` blocks fits this GPU at once, by the kernel's own registers and
  // shared memory (the occupancy calculator), or std::invalid_argument says by how much it does not.
  void check_resident(unsigned grid, unsigned block, std::size_t shared) {
    int device = 0, cooperative = 0, sms = 0, per_sm = 0;
    RL_CUDA(cudaGetDevice(&device));
    RL_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
    if (!cooperative) throw std::invalid_argument("launch: cooperative: this GPU takes no cooperative launch");
    RL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    RL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_taking(shared), int(block), shared));
    if (std::uint64_t(per_sm) * std::uint64_t(sms) < grid)
      throw std::invalid_argument("grid: " + std::to_string(grid) +
                                  " blocks in a cooperative launch, where this GPU holds " +
                                  std::to_string(per_sm * sms) + " of these blocks at once (" + std::to_string(per_sm) +
                                  " an SM, by their registers and shared memory, on " + std::to_string(sms) + " SMs)");
  }

 private:
  // The kernel, allowed `shared` bytes of dynamic shared memory (past 48 KiB it must ask).
  const void* kernel_taking(std::size_t shared) {
    const void* f = reinterpret_cast<const void*>(kernel_);
    if (shared > 48 * 1024) RL_CUDA(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, int(shared)));
    return f;
  }
  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_ = nullptr;
  std::uint64_t sink_ = 0;
  std::vector<void*> buffers_;
};

// The cubin for this GPU, compiled (or found in NVRTC's cache) and checked; untraced for timing.
Compiled compile_for_gpu(const OwnRequest& r, const OwnRun& run, cudaDeviceProp& prop, bool untraced = false) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    cudaGetLastError();
    throw std::runtime_error("no CUDA GPU here: run a kernel of your own on the CPU path (--backend sim)");
  }
  RL_CUDA(cudaGetDeviceProperties(&prop, 0));
  const std::string name = run.launch.name_expression(run.block);
  check_signature(compile({r.source, r.file, name, r.value_type, 0, untraced}));
  return compile({r.source, r.file, name, r.value_type, prop.major * 10 + prop.minor, untraced});
}

}  // namespace

kernels::Timing time_own(const OwnRequest& r, std::size_t n, kernels::BenchSession& session,
                         const kernels::BenchSettings& settings, const std::atomic<bool>* cancel) {
  OwnRun run = prepare_launch(r);
  if (n == 0 || n > 0xffffffffu)
    throw std::invalid_argument("the kernel's n is an unsigned int: 1 to 2^32 - 1 elements");
  cudaDeviceProp prop{};
  const Compiled c = compile_for_gpu(r, run, prop, true);  // timed as written: no trace
  GpuTarget d(c, r.file);
  ExprNames names = r.device;
  names.sms = std::uint64_t(prop.multiProcessorCount), names.threads_per_sm = prop.maxThreadsPerMultiProcessor;
  names.block = std::uint64_t(run.block), names.value_bytes = value_bytes(r.value_type);
  struct Pass {
    PassShape shape;
    std::uint64_t out;
  };
  std::vector<Pass> passes;  // every launch, its output allocated now: nothing is allocated while timed
  for (const PassShape& p : pass_shapes(run.launch, names, n)) {
    if (run.launch.cooperative) d.check_resident(p.grid, unsigned(run.block), p.shared);
    passes.push_back({p, d.alloc(run.launch.outputs(p.grid) * names.value_bytes, "out")});
  }
  const auto enqueue = [&](void* stream, const void* input) -> const void* {
    std::uint64_t in = reinterpret_cast<std::uint64_t>(input);
    if (!run.launch.until_one)  // passes: one: out[0] starts at 0, set inside the timed region
      RL_CUDA(cudaMemsetAsync(reinterpret_cast<void*>(passes[0].out), 0, names.value_bytes, cudaStream_t(stream)));
    for (const Pass& p : passes) {
      d.enqueue(p.shape.grid, unsigned(run.block), p.shape.shared, in, p.out, p.shape.count, run.launch.cooperative,
                cudaStream_t(stream));
      in = p.out;
    }
    return reinterpret_cast<const void*>(passes.back().out);
  };
  return session.time_enqueue(enqueue, settings, cancel);
}

void warm_up_gpu() {
  if (cudaFree(nullptr) != cudaSuccess) (void)cudaGetLastError();  // the run reports it, in words
  nvrtc_ready(nullptr);
}

OwnRun run_on_gpu(const OwnRequest& r) {
  OwnRun out = prepare_run(r);
  cudaDeviceProp prop{};
  const Compiled c = compile_for_gpu(r, out, prop);
  out.compile_log = c.log, out.compile_ms = c.milliseconds, out.compile_cached = c.cached;
  out.device = prop.name;
  const auto t0 = std::chrono::steady_clock::now();
  GpuTarget d(c, r.file);
  run_passes(r, d, out);
  out.run_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace rl::own
