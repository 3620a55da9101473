#include "catalog.h"
#include "views.h"

#include <algorithm>
#include <mutex>
#include <utility>
#include <stdexcept>

#include "../../kernels/algorithms.h"
#include "../../kernels/collectives.h"
#include "../../kernels/shapes.h"
#include "../../kernels/stage_tags.h"
#include "embedded.h"
#include "trace.h"

namespace rl::core {
namespace {

// A lesson file's paragraphs, each with its line breaks folded into spaces: the first is the
// one-line lesson (`list`), the rest the window's detail.
std::vector<std::string> paragraphs(std::string_view text) {
  std::vector<std::string> out;
  std::string cur;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    if (line.empty()) {
      if (!cur.empty()) out.push_back(std::exchange(cur, {}));
    } else {
      cur += (cur.empty() ? "" : " ") + std::string(line);
    }
    pos = end + 1;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// A lesson file: the one-line lesson, the short one, an optional "Look: " line, the depth.
void read_lesson(AlgorithmInfo& a, std::string_view file) {
  const auto text = paragraphs(file);
  std::size_t i = 0;
  if (i < text.size()) a.lesson = text[i++];
  if (i < text.size()) a.brief = text[i++];
  if (i < text.size() && text[i].starts_with("Look: ")) a.look = parse_pointer(text[i++]);
  for (std::size_t first = i; i < text.size(); ++i) a.detail += (i > first ? "\n\n" : "") + text[i];
}

Kind kind_of(const kernels::AlgorithmRow& r) {
  if (kernels::is_baseline(r)) return Kind::Baseline;
  if (!r.gpu) return Kind::ModelOnly;
  return r.family == kernels::Family::Pitfall ? Kind::Pitfall : Kind::Traced;
}

// The catalog as the app shows it: kernels::kAlgorithms' rows with their lessons.
const std::vector<AlgorithmInfo>& table() {
  static const std::vector<AlgorithmInfo> t = [] {
    std::vector<AlgorithmInfo> out;
    for (const auto& r : kernels::kAlgorithms) {
      AlgorithmInfo a;
      a.id = std::string(r.id);
      a.family = std::string(kernels::to_string(r.family));
      a.title = std::string(r.title);
      read_lesson(a, embedded::lesson(r.id));
      a.file = std::string(r.source);
      a.kind = kind_of(r);
      a.any_block = r.blocks == kernels::BlockRule::Any;
      a.ints_only = r.ints_only;
      a.matrix = r.shape == kernels::Shape::Matrix;
      out.push_back(std::move(a));
    }
    return out;
  }();
  return t;
}

const std::vector<AlgorithmInfo>& collective_table() {
  static const std::vector<AlgorithmInfo> t = [] {
    std::vector<AlgorithmInfo> out;
    for (const auto& r : kernels::kCollectives) {
      AlgorithmInfo a;
      a.id = std::string(r.id);
      a.family = std::string(kernels::kAcrossGpus);
      a.title = std::string(r.title);
      read_lesson(a, embedded::lesson(r.id));
      a.file = std::string(r.source);
      a.kind = Kind::Collective;
      out.push_back(std::move(a));
    }
    return out;
  }();
  return t;
}

}  // namespace

std::span<const AlgorithmInfo> collectives() { return collective_table(); }

const AlgorithmInfo* find_collective(std::string_view id) {
  for (const auto& a : collective_table())
    if (a.id == id) return &a;
  return nullptr;
}

const AlgorithmInfo* find_any(std::string_view id) {
  const AlgorithmInfo* a = find_algorithm(id);
  return a ? a : find_collective(id);
}

const AlgorithmInfo& write_your_own() {
  static const AlgorithmInfo lesson = [] {
    AlgorithmInfo a;
    a.id = "write-your-own";
    read_lesson(a, embedded::lesson("write-your-own"));
    return a;
  }();
  return lesson;
}

Place SourceView::place_of(std::string_view marker) const {
  const auto it = markers.find(marker);
  return it == markers.end() ? Place{} : it->second;
}

void point_at_tag(Stage& s, const SourceView& src) {
  const Place p = s.tag >= 0 ? src.place_of(kernels::tag_marker(s.tag)) : Place{};
  s.line = p.line;
  s.file = p.file == src.file ? "" : p.file;
}

std::span<const AlgorithmInfo> algorithms() { return table(); }

const AlgorithmInfo* find_algorithm(std::string_view id) {
  for (const auto& a : table())
    if (a.id == id) return &a;
  return nullptr;
}

std::vector<std::string> algorithm_ids() {
  std::vector<std::string> ids;
  for (const auto& a : table()) ids.push_back(a.id);
  return ids;
}

std::vector<std::string> traced_ids() {
  std::vector<std::string> ids;
  for (const auto& a : table())
    if (a.kind != Kind::Baseline) ids.push_back(a.id);
  return ids;
}

std::vector<std::string> array_ids() {
  std::vector<std::string> ids;
  for (const auto& a : table())
    if (a.kind != Kind::Baseline && !a.matrix) ids.push_back(a.id);
  return ids;
}

std::vector<std::string> matrix_ids() {
  std::vector<std::string> ids;
  for (const auto& a : table())
    if (a.matrix && a.kind != Kind::Baseline) ids.push_back(a.id);
  return ids;
}

bool is_matrix_id(std::string_view id) {
  const AlgorithmInfo* info = find_algorithm(id);
  return info && info->matrix;
}

namespace {

// Appends the lines of `file` between "// <<< id" and "// >>>" to `view`; returns the helpers
// named inside with "// see <<< name" (none and no lines where the file lacks the region).
std::vector<std::string> add_region(SourceView& view, std::string_view text, const std::string& file,
                                    std::string_view id) {
  const std::string open = "// <<< " + std::string(id), see = "// see <<< ";
  std::vector<std::string> helpers;
  bool inside = false;
  int number = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (!inside) {
      inside = line == open;
      continue;
    }
    if (line == "// >>>") break;
    view.lines.emplace_back(line);
    view.numbers.push_back(number);
    view.files.push_back(file);
    if (const auto at = line.find(see); at != std::string_view::npos) helpers.emplace_back(line.substr(at + see.size()));
    // "// [tag]" comments name the line a stage corresponds to.
    for (std::size_t at = line.find("// ["); at != std::string_view::npos; at = line.find("// [", at + 1)) {
      const std::size_t close = line.find(']', at);
      if (close != std::string_view::npos)
        view.markers.emplace(std::string(line.substr(at + 3, close - at - 2)), Place{file, number});
    }
  }
  return helpers;
}

// The files `file` includes with #include "name", as repository paths (beside it).
std::vector<std::string> includes_of(std::string_view text, const std::string& file) {
  const std::string dir = file.substr(0, file.rfind('/') + 1), tag = "#include \"";
  std::vector<std::string> out;
  for (std::size_t at = text.find(tag); at != std::string_view::npos; at = text.find(tag, at + 1)) {
    if (at > 0 && text[at - 1] != '\n') continue;
    const std::size_t close = text.find('"', at + tag.size());
    if (close == std::string_view::npos) break;
    out.push_back(dir + std::string(text.substr(at + tag.size(), close - at - tag.size())));
  }
  return out;
}

// Appends the region `id` from `file` or, where `file` lacks it, from the nearest file it includes;
// returns the helpers it names, each with the file that names it. False where none has it.
bool add_helper(SourceView& view, const SourceReader& read, const std::string& file, const std::string& id,
                std::vector<std::pair<std::string, std::string>>& named) {
  std::vector<std::string> files{file};
  for (std::size_t i = 0; i < files.size() && i < 64; ++i) {
    const std::string_view text = read(files[i]);
    const std::size_t before = view.lines.size();
    for (auto& h : add_region(view, text, files[i], id)) named.emplace_back(files[i], std::move(h));
    if (view.lines.size() > before) return true;
    for (auto& inc : includes_of(text, files[i]))
      if (std::find(files.begin(), files.end(), inc) == files.end()) files.push_back(std::move(inc));
  }
  return false;
}

}  // namespace


Pointer parse_pointer(std::string_view line) {
  const std::string whole(line);
  const auto fail = [&](const std::string& why) { throw std::runtime_error("lesson pointer '" + whole + "': " + why); };
  if (!line.starts_with("Look: ")) fail("does not start with 'Look: '");
  line.remove_prefix(6);
  const std::size_t colon = line.find(": "), space = line.find(' ');
  if (colon == std::string_view::npos || space >= colon) fail("wants 'Look: <view> <step>[=<param>]: <text>'");
  Pointer p;
  p.view = std::string(line.substr(0, space));
  if (!is_view_name(p.view)) fail("no view is called " + p.view);
  std::string step(line.substr(space + 1, colon - space - 1));
  if (const std::size_t eq = step.find('='); eq != std::string::npos) {
    try {
      p.param = std::stoi(step.substr(eq + 1));
    } catch (const std::exception&) {
      fail("'" + step.substr(eq + 1) + "' is not a number");
    }
    step.resize(eq);
  }
  for (int tag = 0; tag < kernels::kTagCount; ++tag)
    if ("[" + step + "]" == kernels::tag_marker(tag)) p.tag = tag;
  if (p.tag < 0) fail("no stage kind is called " + step);
  p.text = std::string(line.substr(colon + 2));
  return p;
}

SourceView parse_source(std::string_view file_view, std::string_view id, const SourceReader& read) {
  SourceView view;
  const std::string file(file_view);
  view.file = file;
  const auto fail = [&](const std::string& why) {
    throw std::runtime_error("kernel source " + file + " " + why + " for " + std::string(id));
  };
  std::vector<std::pair<std::string, std::string>> named;  // (the file naming it, the helper)
  for (auto& h : add_region(view, read(file), file, id)) named.emplace_back(file, std::move(h));  // its own file only
  if (view.lines.empty()) fail("has no complete markers");
  // Helpers in the order they are named, each once, with the helpers they name in turn.
  std::vector<std::string> shown;
  for (std::size_t i = 0; i < named.size(); ++i) {
    const auto [from, helper] = named[i];
    if (std::find(shown.begin(), shown.end(), helper) != shown.end()) continue;
    shown.push_back(helper);
    if (!add_helper(view, read, from, helper, named))
      fail("has no helper " + helper + " (looked in " + from + " and its includes)");
  }
  if (view.markers.empty()) fail("has no complete markers");
  if (std::all_of(view.files.begin(), view.files.end(), [&](const std::string& f) { return f == file; }))
    view.files.clear();  // one file: the trace's JSON stays as it was
  return view;
}

SourceView parse_source(std::string_view text, std::string_view file, std::string_view id) {
  return parse_source(file, id, [&](std::string_view path) { return path == file ? text : std::string_view{}; });
}

const SourceView& source_of(std::string_view id) {
  static std::mutex mutex;
  static std::map<std::string, SourceView, std::less<>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(id); it != cache.end()) return it->second;
  const AlgorithmInfo* info = find_any(id);
  if (!info || info->file.empty()) throw std::runtime_error("no kernel source for '" + std::string(id) + "'");
  auto view = parse_source(info->file, id, embedded::kernel_source);
  return cache.emplace(std::string(id), std::move(view)).first->second;
}

