// Half (.f16) and bfloat16 (.bf16) in the interpreter, and their pairs (.f16x2, .bf16x2: two values
// in one 32-bit register, the first source's in the upper half), rounded as the PTX ISA says: to
// nearest, ties to even, once. Each result is computed exactly or rounded to odd in double (53 bits,
// more than the type's precision plus two), then rounded to the type: the double rounding that
// would otherwise creep into fma is avoided (Boldo and Melquiond, "Emulation of FMA and correctly
// rounded sums: proved algorithms using rounding to odd", 2008).
#pragma once
#include <cstdint>

#include "ptx_module.h"

namespace rl::own::ptx {

inline bool is_narrow(Type t) { return (t.kind == Kind::F && t.bytes == 2) || t.kind == Kind::Bf || t.pair; }
inline bool is_float(Type t) { return t.kind == Kind::F || t.kind == Kind::Bf; }

// A 16-bit pattern's value, exactly (bf: bfloat16, else half).
double narrow_value(std::uint16_t bits, bool bf);
// x rounded to the nearest half or bfloat16, ties to even; past the largest finite value to
// infinity; NaN to the canonical NaN 0x7fff.
std::uint16_t narrow_bits(long double x, bool bf);
// A float register's value as a double, exactly: .f16, .bf16, .f32 or .f64 bits.
double float_value(Type t, std::uint64_t v);

// add, sub, mul, fma (mad), min, max, neg, abs of halves or bfloat16 (lane by lane for pairs);
// throws NotModelled for any other, or for .ftz, .sat, .relu and rounding other than .rn.
std::uint64_t narrow_op(const Instr& in, std::uint64_t a, std::uint64_t b, std::uint64_t c);
// cvt to a half or bfloat16 (from a float, double, integer or the other 16-bit type; .rn alone),
// or from one to f32 or f64 (exactly). From one to an integer is convert()'s, as from any float.
std::uint64_t narrow_convert(const Instr& in, std::uint64_t v);

}  // namespace rl::own::ptx
