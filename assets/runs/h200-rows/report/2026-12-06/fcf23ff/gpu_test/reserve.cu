#include <cstdio>
#include <cuda_runtime.h>
#define CK(x)                                        \
  do {                                               \
    cudaError_t e = (x);                             \
    if (e != cudaSuccess) {                          \
      printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                      \
    }                                                \
  } while (0)
int main() {
  int v[5];
  const cudaDeviceAttr a[5] = {cudaDevAttrReservedSharedMemoryPerBlock, cudaDevAttrMaxSharedMemoryPerBlock,
                               cudaDevAttrMaxSharedMemoryPerBlockOptin, cudaDevAttrMaxSharedMemoryPerMultiprocessor,
                               cudaDevAttrMultiProcessorCount};
  const char* n[5] = {"reserved_smem_per_block", "max_smem_per_block", "max_smem_per_block_optin", "max_smem_per_sm",
                      "sms"};
  for (int i = 0; i < 5; ++i) {
    CK(cudaDeviceGetAttribute(&v[i], a[i], 0));
    printf("%s %d\n", n[i], v[i]);
  }
  return 0;
}
