// Prototype for issue 53: row sums of a row-major R x C float matrix read as one flat array with
// 16-byte loads whatever C. Each warp streams a contiguous slice in tiles of 32 lanes x 16
// consecutive floats (4 float4 a lane); a lane folds its runs (pieces of rows), complete runs are
// written at once, the rest joined by a segmented warp scan (keys: rows) and a carry across tiles;
// rows crossing a slice's ends leave pieces that a second small kernel joins in slice order.
// An exploration, not part of the app: docs/benchmarks.md ("Exploration: a flat row kernel")
// holds what it measured and why. Build and run on a GPU machine:
//   nvcc -arch=sm_90 -O3 -std=c++17 -o flat_rows_proto flat_rows_proto.cu && ./flat_rows_proto
//   (./flat_rows_proto VARIANT SHAPE: one run of one, for Nsight Compute; variants 0 branchy,
//   1 predicated adds, 2 predicated + prefetch, 3 32 floats a lane, 4 staged, 5 staged +
//   reciprocal, 6 and 7 cp.async with 16 and 32 floats a lane, 8 and 9 a bulk copy a tile, 2 or
//   4 tiles ahead. Variants 1-5 now add with predicates; the measurements before 06:41 UTC were
//   of masked adds, as docs/benchmarks.md says)
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cmath>
#include <algorithm>
#include <cuda_runtime.h>
#include <cuda_pipeline.h>
#include <cuda/ptx>

#include "../../experiments/perf_common.cuh"
namespace ptx = cuda::ptx;

constexpr int kMaxTile = 32 * 32;  // floats a warp's tile, at most

struct Piece {
  unsigned long long row;
  float value;
  int kind;
};  // kind 0 none, 1 head, 2 tail, 3 through

template <int kLane, class I>
__device__ __forceinline__ void load_lane(const float* __restrict__ in, I f, unsigned cnt, float* x) {
  if (cnt == kLane) {
    const float4* p = reinterpret_cast<const float4*>(in + f);
#pragma unroll
    for (int k = 0; k < kLane / 4; ++k) {
      float4 q = __ldg(p + k);
      x[4 * k] = q.x;
      x[4 * k + 1] = q.y;
      x[4 * k + 2] = q.z;
      x[4 * k + 3] = q.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < kLane; ++k) x[k] = (unsigned)k < cnt ? in[f + k] : 0.f;
  }
}

template <class I>
__device__ __forceinline__ void put(float* out, Piece* head, unsigned long long warp, bool starts_mid, I first_row,
                                    I row, float total) {
  if (starts_mid && row == first_row)
    head[warp] = {row, total, 1};  // the row began in the slice before
  else
    out[row] = total;
}

// Division by a fixed 32-bit divisor as a multiply-high, two adds and shifts (Granlund and
// Montgomery 1994, figure 4.1): exact for every 32-bit dividend.
struct FastDiv {
  unsigned d = 1, m = 1, s1 = 0, s2 = 0;
  FastDiv() = default;
  explicit FastDiv(unsigned divisor) : d(divisor) {
    unsigned l = 0;
    while (l < 32 && (1ull << l) < divisor) ++l;
    m = unsigned(((unsigned __int128)(1ull << 32) * ((1ull << l) - divisor)) / divisor + 1);
    s1 = l < 1 ? l : 1;
    s2 = l > 1 ? l - 1 : 0;
  }
  __device__ __forceinline__ unsigned div(unsigned n) const {
    const unsigned t = __umulhi(m, n);
    return (t + ((n - t) >> s1)) >> s2;
  }
};

// A warp's coalesced share of a tile of 512 floats: float4 number lane + 32k, k = 0..3.
template <class I>
__device__ __forceinline__ void load_coalesced(const float* __restrict__ in, I t, I end, unsigned lane, float4* g) {
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const I e = t + 4 * (lane + 32 * k);
    if (e + 4 <= end) {
      g[k] = __ldg(reinterpret_cast<const float4*>(in + e));
    } else {
      g[k].x = e < end ? in[e] : 0.f;
      g[k].y = e + 1 < end ? in[e + 1] : 0.f;
      g[k].z = e + 2 < end ? in[e + 2] : 0.f;
      g[k].w = e + 3 < end ? in[e + 3] : 0.f;
    }
  }
}

