// Operators shared by the CUDA kernels and the CPU model, so both add in the same way.
#pragma once
#include <climits>
#include <cstdint>
#include <limits>
#include <type_traits>

#if defined(__CUDACC__)
#define RL_HD __host__ __device__ __forceinline__
#else
#define RL_HD inline
#endif

namespace rl::ops {

// int sums wrap modulo 2^32 on the GPU; the unsigned detour makes the CPU agree without UB.
RL_HD int add(int a, int b) {
  return static_cast<int>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
RL_HD float add(float a, float b) { return a + b; }
RL_HD double add(double a, double b) { return a + b; }

struct Sum {
  template <class T> RL_HD T operator()(T a, T b) const { return add(a, b); }
  template <class T> RL_HD static T identity() { return T(0); }
};

// Min and max follow IEEE 754-2019 minimum and maximum for NaN: a NaN operand makes the result
// NaN, whatever the order, so every algorithm and the CPU model agree. (For ints a != a is
// never true and compiles away.)
struct Min {
  template <class T> RL_HD T operator()(T a, T b) const { return a != a ? a : b != b ? b : b < a ? b : a; }
  template <class T> RL_HD static T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) return std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::max();
  }
};

struct Max {
  template <class T> RL_HD T operator()(T a, T b) const { return a != a ? a : b != b ? b : a < b ? b : a; }
  template <class T> RL_HD static T identity() {
    if constexpr (std::numeric_limits<T>::has_infinity) return -std::numeric_limits<T>::infinity();
    else return std::numeric_limits<T>::lowest();
  }
};

// Neumaier's compensated sum (Kahan's, mended for an addend larger than the running sum): each
// add's rounding error, computed exactly with the larger operand first (Fast2Sum), gathers in
// `lost`, added back once at the end (Higham, Accuracy and Stability of Numerical Algorithms, 4.3).
// No multiply, so no fused multiply-add can change it on the GPU.
template <class T>
struct Neumaier {
  T sum = T(0), lost = T(0);
};
template <class T>
RL_HD Neumaier<T> add(Neumaier<T> a, T x) {
  if constexpr (std::is_integral_v<T>) return {add(a.sum, x), T(0)};  // ints round nothing (and wrap)
  const T t = a.sum + x;
  const T big = a.sum < T(0) ? -a.sum : a.sum, small = x < T(0) ? -x : x;
  return {t, a.lost + (big >= small ? (a.sum - t) + x : (x - t) + a.sum)};
}
// sum + lost; the plain sum where lost is no number (an infinity in the input makes x - t NaN),
// so an infinite or NaN sum comes out as a plain sum's would.
template <class T>
RL_HD T total(Neumaier<T> a) {
  return a.lost - a.lost == T(0) ? a.sum + a.lost : a.sum;
}

}  // namespace rl::ops
