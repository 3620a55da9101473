#include "input.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <limits>
#include <random>
#include <stdexcept>

#include "bench.h"
#include "file_io.h"
#include "text.h"

namespace rl::core {

std::optional<InputSpec> parse_input_spec(std::string_view text, std::string* error) {
  InputSpec spec;
  if (text == "iota") {
    spec.kind = InputSpec::Kind::Iota;
  } else if (text == "ones") {
    spec.kind = InputSpec::Kind::Ones;
  } else if (text == "random") {
    spec.kind = InputSpec::Kind::Random;
  } else if (text.starts_with("random:")) {
    const auto digits = text.substr(7);
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), spec.seed);
    if (digits.empty() || r.ec != std::errc() || r.ptr != digits.data() + digits.size()) {
      if (error) *error = "random seed must be a non-negative integer, got '" + std::string(digits) + "'";
      return std::nullopt;
    }
    spec.kind = InputSpec::Kind::Random;
  } else {
    std::error_code ec;
    const auto st = std::filesystem::status(std::string(text), ec);
    if (!std::filesystem::is_regular_file(st)) {
      const std::string shown = "'" + printable(text) + "'";
      if (error)
        *error = "input must be iota, ones, random[:SEED] or a readable file; " +
                 (!std::filesystem::exists(st)       ? "no file " + shown
                  : std::filesystem::is_directory(st) ? shown + " is a folder, not a file"
                                                      : shown + " is not a regular file (a device, a pipe or a socket)");
      return std::nullopt;
    }
    spec.kind = InputSpec::Kind::File;
    spec.path = std::string(text);
  }
  return spec;
}

std::string to_string(const InputSpec& spec) {
  switch (spec.kind) {
    case InputSpec::Kind::Iota: return "iota";
    case InputSpec::Kind::Ones: return "ones";
    case InputSpec::Kind::Random: return "random:" + std::to_string(spec.seed);
    case InputSpec::Kind::File: return spec.path;
  }
  return "?";
}

std::vector<double> generate_input(const InputSpec& spec, std::size_t n, DType type) {
  if (spec.kind == InputSpec::Kind::File) return read_input_file(spec.path, type, std::size_t(-1), spec.quiet);
  std::vector<double> v(n);
  std::mt19937_64 rng(spec.seed);
  for (std::size_t i = 0; i < n; ++i) {
    switch (spec.kind) {
      case InputSpec::Kind::Iota:
        v[i] = type == DType::Int ? double(std::int32_t(std::uint32_t(i + 1))) : round_to_type(double(i + 1), type);
        break;
      case InputSpec::Kind::Ones: v[i] = 1; break;
      case InputSpec::Kind::Random:
        // Explicit arithmetic rather than <random> distributions: the same values everywhere.
        if (type == DType::Int) v[i] = double(std::int64_t(rng() % 199) - 99);
        else if (type == DType::Float) v[i] = double(rng() >> 40) * 0x1p-23 - 1.0;  // 24 bits: exact in float
        else if (is_narrow(type))
          v[i] = round_to_type(double(rng() >> 40) * 0x1p-23 - 1.0, type);  // float's, rounded
        else v[i] = double(rng() >> 11) * 0x1p-52 - 1.0;  // 53 bits
        break;
      case InputSpec::Kind::File: break;
    }
  }
  return v;
}

std::vector<double> parse_numbers(std::string_view text, DType type, std::string_view origin, std::size_t max_count,
                                  bool quiet) {
  std::vector<double> out;
  int line_no = 1;
  std::size_t i = 0;
  const auto fail = [&](const std::string& token, const std::string& why) {
    const std::string shown = quiet ? "a value" : "'" + printable(token, 32) + "'";
    throw std::runtime_error(printable(origin) + ":" + std::to_string(line_no) + ": " + shown + " " + why);
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == '\n') { ++line_no; ++i; continue; }
    if (c == ' ' || c == '\t' || c == '\r' || c == ',') { ++i; continue; }
    if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
      continue;
    }
    std::size_t j = i;
    while (j < text.size() && std::string_view(" \t\r\n,#").find(text[j]) == std::string_view::npos) ++j;
    const std::string token(text.substr(i, j - i));
    i = j;
    double value = 0;
    const char* first = token.data() + (token[0] == '+' ? 1 : 0);
    const auto r = std::from_chars(first, token.data() + token.size(), value);
    if (r.ec != std::errc() || r.ptr != token.data() + token.size()) fail(token, "is not a number");
    if (type == DType::Int) {
      if (!std::isfinite(value)) fail(token, "is not an integer (NaN and Inf exist only for float and double)");
      if (value != std::floor(value)) fail(token, "is not an integer");
      if (value < std::numeric_limits<std::int32_t>::min() || value > std::numeric_limits<std::int32_t>::max())
        fail(token, "does not fit a 32-bit int");
    } else if (type == DType::Float) {
      if (std::isfinite(value) && std::fabs(value) > std::numeric_limits<float>::max())
        fail(token, "does not fit a float");
      value = double(float(value));
    } else if (is_narrow(type)) {
      if (std::isfinite(value) && std::isinf(round_to_type(value, type)))
        fail(token, "does not fit a " + to_string(type) + " (it would round to infinity)");
      value = round_to_type(value, type);
    }
    if (out.size() == max_count)
      throw std::runtime_error(printable(origin) + ":" + std::to_string(line_no) + ": holds more than " +
                               std::to_string(max_count) + " numbers, the most a trace takes");
    out.push_back(value);
  }
  if (out.empty()) throw std::runtime_error(printable(origin) + ": holds no numbers");
  return out;
}

