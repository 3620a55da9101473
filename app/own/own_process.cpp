#include "own_process.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <stdexcept>
#include <thread>

#include "../core/file_io.h"
#include "../core/run_file.h"
#include "../core/text.h"
#include "../core/types.h"
#include "child_process.h"

namespace rl::own {

namespace fs = std::filesystem;

// A folder of our own under the system's temporary folder, removed with everything in it.
class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (fs::temp_directory_path() / "reduction-lab-run-XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("could not make a temporary folder for the GPU run");
    path_ = pattern;
  }
  ~TempFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;
  std::string at(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

namespace {

void write_or_throw(const std::string& path, const std::string& bytes) {
  std::string why;
  if (!core::write_file(path, bytes, &why)) throw std::runtime_error(why);
}

// The input as numbers, one a line, exact: %.17g reads back to the same double, and every value
// is already one of the type's.
std::string numbers_of(const OwnRequest& r) {
  std::string text;
  char line[40];
  for (double v : values_of(r.input, r.value_type)) {
    std::snprintf(line, sizeof line, "%.17g\n", v);
    text += line;
  }
  return text;
}

// The file is named as the student's, so that messages read NAME:LINE.
std::string file_name(const OwnRequest& r) {
  const std::string name = fs::path(r.file).filename().string();
  const bool control = std::any_of(name.begin(), name.end(), [](char c) { return (unsigned char)c < 0x20; });
  return name.empty() || name[0] == '-' || name == "." || name == ".." || control ? "kernel.cu" : name;
}

// The trace command's words after the program, its files in `dir`.
std::vector<std::string> command(const OwnRequest& r, core::Op op, const ProcessOptions& o,
                                 const std::function<std::string(const std::string&)>& dir) {
  std::vector<std::string> argv = {"trace",
                                   "--kernel",
                                   dir(file_name(r)),
                                   "--backend",
                                   o.backend,
                                   "--type",
                                   r.value_type,
                                   "--op",
                                   std::string(core::to_string(op)),
                                   "--input",
                                   r.input_spec.empty() ? dir("input.txt") : r.input_spec,
                                   "--size",
                                   std::to_string(r.input.size() / value_bytes(r.value_type)),
                                   "--trace-block",
                                   std::to_string(r.trace_block),
                                   "--format",
                                   "json",
                                   "--no-compare"};
  if (r.block) argv.insert(argv.end(), {"--block", std::to_string(r.block)});
  if (!o.check) argv.push_back("--no-check");
  return argv;
}

// What the child wrote on its error stream, without the program's prefix, the folder's path and
// bytes a terminal or the window would act on.
std::string said_by(const std::string& err_path, const std::string& folder) {
  std::string text, why;
  if (!core::read_file(err_path, core::files::kTrace, &text, &why)) return why;
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, end - at);
    for (const std::string prefix : {"reduction-lab: ", "error: "})
      if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
    for (std::size_t p; (p = line.find(folder)) != std::string::npos;) line.erase(p, folder.size());
    if (!line.empty()) out += (out.empty() ? "" : "\n") + core::printable(line);
    at = end + 1;
  }
  return out;
}

}  // namespace

std::string this_program() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

namespace {

// Waits for the child (the watchdog, *cancel); the path of what it wrote on its output when it
// exited 0 or 1 with output, else throws with what it said or why it was stopped.
std::string finished(ChildProcess& child, const std::function<std::string(const std::string&)>& dir,
                     const ProcessOptions& o, const std::atomic<bool>* cancel, const std::string& what) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    if (const auto ended = child.poll()) {
      std::error_code ec;
      const bool wrote = fs::file_size(dir("out.json"), ec) > 0 && !ec;
      if (ended->signal == 0 && (ended->code == 0 || ended->code == 1) && wrote) return dir("out.json");
      const std::string said = said_by(dir("said.txt"), dir(""));
      if (ended->signal != 0)
        throw std::runtime_error(what + " ended on " + to_string(*ended) + (said.empty() ? "" : ":\n" + said));
      throw std::runtime_error(said.empty() ? what + " ended with " + to_string(*ended) : said);
    }
    if (cancel && cancel->load()) {
      child.stop();
      throw std::runtime_error(what + " was stopped");
    }
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > o.watchdog_s) {
      child.stop();
      char why[80];
      std::snprintf(why, sizeof why, " had not ended after %.0f s and was stopped", o.watchdog_s);
      throw std::runtime_error(what + why);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

}  // namespace