template <class I, int kLane, bool kPrefetch, bool kBranchFree = true, bool kStaged = false, bool kFast = false>
__global__ void flat_rows(const float* __restrict__ in, I n, I cols, float* __restrict__ out, I slice, Piece* head,
                          Piece* tail, FastDiv by_cols = FastDiv()) {
  constexpr int kTile = 32 * kLane;
  const unsigned lane = threadIdx.x & 31;
  const unsigned long long warp = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) >> 5;
  if (warp * slice >= n) return;
  const I begin = I(warp * slice), end = n - begin < slice ? n : begin + slice;
  const bool starts_mid = begin % cols != 0;
  const I first_row = begin / cols, kNone = I(~I(0)), kEmpty = I(~I(0) - 1);
  float carry = 0.f;
  I carry_row = kNone;
  float nx[kLane];
  // Staged: the tile goes through shared memory, so that the global loads are whole 512-byte rows
  // of the warp; rows of 16 floats padded to 20 so that each lane's four 16-byte reads hit other banks.
  __shared__ float stage[8][32 * 20];
  float* my = stage[(threadIdx.x >> 5) & 7];
  float4 g[4];
  if (kStaged) load_coalesced(in, begin, end, lane, g);
  for (I t = begin; t < end; t += kTile) {
    const I f = t + lane * kLane, tile_end = end - t < I(kTile) ? end : t + kTile;
    const unsigned cnt = f >= end ? 0u : end - f < I(kLane) ? (unsigned)(end - f) : (unsigned)kLane;
    float x[kLane];
    if (kStaged) {
      __syncwarp();
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const unsigned p = lane + 32 * k;
        *reinterpret_cast<float4*>(my + (p >> 2) * 20 + (p & 3) * 4) = g[k];
      }
      __syncwarp();
      if (t + kTile < end) load_coalesced(in, t + I(kTile), end, lane, g);  // in flight during this tile
#pragma unroll
      for (int j = 0; j < kLane / 4; ++j) {
        const float4 q = *reinterpret_cast<const float4*>(my + lane * 20 + 4 * j);
        x[4 * j] = q.x, x[4 * j + 1] = q.y, x[4 * j + 2] = q.z, x[4 * j + 3] = q.w;
      }
    } else if (kPrefetch && t != begin) {
#pragma unroll
      for (int k = 0; k < kLane; ++k) x[k] = nx[k];
    } else {
      load_lane<kLane>(in, f, cnt, x);
    }
    if (kPrefetch && t + kTile < end) {  // the next tile's loads go out before this tile's work
      const I nf = t + kTile + lane * kLane;
      const unsigned ncnt = nf >= end ? 0u : end - nf < I(kLane) ? (unsigned)(end - nf) : (unsigned)kLane;
      load_lane<kLane>(in, nf, ncnt, nx);
    }
    I r;
    if constexpr (kFast)
      r = by_cols.div(unsigned(f));
    else
      r = f / cols;
    I rem = f - r * cols;
    const bool cont = cnt > 0 && rem != 0;  // the lane's first run continues a row from before the lane
    float acc = 0.f, u = 0.f;
    bool has_u = false, first = true, any = false;
    if (kBranchFree && cnt == kLane && cols >= I(kLane / 2)) {
      // At most two row ends inside the lane, after elements a1 - 1 and a2 - 1: three sums, each
      // in order, chosen by predicates rather than branches (lanes end rows at different places).
      const int a1 = cols - rem > I(kLane) ? kLane + 1 : int(cols - rem);
      const int a2 = a1 + cols > I(2 * kLane) ? kLane + 1 : min(kLane + 1, a1 + int(cols));
      // Masked adds (an element outside a run adds 0, which changes no sum but -0's sign): one
      // select and one add a run and element, no branch.
      float lo = 0.f, mid = 0.f, hi = 0.f;
      if (cols >= I(kLane)) {  // one row end at most: each element one predicated add
#pragma unroll
        for (int k = 0; k < kLane; ++k) {
          if (k < a1)
            lo += x[k];
          else
            mid += x[k];
        }
      } else {
#pragma unroll
        for (int k = 0; k < kLane; ++k) {
          if (k < a1)
            lo += x[k];
          else if (k < a2)
            mid += x[k];
          else
            hi += x[k];
        }
      }
      if (a1 <= kLane) {
        if (cont) {
          u = lo;
          has_u = true;
        } else
          out[r] = lo;  // whole inside the lane
        ++r;
        if (a2 <= kLane) {
          out[r] = mid;
          ++r;
          acc = hi;
          any = a2 < kLane;
        } else {
          acc = mid;
          any = a1 < kLane;
        }
      } else {
        acc = lo;
        any = true;
      }
    } else {
#pragma unroll
      for (int k = 0; k < kLane; ++k) {
        if ((unsigned)k < cnt) {
          acc = any ? acc + x[k] : x[k];
          any = true;
          if (++rem == cols) {
            if (first && cont) {
              u = acc;
              has_u = true;
            } else
              out[r] = acc;  // whole inside the lane
            ++r;
            rem = 0;
            first = false;
            any = false;
          }
        }
      }
    }
    float v = acc;
    I key = any ? r : kEmpty;  // the lane's last run, open past its end
    if (lane == 0 && carry_row != kNone && !has_u && key == carry_row) v = carry + v;
    if (lane == 0 && has_u)
      put(out, head, warp, starts_mid, first_row, carry_row != kNone ? carry_row : first_row,
          carry_row != kNone ? carry + u : u);
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
      const float w = __shfl_up_sync(0xffffffffu, v, d);
      const I kd = __shfl_up_sync(0xffffffffu, key, d);
      if (lane >= (unsigned)d && kd == key) v = w + v;
    }
    const I next_key = __shfl_down_sync(0xffffffffu, key, 1);
    const float next_u = __shfl_down_sync(0xffffffffu, u, 1);
    const bool next_has_u = __shfl_down_sync(0xffffffffu, (int)has_u, 1);
    const bool last_in_tile = cnt > 0 && f + cnt == tile_end;
    I new_carry_row = kNone;
    float new_carry = 0.f;
    if ((lane == 31 || next_key != key) && key != kEmpty) {
      float total = v;
      if (!last_in_tile && next_has_u) total = total + next_u;  // the next lane's first run ends the row
      const bool open = last_in_tile && tile_end % cols != 0;
      if (!open)
        put(out, head, warp, starts_mid, first_row, key, total);
      else if (tile_end < end) {
        new_carry = total;
        new_carry_row = key;
      } else
        tail[warp] = {key, total, starts_mid && key == first_row ? 3 : 2};
    }
    carry = __shfl_sync(0xffffffffu, new_carry, 31);
    carry_row = __shfl_sync(0xffffffffu, new_carry_row, 31);
  }
}

