#include "counters.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>

#include "embedded.h"
#include "json_fields.h"

namespace rl::core {

namespace {

using nlohmann::json;

template <class T>
T field(const json& j, const char* key, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) throw std::runtime_error(where + " has no '" + key + "'");
  return json_fields::as<T>(j.at(key), where + " field '" + key + "'");
}

KernelCounters kernel_of(const json& j, std::size_t i) {
  const std::string where = "counters kernel " + std::to_string(i);
  KernelCounters k;
  k.algorithm = field<std::string>(j, "algorithm", where);
  k.kernel = field<std::string>(j, "kernel", where);
  k.launches = field<int>(j, "launches", where);
  k.instructions = field<std::uint64_t>(j, "instructions", where);
  k.duration_us = field<double>(j, "duration_us", where);
  k.grid = field<std::size_t>(j, "grid", where);
  k.block = field<int>(j, "block", where);
  if (k.launches < 1 || k.block < 1 || k.block > 1024 || k.grid == 0 || !(k.duration_us > 0))
    throw std::runtime_error(where + " ('" + k.algorithm +
                             "') has a launch count, block, grid or duration out of range");
  return k;
}

}  // namespace

const KernelCounters* Counters::find(std::string_view algorithm) const {
  for (const auto& k : kernels)
    if (k.algorithm == algorithm) return &k;
  return nullptr;
}

Counters parse_counters(const std::string& json_text) {
  const json j = json_fields::parse(json_text);
  const std::string where = "counters";
  Counters c;
  c.device = field<std::string>(j, "device", where);
  c.driver = field<std::string>(j, "driver", where);
  c.recorded = field<std::string>(j, "recorded", where);
  c.tool = field<std::string>(j, "tool", where);
  c.metric = field<std::string>(j, "metric", where);
  c.request = field<std::string>(j, "request", where);
  c.type = field<std::string>(j, "type", where);
  c.n = field<std::size_t>(j, "n", where);
  if (!j.at("kernels").is_array() || j.at("kernels").size() > 256)
    throw std::runtime_error("counters field 'kernels' is not a list of at most 256");
  for (std::size_t i = 0; i < j.at("kernels").size(); ++i) c.kernels.push_back(kernel_of(j.at("kernels")[i], i));
  return c;
}

const Counters* shipped_counters(std::string_view run) {
  static std::mutex mutex;
  static std::map<std::string, Counters, std::less<>> parsed;  // lessons ask every frame
  std::lock_guard lock(mutex);
  if (const auto it = parsed.find(run); it != parsed.end()) return &it->second;
  const std::string_view text = embedded::counters(run);
  if (text.empty()) return nullptr;
  return &parsed.emplace(std::string(run), parse_counters(std::string(text))).first->second;
}

std::string millions(std::uint64_t count) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f million", double(count) / 1e6);
  return buf;
}

}  // namespace rl::core
