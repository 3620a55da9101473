// Operators and element types the user can choose, with their spellings.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace rl::core {

enum class Op { Sum, Min, Max };
enum class DType { Int, Float, Double };

std::string to_string(Op op);
std::string to_string(DType type);
std::optional<Op> parse_op(std::string_view text);
std::optional<DType> parse_dtype(std::string_view text);
std::size_t element_bytes(DType type);  // 4, or 8 for double

// Applies op in double precision: the reference the tests and checks compare against.
double apply(Op op, double a, double b);

// Formats a value for people: integers without a decimal point, floats shortest-exact.
std::string format_value(double v, DType type);

// "sum", "minimum", "maximum": what a reduction's result is, for its operator.
std::string result_word(Op op);

// "1 stale read", "3 stale reads": a count with the word that agrees with it.
std::string count_text(std::size_t n, const std::string& one, const std::string& many);

}  // namespace rl::core
