// Checked file writes: every write is flushed and closed before it counts as done, and a
// regular file is replaced only by a complete one (written beside it, then renamed).
#pragma once
#include <string>
#include <string_view>

namespace rl::core {

// Writes bytes to path. A regular (or new) file is written to PATH.tmp-PID, synced and renamed
// over path, so a full disk leaves the old file intact; anything else (a device, a pipe) is
// written in place. False with a message naming the path and the system's reason.
bool write_file(const std::string& path, std::string_view bytes, std::string* error);

// Reads the whole file at path into *bytes. False with "cannot read WHAT 'PATH': REASON" (a
// missing file, a folder, no permission), WHAT naming what the file was for ("results file").
bool read_file(const std::string& path, const std::string& what, std::string* bytes, std::string* error);

}  // namespace rl::core
