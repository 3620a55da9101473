// Operators and element types the user can choose, with their spellings.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "../../kernels/algo.h"

namespace rl::core {

using Op = kernels::OpKind;
using kernels::DType;
using kernels::is_narrow;  // half or bf16
// What a half or bfloat16 run adds in: float (what PyTorch does), or the element type
// itself (the pitfall: every add rounds to 11 or 8 bits). Other types add in their own.
enum class Accumulate { Float, Same };

std::string to_string(Op op);
std::string to_string(DType type);
std::optional<Op> parse_op(std::string_view text);
std::optional<DType> parse_dtype(std::string_view text);
std::size_t element_bytes(DType type);  // 4, 8 for double, 2 for half and bf16
double unit_roundoff(DType type);       // 2^-p of a float type's p bits: 2^-24 for float, 2^-11 for half
// The type a run adds in: float for half and bf16 accumulating in float, else the type itself.
DType accumulator_type(DType type, Accumulate accumulate);
std::string to_string(Accumulate accumulate);
std::optional<Accumulate> parse_accumulate(std::string_view text);
// A value rounded to a floating type (to nearest, ties to even); ints are returned as given.
double round_to_type(double v, DType type);
// An int sum as the GPU leaves it: the whole number v wrapped to 32 bits (two's complement).
// long double: a sum of many ints held exactly past 2^53.
inline double wrap_int32(long double v) { return double(std::int32_t(std::uint32_t(std::int64_t(v)))); }

// Applies op in double precision: the reference the tests and checks compare against.
double apply(Op op, double a, double b);

// Formats a value for people: integers without a decimal point, floats shortest-exact.
std::string format_value(double v, DType type);

// "sum", "minimum", "maximum": what a reduction's result is, for its operator.
std::string result_word(Op op);

// "1 stale read", "3 stale reads": a count with the word that agrees with it.
std::string count_text(std::size_t n, const std::string& one, const std::string& many);

}  // namespace rl::core
