#include "counters.h"

#include <algorithm>
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
  const auto count = [&](const char* key, std::optional<std::uint64_t>& to) {
    if (j.contains(key)) to = field<std::uint64_t>(j, key, where);
  };
  count("shared_load_conflicts", k.shared_load_conflicts), count("shared_store_conflicts", k.shared_store_conflicts);
  count("shared_loads", k.shared_loads), count("shared_stores", k.shared_stores);
  count("global_load_sectors", k.global_load_sectors), count("global_load_requests", k.global_load_requests);
  if (j.contains("input")) k.input = field<std::string>(j, "input", where);
  if (j.contains("cluster")) k.cluster = field<int>(j, "cluster", where);
  if (j.contains("recorded")) k.recorded = field<std::string>(j, "recorded", where);
  if (k.input.size() > 40 || k.recorded.size() > 40 || k.cluster < 0 || k.cluster > 16)
    throw std::runtime_error(where +
                             " has an 'input' or 'recorded' longer than 40 characters or a 'cluster' outside 0 to 16");
  const auto share = [&](const char* key, double most, std::optional<double>& to) {
    if (!j.contains(key)) return;
    to = field<double>(j, key, where);
    if (!(*to >= 0 && *to <= most))
      throw std::runtime_error(where + " field '" + key + "' is outside 0 to " + std::to_string(int(most)));
  };
  share("threads_per_instruction", 32, k.threads_per_instruction), share("dram_pct", 100, k.dram_pct);
  share("pred_on_per_instruction", 32, k.pred_on_per_instruction);
  if (k.pred_on_per_instruction && k.threads_per_instruction &&
      *k.pred_on_per_instruction > *k.threads_per_instruction + 0.01)
    throw std::runtime_error(where + " has more lanes with their predicate on than active lanes");
  if (j.contains("stalls")) {
    const json& stalls = j.at("stalls");
    if (!stalls.is_array() || stalls.size() > 32)
      throw std::runtime_error(where + " field 'stalls' is not a list of at most 32");
    for (const json& s : stalls) {
      Stall st{field<std::string>(s, "reason", where + " stall"), field<double>(s, "cycles", where + " stall")};
      if (st.reason.empty() || st.reason.size() > 40 || !(st.cycles >= 0 && st.cycles < 1e6))
        throw std::runtime_error(where + " has a stall reason without a name or with cycles out of range");
      k.stalls.push_back(std::move(st));
    }
    // "stalled most on": largest first, whatever order the file gives.
    std::stable_sort(k.stalls.begin(), k.stalls.end(),
                     [](const Stall& a, const Stall& b) { return a.cycles > b.cycles; });
  }
  return k;
}

std::string one_decimal(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

// "4.7 M" where a view has one line for a count; below 100,000 the count itself ("35,902"), so
// that a small count does not read as none.
std::string mega(std::uint64_t count) {
  if (count >= 100000) return one_decimal(double(count) / 1e6) + " M";
  std::string digits = std::to_string(count);
  for (int at = int(digits.size()) - 3; at > 0; at -= 3) digits.insert(std::size_t(at), ",");
  return digits;
}

std::string figures_of(const KernelCounters& k, std::string_view view) {
  if (view == "banks" && k.shared_load_conflicts && k.shared_loads && k.shared_store_conflicts && k.shared_stores)
    // A cluster's reads of other blocks' shared memory are not among the shared loads: cluster-dsmem
    // counts one a cluster, its first block's final load (docs/perf-notes.md).
    return "bank conflicts (extra wavefronts): " + mega(*k.shared_load_conflicts) + " in " + mega(*k.shared_loads) +
           " shared loads, " + mega(*k.shared_store_conflicts) + " in " + mega(*k.shared_stores) + " stores" +
           (k.cluster ? "; DSMEM reads not counted" : "");
  if (view == "coalescing" && k.global_load_sectors && k.global_load_requests && *k.global_load_requests > 0)
    return mega(*k.global_load_sectors) + " sectors in " + mega(*k.global_load_requests) + " global load requests, " +
           one_decimal(double(*k.global_load_sectors) / double(*k.global_load_requests)) + " a request";
  if (view == "divergence" && k.pred_on_per_instruction && k.threads_per_instruction)
    return one_decimal(*k.pred_on_per_instruction) + " of 32 lanes on a warp instruction, " +
           one_decimal(*k.threads_per_instruction) + " issued (a predicated if issues its body in every warp)";
  // Without the predicated figure, say why the active count can stay near 32 in a divergent kernel.
  if (view == "divergence" && k.threads_per_instruction)
    return one_decimal(*k.threads_per_instruction) +
           " of 32 threads active a warp instruction, over the whole kernel (lanes a predicate switched off "
           "count as active)";
  if (view == "work" && !k.stalls.empty() && k.dram_pct) {
    std::string out = millions(k.instructions) + " warp instructions; DRAM at " + one_decimal(*k.dram_pct) +
                      " % of its peak; a warp stalled most on ";
    for (std::size_t i = 0; i < k.stalls.size(); ++i) {
      std::string reason = k.stalls[i].reason;  // the metric's word: "long_scoreboard"
      std::replace(reason.begin(), reason.end(), '_', ' ');
      out += (i ? ", " : "") + reason + " (" + one_decimal(k.stalls[i].cycles) + ")";
    }
    return out + " cycles an issued instruction";
  }
  return "";
}

}  // namespace

CountedLines counted_lines(const Counters& c, std::string_view algorithm, std::string_view view) {
  const KernelCounters* k = c.find(algorithm);
  if (!k) return {};
  std::string figures = figures_of(*k, view);
  if (figures.empty()) return {};
  const std::string launch = k->launches == 1 ? "a whole launch" : std::to_string(k->launches) + " launches";
  const std::string device = c.device.rfind("NVIDIA ", 0) == 0 ? c.device.substr(7) : c.device;
  const std::string blocks = std::to_string(k->grid) + " blocks of " + std::to_string(k->block) +
                             (k->cluster ? " in clusters of " + std::to_string(k->cluster) : "");
  const std::string over = k->input.empty() ? "" : " over " + k->input;
  if (view == "work")
    return {"Counted by the hardware (Nsight Compute on an " + c.device + ", " +
                (k->recorded.empty() ? c.recorded : k->recorded) + ")" + over + ", " + launch + " of " + blocks +
                " threads, every block:",
            std::move(figures)};
  return {"The hardware, " + launch + over + ", " + blocks + " (" + device + "):", std::move(figures)};
}

CountedLines shipped_counted_lines(std::string_view algorithm, std::string_view view) {
  try {
    const Counters* c = shipped_counters("h100");
    return c ? counted_lines(*c, algorithm, view) : CountedLines{};
  } catch (const std::exception&) {
    return {};  // a shipped file that does not parse: core_test names it
  }
}

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