std::string run_to_run_text(std::string_view id) {
  const kernels::AlgorithmRow* row = kernels::find_row(id);
  if (!row) return "";
  switch (kernels::run_to_run(*row)) {
    case kernels::RunToRun::Fixed:
      return "the same bits every run: every add comes in the same order, for the same input, block size and GPU";
    case kernels::RunToRun::Arrival:
      if (row->ints_only)
        return "the same result every run: the blocks' totals meet in the order they finish, but ints add (and take a "
               "min or max) exactly in any order";
      return "float and double sums may differ in their last bits from run to run: partial results (of blocks, "
             "or of warp tiles) meet in the order they finish (ints, mins and maxes round nothing, so they come out "
             "the same)";
    case kernels::RunToRun::Pitfall: return "nothing is promised: the kernel is wrong on purpose";
    case kernels::RunToRun::Library: return "what the library documents (its lesson says)";
    case kernels::RunToRun::None: return "not a reduction";
  }
  return "";
}

std::string cluster_option_help() {
  std::string rows;
  for (const auto& r : kernels::kAlgorithms)
    if (!kernels::is_baseline(r) && r.tree == kernels::Tree::Cluster)
      rows += (rows.empty() ? "" : ", ") + std::string(r.id) + " " + std::to_string(r.cluster);
  return "Kernels of clusters: blocks a cluster, 2 | 4 | 8 (default: " + rows + ")";
}

