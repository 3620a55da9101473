#include "file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "text.h"

namespace rl::core {
namespace {

bool fail(std::string* error, std::string_view what, const std::string& path, int err) {
  if (error) *error = std::string(what) + " '" + printable(path) + "': " + std::strerror(err);
  return false;
}

// errno is read first: closing fd or building the message may change it.
bool fail_errno(std::string* error, std::string_view what, const std::string& path, int fd_to_close = -1) {
  const int err = errno;
  if (fd_to_close >= 0) ::close(fd_to_close);
  return fail(error, what, path, err);
}

// Paths the signal handler removes: temporaries not yet renamed, and scratch folders. Fixed
// slots of fixed size, since a handler may not allocate.
struct Slot {
  std::atomic<bool> taken{false};  // claimed by a writer
  std::atomic<bool> ready{false};  // path complete: the handler may remove it
  bool folder = false;
  char path[4096] = {};
};
Slot g_slots[32];

int claim(const std::string& path, bool folder) {
  if (path.size() >= sizeof g_slots[0].path) return -1;
  for (int i = 0; i < int(std::size(g_slots)); ++i) {
    bool expected = false;
    if (!g_slots[i].taken.compare_exchange_strong(expected, true)) continue;
    g_slots[i].folder = folder;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].ready.store(true);
    return i;
  }
  return -1;  // more in flight than slots: that one is cleaned up on the normal path only
}

void release(int slot) {
  if (slot < 0) return;
  g_slots[slot].ready.store(false);
  g_slots[slot].taken.store(false);
}

// A flat folder's files, then the folder, from a signal handler: only async-signal-safe calls.
// The folder is listed with the getdents64 system call into a buffer on the stack, not with
// opendir/readdir, which allocate: a SIGINT that lands inside malloc or realloc (an export
// compressing a PNG) deadlocked the handler on malloc's lock (CI, 2026-11-26). Entries are
// removed while listed, so the listing starts over until a pass removes nothing.
void remove_flat_folder(const char* dir) {
  struct Entry {  // struct linux_dirent64 (getdents64(2))
    std::uint64_t ino;
    std::int64_t off;
    unsigned short reclen;
    unsigned char type;
    char name[1];
  };
  const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char buf[4096];
    for (bool removed = true; removed && ::lseek(fd, 0, SEEK_SET) == 0;) {
      removed = false;
      for (long n; (n = ::syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0;)
        for (long at = 0; at < n; at += reinterpret_cast<const Entry*>(buf + at)->reclen) {
          const char* name = reinterpret_cast<const Entry*>(buf + at)->name;
          if (std::strcmp(name, ".") != 0 && std::strcmp(name, "..") != 0) removed |= ::unlinkat(fd, name, 0) == 0;
        }
    }
    ::close(fd);
  }
  ::rmdir(dir);
}

extern "C" void on_signal(int sig) {
  for (auto& s : g_slots)
    if (s.ready.load()) s.folder ? remove_flat_folder(s.path) : void(::unlink(s.path));
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// write all, sync, close: each step checked; errno of the first that failed. Errors
// name `shown`, the user's file, when fd is a temporary beside it.
bool write_fd(int fd, const std::string& shown, std::string_view bytes, bool sync, std::string* error) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      ::close(fd);
      return fail(error, "cannot write", shown, err);
    }
    done += std::size_t(n);
  }
  if (sync && ::fsync(fd) != 0) return fail_errno(error, "cannot write", shown, fd);
  if (::close(fd) != 0) return fail_errno(error, "cannot write", shown);
  return true;
}

// A new file beside path, from mkstemp: O_EXCL, so no link or file another user placed
// there is ever opened. Its mode is the replaced file's, with its group where the user may set
// it (`old`), else what a plain create would give (0666 less the umask).
int temporary_beside(const std::string& path, std::string* tmp, const struct stat* old = nullptr) {
  const auto p = std::filesystem::path(path);
  const auto dir = p.has_parent_path() ? p.parent_path() : std::filesystem::path(".");
  std::string name = (dir / ("." + p.filename().string() + ".tmp-XXXXXX")).string();
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return -1;
  const mode_t mask = ::umask(0);
  ::umask(mask);
  if (old) {
    if (::fchown(fd, uid_t(-1), old->st_gid) != 0) {
      // not a group of this user's: the new file keeps the folder's group
    }
    ::fchmod(fd, old->st_mode & 07777);
  } else {
    ::fchmod(fd, 0666 & ~mask);
  }
  *tmp = name;
  return fd;
}

// A pipe, socket or device the user named, written in place. Another user's pipe or socket is
// refused (its owner would receive this user's output), and a pipe with no reader fails at once
// instead of blocking (O_NONBLOCK on open, cleared for the writes).
bool write_in_place(const std::string& path, const struct stat& st, std::string_view bytes, std::string* error) {
  const bool device = S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode);
  if (!device && st.st_uid != ::geteuid()) {
    if (error) *error = "cannot write '" + printable(path) + "': a pipe or socket another user owns";
    return false;
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0 && errno == ENXIO) {
    if (error) *error = "cannot write '" + printable(path) + "': a pipe nobody reads";
    return false;
  }
  if (fd < 0) return fail_errno(error, "cannot write", path);
  const int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  return write_fd(fd, path, bytes, false, error);
}

