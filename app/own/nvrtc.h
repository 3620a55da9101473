// NVRTC, the CUDA runtime compiler, for kernels of the student's own: loaded at run time
// (dlopen), so the program starts and everything else works where the CUDA toolkit is missing,
// and the feature then says what to install. Compiles a file with reduction_lab.cuh (embedded)
// to PTX (the CPU path interprets it) or to a cubin for one GPU (a cubin, not PTX: a newer NVRTC's
// PTX fails to load on an older driver). Results are cached by source, options and NVRTC version.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rl::own {

struct CompileRequest {
  std::string source;
  std::string file = "kernel.cu";    // the name messages use
  std::string name_expression;       // the kernel, e.g. "reduce5<256>" (OwnLaunch::name_expression)
  std::string value_type = "float";  // value_t: int, float, double, half or bf16 (own_values.h)
  int sm = 0;                        // 0: PTX for compute_90 (the CPU path); else a cubin for sm_XY
  // Without the trace (RL_UNTRACED): the header's barrier is the plain __syncthreads() and its
  // recording calls do nothing, as the catalog's kernels are timed without their probes.
  bool untraced = false;
  // The catalog's own kernels (the conformance test): more NVRTC options (their folders, -I; host
  // code as device code, -default-device), more kernels of the same program, and no cache (its key
  // does not cover included files).
  std::vector<std::string> options = {};
  std::vector<std::string> more_names = {};
  bool cache = true;
};

struct Compiled {
  std::string ptx;          // PTX text (sm == 0)
  std::string cubin;        // the cubin's bytes (sm != 0)
  std::string lowered;      // the kernel's name in the module (mangled)
  std::vector<std::string> more_lowered;  // more_names', in order
  std::string log;          // NVRTC's warnings, lines as FILE:LINE: ...
  double milliseconds = 0;  // the compile's wall time (0 when cached)
  bool cached = false;
};

// The student's file did not compile: messages, one a line, each "FILE:LINE: error: ...".
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Whether NVRTC loads here; *why says what to install when it does not.
bool nvrtc_ready(std::string* why);
// NVRTC's version as "13.0"; empty when it does not load.
std::string nvrtc_version();

// Compiles the request. Throws CompileError for the file's own errors, std::runtime_error when
// NVRTC is missing or fails, std::invalid_argument for a bad request (an unknown value type).
Compiled compile(const CompileRequest& request);

// NVRTC's log with "FILE(LINE): " turned into "FILE:LINE: " and control characters escaped.
std::string map_log(std::string_view log);

}  // namespace rl::own
