// The host side of our all-reduce across GPUs (all_reduce_api.h): buffers, peer access, the
// steps in the model's order, and what each step left.
#include <algorithm>
#include <string>

#include "all_reduce.cuh"
#include "all_reduce_api.h"
#include "cuda_check.cuh"

namespace rl::kernels {
namespace {

namespace ar = model::all_reduce;

constexpr int kThreads = 256;

int wrap(int g, int n) { return ((g % n) + n) % n; }

// Every device may read every other's memory: the ring reads its neighbour's, one-shot every one's.
void enable_peers(const std::vector<int>& devices) {
  for (int a : devices)
    for (int b : devices) {
      if (a == b) continue;
      int can = 0;
      RL_CUDA(cudaDeviceCanAccessPeer(&can, a, b));
      if (!can)
        throw CudaError("GPU " + std::to_string(a) + " cannot read GPU " + std::to_string(b) +
                        "'s memory: no peer access between them, which our all-reduce needs");
      RL_CUDA(cudaSetDevice(a));
      const cudaError_t err = cudaDeviceEnablePeerAccess(b, 0);
      if (err == cudaErrorPeerAccessAlreadyEnabled)
        cudaGetLastError();  // enabled by an earlier run: what we want
      else
        RL_CUDA(err);
    }
}

// One buffer a GPU, freed on its own device.
template <class T>
struct Buffers {
  std::vector<int> devices;
  std::vector<T*> at;
  Buffers(const std::vector<int>& on, std::size_t n) : devices(on) {
    for (int d : on) {
      RL_CUDA(cudaSetDevice(d));
      at.push_back(static_cast<T*>(device_alloc(std::max<std::size_t>(n, 1) * sizeof(T), "an all-reduce buffer")));
    }
  }
  ~Buffers() {
    for (std::size_t g = 0; g < at.size(); ++g)
      if (cudaSetDevice(devices[g]) == cudaSuccess) cudaFree(at[g]);
  }
  Buffers(const Buffers&) = delete;
  Buffers& operator=(const Buffers&) = delete;
  void sync() const {
    for (int d : devices) {
      RL_CUDA(cudaSetDevice(d));
      RL_CUDA(cudaDeviceSynchronize());
    }
  }
};

// Blocks enough to fill the device a few times over; the kernels stride over the rest.
unsigned grid_for(int device, std::size_t n) {
  int sms = 0;
  RL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return unsigned(std::clamp<std::size_t>((n + kThreads - 1) / kThreads, 1, std::size_t(sms) * 4));
}

template <class T>
std::vector<std::vector<double>> kept_now(const Buffers<T>& b, const std::vector<std::size_t>& bounds,
                                          std::size_t keep) {
  std::vector<std::vector<double>> out(b.at.size());
  for (std::size_t g = 0; g < b.at.size(); ++g)
    for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
      std::vector<T> host(std::min(keep, bounds[c + 1] - bounds[c]));
      RL_CUDA(cudaMemcpy(host.data(), b.at[g] + bounds[c], host.size() * sizeof(T), cudaMemcpyDeviceToHost));
      for (const T& x : host) out[g].push_back(double(x));
    }
  return out;
}

template <class T>
std::vector<std::vector<T>> copy_out(const Buffers<T>& b, std::size_t n) {
  std::vector<std::vector<T>> out(b.at.size(), std::vector<T>(n));
  for (std::size_t g = 0; g < b.at.size(); ++g)
    RL_CUDA(cudaMemcpy(out[g].data(), b.at[g], n * sizeof(T), cudaMemcpyDeviceToHost));
  return out;
}

// The ring's 2(N - 1) steps; each waits for every GPU's last (a chunk read in one step may be
// written in the next).
template <class T>
void run_ring(Buffers<T>& b, std::size_t n, std::size_t keep, AllReduceSteps* steps) {
  const int gpus = int(b.at.size());
  const std::vector<std::size_t> bounds = ar::chunk_bounds(n, gpus);
  for (int phase = 0; phase < 2; ++phase)  // reduce-scatter, then all-gather
    for (int s = 0; s < gpus - 1; ++s) {
      for (int g = 0; g < gpus; ++g) {
        const int to = wrap(g + 1, gpus), c = phase == 0 ? wrap(g - 1 - s, gpus) : wrap(g - s, gpus);
        const std::size_t first = bounds[std::size_t(c)], end = bounds[std::size_t(c) + 1];
        RL_CUDA(cudaSetDevice(b.devices[std::size_t(to)]));
        ring_step<T><<<grid_for(b.devices[std::size_t(to)], end - first), kThreads>>>(
            b.at[std::size_t(to)], b.at[std::size_t(g)], first, end, phase == 0);
        RL_CUDA(cudaGetLastError());
      }
      b.sync();
      if (steps) steps->push_back(kept_now(b, bounds, keep));
    }
}

template <class T>
std::vector<std::vector<T>> run_one_shot(const Buffers<T>& in, std::size_t n, std::size_t keep, AllReduceSteps* steps) {
  Buffers<T> out(in.devices, n);
  PeerBuffers peers;
  peers.count = int(in.at.size());
  for (std::size_t g = 0; g < in.at.size(); ++g) peers.in[g] = in.at[g];
  for (std::size_t g = 0; g < in.at.size(); ++g) {
    RL_CUDA(cudaSetDevice(in.devices[g]));
    one_shot<T><<<grid_for(in.devices[g], n), kThreads>>>(out.at[g], peers, n);
    RL_CUDA(cudaGetLastError());
  }
  out.sync();
  if (steps) steps->push_back(kept_now(out, {0, n}, keep));
  return copy_out(out, n);
}

}  // namespace

int cuda_device_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : (cudaGetLastError(), 0);
}

template <class T>
std::vector<std::vector<T>> gpu_all_reduce(ar::Algorithm algorithm, const std::vector<int>& devices,
                                           const std::vector<std::vector<T>>& inputs, std::size_t keep,
                                           AllReduceSteps* steps) {
  const std::size_t n = inputs.empty() ? 0 : inputs[0].size();
  if (devices.size() != inputs.size() || devices.size() < std::size_t(ar::kMinGpus) ||
      devices.size() > std::size_t(kMaxPeers))
    throw CudaError("an all-reduce takes 2 to 8 buffers, one a device");
  int present = 0;
  RL_CUDA(cudaGetDeviceCount(&present));
  for (int d : devices)
    if (d < 0 || d >= present)
      throw CudaError("GPU " + std::to_string(d) + " is not present: this machine has " + std::to_string(present));
  enable_peers(devices);
  Buffers<T> b(devices, n);
  for (std::size_t g = 0; g < devices.size(); ++g) {
    if (inputs[g].size() != n) throw CudaError("an all-reduce over buffers of different sizes");
    RL_CUDA(cudaMemcpy(b.at[g], inputs[g].data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  if (algorithm == ar::Algorithm::OneShot) return run_one_shot(b, n, keep, steps);
  run_ring(b, n, keep, steps);
  return copy_out(b, n);
}

#define RL_ALL_REDUCE(T)                                  \
  template std::vector<std::vector<T>> gpu_all_reduce<T>( \
      ar::Algorithm, const std::vector<int>&, const std::vector<std::vector<T>>&, std::size_t, AllReduceSteps*);
RL_ALL_REDUCE(int)
RL_ALL_REDUCE(float)
RL_ALL_REDUCE(double)
RL_ALL_REDUCE(narrow::Half)
RL_ALL_REDUCE(narrow::Bf16)

}  // namespace rl::kernels
