// Reading typed fields from parsed JSON (traces, results) with one error rule: a field of the
// wrong type or out of its type's range is an error naming the field. nlohmann-json's own get<int>
// converts 1e30 or -1 with a plain cast (undefined or wrong), which fuzz_results found.
#pragma once

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace rl::core::json_fields {

// Deeper nesting than any file of ours holds: a file nested 100,000 levels deep is refused
// while it is parsed, before anything recursive walks it.
inline constexpr int kMaxDepth = 64;

// nlohmann::json::parse with the nesting bounded. Throws nlohmann's parse errors, or
// std::runtime_error naming the limit.
// Throws std::runtime_error naming the limit past kMaxDepth: what every parser callback here
// checks first.
inline void bound_depth(int depth) {
  if (depth > kMaxDepth) throw std::runtime_error("nested deeper than " + std::to_string(kMaxDepth) + " levels");
}

template <class Json = nlohmann::json>
Json parse(const std::string& text) {
  typename Json::parser_callback_t bound = [](int depth, typename Json::parse_event_t, Json&) {
    bound_depth(depth);
    return true;
  };
  return Json::parse(text, bound);
}

template <class T>
struct is_vector : std::false_type {};
template <class T>
struct is_vector<std::vector<T>> : std::true_type {};

// what: how the error names the field, e.g. "results field 'samples'".
template <class T, class Json>  // Json: nlohmann::json or nlohmann::ordered_json
T as(const Json& v, const std::string& what) {
  const auto wrong = [&](const char* why) { return std::runtime_error(what + " " + why); };
  if constexpr (is_vector<T>::value) {
    if (!v.is_array()) throw wrong("is not a list");
    T out;
    out.reserve(v.size());
    for (const auto& x : v) out.push_back(as<typename T::value_type>(x, what));
    return out;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw wrong("has the wrong type");
    return v.template get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer()) throw wrong("has the wrong type");
    if (v.is_number_unsigned()) {
      const auto u = v.template get<std::uint64_t>();
      if (u > std::uint64_t(std::numeric_limits<T>::max())) throw wrong("is out of range");
      return T(u);
    }
    const auto s = v.template get<std::int64_t>();
    if (s < std::int64_t(std::numeric_limits<T>::min()) ||
        (s > 0 && std::uint64_t(s) > std::uint64_t(std::numeric_limits<T>::max())))
      throw wrong("is out of range");
    return T(s);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number()) throw wrong("has the wrong type");
    return v.template get<T>();
  } else {
    if (!v.is_string()) throw wrong("has the wrong type");
    return v.template get<T>();
  }
}

}  // namespace rl::core::json_fields
