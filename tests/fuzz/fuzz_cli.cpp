// libFuzzer: the command line. The input is split into arguments at newlines; cli::run must
// answer every argument list with an exit code (0, 1 or 2), never crash or hang. Commands that
// write files, read arbitrary paths or run for long (bench, render, --input, --out) are left
// out, and sizes the model would take long over are too, so a run stays a test of the parser
// and its checks. Numbers past what a trace takes (2^64-1, 2^63, 99999999999999999999) go in.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"

namespace {

// A size the command line accepts and the model would take seconds over: 10^4 .. 2^27.
bool slow_size(const std::string& a) {
  const auto n = rl::cli::parse_size(a);
  return n && *n > 9999 && *n <= (std::size_t(1) << 27);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"reduction-lab"};
  std::string cur;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') args.push_back(cur), cur.clear();
    else cur += char(data[i]);
  }
  args.push_back(cur);
  if (args.size() > 24) return 0;
  // argv ends each argument at its first NUL: "bench\0x" is `bench`, so the checks below must
  // see what the parser will (it once let a full benchmark through, seconds a run).
  for (auto& a : args) a = a.substr(0, a.find('\0'));
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "bench" || a == "render" || a.rfind("--in", 0) == 0 || a.rfind("--out", 0) == 0 || a.rfind("-o", 0) == 0 ||
        a.rfind("--ex", 0) == 0 || a.rfind("--fr", 0) == 0 || a.rfind("--sc", 0) == 0 || a.find('/') != std::string::npos)
      return 0;
    if (slow_size(a)) return 0;
  }
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = rl::cli::run(int(argv.size()), argv.data(), out, err,
                                [](const rl::cli::GuiOptions&, std::ostream&) { return 0; });
  if (code < 0 || code > 2) std::abort();
  return 0;
}