// A warp's tile in registers (x: the lane's kLane floats from t + lane * kLane): each lane folds
// its runs and writes the rows that end in them, a segmented scan joins the rest; a row open past
// the tile's end goes on in carry and carry_row, one cut by the slice's ends into head or tail.
// Shared by the staged forms, flat_rows_async and flat_rows_bulk.
constexpr unsigned kNoRow = ~0u, kNoRun = ~0u - 1;
template <int kLane>
__device__ __forceinline__ void add_tile(const float (&x)[kLane], unsigned t, unsigned end, unsigned lane,
                                         unsigned cols, FastDiv by_cols, float* __restrict__ out, Piece* head,
                                         Piece* tail, unsigned long long warp, bool starts_mid, unsigned first_row,
                                         float& carry, unsigned& carry_row) {
  constexpr int kTile = 32 * kLane;
  constexpr unsigned kNone = kNoRow, kEmpty = kNoRun;
  const unsigned f = t + lane * kLane, tile_end = end - t < unsigned(kTile) ? end : t + kTile;
  const unsigned cnt = f >= end ? 0u : end - f < unsigned(kLane) ? end - f : unsigned(kLane);
  unsigned r = by_cols.div(f), rem = f - r * cols;
  const bool cont = cnt > 0 && rem != 0;
  float acc = 0.f, u = 0.f;
  bool has_u = false, first = true, any = false;
  if (cnt == kLane && cols >= unsigned(kLane / 2)) {
    const int a1 = cols - rem > unsigned(kLane) ? kLane + 1 : int(cols - rem);
    const int a2 = a1 + cols > unsigned(2 * kLane) ? kLane + 1 : min(kLane + 1, a1 + int(cols));
    float lo = 0.f, mid = 0.f, hi = 0.f;
    if (cols >= unsigned(kLane)) {
#pragma unroll
      for (int k = 0; k < kLane; ++k) {
        const bool in_lo = k < a1;
        lo += in_lo ? x[k] : 0.f;
        mid += in_lo ? 0.f : x[k];
      }
    } else {
#pragma unroll
      for (int k = 0; k < kLane; ++k) {
        const bool in_lo = k < a1, in_hi = k >= a2;
        lo += in_lo ? x[k] : 0.f;
        mid += in_lo || in_hi ? 0.f : x[k];
        hi += in_hi ? x[k] : 0.f;
      }
    }
    if (a1 <= kLane) {
      if (cont) {
        u = lo;
        has_u = true;
      } else
        out[r] = lo;
      ++r;
      if (a2 <= kLane) {
        out[r] = mid;
        ++r;
        acc = hi;
        any = a2 < kLane;
      } else {
        acc = mid;
        any = a1 < kLane;
      }
    } else {
      acc = lo;
      any = true;
    }
  } else {
#pragma unroll
    for (int k = 0; k < kLane; ++k) {
      if ((unsigned)k < cnt) {
        acc = any ? acc + x[k] : x[k];
        any = true;
        if (++rem == cols) {
          if (first && cont) {
            u = acc;
            has_u = true;
          } else
            out[r] = acc;
          ++r;
          rem = 0;
          first = false;
          any = false;
        }
      }
    }
  }
  float v = acc;
  unsigned key = any ? r : kEmpty;
  if (lane == 0 && carry_row != kNone && !has_u && key == carry_row) v = carry + v;
  if (lane == 0 && has_u)
    put(out, head, warp, starts_mid, first_row, carry_row != kNone ? carry_row : first_row,
        carry_row != kNone ? carry + u : u);
#pragma unroll
  for (int d = 1; d < 32; d <<= 1) {
    const float w = __shfl_up_sync(0xffffffffu, v, d);
    const unsigned kd = __shfl_up_sync(0xffffffffu, key, d);
    if (lane >= (unsigned)d && kd == key) v = w + v;
  }
  const unsigned next_key = __shfl_down_sync(0xffffffffu, key, 1);
  const float next_u = __shfl_down_sync(0xffffffffu, u, 1);
  const bool next_has_u = __shfl_down_sync(0xffffffffu, (int)has_u, 1);
  const bool last_in_tile = cnt > 0 && f + cnt == tile_end;
  unsigned new_carry_row = kNone;
  float new_carry = 0.f;
  if ((lane == 31 || next_key != key) && key != kEmpty) {
    float total = v;
    if (!last_in_tile && next_has_u) total = total + next_u;
    const bool open = last_in_tile && tile_end % cols != 0;
    if (!open)
      put(out, head, warp, starts_mid, first_row, key, total);
    else if (tile_end < end) {
      new_carry = total;
      new_carry_row = key;
    } else
      tail[warp] = {key, total, starts_mid && key == first_row ? 3 : 2};
  }
  carry = __shfl_sync(0xffffffffu, new_carry, 31);
  carry_row = __shfl_sync(0xffffffffu, new_carry_row, 31);
}

