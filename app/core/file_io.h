// The one reader and the one writer of every file the program touches. Files may come from
// someone else on a shared machine: the reader takes only regular files within a limit for
// their kind; the writer never truncates or follows anything a user named, and replaces a
// file only by renaming a complete one made beside it. docs/reliability.md lists the limits.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rl::core {

// What a file is for (named in messages) and the most bytes of it that are read.
struct FileKind {
  std::string_view what;
  std::int64_t max_bytes;
};
namespace files {
inline constexpr FileKind kSettings{"settings file", std::int64_t(1) << 20};
inline constexpr FileKind kScene{"scene file", std::int64_t(1) << 20};
inline constexpr FileKind kPlan{"plan file", std::int64_t(4) << 20};
inline constexpr FileKind kResults{"results file", std::int64_t(64) << 20};
inline constexpr FileKind kRecording{"recording", std::int64_t(64) << 20};
inline constexpr FileKind kTrace{"trace file", std::int64_t(256) << 20};
inline constexpr FileKind kInput{"input file", std::int64_t(1) << 30};
inline constexpr FileKind kKernel{"kernel file", std::int64_t(256) << 10};  // own::kMaxSourceBytes
}  // namespace files

// Reads the whole file at path into *bytes. False with a message naming the kind, the path
// (escaped) and the reason: missing, not a regular file (a folder, a FIFO, a device), over
// the kind's limit, unreadable. A FIFO never blocks the caller.
bool read_file(const std::string& path, const FileKind& kind, std::string* bytes, std::string* error);

// Writes bytes to path. A regular (or new) file is written to a temporary made with mkstemp
// beside it, synced and renamed over path, so a failure or a full disk leaves the old file
// intact and nothing behind; anything else the user named (a pipe, /dev/stdout) is written
// in place. False with a message naming the path and the system's reason.
bool write_file(const std::string& path, std::string_view bytes, std::string* error);

// Whether write_file can write path: a pipe or device is written in place; otherwise a file
// must be makeable beside it (its folder exists and takes new files). Checked before minutes
// of work whose result goes there. False with the reason.
bool can_write_beside(const std::string& path, std::string* error);

// A private folder (mkdtemp, mode 0700) under the system's temporary folder, removed with
// everything in it when the object goes, and by the cleanup handler on SIGINT or SIGTERM.
class ScratchFolder {
 public:
  ScratchFolder();  // throws std::runtime_error naming the reason when none can be made
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int slot_ = -1;
};

// Files written as one set (--all-stages): each is written complete into a private folder made
// beside them, and only once every one is written are they renamed into place, so a full disk
// or an interrupted export leaves the old set whole, not a mix of old and new. Every path must
// be in one folder. A pipe or device among them is written in place at commit. The folder and
// anything not committed go with the object, or with the cleanup handler on a signal.
class FileSet {
 public:
  FileSet() = default;
  ~FileSet();
  FileSet(const FileSet&) = delete;
  FileSet& operator=(const FileSet&) = delete;
  bool add(const std::string& path, std::string_view bytes, std::string* error);
  bool commit(std::string* error);

 private:
  struct Pending {
    std::string path, staged, bytes;  // bytes: only for a target written in place
  };
  std::string folder_, dir_;
  int slot_ = -1;
  std::vector<Pending> pending_;
};

// SIGINT, SIGTERM, SIGHUP and SIGQUIT remove the temporaries in flight and the scratch folders, then end the
// program as the signal would have. SIGXFSZ is ignored, so that a file-size limit reaches
// the writer as EFBIG and is reported instead of killing the program without a word.
void install_cleanup_handlers();

}  // namespace rl::core