std::vector<double> read_input_file(const std::string& path, DType type, std::size_t max_count, bool quiet) {
  // Checked before reading: a huge file must not exhaust memory on its way to being refused.
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(path, ec);
  if (!ec && bytes > kMaxInputFileBytes)
    throw std::runtime_error("input file '" + printable(path) + "' is " + std::to_string(bytes >> 20) + " MiB; at most " +
                             std::to_string(kMaxInputFileBytes >> 20) + " MiB of text is read");
  std::string text, why;
  if (!read_file(path, files::kInput, &text, &why)) throw std::runtime_error(why);
  return parse_numbers(text, type, path, max_count, quiet);
}

std::optional<std::int64_t> parse_count(std::string_view text) {
  const auto v = parse_size(text, 62);  // the one N|2^K parser (core/bench.h)
  if (!v || *v > std::size_t(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return std::int64_t(*v);
}

Checked check_matrix_side(std::string_view text, bool rows, std::int64_t current, std::int64_t other, std::int64_t max) {
  const auto typed = parse_count(text);
  const std::string kept = "; kept " + std::to_string(current);
  const std::string refused = "refused '" + std::string(text) + "': ";
  if (!typed) return {current, refused + "not a count (use N or 2^K)" + kept};
  if (*typed < 1) return {current, refused + (rows ? "a matrix needs at least 1 row" : "a matrix needs at least 1 column") + kept};
  if (*typed > max / std::max<std::int64_t>(other, 1)) {
    const std::string shape = rows ? std::string(text) + " x " + std::to_string(other) : std::to_string(other) + " x " + std::string(text);
    return {current, refused + shape + " is more than the " + std::to_string(max) + " elements the window traces (bench takes more)" + kept};
  }
  return {*typed, {}};
}

Checked check_array_size(std::string_view text, std::int64_t current, std::int64_t max) {
  const auto typed = parse_count(text);
  if (!typed)
    return {current,
            "refused '" + std::string(text) + "': not a count (use N or 2^K); kept " + std::to_string(current)};
  return check_array_size(*typed, current, max);
}

Checked check_array_size(std::int64_t typed, std::int64_t current, std::int64_t max) {
  if (typed >= 1 && typed <= max) return {typed, {}};
  const std::string why = typed < 1 ? "an array needs at least 1 element"
                                    : "the window traces at most " + std::to_string(max) + " elements (bench takes more)";
  return {current, "refused " + std::to_string(typed) + ": " + why + "; kept " + std::to_string(current)};
}

Checked check_block(std::int64_t typed, bool any_block) {
  const std::int64_t lo = any_block ? 2 : 32;
  std::int64_t v = std::clamp<std::int64_t>(typed, lo, 1024);
  if (!any_block) v = std::int64_t(std::bit_ceil(std::uint64_t(v)));
  if (v == typed) return {v, {}};
  const std::string rule = any_block ? "this kernel takes 2 to 1024 threads" : "this kernel takes powers of two from 32 to 1024";
  return {v, "block " + std::to_string(typed) + " is now " + std::to_string(v) + ": " + rule};
}

Checked check_trace_block(std::int64_t typed, std::int64_t grid, int cluster) {
  const std::int64_t last = std::max<std::int64_t>(grid - 1, 0);
  const std::int64_t v = std::clamp<std::int64_t>(typed, 0, last);
  if (v != typed)
    return {v - v % std::max(cluster, 1), "block " + std::to_string(typed) +
                                              " does not exist: the grid has blocks 0 to " + std::to_string(last) +
                                              "; tracing block " + std::to_string(v - v % std::max(cluster, 1))};
  if (cluster > 1 && v % cluster != 0)
    return {v - v % cluster, "block " + std::to_string(v) + " is not the first of its cluster of " +
                                 std::to_string(cluster) + ", which reads the others' shared memory; tracing block " +
                                 std::to_string(v - v % cluster)};
  return {v, {}};
}

}  // namespace rl::core
