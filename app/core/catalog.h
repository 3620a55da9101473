// The algorithm catalog: ids, lessons, and where each stage sits in the real kernel source.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "code.h"

namespace rl::core {

// An algorithm's kernel and the helpers it names ("// see <<< name"), in that order; a helper
// from the kernel's own file or from a file it includes.
struct SourceView : Code {
  std::map<std::string, Place, std::less<>> markers;  // "[step]" -> where it is
  Place place_of(std::string_view marker) const;      // line 0 when the marker is absent
};

struct Stage;

enum class Kind { Traced, Pitfall, ModelOnly, Baseline, Collective };

// A lesson's "Look: <view> <step>[=<param>]: <text>" line: the stage and view that show its
// point. The window jumps there on a click.
struct Pointer {
  std::string view;         // memory | lanes | divergence | banks | grid | coalescing
  int tag = -1;             // the stage's kernels::Tag
  std::optional<int> param;  // its stride or offset; any when absent
  std::string text;         // what to see there
  bool operator==(const Pointer&) const = default;
};
// memory | lanes | divergence | banks | grid | coalescing: the names a pointer, a scene and --view use
// (render::View is the drawing side of the same list).
// Throws std::runtime_error naming what is wrong with a "Look: " line.
Pointer parse_pointer(std::string_view line);

struct AlgorithmInfo {
  std::string id;
  std::string family;  // tree, warp-shuffle, cooperative-groups, single-pass, pitfall, matrix, baseline, across GPUs
  std::string title;
  std::string lesson;  // one line, for `list`
  std::string brief;   // about 60 words: the window's lesson pane
  std::optional<Pointer> look;  // where the lesson's point shows
  std::string detail;  // the depth: the pane's "More"
  std::string file;    // kernel source holding "<<< id" (empty for host baselines)
  Kind kind = Kind::Traced;
  bool any_block = false;  // takes any block size 1..1024, not only powers of two
  bool ints_only = false;  // reduces int alone (redux-sync: the hardware's warp reduce adds no floats)
  bool matrix = false;     // reduces a matrix (--rows, --cols), not an array (--size)
};

std::span<const AlgorithmInfo> algorithms();
const AlgorithmInfo* find_algorithm(std::string_view id);
// The family across GPUs (kernels/collectives.h): its own rows, outside algorithms(), whose rows
// each launch blocks over one array; Kind::Collective.
std::span<const AlgorithmInfo> collectives();
const AlgorithmInfo* find_collective(std::string_view id);
// Either table's row: what the window's lesson, source and settings look an id up in.
const AlgorithmInfo* find_any(std::string_view id);
// The lesson a kernel of your own is shown with (kernels/lessons/write-your-own.md): its lesson,
// brief and detail, no row.
const AlgorithmInfo& write_your_own();
std::vector<std::string> algorithm_ids();
// The ids that record stages (everything but the baselines).
std::vector<std::string> traced_ids();
// The traced ids that reduce an array to one value, and those that reduce a matrix (no anchors).
std::vector<std::string> array_ids();
std::vector<std::string> matrix_ids();
bool is_matrix_id(std::string_view id);

// The kernel's source as built into this binary. Throws std::runtime_error if the markers
// for id are missing (a broken build, never user input).
const SourceView& source_of(std::string_view id);

// The text of a kernel source file by its repository path ("kernels/tree.cuh"); empty when unknown.
using SourceReader = std::function<std::string_view(std::string_view path)>;
// Finds "<<< id" ... ">>>" and the "[tag]" markers inside it in `file`, and the regions of the
// helpers it names with "// see <<< name": each looked for in the file that names it, then in the
// files that file includes (#include "x.cuh", beside it), nearest first.
SourceView parse_source(std::string_view file, std::string_view id, const SourceReader& read);
// The same over one file's text.
SourceView parse_source(std::string_view text, std::string_view file, std::string_view id);
// A stage's line: where the kernel's source marks the stage's tag ("// [shfl]").
void point_at_tag(Stage& s, const SourceView& src);

// A stage's label from its recorded tag and parameter: "stride 8", "shuffle down by 4".
std::string stage_label(int tag, int param, bool has_shared);

// Whether repeated runs of an algorithm give the same bits, in words, from its row
// (kernels::run_to_run); "" for an id the catalog lacks.
std::string run_to_run_text(std::string_view id);

// --cluster's help: the sizes, and each kernel of clusters with its own size when none is asked.
std::string cluster_option_help();

}  // namespace rl::core
