#include "own_values.h"

#include <cstring>
#include <optional>
#include <stdexcept>

#include "kernels/narrow_float.h"

namespace rl::own {

core::DType own_dtype(const std::string& type) {
  const std::optional<core::DType> t = core::parse_dtype(type);
  if (!t) throw std::invalid_argument("a kernel of your own takes int, float, double, half or bf16, not " + type);
  return *t;
}

std::string cuda_type(const std::string& type) {
  switch (own_dtype(type)) {
    case core::DType::Half: return "rl_half";  // reduction_lab.cuh's: NVRTC carries no cuda_fp16.h
    case core::DType::Bf16: return "rl_bf16";
    default: return type;
  }
}

std::size_t value_bytes(const std::string& type) { return core::element_bytes(own_dtype(type)); }

double value_at(const unsigned char* p, const std::string& type) {
  const core::DType t = own_dtype(type);
  if (t == core::DType::Half || t == core::DType::Bf16) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return t == core::DType::Half ? kernels::from_half_bits(v) : kernels::from_bf16_bits(v);
  }
  if (t == core::DType::Int) {
    std::int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  if (t == core::DType::Float) {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  double v;
  std::memcpy(&v, p, 8);
  return v;
}

std::vector<double> values_of(const std::vector<unsigned char>& bytes, const std::string& type, std::size_t cap) {
  const std::size_t size = value_bytes(type), count = std::min(bytes.size() / size, cap);
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; ++i) out[i] = value_at(bytes.data() + i * size, type);
  return out;
}

std::vector<unsigned char> bytes_of(const std::vector<double>& values, const std::string& type) {
  const core::DType t = own_dtype(type);
  const std::size_t size = core::element_bytes(t);
  std::vector<unsigned char> out(values.size() * size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    unsigned char* at = out.data() + i * size;
    if (t == core::DType::Half || t == core::DType::Bf16) {
      const float f = float(values[i]);
      const std::uint16_t v = t == core::DType::Half ? kernels::half_bits(f) : kernels::bf16_bits(f);
      std::memcpy(at, &v, 2);
    } else if (t == core::DType::Int) {
      const auto v = std::int32_t(values[i]);
      std::memcpy(at, &v, 4);
    } else if (t == core::DType::Float) {
      const auto v = float(values[i]);
      std::memcpy(at, &v, 4);
    } else {
      std::memcpy(at, &values[i], 8);
    }
  }
  return out;
}

}  // namespace rl::own
