#include "types.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "../../kernels/narrow_float.h"

namespace rl::core {

std::size_t element_bytes(DType type) { return std::size_t(kernels::type_bytes(type)); }

double unit_roundoff(DType type) {
  switch (type) {
    case DType::Half: return 0x1p-11;
    case DType::Bf16: return 0x1p-8;
    case DType::Double: return 0x1p-53;
    default: return 0x1p-24;
  }
}

DType accumulator_type(DType type, Accumulate accumulate) {
  return is_narrow(type) && accumulate == Accumulate::Float ? DType::Float : type;
}

std::string to_string(Accumulate accumulate) { return accumulate == Accumulate::Float ? "float" : "same"; }

std::optional<Accumulate> parse_accumulate(std::string_view text) {
  if (text == "float") return Accumulate::Float;
  if (text == "same") return Accumulate::Same;
  return std::nullopt;
}

double round_to_type(double v, DType type) {
  switch (type) {
    case DType::Int: return v;  // ints are read and checked as ints (input.cpp)
    case DType::Float: return double(float(v));
    case DType::Double: return v;
    case DType::Half: return double(kernels::round_half(v));
    case DType::Bf16: return double(kernels::round_bf16(v));
  }
  return v;
}

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
    case DType::Half: return "half";
    case DType::Bf16: return "bf16";
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
  if (text == "half") return DType::Half;
  if (text == "bf16") return DType::Bf16;
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
  // Half and bf16: whole numbers exactly (bf16 holds 45056, not the 45000 that would read back as
  // it), others in the fewest digits that read back as the value.
  if (is_narrow(type) && v != std::floor(v)) {
    for (int digits = 1; digits < 10; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*g", digits, v);
      if (round_to_type(std::strtod(buf, nullptr), type) == v) {
        const auto r = std::to_chars(buf, buf + sizeof buf, std::strtod(buf, nullptr));  // 1e+01 -> 10
        return std::string(buf, r.ptr);
      }
    }
  }
  if (is_narrow(type)) {
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    return std::string(buf, r.ptr);
  }
  const auto r = type == DType::Double ? std::to_chars(buf, buf + sizeof buf, v)
                                       : std::to_chars(buf, buf + sizeof buf, static_cast<float>(v));
  return std::string(buf, r.ptr);
}

std::string result_word(Op op) { return op == Op::Sum ? "sum" : op == Op::Min ? "minimum" : "maximum"; }

std::string count_text(std::size_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace rl::core
