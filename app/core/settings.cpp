#include "settings.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <fcntl.h>  // AT_FDCWD
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <utility>

#include "catalog.h"
#include "views.h"
#include "file_io.h"
#include "json_fields.h"
#include "text.h"

namespace rl::core {

constexpr std::size_t kMaxLook = 400;  // one line under a lesson, not a page

std::string to_json(const Settings& s) {
  nlohmann::ordered_json j;
  j["algorithm"] = s.algorithm;
  j["op"] = to_string(s.op);
  j["type"] = to_string(s.type);
  j["accumulate"] = to_string(s.accumulate);  // what halves add in, kept while another type is on
  j["block"] = s.block;
  j["size"] = s.size;
  j["rows"] = s.rows;
  j["cols"] = s.cols;
  j["trace_block"] = s.trace_block;
  if (s.grid > 0) j["grid"] = s.grid;
  if (s.cluster > 0) j["cluster"] = s.cluster;
  j["gpus"] = s.gpus;
  j["input"] = s.input.kind == InputSpec::Kind::File ? s.input.path : to_string(s.input);
  j["typed"] = s.typed;
  j["values"] = s.values;
  j["speed"] = s.speed;
  j["presenter"] = s.presenter;
  j["compare"] = s.compare;
  j["view"] = s.view;
  j["stage"] = s.stage;
  j["tab"] = s.tab;
  if (!s.title.empty()) j["title"] = s.title;
  if (!s.look.empty()) j["look"] = s.look;
  j["panels"] = {{"left", s.panels.left}, {"right", s.panels.right}, {"presenter", s.panels.presenter}};
  return j.dump(2);
}

// Renames path to path.broken, or .broken.2, .broken.3, ... where that is taken: never over an
// older kept file (RENAME_NOREPLACE refuses a name that appears meanwhile). The name kept, or
// empty where none could be.
static std::string keep_aside(const std::string& path) {
  for (int n = 1; n < 100; ++n) {
    const std::string kept = path + ".broken" + (n == 1 ? "" : "." + std::to_string(n));
    if (renameat2(AT_FDCWD, path.c_str(), AT_FDCWD, kept.c_str(), RENAME_NOREPLACE) == 0) return kept;
    if (errno != EEXIST) return {};
  }
  return {};
}

LoadedSettings load_settings(const std::string& path, Whose whose) {
  LoadedSettings out;
  std::error_code ec;
  if (!std::filesystem::exists(std::filesystem::symlink_status(path, ec))) return out;
  std::string text, why;
  if (!read_file(path, whose == Whose::Own ? files::kSettings : files::kScene, &text, &why)) {
    out.problem = why + (whose == Whose::Own ? "; using defaults, and the file is left as it is" : "");
    out.unreadable = true;
    return out;
  }
  out = settings_from_json(text, (whose == Whose::Own ? "settings file '" : "scene file '") + printable(path) + "'");
  if (whose == Whose::Own && out.problem.find("is broken") != std::string::npos) {
    const std::string kept = keep_aside(path);
    out.problem += kept.empty() ? "; the file is left as it is" : ", the file is kept as '" + printable(kept) + "'";
  }
  return out;
}

namespace {

// {"left": f, "right": f, "presenter": f}, each a fraction from 0 (the default) to 0.9.
bool read_panels(const nlohmann::json& j, PanelWidths& out) {
  if (!j.is_object()) return false;
  PanelWidths p;
  for (auto [key, dst] : {std::pair{"left", &p.left}, std::pair{"right", &p.right}, std::pair{"presenter", &p.presenter}}) {
    if (!j.contains(key)) continue;
    if (!j[key].is_number() || !(j[key].get<double>() >= 0 && j[key].get<double>() <= 0.9)) return false;
    *dst = j[key].get<double>();
  }
  out = p;
  return true;
}

}  // namespace

PanelSplit clamp_panels(double left, double right, PanelSplit fallback, float width, PanelSplit min_side,
                        float min_center) {
  PanelSplit out{left > 0 ? float(left) * width : fallback.left, right > 0 ? float(right) * width : fallback.right};
  // The right side first, then the left in what is left: each keeps its minimum.
  out.right = std::clamp(out.right, min_side.right, std::max(min_side.right, width - min_center - min_side.left));
  out.left = std::clamp(out.left, min_side.left, std::max(min_side.left, width - min_center - out.right));
  return out;
}

namespace {

// Reads one settings object field by field: a wrong field keeps its default and is named.
struct FieldReader {
  const nlohmann::json& j;
  std::vector<std::string> wrong;

