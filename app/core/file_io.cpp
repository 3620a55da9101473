#include "file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace rl::core {
namespace {

bool fail(std::string* error, const std::string& what, const std::string& path, int err) {
  if (error) *error = what + " '" + path + "': " + std::strerror(err);
  return false;
}

// open, write all, (sync,) close: each step checked; errno of the first that failed. Errors
// name `shown`, the user's file, when `path` is a temporary beside it.
bool write_fd(const std::string& path, const std::string& shown, std::string_view bytes, int flags, bool sync,
              std::string* error) {
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    const int err = errno;
    return fail(error, "cannot write", shown, err);
  }
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
  if (sync && ::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    return fail(error, "cannot write", shown, err);
  }
  if (::close(fd) != 0) {
    const int err = errno;
    return fail(error, "cannot write", shown, err);
  }
  return true;
}

}  // namespace

bool read_file(const std::string& path, const std::string& what, std::string* bytes, std::string* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;  // before the message is built: allocating may set errno
    return fail(error, "cannot read " + what, path, err);
  }
  bytes->clear();
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {  // a folder opens, then fails here with EISDIR
      const int err = errno;
      ::close(fd);
      return fail(error, "cannot read " + what, path, err);
    }
    if (n == 0) break;
    bytes->append(buf, std::size_t(n));
  }
  ::close(fd);
  return true;
}

bool write_file(const std::string& path, std::string_view bytes, std::string* error) {
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  const bool in_place = std::filesystem::exists(status) && !std::filesystem::is_regular_file(status);
  if (in_place) return write_fd(path, path, bytes, O_WRONLY | O_TRUNC | O_CLOEXEC, false, error);
  const std::string tmp = path + ".tmp-" + std::to_string(::getpid());
  if (!write_fd(tmp, path, bytes, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, true, error)) {
    ::unlink(tmp.c_str());
    return false;
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return fail(error, "cannot replace", path, err);
  }
  return true;
}

}  // namespace rl::core