std::string stage_label(int tag, int param, bool has_shared) {
  const std::string p = std::to_string(param);
  switch (tag) {
    case kernels::kTagLoad: return has_shared ? "load into shared memory" : "load into registers";
    case kernels::kTagLoadAdd: return "add two elements while loading";
    case kernels::kTagGridStride: return "grid-stride: each thread accumulates many elements";
    case kernels::kTagVectorLoad: return "16-byte loads: 4 floats or ints, 2 doubles, or 8 halves or bf16 at a time";
    case kernels::kTagStep: return "stride " + p;
    case kernels::kTagWarpStep: return "last warp, stride " + p;
    case kernels::kTagSerial: return "thread 0 adds the block one cell at a time";
    case kernels::kTagShuffle: return "shuffle down by " + p;
    case kernels::kTagWarpSums: return "warp totals to shared memory";
    case kernels::kTagFinalLoad: return "first warp loads the totals";
    case kernels::kTagFinalShuffle: return "first warp: shuffle down by " + p;
    case kernels::kTagTileReduce: return "cg::reduce over each 32-thread tile";
    case kernels::kTagTileSums: return "tile totals to shared memory";
    case kernels::kTagFinalReduce: return "first tile reduces the tile totals";
    case kernels::kTagRedux: return "each warp reduces its 32 values in one instruction";
    case kernels::kTagFinalRedux: return "first warp reduces the warp totals in one instruction";
    case kernels::kTagDsmemRead:
      return "the cluster's first block reads the warp totals of its " + p + " blocks (DSMEM)";
    case kernels::kTagBulkCopy:
      return param == 0
                 ? "thread 0 starts no copy: this block takes no whole 16 bytes"
                 : "thread 0 arms the first tile's mbarrier for " + p +
                       " bytes (arrive.expect_tx) and starts the bulk copies of the block's first tiles, one a buffer";
    case kernels::kTagBulkWait:
      return param == 0 ? "this block takes no whole 16 bytes: no tile arrives"
                        : "the mbarrier's phase completes: the copy's " + p + " bytes are in shared memory";
    case kernels::kTagTileFold:
      return "each thread folds its 16-byte share of every tile its block took (every block-th vector), then the tail";
    case kernels::kTagBulkReduce:
      return "thread 0 combines the block's result into the result in global memory: one bulk reduction (.add, .min "
             "or .max) of " +
             p + " bytes";
    case kernels::kTagCompensate: return "each thread adds back what its loop's roundings lost";
    case kernels::kTagBarrier: return param ? "__syncthreads(), rl_param " + p : "__syncthreads()";
    case kernels::kTagLanes: return "rl_lanes: the calling threads' registers";
    case kernels::kTagWarpStage: return param ? "rl_warp_stage(), rl_param " + p : "rl_warp_stage(): one warp's stage";
    case kernels::kTagGridSync:
      return param ? "rl_grid_sync(), rl_param " + p : "rl_grid_sync(): every block of the grid has arrived";
    case kernels::kTagAtomic: return "atomic update of the result";
    case kernels::kTagReduceScatter: return "reduce-scatter step " + p;
    case kernels::kTagAllGather: return "all-gather step " + p;
    case kernels::kTagPeerAdd: return "every GPU adds every peer's buffer";
    case kernels::kTagHalving: return "launch: add the upper half at offset " + p;
    case kernels::kTagInput: return "the array in global memory";
    case kernels::kTagRowStride: return "each thread adds its row's (or its chunk's) elements a block apart";
    case kernels::kTagColumnStride: return "each thread adds its column over the block's chunk of rows";
    case kernels::kTagColumnVector: return "each thread adds its 4 columns over the block's chunk of rows";
    case kernels::kTagRowVector: return "each thread adds its chunk's 16-byte vectors a block apart";
    case kernels::kTagRowLanes:
      return param == 1 ? "each thread adds its own row"
                        : "each row's " + p + " lanes add the row's elements between them";
    case kernels::kTagRowSegment:
      return param == 1 ? "each thread walks its own row"
                        : "each row's " + p + " lanes walk the row: a lane takes one load in every " + p;
    case kernels::kTagColumnStep: return "rows " + p + " apart: the upper half of the rows onto the lower";
    case kernels::kTagColumnWalk: return "each thread walks down its whole column";
    case kernels::kTagTileStride: return "2D grid stride: each thread adds the elements it visits";
    case kernels::kTagTileCopy:
      return "the block copies a tile of rows into shared memory, a row every " + p + " cells";
    case kernels::kTagRowWalk:
      return param == 1 ? "each thread takes its row's one column"
                        : "each thread adds the " + p + " columns of its own row";
    default: return "stage";
  }
}

}  // namespace rl::core
