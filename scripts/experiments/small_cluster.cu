// Exploration for issue 53 (not part of the app): can the small problem, 3 x (2^20 + 1) halves,
// keep batched-rows-vectorized's bits and come within 1.25 times our 1D sum of the same halves?
// small_fold.cu measured the gap: the fixed-order fold (each block stores its total, fences, takes
// a ticket; the row's last block reads the totals back from L2 and folds them) costs about 1 us,
// the miss 0.2 (an H200). Here a row's chunks are one thread-block cluster (8 or 16 blocks, one
// chunk a block): each block keeps its total in shared memory, the cluster's first block gathers
// them through distributed shared memory after one cluster barrier and folds them exactly as
// fold_last does (the same fold_row and block_shuffle over the same totals in the same order), so
// the row's sum has the catalog's bits for the same chunks; checked here against the catalog's
// launch with as many chunks, over elements whose sums round (20 random mantissa bits over twelve
// binades), with a control: the same fold over the totals in reverse must differ, or the check
// cannot see the order. No store of a total, no fence, no ticket, no second read from L2.
// Timed as the benchmark takes its samples (median of 21 launches, each after an L2 eviction):
//   catalog  batched_rows_vectorized as the catalog launches it, 64 and 128 chunks a row
//   cluster  the cluster fold, clusters of 8 and 16, blocks of 256, 512 and 1024
//   1D sum   warp_shuffle_vectorized over the same elements, in several grids
// On a GPU machine (from the repository's root):
//   nvcc -arch=sm_90 -O3 -std=c++17 -Ikernels -o small_cluster scripts/experiments/small_cluster.cu \
//     kernels/model/matrix_shapes.cpp && ./small_cluster
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#include "rows_chunk.cuh"
#include "rows_timing.cuh"

namespace k = rl::kernels;
namespace cg = cooperative_groups;
using Half = rl::narrow::Half;
using Sum = rl::ops::Sum;
constexpr unsigned kMaxCluster = 16;

// batched_rows_vectorized's body (kernels/shuffle_rows.cuh), a row's chunks one cluster (block rank =
// chunk), then fold_last's fold of the chunks' totals, gathered through DSMEM. kReverse: the
// totals in reverse order, the check's control.
template <class In, int kBlock, bool kReverse = false>
__global__ void __launch_bounds__(kBlock)
    rows_cluster(const In* in, std::size_t cols, std::size_t chunk_cols, std::size_t chunks, float* out) {
  __shared__ float smem[kBlock / 32];
  __shared__ float total;
  __shared__ alignas(16) float gathered[kMaxCluster];
  const cg::cluster_group cluster = cg::this_cluster();
  const unsigned tid = threadIdx.x;
  const std::size_t row = blockIdx.x / chunks;
  const float v = chunk_total(in, cols, chunk_cols, chunks, smem);
  if (tid == 0) total = v;
  cluster.sync();  // every block's total written and visible to the cluster
  if (cluster.block_rank() == 0) {
    if (tid < chunks) gathered[kReverse ? chunks - 1 - tid : tid] = *cluster.map_shared_rank(&total, tid);
    __syncthreads();
    const float w = fold_totals(gathered, chunks, smem);
    if (tid == 0) out[row] = w;
  }
  cluster.sync();  // no block's shared memory ends while the first block may read it
}

// The catalog's batched_rows_vectorized over `chunks` chunks a row in blocks of kBlock: its row
// sums, or none where such a block does not fit.
template <class In, int kBlock>
std::vector<float> catalog_sums(const Lab& lab, const In* in, u64 rows, u64 cols, std::size_t chunk_cols,
                                std::size_t chunks, float* partials, unsigned* tickets) {
  const auto catalog = k::batched_rows_vectorized<float, Sum, k::NoProbe, In>;
  int fit = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, catalog, kBlock, kBlock / 32 * 4));
  if (fit < 1) return {};
  catalog<<<unsigned(rows * chunks), kBlock, kBlock / 32 * 4>>>(in, partials, cols, chunk_cols, chunks, k::NoProbe{},
                                                                lab.out, tickets);
  CK(cudaGetLastError());
  return rows_out(lab.out, rows);
}

