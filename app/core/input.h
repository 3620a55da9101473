// Input arrays: iota (1..n), ones, random[:SEED], or a file of numbers.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "types.h"

namespace rl::core {

struct InputSpec {
  enum class Kind { Iota, Ones, Random, File };
  Kind kind = Kind::Random;
  std::uint64_t seed = 1;
  std::string path;
  // The path came from a file someone else may have written (a plan, a scene, the settings): a
  // failure to read it as numbers names the file and line, never its bytes (a plan naming
  // ~/.git-credentials would put them on the projector).
  bool quiet = false;
  bool operator==(const InputSpec&) const = default;
};

// nullopt (with *error set) when the text is not iota, ones, random, random:SEED or a path
// to an existing file.
std::optional<InputSpec> parse_input_spec(std::string_view text, std::string* error);
std::string to_string(const InputSpec& spec);

// Values already rounded to the type (floats to float precision). Random ints lie in
// [-99, 99] and random floats and doubles in [-1, 1), so a teacher can read them off the screen.
std::vector<double> generate_input(const InputSpec& spec, std::size_t n, DType type);

// Numbers separated by whitespace or commas ('#' starts a comment). Throws
// std::runtime_error naming the file, line and token for anything else, and stops at the
// (max_count + 1)-th number: a file over a cap is refused without reading it all.
std::vector<double> parse_numbers(std::string_view text, DType type, std::string_view origin,
                                  std::size_t max_count = std::size_t(-1), bool quiet = false);
// Float and double take nan and inf (IEEE semantics downstream); int refuses them.
// Files over kMaxInputFileBytes are refused before reading.
constexpr std::size_t kMaxInputFileBytes = std::size_t(1) << 30;
std::vector<double> read_input_file(const std::string& path, DType type, std::size_t max_count = std::size_t(-1),
                                    bool quiet = false);

// A value the window takes from a field. `note` says, beside the field, why it took another
// value than the one typed; empty when it took it as typed.
struct Checked {
  std::int64_t value = 0;
  std::string note;
};
// The most elements the window traces (arrays and matrices; bench times larger ones).
constexpr std::int64_t kMaxWindowElements = std::int64_t(1) << 20;

// A count as a field or option gives it: N or 2^K (core::parse_size); nullopt for anything else.
std::optional<std::int64_t> parse_count(std::string_view text);
// A matrix's rows (`rows`) or columns, typed as `text`: at least 1, and times `other` (the
// other side) at most max elements; anything else is refused and `current` kept.
Checked check_matrix_side(std::string_view text, bool rows, std::int64_t current, std::int64_t other, std::int64_t max);
// An array size: 1..max elements; anything else is refused and `current` kept.
Checked check_array_size(std::int64_t typed, std::int64_t current, std::int64_t max);
// The same, typed as N or 2^K in the window's field.
Checked check_array_size(std::string_view text, std::int64_t current, std::int64_t max);
// A block size: 2..1024 for a kernel that takes any, else a power of two in 32..1024 (other
// sizes round up to the next one, and the note says so).
Checked check_block(std::int64_t typed, bool any_block);
// The traced block: one of the grid's blocks 0..grid-1.
// cluster > 1 (cluster-dsmem): the block is also taken down to the first of its cluster, the one
// that reads the others' shared memory.
Checked check_trace_block(std::int64_t typed, std::int64_t grid, int cluster = 1);

}  // namespace rl::core
