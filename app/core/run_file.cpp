#include "run_file.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "file_io.h"
#include "json_fields.h"
#include "text.h"

namespace rl::core {
namespace {

// Which of the three a JSON object is, by the fields only it has.
RunFile kind_of(const nlohmann::json& j) {
  if (j.contains("stages")) return j.contains("race") ? RunFile::Race : RunFile::Trace;
  if (j.contains("rows") && j["rows"].is_array() && j.contains("peak_gbps")) return RunFile::Results;
  throw std::runtime_error("is not a trace, a race recording or a results file (it has no 'stages', nor 'rows' "
                           "with 'peak_gbps')");
}

// The top level's fields alone (what lies deeper is read and dropped): enough to tell the kind
// before the whole file is parsed under its own kind's rules.
nlohmann::json top_level(const std::string& text) {
  using Json = nlohmann::json;
  using Event = Json::parse_event_t;
  Json::parser_callback_t shallow = [](int depth, Event event, Json&) {
    json_fields::bound_depth(depth);
    const bool ends = event == Event::value || event == Event::object_end || event == Event::array_end;
    return !ends || depth <= 1;
  };
  return Json::parse(text, shallow);
}

const FileKind& limit_of(RunFile kind) {
  switch (kind) {
    case RunFile::Trace: return files::kTrace;
    case RunFile::Race: return files::kRecording;
    case RunFile::Results: return files::kResults;
  }
  return files::kResults;
}

}  // namespace

std::string to_string(RunFile kind) {
  switch (kind) {
    case RunFile::Trace: return "a trace";
    case RunFile::Race: return "a race recording";
    case RunFile::Results: return "a results file";
  }
  return "a file";
}

OpenedRun open_run_file(const std::string& path) {
  std::string text, why;
  if (!read_file(path, files::kTrace, &text, &why)) throw std::runtime_error(why);
  const std::string shown = "'" + printable(path) + "' ";
  OpenedRun out;
  out.path = path;
  try {
    nlohmann::json j;
    try {
      j = top_level(text);
    } catch (const nlohmann::json::parse_error&) {
      throw std::runtime_error("is not JSON: a trace, a race recording or a results file is a JSON file");
    }
    if (!j.is_object()) throw std::runtime_error("is not a JSON object");
    // The project's golden files wrap a trace as {"recorded": {...}, "trace": {...}}.
    if (!j.contains("stages") && j.contains("trace") && j["trace"].is_object()) {
      text = json_fields::parse(text)["trace"].dump();
      j = top_level(text);
    }
    out.kind = kind_of(j);
    const FileKind& limit = limit_of(out.kind);
    if (text.size() > std::size_t(limit.max_bytes))
      throw std::runtime_error("is " + std::to_string(text.size()) + " bytes; " + to_string(out.kind) +
                               " may hold at most " + std::to_string(limit.max_bytes));
    if (out.kind == RunFile::Results) out.results = bench_from_json(text);
    else out.trace = trace_from_json(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(shown + (std::string(e.what()).rfind("is ", 0) == 0 ? "" : "is not readable: ") + e.what());
  }
  return out;
}

std::string recorded_label(const Trace& t) {
  const std::string when = t.recorded.utc.empty() ? std::string("date not recorded") : t.recorded.utc;
  if (t.backend == "cuda") return "recorded on " + t.device + ", " + when;
  if (t.device.find("not a GPU") != std::string::npos) return t.device + ", " + when;  // says where it ran itself
  return "made by the CPU model, not a GPU run (" + t.device + "), " + when;
}

}  // namespace rl::core
