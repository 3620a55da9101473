#include "trace_json.h"

#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "../../kernels/collectives.h"
#include "text.h"

namespace rl::core::trace_json {

json encode(double v, DType type) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (type == DType::Int) return static_cast<long long>(v);
  return v;
}

double decode(const json& j, const char* field) {
  if (j.is_number()) return j.get<double>();
  if (j.is_string()) {
    const auto s = j.get<std::string>();
    if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (s == "inf") return std::numeric_limits<double>::infinity();
    if (s == "-inf") return -std::numeric_limits<double>::infinity();
  }
  throw std::runtime_error(std::string("trace field '") + field + "' holds a non-number: " + j.dump());
}

json encode_all(const std::vector<double>& values, DType type) {
  json a = json::array();
  for (double v : values) a.push_back(encode(v, type));
  return a;
}

const json& field(const json& j, const char* name) {
  if (!j.is_object() || !j.contains(name))
    throw std::runtime_error(std::string("trace is missing field '") + name + "'");
  return j.at(name);
}

std::vector<double> decode_all(const json& j, const char* name) {
  if (!j.is_array()) throw std::runtime_error(std::string("trace field '") + name + "' is not a list");
  std::vector<double> out;
  out.reserve(j.size());
  for (const auto& v : j) out.push_back(decode(v, name));
  return out;
}

void write_collective(const Collective& c, DType type, json& j) {
  j["gpus"] = c.gpus;
  j["chunk_begin"] = c.chunk_begin;
  j["kept"] = c.kept;
  j["gpus_agree"] = c.agree;
  json results = json::array();
  for (const auto& r : c.results) results.push_back(encode_all(r, type));
  j["gpu_results"] = results;
}

void write_gpu_stage(const GpuStage& g, DType type, json& js) {
  json transfers = json::array();
  for (const auto& x : g.transfers)
    transfers.push_back({{"from", x.from}, {"to", x.to}, {"chunk", x.chunk}, {"add", x.add}});
  js["transfers"] = transfers;
  json held = json::array();
  for (const auto& h : g.held) held.push_back(encode_all(h, type));
  js["held"] = held;
}

namespace {

std::vector<std::vector<double>> decode_lists(const json& j, const char* name) {
  if (!j.is_array()) throw std::runtime_error(std::string("trace field '") + name + "' is not a list");
  if (j.size() > std::size_t(model::all_reduce::kMaxGpus))
    throw std::runtime_error(std::string("trace field '") + name + "' holds more than one list a GPU");
  std::vector<std::vector<double>> out;
  for (const auto& x : j) out.push_back(decode_all(x, name));
  return out;
}

}  // namespace

Collective read_collective(const json& j) {
  Collective c;
  c.gpus = typed<int>(j, "gpus");
  c.chunk_begin = typed<std::vector<std::size_t>>(j, "chunk_begin");
  c.kept = typed<std::size_t>(j, "kept");
  c.agree = typed<bool>(j, "gpus_agree");
  c.results = decode_lists(field(j, "gpu_results"), "gpu_results");
  return c;
}

GpuStage read_gpu_stage(const json& js) {
  GpuStage g;
  const json& transfers = field(js, "transfers");
  if (!transfers.is_array()) throw std::runtime_error("trace field 'transfers' is not a list");
  for (const auto& x : transfers)
    g.transfers.push_back({typed<int>(x, "from"), typed<int>(x, "to"), typed<int>(x, "chunk"), typed<bool>(x, "add")});
  g.held = decode_lists(field(js, "held"), "held");
  return g;
}

std::string collective_text(const Collective& c) {
  std::ostringstream out;
  out << c.gpus << " GPUs, " << c.chunks() << (c.chunks() == 1 ? " chunk" : " chunks") << " a buffer (";
  for (std::size_t i = 0; i + 1 < c.chunk_begin.size(); ++i)
    out << (i ? ", " : "") << c.chunk_begin[i] << ".." << c.chunk_begin[i + 1];
  out << "); every GPU's result " << (c.agree ? "the same bits" : "NOT the same bits") << "\n";
  return out.str();
}

std::string gpu_stage_text(const GpuStage& g, DType type) {
  std::ostringstream out;
  for (const auto& x : g.transfers)
    out << "  GPU " << x.from << " -> GPU " << x.to << ": chunk " << x.chunk << (x.add ? ", added" : ", copied")
        << "\n";
  for (std::size_t gpu = 0; gpu < g.held.size(); ++gpu) {
    out << "  GPU " << gpu << ":";
    for (double v : g.held[gpu]) out << " " << format_value(v, type);
    out << "\n";
  }
  return out.str();
}

}  // namespace rl::core::trace_json