// Where a write to path lands: a link the user made to a file the user owns is written through
// (a settings.json kept in a dotfiles folder stays a link); any other link is replaced, never
// followed, as a missing or regular name is.
std::string write_target(const std::string& path) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) != 0 || !S_ISLNK(link.st_mode) || link.st_uid != ::geteuid()) return path;
  char* real = ::realpath(path.c_str(), nullptr);
  if (!real) return path;
  const std::string target = real;
  std::free(real);
  struct stat st {};
  return ::stat(target.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == ::geteuid() ? target : path;
}

}  // namespace

bool read_file(const std::string& path, const FileKind& kind, std::string* bytes, std::string* error) {
  const std::string what = "cannot read " + std::string(kind.what);
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below as not regular.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return fail_errno(error, what, path);
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    const int err = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
    ::close(fd);
    if (err == EISDIR) return fail(error, what, path, err);
    if (error) *error = what + " '" + printable(path) + "': not a regular file (a device, a pipe or a socket)";
    return false;
  }
  if (st.st_size > kind.max_bytes) {
    ::close(fd);
    if (error)
      *error = std::string(kind.what) + " '" + printable(path) + "' is " + std::to_string(st.st_size) +
               " bytes; a " + std::string(kind.what) + " may hold at most " + std::to_string(kind.max_bytes) + " bytes";
    return false;
  }
  bytes->clear();
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail_errno(error, what, path, fd);
    if (n == 0) break;
    if (std::int64_t(bytes->size()) + n > kind.max_bytes) {  // it grew while being read
      ::close(fd);
      if (error) *error = std::string(kind.what) + " '" + printable(path) + "' grew past its limit while being read";
      return false;
    }
    bytes->append(buf, std::size_t(n));
  }
  ::close(fd);
  return true;
}

bool write_file(const std::string& named, std::string_view bytes, std::string* error) {
  const std::string path = write_target(named);
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return fail(error, "cannot write", path, EISDIR);
  if (exists && !S_ISREG(st.st_mode)) return write_in_place(path, st, bytes, error);
  std::string tmp;
  // A replaced file keeps its mode and group when it is this user's (another's was only ever
  // readable here: the new one is the user's own, made as a new file).
  const int fd = temporary_beside(path, &tmp, exists && st.st_uid == ::geteuid() ? &st : nullptr);
  if (fd < 0) return fail_errno(error, "cannot write", path);
  const int slot = claim(tmp, false);
  const bool ok = write_fd(fd, path, bytes, true, error);
  if (ok && ::rename(tmp.c_str(), path.c_str()) == 0) {
    release(slot);
    return true;
  }
  const int err = errno;
  ::unlink(tmp.c_str());
  release(slot);
  return ok ? fail(error, "cannot replace", path, err) : false;
}

bool can_write_beside(const std::string& named, std::string* error) {
  const std::string path = write_target(named);
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {  // written in place
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || st.st_uid == ::geteuid()) return true;
    if (error) *error = "cannot write '" + printable(path) + "': a pipe or socket another user owns";
    return false;
  }
  std::string tmp;
  const int fd = temporary_beside(path, &tmp);
  if (fd < 0) return fail_errno(error, "cannot write", path);
  ::close(fd);
  ::unlink(tmp.c_str());
  return true;
}

ScratchFolder::ScratchFolder() {
  std::error_code ec;
  auto base = std::filesystem::temp_directory_path(ec);
  if (ec) base = "/tmp";
  std::string name = (base / "reduction-lab-XXXXXX").string();
  if (!::mkdtemp(name.data())) {
    const int err = errno;
    throw std::runtime_error("cannot make a private temporary folder in '" + printable(base.string()) +
                             "': " + std::strerror(err));
  }
  path_ = name;
  slot_ = claim(path_, true);
}

ScratchFolder::~ScratchFolder() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
  release(slot_);
}

FileSet::~FileSet() {
  if (folder_.empty()) return;
  std::error_code ec;
  std::filesystem::remove_all(folder_, ec);
  release(slot_);
}

bool FileSet::add(const std::string& named, std::string_view bytes, std::string* error) {
  const std::string path = write_target(named);
  const auto p = std::filesystem::path(path);
  const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
  if (folder_.empty()) {
    std::string name = (std::filesystem::path(dir) / ".reduction-lab-set-XXXXXX").string();
    if (!::mkdtemp(name.data())) return fail_errno(error, "cannot write", path);
    folder_ = name, dir_ = dir, slot_ = claim(folder_, true);
  } else if (dir != dir_) {
    if (error) *error = "cannot write '" + printable(path) + "' with files in another folder as one set";
    return false;
  }
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return fail(error, "cannot write", path, EISDIR);
  if (exists && !S_ISREG(st.st_mode)) {
    pending_.push_back({path, {}, std::string(bytes)});
    return true;
  }
  std::string staged;
  const int fd = temporary_beside((std::filesystem::path(folder_) / p.filename()).string(), &staged,
                                  exists && st.st_uid == ::geteuid() ? &st : nullptr);
  if (fd < 0) return fail_errno(error, "cannot write", path);
  if (!write_fd(fd, path, bytes, true, error)) return false;
  pending_.push_back({path, staged, {}});
  return true;
}

bool FileSet::commit(std::string* error) {
  for (const Pending& f : pending_) {
    if (f.staged.empty() ? !write_file(f.path, f.bytes, error) : ::rename(f.staged.c_str(), f.path.c_str()) != 0)
      return f.staged.empty() ? false : fail_errno(error, "cannot replace", f.path);
  }
  pending_.clear();
  return true;
}

void install_cleanup_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  // SIGHUP and SIGQUIT too: closing the terminal left a video's frame folder (4-5 MB) behind.
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &sa, nullptr);
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace rl::core
