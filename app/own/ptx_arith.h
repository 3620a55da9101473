// The interpreter's arithmetic (ptx_machine.cpp): PTX's integer, float, comparison and
// conversion instructions on values held as bits, rounding as the PTX ISA says (.rn, IEEE 754).
// An instruction or modifier it does not model throws NotModelled, which the machine turns into a
// finding: nothing is approximated.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "ptx_module.h"

namespace rl::own::ptx {

struct NotModelled {
  std::string what;
  int line = 0;
};
// Ends the instruction: the machine reports `what` at its line.
[[noreturn]] inline void refuse(const Instr& in, const std::string& what) { throw NotModelled{what, in.line}; }

inline std::uint64_t mask_of(int bytes) {
  return bytes >= 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * bytes)) - 1;
}
inline std::int64_t sext(std::uint64_t v, int bytes) {
  const int shift = 64 - 8 * bytes;
  return std::int64_t(v << shift) >> shift;
}
inline float as_f32(std::uint64_t v) {
  const auto u = std::uint32_t(v);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline double as_f64(std::uint64_t v) {
  double d;
  std::memcpy(&d, &v, 8);
  return d;
}
inline std::uint64_t bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline std::uint64_t bits(double d) {
  std::uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
template <class F>
F as(std::uint64_t v);
template <>
inline float as<float>(std::uint64_t v) {
  return as_f32(v);
}
template <>
inline double as<double>(std::uint64_t v) {
  return as_f64(v);
}

inline std::string hex_of(std::uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(v));
  return b;
}

// The float instructions (.f32, .f64) and the integer ones over operands a, b, c.
std::uint64_t float_op(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint64_t c);
std::uint64_t int_op(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint64_t c);
// setp's comparison (its first modifier: eq, lt, ltu, lo, ...).
bool compare(const Instr& in, std::uint64_t a, std::uint64_t b);
// shfl.sync's source lane for `lane` (the PTX ISA's pseudo-code: b the lane or offset, c the
// clamp and segment mask); *in_range: whether it lies in the lane's segment (else the lane's own).
int shuffle_source(const Instr& in, int lane, std::uint32_t b, std::uint32_t c, bool* in_range);
// A launch's shape: threads a block and blocks, in x and y.
struct LaunchDims {
  unsigned block_x = 1, block_y = 1, grid_x = 1, grid_y = 1;
  std::uint64_t grid_workspace = 0;  // %envreg1:%envreg2: a cooperative launch's, else 0
};
// A special register's value (Special) for thread t (linear: x first) of block `block_id` (linear).
std::uint64_t special_value(std::uint64_t which, unsigned t, const LaunchDims& d, unsigned block_id);
// What an atom or red leaves in memory: its operation (add, min, max, and, or, xor, exch, cas,
// inc, dec) of the old value and b; c is cas's new value. Refuses any other.
std::uint64_t atomic_result(const Instr& in, std::uint64_t old, std::uint64_t b, std::uint64_t c);
// vote.sync's result for a lane whose mask is `mask`, given the ballot of the lanes taking part.
std::uint64_t vote_result(const Instr& in, std::uint32_t ballot, std::uint32_t mask);
// redux.sync's integer result over the 32 lanes' values whose bit is set in mask: add, min or max
// (signed for .s32), and, or, xor (the PTX ISA's integer forms).
std::uint32_t redux_result(const Instr& in, const std::uint32_t* lanes, std::uint32_t mask);
// mov's packing forms: mov.b64 %rd, {%r1, %r2} joins equal parts of a `bytes`-wide value, low
// first; mov.b64 {%r1, %r2}, %rd splits one (part i of `count`).
std::uint64_t join_bits(const std::vector<std::uint64_t>& parts, int bytes);
std::uint64_t split_bits(std::uint64_t v, int bytes, std::size_t count, std::size_t i);
// bfe's field of a (from bit pos, len bits; sign-extended for .s32/.s64) and bfi's a inserted
// into b at pos (the PTX ISA's pseudo-code: pos and len are their operands' low 8 bits).
std::uint64_t bit_field_extract(const Instr& in, std::uint64_t a, std::uint32_t pos, std::uint32_t len);
std::uint64_t bit_field_insert(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint32_t pos, std::uint32_t len);
// cvt from in.type2 to in.type.
std::uint64_t convert(const Instr& in, std::uint64_t v);

}  // namespace rl::own::ptx