Standby::Standby(const std::string& program) : dir_(std::make_unique<TempFolder>()) {
  child_ = std::make_unique<ChildProcess>(std::vector<std::string>{program, "--standby"}, at("out.json"),
                                          at("said.txt"), true);
}
Standby::~Standby() = default;

bool Standby::waiting() { return !sent_ && !child_->poll(); }
std::string Standby::at(const std::string& name) const { return dir_->at(name); }

bool Standby::send(const std::vector<std::string>& words) {
  std::string line;
  bool fits = true;  // no word holds the line's separators (file_name() leaves none in a name)
  for (const std::string& w : words) {
    fits = fits && w.find_first_of("\t\n") == std::string::npos;
    line += (line.empty() ? "" : "\t") + w;
  }
  sent_ = true;
  return child_->send(fits ? line + "\n" : std::string()) && fits;  // nothing: it ends, saying so
}

core::Trace trace_in_process(const OwnRequest& r, core::Op op, const ProcessOptions& o, const std::atomic<bool>* cancel,
                             std::unique_ptr<Standby> ready) {
  if (o.program.empty()) throw std::runtime_error("the GPU run needs this program's path, and it could not be read");
  if (ready && !ready->waiting()) ready.reset();  // it ended while it waited (its CUDA did not start?)
  std::unique_ptr<TempFolder> own_dir = ready ? nullptr : std::make_unique<TempFolder>();
  const std::function<std::string(const std::string&)> dir = [&](const std::string& name) {
    return ready ? ready->at(name) : own_dir->at(name);
  };
  write_or_throw(dir(file_name(r)), r.source);
  if (r.input_spec.empty()) write_or_throw(dir("input.txt"), numbers_of(r));  // 2^20 floats: 11 MB of text
  const std::vector<std::string> words = command(r, op, o, dir);
  std::unique_ptr<ChildProcess> own_child;
  if (ready) {
    ready->send(words);  // where it ends first, finished() says what it wrote
  } else {
    std::vector<std::string> argv{o.program};
    argv.insert(argv.end(), words.begin(), words.end());
    own_child = std::make_unique<ChildProcess>(argv, dir("out.json"), dir("said.txt"));
  }
  ChildProcess& child = ready ? ready->child() : *own_child;
  try {
    core::Trace t = core::open_run_file(finished(child, dir, o, cancel, "the GPU run")).trace;
    t.source = r.file, t.code.file = r.file;  // the student's path, not the temporary copy's
    return t;
  } catch (const std::runtime_error& e) {
    const std::string said = e.what();
    if (said.find(" had not ended after ") == std::string::npos) throw;
    throw std::runtime_error(said +
                             " (a loop that never ends?); the CPU path stops such a kernel at its step budget "
                             "and names the line");
  }
}

core::BenchReport bench_in_process(const OwnRequest& r, const std::vector<std::string>& options,
                                   const ProcessOptions& o, const std::atomic<bool>* cancel) {
  if (o.program.empty()) throw std::runtime_error("timing needs this program's path, and it could not be read");
  TempFolder dir;
  write_or_throw(dir.at(file_name(r)), r.source);
  std::vector<std::string> argv = {o.program, "bench", "--kernel", dir.at(file_name(r)), "--format", "json"};
  argv.insert(argv.end(), options.begin(), options.end());
  if (r.block) argv.insert(argv.end(), {"--block", std::to_string(r.block)});
  ChildProcess child(argv, dir.at("out.json"), dir.at("said.txt"));
  const auto at = [&dir](const std::string& name) { return dir.at(name); };
  const core::OpenedRun opened = core::open_run_file(finished(child, at, o, cancel, "timing your kernel"));
  if (opened.kind != core::RunFile::Results) throw std::runtime_error("timing your kernel wrote no results");
  return opened.results;
}

}  // namespace rl::own