// Staged by asynchronous copies (cp.async): each lane starts its 16-byte pieces of the next tile
// straight into shared memory, no registers holding them, two buffers a warp.
template <int kLane>
__device__ __forceinline__ void copy_tile(const float* __restrict__ in, unsigned t, unsigned end, unsigned lane,
                                          float* buf) {
#pragma unroll
  for (int k = 0; k < kLane / 4; ++k) {
    const unsigned p = lane + 32 * k, e = t + 4 * p;
    float* dst = buf + (4 * p / kLane) * (kLane + 4) + (4 * p) % kLane;
    const unsigned valid = e >= end ? 0u : end - e >= 4 ? 16u : 4u * (end - e);
    __pipeline_memcpy_async(dst, in + (valid ? e : 0), 16, 16 - valid);
  }
  __pipeline_commit();
}

template <int kLane>
__global__ void flat_rows_async(const float* __restrict__ in, unsigned n, unsigned cols, float* __restrict__ out,
                                unsigned slice, Piece* head, Piece* tail, FastDiv by_cols) {
  constexpr int kTile = 32 * kLane, kRow = kLane + 4;
  extern __shared__ float dyn[];
  const unsigned lane = threadIdx.x & 31;
  float* bufs = dyn + (threadIdx.x >> 5) * 2 * 32 * kRow;
  const unsigned long long warp = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) >> 5;
  if (warp * slice >= n) return;
  const unsigned begin = unsigned(warp * slice), end = n - begin < slice ? n : begin + slice;
  const bool starts_mid = begin % cols != 0;
  const unsigned first_row = begin / cols;
  float carry = 0.f;
  unsigned carry_row = kNoRow;
  copy_tile<kLane>(in, begin, end, lane, bufs);
  int which = 0;
  for (unsigned t = begin; t < end; t += kTile, which ^= 1) {
    if (t + kTile < end) {
      copy_tile<kLane>(in, t + kTile, end, lane, bufs + (which ^ 1) * 32 * kRow);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncwarp();
    const float* my = bufs + which * 32 * kRow + lane * kRow;
    float x[kLane];
#pragma unroll
    for (int j = 0; j < kLane / 4; ++j) {
      const float4 q = *reinterpret_cast<const float4*>(my + 4 * j);
      x[4 * j] = q.x, x[4 * j + 1] = q.y, x[4 * j + 2] = q.z, x[4 * j + 3] = q.w;
    }
    __syncwarp();  // every lane has read this buffer before the copy after next fills it
    add_tile<kLane>(x, t, end, lane, cols, by_cols, out, head, tail, warp, starts_mid, first_row, carry, carry_row);
  }
}