template <class In, int kBlock>
void time_clusters(const Lab& lab, const Cold& c, const In* in, u64 rows, u64 cols, double bytes, float* partials,
                   unsigned* tickets) {
  auto kernel = rows_cluster<In, kBlock>;
  auto reversed = rows_cluster<In, kBlock, true>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(reversed, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  for (const unsigned cl : {8u, 16u}) {
    const std::size_t chunk_cols = k::split_chunk_cols({rows, cols}, cl);
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(unsigned(rows * cl));
    cfg.blockDim = dim3(kBlock);
    cudaLaunchAttribute attr = {};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cl, attr.val.clusterDim.y = 1, attr.val.clusterDim.z = 1;
    cfg.attrs = &attr, cfg.numAttrs = 1;
    int fit = 0;
    CK(cudaOccupancyMaxActiveClusters(&fit, kernel, &cfg));
    if (fit < 1) {
      printf("%s clusters of %u in blocks of %d: none fits, skipped\n", type_name<In>(), cl, kBlock);
      continue;
    }
    const std::vector<float> want = catalog_sums<In, kBlock>(lab, in, rows, cols, chunk_cols, cl, partials, tickets);
    const auto launch = [&](auto k) {
      CK(cudaLaunchKernelEx(&cfg, k, in, std::size_t(cols), chunk_cols, std::size_t(cl), lab.out));
    };
    const auto sums_of = [&](auto k) {  // k's row sums, the output first set to a finite value no row has
      CK(cudaMemset(lab.out, 0x7f, rows * 4));
      launch(k);
      CK(cudaDeviceSynchronize());
      return rows_out(lab.out, rows);
    };
    const auto same = [&](const std::vector<float>& a) { return std::memcmp(want.data(), a.data(), rows * 4) == 0; };
    const char* check = want.empty()              ? " (no catalog block of this size to check against)"
                        : !same(sums_of(kernel))  ? " BITS DIFFER"
                        : same(sums_of(reversed)) ? " (same bits; so are the totals in reverse: the check is blind)"
                                                  : " (the catalog's bits; in reverse they differ)";
    char what[160];
    snprintf(what, sizeof what, "%s cluster %2u x %4d (%d clusters fit)%s", type_name<In>(), cl, kBlock, fit, check);
    time_line(what, lab, c, bytes, [&] { launch(kernel); });
  }
}

template <class In>
void time_type(const Lab& lab, const Cold& c, u64 rows, u64 cols, float* partials, unsigned* tickets, float* sum) {
  const u64 n = rows * cols;
  In* in = new_inexact<In>(n);
  const double bytes = double(n) * sizeof(In) + double(rows) * 4;
  char what[96];
  time_1d_sums(type_name<In>(), lab, c, in, n, bytes, sum);
  for (const u64 chunks : {u64(64), u64(128)}) {
    const std::size_t chunk_cols = k::split_chunk_cols({rows, cols}, chunks);
    const unsigned grid = unsigned(rows * chunks);
    snprintf(what, sizeof what, "%s catalog, %llu chunks a row (grid %u)", type_name<In>(), chunks, grid);
    time_line(what, lab, c, bytes, [&] {
      k::batched_rows_vectorized<float, Sum, k::NoProbe, In>
          <<<grid, 256, 256 / 32 * 4>>>(in, partials, cols, chunk_cols, chunks, k::NoProbe{}, lab.out, tickets);
    });
  }
  time_clusters<In, 256>(lab, c, in, rows, cols, bytes, partials, tickets);
  time_clusters<In, 512>(lab, c, in, rows, cols, bytes, partials, tickets);
  time_clusters<In, 1024>(lab, c, in, rows, cols, bytes, partials, tickets);
  CK(cudaFree(in));
}

int main() {
  const u64 rows = 3, cols = (u64(1) << 20) + 1;
  const Lab lab = open_lab(rows * cols, rows);
  const Cold c = open_cold();
  float *partials = nullptr, *sum = nullptr;
  unsigned* tickets = nullptr;
  CK(cudaMalloc(&partials, 4096 * 4));
  CK(cudaMalloc(&sum, 4));
  CK(cudaMalloc(&tickets, rows * 4));
  CK(cudaMemset(tickets, 0, rows * 4));
  time_type<Half>(lab, c, rows, cols, partials, tickets, sum);
  time_type<float>(lab, c, rows, cols, partials, tickets, sum);
  return 0;
}
