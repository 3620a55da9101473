// value_t, the element type of a kernel of your own: one of the catalog's (int, float, double,
// half, bf16), its CUDA name, and its bytes as the kernel reads and writes them (little-endian).
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "../core/types.h"

namespace rl::own {

// Throws std::invalid_argument naming the types taken for any other.
core::DType own_dtype(const std::string& value_type);
std::string cuda_type(const std::string& value_type);    // value_t's CUDA name: rl_half for half
std::size_t value_bytes(const std::string& value_type);  // 2, 4 or 8
// The value of `type` whose bytes start at p, and the first `cap` values of `bytes`, as doubles.
double value_at(const unsigned char* p, const std::string& type);
std::vector<double> values_of(const std::vector<unsigned char>& bytes, const std::string& type,
                              std::size_t cap = std::size_t(-1));
// The inverse: values (already rounded to the type) as the kernel reads them.
std::vector<unsigned char> bytes_of(const std::vector<double>& values, const std::string& type);

}  // namespace rl::own
