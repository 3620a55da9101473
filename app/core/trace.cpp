#include "trace.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "../../kernels/matrix_shapes.h"
#include "json_fields.h"
#include "trace_check.h"
#include "trace_json.h"
#include "text.h"

namespace rl::core {
namespace {

using json = trace_json::json;

using trace_json::collective_text;
using trace_json::decode;
using trace_json::decode_all;
using trace_json::encode;
using trace_json::encode_all;
using trace_json::field;
using trace_json::gpu_stage_text;
using trace_json::read_collective;
using trace_json::read_gpu_stage;
using trace_json::typed;
using trace_json::write_collective;
using trace_json::write_gpu_stage;

// Widths of `count` loads or accesses (`each`: "loads", "accesses") from field `name`, absent
// where every one is 1; each 1 to 16 (a load or store moves at most 16 bytes), as `range` says.
std::vector<int> read_widths(const json& j, const char* name, std::size_t count, const char* each, const char* range) {
  if (!j.contains(name)) return {};
  auto widths = typed<std::vector<int>>(j, name);
  if (widths.size() != count)
    throw std::runtime_error(std::string("trace field '") + name +
                             "' does not give one width for each of the thread's " + each);
  for (int w : widths)
    if (w < 1 || w > 16)
      throw std::runtime_error(std::string("trace field '") + name + "' holds " + std::to_string(w) + ": " + range);
  return widths;
}

// One thread's loads; "widths" (elements each load read) is absent where every load read one.
Load read_load(const json& jl) {
  Load l{typed<int>(jl, "thread"), typed<std::vector<long long>>(jl, "elements"), {}};
  for (long long e : l.elements)
    if (e < -1) throw std::runtime_error("trace field 'elements' holds " + std::to_string(e) + ": a load's element is 0 or more (-1: none)");
  l.widths = read_widths(jl, "widths", l.elements.size(), "loads", "a load reads 1 to 16 elements");
  return l;
}

// One thread's shared accesses in a stage.
Access read_access(const json& ja) {
  Access a{typed<int>(ja, "thread"), typed<std::vector<int>>(ja, "reads"), typed<std::vector<int>>(ja, "writes"),
           ja.contains("sources") ? typed<std::vector<int>>(ja, "sources") : std::vector<int>{}};
  a.read_widths = read_widths(ja, "read_widths", a.reads.size(), "accesses", "an access spans 1 to 16 cells");
  a.write_widths = read_widths(ja, "write_widths", a.writes.size(), "accesses", "an access spans 1 to 16 cells");
  return a;
}

// The value of E (0 to last) whose name is name; field and what say what the file got wrong.
template <class E>
E named(const std::string& name, E last, const char* field, const char* what) {
  for (int i = 0; i <= int(last); ++i)
    if (kernels::to_string(E(i)) == name) return E(i);
  throw std::runtime_error(std::string("trace field '") + field + "' names no " + what + ": " + name);
}

// kernels::kTagShuffle -> "shfl": the marker without its brackets.
std::string step_of(int tag) {
  const std::string marker = kernels::tag_marker(tag);
  return marker.substr(1, marker.size() - 2);
}

// "shfl" -> kernels::kTagShuffle; -1 for a step no tag has.
int tag_of(const std::string& step) {
  for (int tag = 0; tag < kernels::kTagCount; ++tag)
    if (step_of(tag) == step) return tag;
  return -1;
}

void read_matrix(const json& j, Trace& t) {
  t.rows = typed<std::size_t>(j, "rows");
  t.cols = typed<std::size_t>(j, "cols");
  if (t.rows == 0 || t.cols == 0 || t.cols > t.size / t.rows || t.rows * t.cols != t.size)
    throw std::runtime_error("trace fields 'rows' and 'cols' do not multiply to 'size'");
  t.outputs = decode_all(field(j, "outputs"), "outputs");
  t.outputs_total = j.contains("outputs_total") ? typed<std::size_t>(j, "outputs_total") : t.outputs.size();
  if (t.outputs_total < t.outputs.size() || t.outputs_total > t.size)
    throw std::runtime_error("trace field 'outputs_total' is fewer than the outputs listed or more than the elements");
  t.first_block_waits = j.contains("first_block_waits") && typed<bool>(j, "first_block_waits");
  if (t.first_block_waits &&
      (t.combine != kernels::Combine::LastBlock || t.backend != "cuda" || t.block < 1 ||
       !kernels::first_waits_shape(t.grid / t.rows, unsigned(t.block), 1, element_bytes(value_type(t)))))
    throw std::runtime_error(
        "trace field 'first_block_waits' belongs to a GPU run whose rows' chunks are folded in "
        "the launch, in a shape where a row's first block may wait");
  const json& jw = field(j, "window");
  Window& w = t.window;
  w.row = typed<std::size_t>(jw, "row");
  w.col = typed<std::size_t>(jw, "col");
  w.rows = typed<std::size_t>(jw, "rows");
  w.cols = typed<std::size_t>(jw, "cols");
  w.values = decode_all(field(jw, "values"), "window values");
  w.owned = typed<std::vector<std::uint8_t>>(jw, "owned");
  // Each sum bounded before it is formed: a row near 2^64 wrapped past the check and hung the view.
  if (w.row > t.rows || w.rows > t.rows - w.row || w.col > t.cols || w.cols > t.cols - w.col ||
      (w.rows > 0 && w.cols > std::numeric_limits<std::size_t>::max() / w.rows) || w.values.size() != w.rows * w.cols ||
      w.owned.size() != w.values.size())
    throw std::runtime_error("trace field 'window' does not fit the matrix");
}

// Source text from a file: kept as written where it is printable ASCII (code shows its own
// backslashes), escaped where it is not; each line capped.
std::string code_line(const std::string& line) {
  const bool plain = std::all_of(line.begin(), line.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
  return plain && line.size() <= 400 ? line : printable(line, 400);
}

constexpr std::size_t kMaxCodeLines = 4000;

Code read_code(const json& jc) {
  Code c;
  c.file = printable(typed<std::string>(jc, "file"));
  c.numbers = typed<std::vector<int>>(jc, "numbers");
  for (const auto& line : typed<std::vector<std::string>>(jc, "lines")) c.lines.push_back(code_line(line));
  if (c.lines.size() != c.numbers.size()) throw std::runtime_error("trace field 'code' gives other than one number a line");
  if (c.lines.size() > kMaxCodeLines)
    throw std::runtime_error("trace field 'code' holds " + std::to_string(c.lines.size()) + " lines; at most " +
                             std::to_string(kMaxCodeLines));
  for (int n : c.numbers)
    if (n < 1) throw std::runtime_error("trace field 'code' numbers a line " + std::to_string(n) + "; lines count from 1");
  if (jc.contains("files")) {  // a helper from a file the kernel includes
    const auto files = typed<std::vector<std::string>>(jc, "files");
    if (files.size() != c.lines.size())
      throw std::runtime_error("trace field 'code' names " + std::to_string(files.size()) + " files for " +
                               std::to_string(c.lines.size()) + " lines; one a line");
    for (const auto& f : files) c.files.push_back(printable(f));
  }
  return c;
}

std::vector<Finding> read_findings(const json& jf) {
  if (!jf.is_array()) throw std::runtime_error("trace field 'findings' is not a list");
  if (jf.size() > kMaxFindings)
    throw std::runtime_error("trace field 'findings' holds " + std::to_string(jf.size()) + "; at most " +
                             std::to_string(kMaxFindings));
  std::vector<Finding> out;
  for (const auto& f : jf) {
    Finding x{printable(typed<std::string>(f, "kind"), 40), printable(typed<std::string>(f, "text"), 2000),
              typed<int>(f, "line")};
    if (x.line < 0) throw std::runtime_error("trace field 'findings' names line " + std::to_string(x.line));
    out.push_back(std::move(x));
  }
  return out;
}

json geometry_json(const Geometry& g) {
  json folds = json::array();
  for (const auto& f : g.folds) folds.push_back({f.elements, f.additions, f.held});
  json out = {{"grid", {g.grid_x, g.grid_y}},
              {"block", {g.block_x, g.block_y}},
              {"indexing", kernels::to_string(g.indexing)},
              {"tree", kernels::to_string(g.tree)},
              {"thread_cols", g.thread_cols},
              {"segment_lanes", g.segment_lanes},
              {"tile", {g.tile_cols, g.tile_pitch}},
              {"passes", g.passes},
              {"folds", folds}};
  if (g.cluster) out["cluster"] = g.cluster;
  return out;
}

// {"grid": [x, y], "block": [x, y], "indexing": ..., "tree": ..., "thread_cols": n, "passes": n, "folds": [[e, a, h], ...]}
Geometry read_geometry(const json& jg) {
  Geometry g;
  const auto grid = typed<std::vector<std::size_t>>(jg, "grid");
  const auto block = typed<std::vector<int>>(jg, "block");
  if (grid.size() != 2 || block.size() != 2) throw std::runtime_error("trace fields 'grid' and 'block' of 'geometry' are not [x, y]");
  g.grid_x = grid[0], g.grid_y = grid[1], g.block_x = block[0], g.block_y = block[1];
  g.indexing = named(typed<std::string>(jg, "indexing"), kernels::Indexing::Own, "indexing", "way of picking elements");
  g.tree = named(typed<std::string>(jg, "tree"), kernels::Tree::Own, "tree", "way of combining a block");
  g.thread_cols = typed<int>(jg, "thread_cols");
  if (jg.contains("segment_lanes")) g.segment_lanes = typed<int>(jg, "segment_lanes");  // absent before short rows
  if (jg.contains("tile")) {                                                            // absent before thread-per-row
    const auto tile = typed<std::vector<int>>(jg, "tile");
    if (tile.size() != 2) throw std::runtime_error("trace field 'tile' of 'geometry' is not [columns, pitch]");
    g.tile_cols = tile[0], g.tile_pitch = tile[1];
  }
  g.passes = typed<int>(jg, "passes");
  if (jg.contains("cluster")) g.cluster = typed<int>(jg, "cluster");  // absent before clusters
  for (const auto& f : typed<std::vector<std::vector<std::size_t>>>(jg, "folds")) {
    if (f.size() != 3) throw std::runtime_error("trace field 'folds' of 'geometry' holds an entry that is not [elements, additions, held]");
    g.folds.push_back({f[0], f[1], f[2]});
  }
  return g;
}

json race_json(const Race& r, DType type) {
  json stale = json::array();
  for (const auto& x : r.stale)
    stale.push_back({{"stage", x.stage}, {"thread", x.thread}, {"cell", x.cell}, {"seen", encode(x.seen, type)},
                     {"meant", encode(x.meant, type)}, {"writer", x.writer}, {"writer_stage", x.writer_stage},
                     {"early", x.early}});
  json meant = json::array(), path = json::array();
  for (const auto& m : r.meant) meant.push_back(encode_all(m, type));
  for (const auto& p : r.path) path.push_back({p.stage, p.cell});
  return {{"runs", r.runs}, {"blocks", r.blocks}, {"expected", encode(r.expected, type)},
          {"wrong_runs", wrong_runs(r)}, {"results", encode_all(r.results, type)}, {"wrong_blocks", r.wrong_blocks},
          {"first_wrong", r.first_wrong}, {"block", r.block}, {"stale_reads", stale.size()}, {"stale", stale},
          {"wrong", r.wrong}, {"path", path}, {"meant", meant}, {"date", r.date}};
}

Race read_race(const json& j, const Trace& t) {
  Race r;
  r.runs = typed<int>(j, "runs");
  r.blocks = typed<std::size_t>(j, "blocks");
  r.expected = decode(field(j, "expected"), "expected");
  r.results = decode_all(field(j, "results"), "results");
  r.wrong_blocks = typed<std::vector<int>>(j, "wrong_blocks");
  r.first_wrong = typed<int>(j, "first_wrong");
  r.block = typed<int>(j, "block");
  for (const auto& x : field(j, "stale"))
    r.stale.push_back({typed<int>(x, "stage"), typed<int>(x, "thread"), typed<int>(x, "cell"), decode(field(x, "seen"), "seen"),
                       decode(field(x, "meant"), "meant"), typed<int>(x, "writer"), typed<int>(x, "writer_stage"),
                       typed<bool>(x, "early")});
  r.wrong = typed<std::vector<std::vector<int>>>(j, "wrong");
  for (const auto& m : field(j, "meant")) r.meant.push_back(decode_all(m, "meant"));
  for (const auto& p : typed<std::vector<std::vector<int>>>(j, "path")) {
    if (p.size() != 2) throw std::runtime_error("trace field 'path' holds a step that is not [stage, cell]");
    r.path.push_back({p[0], p[1]});
  }
  r.date = typed<std::string>(j, "date");
  const int wrong = int(r.wrong_blocks.size());
  if (r.runs < 1 || int(r.results.size()) != r.runs || wrong != r.runs || r.first_wrong < -1 || r.first_wrong >= r.runs ||
      r.meant.size() != t.stages.size() || r.wrong.size() != t.stages.size())
    throw std::runtime_error("trace field 'race' does not fit its runs or stages");
  for (const auto& x : r.stale)
    if (x.stage < 0 || std::size_t(x.stage) >= t.stages.size() || x.thread < 0 || x.thread >= t.block || x.cell < 0 ||
        std::size_t(x.cell) >= r.meant[std::size_t(x.stage)].size())
      throw std::runtime_error("trace field 'race' holds a stale read outside the block");
  for (const auto& x : r.stale)
    if (x.writer < -1 || x.writer >= t.block || x.writer_stage < -1 || std::size_t(x.writer_stage + 1) > t.stages.size())
      throw std::runtime_error("trace field 'writer' names thread " + std::to_string(x.writer) + " of stage " +
                               std::to_string(x.writer_stage) + ", outside the block");
  if (r.blocks < 1 || r.blocks > t.grid)
    throw std::runtime_error("trace field 'blocks' is " + std::to_string(r.blocks) + ", outside the grid of " + std::to_string(t.grid));
  for (int b : r.wrong_blocks)
    if (b < 0 || std::size_t(b) > r.blocks) throw std::runtime_error("trace field 'wrong_blocks' holds " + std::to_string(b));
  return r;
}

std::string race_text(const Race& r, DType type) {
  std::ostringstream out;
  out << "race: " << race_headline(r) << "\n  results: " << spread_text(r, type, 12) << "\n  " << replayed_text(r) << "\n";
  for (std::size_t i = 0; i < r.stale.size() && i < 8; ++i) out << "    stage " << r.stale[i].stage << ": " << describe(r.stale[i], &r) << "\n";
  if (r.stale.size() > 8) out << "    ...\n";
  out << "  recorded: " << r.date << "\n";
  return out.str();
}

// Text a trace carries into the terminal and the window: escaped and capped (core/text.h).
void clamp_text(Trace& t) {
  for (auto* s : {&t.algorithm, &t.backend, &t.device, &t.source}) *s = printable(*s);
  if (t.race) t.race->date = printable(t.race->date);  // 20,000 characters overran ImGui's 16-bit indices
  for (auto& st : t.stages) st.label = printable(st.label);
}

// One stage as a file gives it (trace_from_json checks it against the rest afterwards).
Stage read_stage(const json& js) {
  Stage s;
  s.label = typed<std::string>(js, "label");
  if (js.contains("step")) s.tag = tag_of(typed<std::string>(js, "step"));
  if (js.contains("param")) s.param = typed<int>(js, "param");
  s.line = typed<int>(js, "line");
  if (js.contains("file")) s.file = printable(typed<std::string>(js, "file"));
  if (!field(js, "shared").is_null()) s.shared = decode_all(js.at("shared"), "shared");
  if (js.contains("lanes") && !js.at("lanes").is_null()) s.lanes = decode_all(js.at("lanes"), "lanes");
  s.active = typed<std::vector<int>>(js, "active");
  if (js.contains("bank_conflicts") && !js.at("bank_conflicts").is_null())
    s.bank_conflicts = typed<int>(js, "bank_conflicts");
  if (js.contains("divergent_warps")) s.divergent_warps = typed<int>(js, "divergent_warps");
  if (js.contains("split_warps")) s.split_warps = typed<std::vector<int>>(js, "split_warps");
  if (js.contains("accesses"))
    for (const auto& ja : js.at("accesses")) s.accesses.push_back(read_access(ja));
  if (js.contains("loads"))
    for (const auto& jl : js.at("loads")) s.loads.push_back(read_load(jl));
  return s;
}

}  // namespace

std::string to_json(const Trace& t, int indent) {
  json j;
  j["algorithm"] = t.algorithm;
  j["backend"] = t.backend;
  j["device"] = t.device;
  j["source"] = t.source;
  if (!t.recorded.utc.empty()) j["recorded"] = t.recorded.utc;
  if (!t.code.lines.empty()) {
    j["code"] = {{"file", t.code.file}, {"numbers", t.code.numbers}, {"lines", t.code.lines}};
    if (!t.code.files.empty()) j["code"]["files"] = t.code.files;
  }
  j["memory"] = t.memory == Memory::Global ? "global" : "shared";
  j["size"] = t.size;
  j["block"] = t.block;
  j["grid"] = t.grid;
  j["trace_block"] = t.trace_block;
  j["op"] = to_string(t.op);
  j["type"] = to_string(t.type);
  if (is_narrow(t.type)) j["accumulate"] = to_string(t.accumulate);
  j["input"] = encode_all(t.input, t.type);
  j["result"] = encode(t.result, t.type);
  if (t.combine) j["combine"] = kernels::to_string(*t.combine);
  j["partials"] = encode_all(t.partials, t.type);
  j["pass_outputs"] = t.pass_outputs;
  if (!t.tickets.empty()) j["tickets"] = t.tickets;
  if (t.geometry.known()) j["geometry"] = geometry_json(t.geometry);
  if (!t.findings.empty()) {
    json& f = j["findings"] = json::array();
    for (const auto& x : t.findings) f.push_back({{"kind", x.kind}, {"text", x.text}, {"line", x.line}});
  }
  if (t.rows > 0) {
    j["rows"] = t.rows;
    j["cols"] = t.cols;
    j["outputs"] = encode_all(t.outputs, t.type);
    j["outputs_total"] = t.outputs_total;  // above the list's length: the list is capped
    if (t.first_block_waits) j["first_block_waits"] = true;
    const Window& w = t.window;
    j["window"] = {{"row", w.row}, {"col", w.col}, {"rows", w.rows}, {"cols", w.cols},
                   {"values", encode_all(w.values, t.type)}, {"owned", w.owned}};
  }
  if (t.collective) write_collective(*t.collective, value_type(t), j);
  json stages = json::array();
  for (std::size_t k = 0; k < t.stages.size(); ++k) {
    const Stage& s = t.stages[k];
    json js;
    js["label"] = s.label;
    if (s.tag >= 0) js["step"] = step_of(s.tag);
    js["param"] = s.param;
    js["line"] = s.line;
    if (!s.file.empty()) js["file"] = s.file;
    js["shared"] = s.shared ? encode_all(*s.shared, t.type) : json(nullptr);
    js["lanes"] = s.lanes ? encode_all(*s.lanes, t.type) : json(nullptr);
    js["active"] = s.active;
    js["bank_conflicts"] = s.bank_conflicts ? json(*s.bank_conflicts) : json(nullptr);
    js["divergent_warps"] = s.divergent_warps;
    if (!s.split_warps.empty()) js["split_warps"] = s.split_warps;
    json acc = json::array();
    for (const auto& a : s.accesses) {
      json ja = {{"thread", a.thread}, {"reads", a.reads}, {"writes", a.writes}};
      if (!a.sources.empty()) ja["sources"] = a.sources;
      if (!a.read_widths.empty()) ja["read_widths"] = a.read_widths;
      if (!a.write_widths.empty()) ja["write_widths"] = a.write_widths;
      acc.push_back(std::move(ja));
    }
    js["accesses"] = acc;
    if (t.collective && k < t.collective->stages.size()) write_gpu_stage(t.collective->stages[k], value_type(t), js);
    if (!s.loads.empty()) {
      json loads = json::array();
      for (const auto& l : s.loads) {
        json jl = {{"thread", l.thread}, {"elements", l.elements}};
        if (!l.widths.empty()) jl["widths"] = l.widths;
        loads.push_back(jl);
      }
      js["loads"] = loads;
    }
    stages.push_back(js);
  }
  j["stages"] = stages;
  if (t.race) j["race"] = race_json(*t.race, t.type);
  return j.dump(indent);
}

Trace trace_from_json(const std::string& text) {
  json j;
  try {
    j = json_fields::parse(text);
  } catch (const std::exception& e) {  // parse errors, numbers out of range, nesting too deep
    throw std::runtime_error(std::string("trace is not valid JSON: ") + e.what());
  }
  Trace t;
  t.algorithm = typed<std::string>(j, "algorithm");
  t.backend = typed<std::string>(j, "backend");
  t.device = typed<std::string>(j, "device");
  t.source = typed<std::string>(j, "source");
  if (j.contains("recorded")) t.recorded.utc = printable(typed<std::string>(j, "recorded"), 40);
  if (j.contains("code")) t.code = read_code(j.at("code"));
  if (j.contains("memory")) {
    const auto m = typed<std::string>(j, "memory");
    if (m != "shared" && m != "global") throw std::runtime_error("trace field 'memory' must be shared or global, got " + m);
    t.memory = m == "global" ? Memory::Global : Memory::Shared;
  }
  t.size = typed<std::size_t>(j, "size");
  t.block = typed<int>(j, "block");
  t.grid = typed<std::size_t>(j, "grid");
  t.trace_block = typed<int>(j, "trace_block");
  const auto op = parse_op(typed<std::string>(j, "op"));
  const auto type = parse_dtype(typed<std::string>(j, "type"));
  if (!op) throw std::runtime_error("trace field 'op' is not sum, min or max");
  if (!type) throw std::runtime_error("trace field 'type' is not int, float, double, half or bf16");
  t.op = *op;
  t.type = *type;
  if (is_narrow(t.type)) {
    const auto accumulate = parse_accumulate(typed<std::string>(j, "accumulate"));
    if (!accumulate) throw std::runtime_error("trace field 'accumulate' is not float or same");
    t.accumulate = *accumulate;
  } else if (j.contains("accumulate")) {
    throw std::runtime_error("trace field 'accumulate' belongs to half and bf16 traces, not " + to_string(t.type));
  }
  t.input = decode_all(field(j, "input"), "input");
  check_values(t.input, t.type, "input");
  t.result = decode(field(j, "result"), "result");
  if (j.contains("combine")) t.combine = named(typed<std::string>(j, "combine"), kernels::Combine::None, "combine", "way of combining");  // older traces have none
  if (j.contains("partials")) t.partials = decode_all(field(j, "partials"), "partials");
  if (j.contains("pass_outputs")) t.pass_outputs = typed<std::vector<std::size_t>>(j, "pass_outputs");
  if (j.contains("tickets")) t.tickets = typed<std::vector<int>>(j, "tickets");
  if (j.contains("rows")) read_matrix(j, t);
  else if (j.contains("first_block_waits"))
    throw std::runtime_error("trace field 'first_block_waits' belongs to a matrix's trace");
  if (j.contains("geometry")) t.geometry = read_geometry(j.at("geometry"));
  if (j.contains("findings")) t.findings = read_findings(j.at("findings"));
  if (j.contains("gpus")) t.collective = read_collective(j);
  const auto& stages = field(j, "stages");
  if (!stages.is_array()) throw std::runtime_error("trace field 'stages' is not a list");
  for (const auto& js : stages) {
    t.stages.push_back(read_stage(js));
    if (t.collective) t.collective->stages.push_back(read_gpu_stage(js));
  }
  clamp_text(t);
  check_geometry(t);
  check_held_values(t);
  if (j.contains("race")) t.race = read_race(j.at("race"), t);
  return t;
}

std::string to_text(const Trace& t) {
  std::ostringstream out;
  out << t.algorithm << " on " << t.device << " (" << t.backend << "): n=" << t.size
      << (t.collective ? " values a GPU"
                       : " block=" + std::to_string(t.block) + " grid=" + std::to_string(t.grid) +
                             " traced block=" + std::to_string(t.trace_block))
      << " op=" << to_string(t.op) << " type=" << to_string(t.type)
      << (is_narrow(t.type) ? " accumulate=" + to_string(accumulator_type(t.type, t.accumulate)) : "") << "\n";
  const DType acc = accumulator_type(t.type, t.accumulate);  // what lanes, cells and results hold
  // A race recording's result is one run's: the replayed run's.
  const std::string which = t.race         ? " (run " + std::to_string(replayed_run(*t.race) + 1) + ")"
                            : t.collective ? " (GPU 0's first value)"
                                           : "";
  out << "result" << which << ": " << format_value(t.result, acc) << "\n";
  if (t.rows > 0) {
    out << "matrix: " << t.rows << " x " << t.cols << "; " << t.outputs_total << " outputs:";
    for (std::size_t i = 0; i < std::min<std::size_t>(t.outputs.size(), 16); ++i) out << " " << format_value(t.outputs[i], t.type);
    out << (t.outputs.size() > 16 ? " ...\n" : "\n");
  }
  if (!t.tickets.empty()) {  // work-queue: which tickets the traced block took
    out << "tickets: " << t.tickets.size() << " in all; block " << t.trace_block << " took";
    for (std::size_t c = 0; c < t.tickets.size(); ++c)
      if (t.tickets[c] == t.trace_block) out << " " << c;
    out << "\n";
  }
  if (t.race) out << race_text(*t.race, t.type);
  if (t.collective) out << collective_text(*t.collective);
  for (const auto& f : t.findings) out << "finding (" << f.kind << "): " << f.text << "\n";
  for (std::size_t k = 0; k < t.stages.size(); ++k) {
    const auto& s = t.stages[k];
    out << "\nstage " << k << ": " << s.label;
    if (t.collective) {
      out << "\n" << gpu_stage_text(t.collective->stages[k], acc);
      continue;
    }
    out << "  (" << (s.file.empty() ? t.source : s.file) << ":" << s.line;
    if (records_work(t))  // a GPU run of a kernel of your own records no activity
      out << ", " << s.active.size() << " active, " << s.divergent_warps << " divergent warps";
    if (s.bank_conflicts) out << ", " << *s.bank_conflicts << "-way bank conflicts";
    out << ")\n";
    const auto rows = [&](const char* name, const std::vector<double>& v) {
      out << "  " << name << ":\n";
      for (std::size_t i = 0; i < v.size(); ++i) {
        out << (i % 16 == 0 ? "    " : " ") << format_value(v[i], acc);
        if (i % 16 == 15 || i + 1 == v.size()) out << "\n";
      }
    };
    if (s.shared) rows(t.memory == Memory::Global ? "global" : "shared", *s.shared);
    if (s.lanes) rows("lanes", *s.lanes);
  }
  return out.str();
}

}  // namespace rl::core
