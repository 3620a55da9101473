#include "nvrtc.h"

#include "own_values.h"

#include <dlfcn.h>

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>

#include "../core/embedded.h"
#include "../core/file_io.h"
#include "../core/text.h"

namespace rl::own {
namespace {

// The few entry points used, declared here so that a build without the toolkit's headers can
// still use an NVRTC installed later (nvrtc.h: nvrtcResult is an int enum, 0 is success).
using Program = struct _nvrtcProgram*;
struct Api {
  int (*version)(int*, int*) = nullptr;
  const char* (*error_string)(int) = nullptr;
  int (*create)(Program*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  int (*destroy)(Program*) = nullptr;
  int (*add_name)(Program, const char*) = nullptr;
  int (*compile)(Program, int, const char* const*) = nullptr;
  int (*log_size)(Program, std::size_t*) = nullptr;
  int (*log)(Program, char*) = nullptr;
  int (*ptx_size)(Program, std::size_t*) = nullptr;
  int (*ptx)(Program, char*) = nullptr;
  int (*cubin_size)(Program, std::size_t*) = nullptr;
  int (*cubin)(Program, char*) = nullptr;
  int (*lowered)(Program, const char*, const char**) = nullptr;
  std::string why;  // empty when every entry point loaded
};

template <class F>
bool resolve(void* lib, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, name));
  return f != nullptr;
}

Api load() {
  Api a;
  std::vector<std::string> names;
  if (const char* path = std::getenv("REDLAB_NVRTC"); path && *path) names.push_back(path);
  for (const char* n : {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so", "/usr/local/cuda/lib64/libnvrtc.so"})
    names.push_back(n);
  void* lib = nullptr;
  for (const std::string& n : names)
    if ((lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
  if (!lib) {
    a.why =
        "NVRTC (libnvrtc.so) is not installed: install the CUDA toolkit (Debian: nvidia-cuda-toolkit) "
        "to compile kernels of your own, or set REDLAB_NVRTC to libnvrtc.so's path";
    return a;
  }
  const bool ok = resolve(lib, "nvrtcVersion", a.version) && resolve(lib, "nvrtcGetErrorString", a.error_string) &&
                  resolve(lib, "nvrtcCreateProgram", a.create) && resolve(lib, "nvrtcDestroyProgram", a.destroy) &&
                  resolve(lib, "nvrtcAddNameExpression", a.add_name) &&
                  resolve(lib, "nvrtcCompileProgram", a.compile) &&
                  resolve(lib, "nvrtcGetProgramLogSize", a.log_size) && resolve(lib, "nvrtcGetProgramLog", a.log) &&
                  resolve(lib, "nvrtcGetPTXSize", a.ptx_size) && resolve(lib, "nvrtcGetPTX", a.ptx) &&
                  resolve(lib, "nvrtcGetCUBINSize", a.cubin_size) && resolve(lib, "nvrtcGetCUBIN", a.cubin) &&
                  resolve(lib, "nvrtcGetLoweredName", a.lowered);
  if (!ok) a.why = "the NVRTC found (libnvrtc.so) lacks an entry point this program uses: install CUDA 12 or later";
  return a;
}

const Api& api() {
  static const Api a = load();
  return a;
}

// Owns one NVRTC program.
class ProgramHandle {
 public:
  explicit ProgramHandle(const Api& a) : a_(a) {}
  ~ProgramHandle() {
    if (p_) a_.destroy(&p_);
  }
  ProgramHandle(const ProgramHandle&) = delete;
  ProgramHandle& operator=(const ProgramHandle&) = delete;
  Program* out() { return &p_; }
  Program get() const { return p_; }

 private:
  const Api& a_;
  Program p_ = nullptr;
};

void check(const Api& a, int rc, const char* what) {
  if (rc != 0) throw std::runtime_error(std::string("NVRTC: ") + what + " failed: " + a.error_string(rc));
}

std::string text_of(const Api& a, Program p, int (*size_fn)(Program, std::size_t*), int (*get_fn)(Program, char*),
                    const char* what) {
  std::size_t n = 0;
  check(a, size_fn(p, &n), what);
  std::string s(n, '\0');
  if (n > 0) check(a, get_fn(p, s.data()), what);
  if (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::uint64_t fnv1a(std::uint64_t h, std::string_view s) {
  for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  return (h ^ 0xff) * 1099511628211ull;  // a separator, so "ab"+"c" and "a"+"bc" differ
}

std::vector<std::string> options_for(const CompileRequest& r) {
  std::vector<std::string> o = {"-std=c++17", "-lineinfo", "-DRL_VALUE_TYPE=" + cuda_type(r.value_type)};
  o.push_back(r.sm ? "--gpu-architecture=sm_" + std::to_string(r.sm) : "--gpu-architecture=compute_90");
  if (r.untraced) o.push_back("-DRL_UNTRACED");
  o.insert(o.end(), r.options.begin(), r.options.end());
  return o;
}

std::string cache_folder() {
  std::string base;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = std::string(home) + "/.cache";
  else
    return {};
  return base + "/reduction-lab/nvrtc";
}

// A cache entry: a header line naming the format and the lowered name, then the PTX or cubin.
constexpr std::string_view kCacheMagic = "reduction-lab nvrtc cache 1 ";

bool read_cached(const std::string& path, Compiled* out, bool cubin) {
  std::string bytes, error;
  if (!core::read_file(path, core::FileKind{"compiled kernel", std::int64_t(64) << 20}, &bytes, &error)) return false;
  if (bytes.rfind(kCacheMagic, 0) != 0) return false;
  const std::size_t eol = bytes.find('\n');
  if (eol == std::string::npos) return false;
  out->lowered = bytes.substr(kCacheMagic.size(), eol - kCacheMagic.size());
  (cubin ? out->cubin : out->ptx) = bytes.substr(eol + 1);
  out->cached = true;
  return !out->lowered.empty();
}

void write_cached(const std::string& path, const Compiled& c, bool cubin) {
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(path).parent_path(), ec);
  std::string error;  // a cache that cannot be written only costs the next compile
  if (!ec) core::write_file(path, std::string(kCacheMagic) + c.lowered + "\n" + (cubin ? c.cubin : c.ptx), &error);
}

Compiled compile_now(const Api& a, const CompileRequest& r) {
  const std::string_view header = embedded::own_file("reduction_lab");
  const std::string header_text(header);
  const char* headers[] = {header_text.c_str()};
  const char* header_names[] = {"reduction_lab.cuh"};
  ProgramHandle p(a);
  check(a, a.create(p.out(), r.source.c_str(), r.file.c_str(), 1, headers, header_names), "nvrtcCreateProgram");
  check(a, a.add_name(p.get(), r.name_expression.c_str()), "nvrtcAddNameExpression");
  for (const std::string& name : r.more_names) check(a, a.add_name(p.get(), name.c_str()), "nvrtcAddNameExpression");
  const std::vector<std::string> opts = options_for(r);
  std::vector<const char*> argv;
  for (const std::string& o : opts) argv.push_back(o.c_str());
  const auto t0 = std::chrono::steady_clock::now();
  const int rc = a.compile(p.get(), int(argv.size()), argv.data());
  Compiled c;
  c.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  c.log = map_log(text_of(a, p.get(), a.log_size, a.log, "nvrtcGetProgramLog"));
  if (rc != 0 && c.log.find("__nv_name_map") != std::string::npos)  // the name expression, not the file
    throw CompileError(r.file + ": no kernel '" + core::printable(r.name_expression) +
                       "' (the '//! kernel:' line names a __global__ function of the file)");
  if (rc != 0) throw CompileError(c.log.empty() ? r.file + ": the compile failed with no message" : c.log);
  const char* lowered = nullptr;
  if (a.lowered(p.get(), r.name_expression.c_str(), &lowered) != 0 || !lowered)
    throw CompileError(r.file + ": no kernel '" + core::printable(r.name_expression) +
                       "' (the '//! kernel:' line names a __global__ function of the file)");
  c.lowered = lowered;
  for (const std::string& name : r.more_names) {
    if (a.lowered(p.get(), name.c_str(), &lowered) != 0 || !lowered)
      throw CompileError(r.file + ": no kernel '" + core::printable(name) + "'");
    c.more_lowered.push_back(lowered);
  }
  if (r.sm)
    c.cubin = text_of(a, p.get(), a.cubin_size, a.cubin, "nvrtcGetCUBIN");
  else
    c.ptx = text_of(a, p.get(), a.ptx_size, a.ptx, "nvrtcGetPTX");
  return c;
}

}  // namespace

bool nvrtc_ready(std::string* why) {
  if (why) *why = api().why;
  return api().why.empty();
}

std::string nvrtc_version() {
  int major = 0, minor = 0;
  if (!nvrtc_ready(nullptr) || api().version(&major, &minor) != 0) return {};
  return std::to_string(major) + "." + std::to_string(minor);
}

std::string map_log(std::string_view log) {
  std::string out;
  std::size_t at = 0;
  while (at < log.size()) {
    std::size_t end = log.find('\n', at);
    if (end == std::string_view::npos) end = log.size();
    std::string line(log.substr(at, end - at));
    const std::size_t close = line.find("): ");
    const std::size_t open = close == std::string::npos ? std::string::npos : line.rfind('(', close);
    if (open != std::string::npos && close != std::string::npos && open + 1 < close &&
        line.find_first_not_of("0123456789", open + 1) == close)
      line = line.substr(0, open) + ":" + line.substr(open + 1, close - open - 1) + ":" + line.substr(close + 2);
    if (!line.empty()) out += core::printable(line, 400) + "\n";
    at = end + 1;
  }
  return out;
}

Compiled compile(const CompileRequest& r) {
  own_dtype(r.value_type);  // throws naming the types taken
  std::string why;
  if (!nvrtc_ready(&why)) throw std::runtime_error(why);
  if (!r.cache) return compile_now(api(), r);
  std::uint64_t key = 14695981039346656037ull;
  const std::string version = nvrtc_version();  // kept alive: the views below point into it
  for (std::string_view part : {std::string_view(r.source), embedded::own_file("reduction_lab"),
                                std::string_view(r.name_expression), std::string_view(version)})
    key = fnv1a(key, part);
  for (const std::string& o : options_for(r)) key = fnv1a(key, o);
  static std::mutex mutex;  // the worker thread and the CLI may both compile
  static std::map<std::uint64_t, Compiled> memory;
  const std::lock_guard<std::mutex> lock(mutex);
  if (auto it = memory.find(key); it != memory.end()) {
    Compiled c = it->second;
    c.cached = true, c.milliseconds = 0;
    return c;
  }
  char name[32];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(key));
  const std::string folder = cache_folder(),
                    path = folder.empty() ? "" : folder + "/" + name + (r.sm ? ".cubin" : ".ptx");
  Compiled c;
  if (path.empty() || !read_cached(path, &c, r.sm != 0)) {
    c = compile_now(api(), r);
    if (!path.empty()) write_cached(path, c, r.sm != 0);
  }
  memory[key] = c;
  return c;
}

}  // namespace rl::own
