#include "types.h"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace rl::core {

std::size_t element_bytes(DType type) { return type == DType::Double ? 8 : 4; }

std::string to_string(Op op) {
  switch (op) {
    case Op::Sum: return "sum";
    case Op::Min: return "min";
    case Op::Max: return "max";
  }
  return "?";
}

std::string to_string(DType type) {
  switch (type) {
    case DType::Int: return "int";
    case DType::Float: return "float";
    case DType::Double: return "double";
  }
  return "?";
}

std::optional<Op> parse_op(std::string_view text) {
  if (text == "sum") return Op::Sum;
  if (text == "min") return Op::Min;
  if (text == "max") return Op::Max;
  return std::nullopt;
}

std::optional<DType> parse_dtype(std::string_view text) {
  if (text == "int") return DType::Int;
  if (text == "float") return DType::Float;
  if (text == "double") return DType::Double;
  return std::nullopt;
}

double apply(Op op, double a, double b) {
  switch (op) {
    case Op::Sum: return a + b;
    case Op::Min: return b < a ? b : a;
    case Op::Max: return a < b ? b : a;
  }
  return a;
}

std::string format_value(double v, DType type) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  if (type == DType::Int) {
    std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(v));
    return buf;
  }
  // Shortest text that reads back as the same value of the type.
  const auto r = type == DType::Double ? std::to_chars(buf, buf + sizeof buf, v)
                                       : std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  return std::string(buf, r.ptr);
}

std::string result_word(Op op) { return op == Op::Sum ? "sum" : op == Op::Min ? "minimum" : "maximum"; }

std::string count_text(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace rl::core