// Staged by bulk copies (cp.async.bulk, the Tensor Memory Accelerator): lane 0 of each warp starts a
// whole tile's copy into shared memory, an mbarrier counting its bytes, kStages tiles ahead.
template <int kStages>
__global__ void flat_rows_bulk(const float* __restrict__ in, unsigned n, unsigned cols, float* __restrict__ out,
                               unsigned slice, Piece* head, Piece* tail, FastDiv by_cols) {
  constexpr int kLane = 16, kTile = 32 * kLane;
  extern __shared__ __align__(128) float dyn[];
  __shared__ std::uint64_t bars[8][kStages];
  const unsigned lane = threadIdx.x & 31, w = (threadIdx.x >> 5) & 7;
  float* bufs = dyn + w * kStages * kTile;
  std::uint64_t* full = bars[w];
  const unsigned long long warp = (blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x) >> 5;
  if (warp * slice >= n) return;
  const unsigned begin = unsigned(warp * slice), end = n - begin < slice ? n : begin + slice;
  const unsigned tiles = (end - begin + kTile - 1) / kTile;
  const auto copied = [&](unsigned k) {  // whole 16-byte pieces of tile k; the rest read from global memory
    const unsigned t = begin + k * kTile, left = end - t < unsigned(kTile) ? end - t : unsigned(kTile);
    return left / 4 * 4;
  };
  const auto start = [&](unsigned k, int st) {
    const unsigned floats = copied(k);
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full[st], floats * 4);
    if (floats)
      ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, bufs + st * kTile, in + begin + k * kTile, floats * 4,
                         &full[st]);
  };
  if (lane == 0) {
    for (int st = 0; st < kStages; ++st) ptx::mbarrier_init(&full[st], 1);
    ptx::fence_proxy_async(ptx::space_shared);
    for (int st = 0; st < kStages && unsigned(st) < tiles; ++st) start(st, st);
  }
  __syncwarp();
  const bool starts_mid = begin % cols != 0;
  const unsigned first_row = begin / cols;
  float carry = 0.f;
  unsigned carry_row = kNoRow;
  for (unsigned k = 0; k < tiles; ++k) {
    const int st = int(k % kStages);
    while (!ptx::mbarrier_try_wait_parity(&full[st], (k / kStages) & 1u)) {}
    const unsigned t = begin + k * kTile, cp = copied(k);
    const float* my = bufs + st * kTile + lane * kLane;
    float x[kLane];
    if (lane * kLane + kLane <= cp) {
#pragma unroll
      for (int j = 0; j < kLane / 4; ++j) {
        const float4 q = *reinterpret_cast<const float4*>(my + 4 * j);
        x[4 * j] = q.x, x[4 * j + 1] = q.y, x[4 * j + 2] = q.z, x[4 * j + 3] = q.w;
      }
    } else {
#pragma unroll
      for (int j = 0; j < kLane; ++j) {
        const unsigned e = lane * kLane + j;
        x[j] = e < cp ? my[j] : t + e < end ? in[t + e] : 0.f;
      }
    }
    __syncwarp();
    if (lane == 0 && k + kStages < tiles) {
      ptx::fence_proxy_async(ptx::space_shared);
      start(k + kStages, st);
    }
    add_tile<kLane>(x, t, end, lane, cols, by_cols, out, head, tail, warp, starts_mid, first_row, carry, carry_row);
  }
}

