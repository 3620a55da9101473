// The libraries the benchmark loads at run time, so the program starts where they are missing:
// NVML (clock-throttle reasons, the driver's version) and cuBLAS (the matrix anchors' gemv).
#pragma once

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <string>

#include "gpu_api.h"

namespace rl::kernels {

// NVML, loaded at run time so the program starts where the library is missing.
struct Nvml {
  using Init = int (*)();
  using ByPci = int (*)(const char*, void**);
  using Reasons = int (*)(void*, unsigned long long*);
  using DriverVersion = int (*)(char*, unsigned);
  void* lib = nullptr;
  void* device = nullptr;
  Reasons reasons = nullptr;
  std::string driver;

  explicit Nvml(int cuda_device) {
    lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
    auto by_pci = reinterpret_cast<ByPci>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto version = reinterpret_cast<DriverVersion>(dlsym(lib, "nvmlSystemGetDriverVersion"));
    reasons = reinterpret_cast<Reasons>(dlsym(lib, "nvmlDeviceGetCurrentClocksEventReasons"));
    if (!reasons) reasons = reinterpret_cast<Reasons>(dlsym(lib, "nvmlDeviceGetCurrentClocksThrottleReasons"));
    char pci[64] = {};
    if (!init || !by_pci || !reasons || init() != 0 ||
        cudaDeviceGetPCIBusId(pci, sizeof pci, cuda_device) != cudaSuccess || by_pci(pci, &device) != 0) {
      reasons = nullptr;
      return;
    }
    char buf[96] = {};
    if (version && version(buf, sizeof buf) == 0) driver = buf;
  }
  ~Nvml() {
    if (lib) dlclose(lib);
  }
  // Power cap, hardware slowdown, thermal slowdown (software and hardware), power brake.
  bool throttled() const {
    unsigned long long r = 0;
    if (!reasons || reasons(device, &r) != 0) return false;
    return (r & (0x4ull | 0x8ull | 0x20ull | 0x40ull | 0x80ull)) != 0;
  }
};

// cuBLAS, loaded at run time: only the matrix anchors need it, and it is large enough
// (54 MB, and 540 MB of cuBLASLt behind it) that the GPU machine's toolkit copy is used.
struct Cublas {
  enum { kOpN = 0, kOpT = 1 };  // cublasOperation_t
  using Create = int (*)(void**);
  using Destroy = int (*)(void*);
  using SetStream = int (*)(void*, cudaStream_t);
  using Sgemv = int (*)(void*, int, int, int, const float*, const float*, int, const float*, int, const float*, float*,
                        int);
  using Dgemv = int (*)(void*, int, int, int, const double*, const double*, int, const double*, int, const double*,
                        double*, int);
  void* lib = nullptr;
  void* handle = nullptr;
  Destroy destroy = nullptr;
  SetStream set_stream = nullptr;
  Sgemv sgemv = nullptr;
  Dgemv dgemv = nullptr;

  Cublas() {
    for (const char* name : {"libcublas.so.13", "/usr/local/cuda/lib64/libcublas.so.13", "libcublas.so"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib)
      throw CudaError("cuBLAS (libcublas.so.13) cannot be loaded: the gemv anchors need the CUDA toolkit's copy");
    const auto create = reinterpret_cast<Create>(dlsym(lib, "cublasCreate_v2"));
    destroy = reinterpret_cast<Destroy>(dlsym(lib, "cublasDestroy_v2"));
    set_stream = reinterpret_cast<SetStream>(dlsym(lib, "cublasSetStream_v2"));
    sgemv = reinterpret_cast<Sgemv>(dlsym(lib, "cublasSgemv_v2"));
    dgemv = reinterpret_cast<Dgemv>(dlsym(lib, "cublasDgemv_v2"));
    if (!create || !destroy || !set_stream || !sgemv || !dgemv || create(&handle) != 0) {
      dlclose(lib);
      throw CudaError("cuBLAS was loaded but could not be initialised");
    }
  }
  ~Cublas() {
    destroy(handle);
    dlclose(lib);
  }
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;
  static void check(int status, const char* what) {
    if (status != 0) throw CudaError(std::string(what) + " failed with cuBLAS status " + std::to_string(status));
  }
};

}  // namespace rl::kernels