  template <class Apply>
  void text(const char* key, Apply apply) {
    if (!j.contains(key)) return;
    if (!j[key].is_string() || !apply(j[key].get<std::string>())) wrong.push_back(key);
  }
  void integer(const char* key, int lo, int hi, int& dst) {
    if (!j.contains(key)) return;
    if (!j[key].is_number_integer() || j[key].get<long long>() < lo || j[key].get<long long>() > hi)
      wrong.push_back(key);
    else
      dst = j[key].get<int>();
  }
  bool boolean(const char* key, bool& dst) {
    if (!j.contains(key)) return false;
    if (!j[key].is_boolean()) return wrong.push_back(key), false;
    return dst = j[key].get<bool>(), true;
  }
};

// What is run: the algorithm, its type and input, the problem's size and launch.
void read_run_fields(FieldReader& f, Settings& s) {
  f.text("algorithm", [&](const std::string& v) { return find_any(v) && (s.algorithm = v, true); });
  f.text("op", [&](const std::string& v) {
    const auto o = parse_op(v);
    return o && (s.op = *o, true);
  });
  f.text("type", [&](const std::string& v) {
    const auto t = parse_dtype(v);
    return t && (s.type = *t, true);
  });
  f.text("accumulate", [&](const std::string& v) {
    const auto a = parse_accumulate(v);
    return a && (s.accumulate = *a, true);
  });
  f.text("input", [&](const std::string& v) {
    std::string why;
    const auto spec = parse_input_spec(v, &why);
    return spec && spec->path.size() <= Settings::kMaxPath && (s.input = *spec, true);
  });
  f.integer("block", 2, 1024, s.block);
  f.integer("size", 1, 1 << 20, s.size);
  f.integer("rows", 1, 1 << 20, s.rows);
  f.integer("cols", 1, 1 << 20, s.cols);
  if (std::int64_t(s.rows) * s.cols > kMaxWindowElements) {  // each side fits, the two together do not
    f.wrong.push_back("rows");
    f.wrong.push_back("cols");
    s.rows = Settings::kRows, s.cols = Settings::kCols;
  }
  f.integer("trace_block", 0, 1 << 20, s.trace_block);
  f.integer("grid", 0, 1 << 20, s.grid);
  f.integer("cluster", 0, 8, s.cluster);
  f.integer("gpus", 2, 8, s.gpus);
  if (s.cluster != 0 && s.cluster != 2 && s.cluster != 4 && s.cluster != 8) f.wrong.push_back("cluster"), s.cluster = 0;
  f.boolean("typed", s.typed);
  f.text("values", [&](const std::string& v) { return v.size() <= Settings::kMaxTyped && (s.values = v, true); });
}

// How it is shown: speed, presenter mode, the view, stage, tab, title, look and panels.
void read_view_fields(FieldReader& f, Settings& s) {
  const nlohmann::json& j = f.j;
  if (j.contains("speed")) {
    if (!j["speed"].is_number() || !(j["speed"].get<double>() > 0))
      f.wrong.push_back("speed");
    else s.speed = std::clamp(j["speed"].get<double>(), 0.1, 20.0);
  }
  if (f.boolean("presenter", s.presenter)) s.names_presenter = true;
  f.text("compare", [&](const std::string& v) {
    const auto* a = find_algorithm(v);
    return (v.empty() || (a && a->kind != Kind::Baseline)) && (s.compare = v, true);
  });
  f.text("view", [&](const std::string& v) { return is_view_name(v) && (s.view = v, true); });
  f.integer("stage", 0, 1 << 20, s.stage);
  f.text("tab", [&](const std::string& v) { return (v == "stages" || v == "bandwidth") && (s.tab = v, true); });
  f.text("title", [&](const std::string& v) { return s.title = v, true; });
  f.text("look", [&](const std::string& v) {
    try {
      return v.size() <= kMaxLook && (parse_pointer(v), s.look = v, true);
    } catch (const std::runtime_error&) {
      return false;
    }
  });
  if (j.contains("panels")) {
    if (!read_panels(j["panels"], s.panels))
      f.wrong.push_back("panels");
    else s.names_panels = true;
  }
}

}  // namespace

LoadedSettings settings_from_json(const std::string& text, const std::string& origin) {
  LoadedSettings out;
  nlohmann::json j;
  try {
    j = json_fields::parse(text);
    if (!j.is_object()) throw std::runtime_error("not a JSON object");
  } catch (const std::exception& e) {
    out.problem = origin + " is broken (" + std::string(e.what()).substr(0, 120) + "); using defaults";
    return out;
  }
  FieldReader f{j, {}};
  read_run_fields(f, out.settings);
  read_view_fields(f, out.settings);
  if (!f.wrong.empty()) {
    out.problem = origin + ": ignored";
    for (const auto& w : f.wrong) out.problem += (w == f.wrong.front() ? " '" : ", '") + w + "'";
    out.problem += " (defaults used)";
  }
  return out;
}

int add_to_plan(const std::string& path, const Settings& scene, const std::string& title, std::string* error) {
  const auto fail = [&](const std::string& why) {
    if (error) *error = why;
    return 0;
  };
  nlohmann::ordered_json plan = {{"title", title}, {"scenes", nlohmann::ordered_json::array()}};
  std::error_code ec;
  if (std::filesystem::exists(std::filesystem::symlink_status(path, ec))) {
    std::string text, why;
    if (!read_file(path, files::kPlan, &text, &why)) return fail(why + "; the plan is left as it is");
    try {
      plan_from_json(text, "plan file '" + printable(path) + "'");  // every scene checked, as --plan reads it
      plan = json_fields::parse<nlohmann::ordered_json>(text);      // bounded as every read is
    } catch (const std::exception& e) {
      return fail(std::string(e.what()) + "; not added, and the file is left as it is");
    }
  }
  auto entry = nlohmann::ordered_json::parse(to_json(scene));
  entry.erase("presenter");
  entry.erase("panels");
  plan["scenes"].push_back(entry);
  if (!write_file(path, plan.dump(2) + "\n", error)) return 0;
  return int(plan["scenes"].size());
}

// A complete file or none: a full disk leaves the old settings as they were.
bool save_settings(const Settings& s, const std::string& path, std::string* error) {
  if (write_file(path, to_json(s) + "\n", error)) return true;
  if (error) *error = "settings not saved: " + *error;
  return false;
}

Plan plan_from_json(const std::string& text, const std::string& origin) {
  nlohmann::json j;
  try {
    j = json_fields::parse(text);
  } catch (const std::exception& e) {
    throw std::runtime_error(origin + " is not JSON: " + std::string(e.what()).substr(0, 120));
  }
  if (!j.is_object() || !j.contains("scenes") || !j["scenes"].is_array() || j["scenes"].empty())
    throw std::runtime_error(origin + " has no list of scenes");
  Plan plan;
  if (j.contains("title") && j["title"].is_string()) plan.title = j["title"].get<std::string>();
  for (std::size_t i = 0; i < j["scenes"].size(); ++i) {
    const auto scene = settings_from_json(j["scenes"][i].dump(), origin + ", scene " + std::to_string(i + 1));
    if (!scene.problem.empty()) throw std::runtime_error(scene.problem);
    plan.scenes.push_back(scene.settings);
  }
  return plan;
}

}  // namespace rl::core