// Rows crossing slice boundaries: tail of the slice where the row started, through pieces, the head where it ends.
__global__ void join(const Piece* head, const Piece* tail, unsigned long long warps, float* out) {
  const unsigned long long w = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (w >= warps || tail[w].kind != 2) return;
  float total = tail[w].value;
  const unsigned long long row = tail[w].row;
  unsigned long long k = w + 1;
  for (; k < warps && tail[k].kind == 3 && tail[k].row == row; ++k) total = total + tail[k].value;
  if (k < warps && head[k].kind == 1 && head[k].row == row) total = total + head[k].value;
  out[row] = total;
}

__global__ void read_ceiling(const float4* in, unsigned long long n4, float* sink) {
  float s = 0.f;
  for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < n4;
       i += (unsigned long long)gridDim.x * blockDim.x) {
    float4 q = __ldg(in + i);
    s += q.x + q.y + q.z + q.w;
  }
  if (s == 12345.678f) *sink = s;
}

int main(int argc, char** argv) {
  const int only_variant = argc > 2 ? atoi(argv[1]) : -1, only_shape = argc > 2 ? atoi(argv[2]) : -1;
  int dev = 0;
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, dev));
  int clk = 0, bus = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrMemoryClockRate, dev));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
  const double peak = 2.0 * clk * 1e3 * (bus / 8) / 1e9;
  printf("device %s, %d SMs, peak %.0f GB/s\n", prop.name, prop.multiProcessorCount, peak);
  struct Shape {
    unsigned long long r, c;
  };
  const Shape shapes[] = {{1ull << 24, 15},  {1ull << 24, 16}, {1ull << 24, 17},      {1000000, 100}, {3000000, 33},
                          {1ull << 20, 256}, {1ull << 22, 64}, {3, (1ull << 20) + 1}, {7, 3},         {5, 1},
                          {1000, 1}};
  const unsigned long long maxn = (1ull << 24) * 17;
  float* in;
  CK(cudaMalloc(&in, maxn * 4 + 64));
  float* out;
  CK(cudaMalloc(&out, (1ull << 24) * 4 * 8));
  float* sink;
  CK(cudaMalloc(&sink, 4));
  std::vector<float> h(maxn);
  srand(1);
  for (auto& x : h) x = float(rand() % 2001 - 1000) / 64.f;
  CK(cudaMemcpy(in, h.data(), maxn * 4, cudaMemcpyHostToDevice));
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  const int threads = 256;
  for (const int variant : {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
    for (int si = 0; si < int(sizeof shapes / sizeof shapes[0]); ++si) {
      const Shape s = shapes[si];
      if (only_variant >= 0 && (variant != only_variant || si != only_shape)) continue;
      const int lane_floats = variant == 3 || variant == 7 ? 32 : 16;  // 4: staged through shared memory
      const unsigned long long tile = 32ull * lane_floats;
      const unsigned long long n = s.r * s.c;
      int per_sm = 0;  // resident blocks of 256 threads an SM holds: the grid is one wave of them
      if (variant == 0)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows<unsigned, 16, false, false>, threads, 0));
      if (variant == 1)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows<unsigned, 16, false, true>, threads, 0));
      if (variant == 2)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows<unsigned, 16, true, true>, threads, 0));
      if (variant == 3)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows<unsigned, 32, false, true>, threads, 0));
      if (variant == 4)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows<unsigned, 16, false, true, true>, threads,
                                                         0));
      const std::size_t async_smem = std::size_t(threads / 32) * 2 * 32 * (lane_floats + 4) * sizeof(float);
      if (variant == 6) {
        CK(cudaFuncSetAttribute(flat_rows_async<16>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(async_smem)));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows_async<16>, threads, async_smem));
      }
      if (variant == 7) {
        CK(cudaFuncSetAttribute(flat_rows_async<32>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(async_smem)));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows_async<32>, threads, async_smem));
      }
      const std::size_t bulk_smem = std::size_t(threads / 32) * (variant == 8 ? 2 : 4) * 512 * sizeof(float);
      if (variant == 8) {
        CK(cudaFuncSetAttribute(flat_rows_bulk<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bulk_smem)));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows_bulk<2>, threads, bulk_smem));
      }
      if (variant == 9) {
        CK(cudaFuncSetAttribute(flat_rows_bulk<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(bulk_smem)));
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows_bulk<4>, threads, bulk_smem));
      }
      if (variant == 5)
        CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flat_rows<unsigned, 16, false, true, true, true>,
                                                         threads, 0));
      const unsigned long long warps_max = (unsigned long long)prop.multiProcessorCount * per_sm * (threads / 32);
      unsigned long long slice = (n + warps_max - 1) / warps_max;
      slice = (slice + tile - 1) / tile * tile;
      const unsigned long long warps = (n + slice - 1) / slice;
      Piece *head, *tail;
      CK(cudaMalloc(&head, warps * sizeof(Piece)));
      CK(cudaMalloc(&tail, warps * sizeof(Piece)));
      const unsigned blocks = unsigned((warps * 32 + threads - 1) / threads);
      auto run = [&] {
        CK(cudaMemsetAsync(head, 0, warps * sizeof(Piece)));
        CK(cudaMemsetAsync(tail, 0, warps * sizeof(Piece)));
        const bool small = n < (1ull << 32) - kMaxTile * 2;
        if (variant == 0 && small)
          flat_rows<unsigned, 16, false, false>
              <<<blocks, threads>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice), head, tail);
        else if (variant == 1 && small)
          flat_rows<unsigned, 16, false, true>
              <<<blocks, threads>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice), head, tail);
        else if (variant == 2 && small)
          flat_rows<unsigned, 16, true, true>
              <<<blocks, threads>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice), head, tail);
        else if (variant == 3 && small)
          flat_rows<unsigned, 32, false, true>
              <<<blocks, threads>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice), head, tail);
        else if (variant == 4 && small)
          flat_rows<unsigned, 16, false, true, true>
              <<<blocks, threads>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice), head, tail);
        else if (variant == 6 && small)
          flat_rows_async<16><<<blocks, threads, async_smem>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice),
                                                               head, tail, FastDiv(unsigned(s.c)));
        else if (variant == 7 && small)
          flat_rows_async<32><<<blocks, threads, async_smem>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice),
                                                               head, tail, FastDiv(unsigned(s.c)));
        else if (variant == 8 && small)
          flat_rows_bulk<2><<<blocks, threads, bulk_smem>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice), head,
                                                            tail, FastDiv(unsigned(s.c)));
        else if (variant == 9 && small)
          flat_rows_bulk<4><<<blocks, threads, bulk_smem>>>(in, unsigned(n), unsigned(s.c), out, unsigned(slice), head,
                                                            tail, FastDiv(unsigned(s.c)));
        else if (variant == 5 && small)
          flat_rows<unsigned, 16, false, true, true, true><<<blocks, threads>>>(
              in, unsigned(n), unsigned(s.c), out, unsigned(slice), head, tail, FastDiv(unsigned(s.c)));
        else
          flat_rows<unsigned long long, 16, false><<<blocks, threads>>>(in, n, s.c, out, slice, head, tail);
        join<<<unsigned((warps + 255) / 256), 256>>>(head, tail, warps, out);
      };
      run();
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      std::vector<float> got(s.r);
      CK(cudaMemcpy(got.data(), out, s.r * 4, cudaMemcpyDeviceToHost));
      double worst = 0;
      unsigned long long bad = 0;
      for (unsigned long long r = 0; r < s.r; ++r) {
        double want = 0, mag = 0;
        for (unsigned long long c = 0; c < s.c; ++c) {
          want += h[r * s.c + c];
          mag += fabs(h[r * s.c + c]);
        }
        const double err = fabs(got[r] - want) / (mag + 1e-30);
        if (err > 1e-5) {
          if (bad < 3) printf("  row %llu got %g want %g\n", r, got[r], want);
          ++bad;
        }
        worst = std::max(worst, err);
      }
      const int reps = only_variant >= 0 ? 1 : 20;
      float ms = 0, best = 1e9;
      for (int i = 0; i < reps; ++i) {
        CK(cudaEventRecord(a));
        run();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        best = std::min(best, ms);
      }
      float cbest = 1e9;
      for (int i = 0; i < reps; ++i) {
        CK(cudaEventRecord(a));
        read_ceiling<<<prop.multiProcessorCount * 8, 256>>>((const float4*)in, n / 4, sink);
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        CK(cudaEventElapsedTime(&ms, a, b));
        cbest = std::min(cbest, ms);
      }
      const double bytes = double(n) * 4 + double(s.r) * 4;
      printf(
          "v%d %8llu x %-8llu L%2d %d/SM flat-rows %8.1f us %5.1f %% of peak | read ceiling %8.1f us %5.1f %% | wrong "
          "rows %llu, worst rel err %.2g\n",
          variant, s.r, s.c, lane_floats, per_sm, best * 1e3, bytes / (best * 1e-3) / 1e9 / peak * 100, cbest * 1e3,
          double(n) * 4 / (cbest * 1e-3) / 1e9 / peak * 100, bad, worst);
      CK(cudaFree(head));
      CK(cudaFree(tail));
    }
  return 0;
}
