// Kernels of the student's own: the launch lines, their expressions, and NVRTC over the starter
// files (assets/own/). NVRTC is loaded at run time; where it is missing the compile tests skip,
// visibly, unless REDLAB_REQUIRE_NVRTC=1 (CI, which has the toolkit).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "app/core/catalog.h"
#include "app/core/embedded.h"
#include "app/own/nvrtc.h"
#include "app/own/own_check.h"
#include "app/own/own_file.h"
#include "app/own/own_run.h"
#include "app/own/own_trace.h"
#include "app/core/file_io.h"
#include "app/core/input.h"
#include "cli_support.h"
#include "app/backend/backend.h"
#include "app/backend/runner.h"
#include "own_support.h"
#include "test_support.h"

namespace rl {
namespace {

using own::evaluate;
using own::ExprNames;
using own::parse_launch;

TEST(OwnExpr, EvaluatesTheArithmeticALaunchLineNeeds) {
  const ExprNames x{1000, 256, 8, 132, 2048};
  EXPECT_EQ(evaluate("(n + block - 1) / block", x), 4u);
  EXPECT_EQ(evaluate("(n + 2 * block - 1) / (2 * block)", x), 2u);
  EXPECT_EQ(evaluate("block * sizeof(value_t)", x), 2048u);
  EXPECT_EQ(evaluate("sizeof(float) + sizeof(double) + sizeof(int)", x), 16u);
  EXPECT_EQ(evaluate("min(n / block, sms * (threads_per_sm / block))", x), 3u);
  EXPECT_EQ(evaluate("max(1, n % 7)", x), 6u);  // 1000 = 142 * 7 + 6
  EXPECT_EQ(evaluate("  7 - 2 - 1 ", x), 4u);   // left to right
  EXPECT_EQ(evaluate("2 * 3 + 4 * 5", x), 26u);
}

TEST(OwnExpr, GridRulesMatchCeilingDivisionOnRandomSizes) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (int i = 0; i < 500; ++i) {
    const std::uint64_t n = rng() % (std::uint64_t(1) << 33), b = std::uint64_t(1) << (5 + rng() % 6);
    const ExprNames x{n, b, 4, 1 + rng() % 200, 2048};
    ASSERT_EQ(evaluate("(n + block - 1) / block", x), (n + b - 1) / b) << n << " " << b;
    ASSERT_EQ(evaluate("(n + 2 * block - 1) / (2 * block)", x), (n + 2 * b - 1) / (2 * b)) << n << " " << b;
    ASSERT_EQ(evaluate("min(n, sms)", x), std::min(n, x.sms));
  }
}

TEST(OwnExpr, RefusesInWordsWhatDoesNotEvaluate) {
  const ExprNames x{1000, 256, 4, 132, 2048};
  EXPECT_NE(error_of([&] { evaluate("n / (block - block)", x); }).find("division by zero"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("n % 0", x); }).find("division by zero"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("block - n", x); }).find("below 0"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("warps * 2", x); }).find("unknown name 'warps'"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("9223372036854775808", x); }).find("past 2^63"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("4294967296 * 4294967296", x); }).find("past 2^63"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("n +", x); }).find("ends early"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("(n", x); }).find("expected ')'"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("n n", x); }).find("unexpected 'n'"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate("sizeof(char)", x); }).find("sizeof takes"), std::string::npos);
  EXPECT_NE(error_of([&] { evaluate(std::string(40, '(') + "1" + std::string(40, ')'), x); }).find("nested"),
            std::string::npos);
  EXPECT_NE(error_of([&] { evaluate(std::string(300, '1'), x); }).find("longer than"), std::string::npos);
}

TEST(OwnFile, EveryStarterNamesItsKernelAndLaunch) {
  const std::vector<std::pair<std::string, std::string>> starters = {
      {"reduce0", "reduce0"},         {"reduce1", "reduce1"},           {"reduce2", "reduce2"},
      {"reduce3", "reduce3"},         {"reduce4", "reduce4"},           {"reduce5", "reduce5<128>"},
      {"reduce6", "reduce6<128>"},    {"warp-shuffle", "warp_shuffle"}, {"template", "my_reduce"},
      {"grid-sync", "grid_sync<128>"}};
  for (const auto& [file, name] : starters) {
    const std::string_view text = embedded::own_file(file);
    ASSERT_FALSE(text.empty()) << file;
    const own::OwnLaunch l = parse_launch(text, file + ".cu");
    EXPECT_EQ(l.name_expression(128), name) << file;
    EXPECT_EQ(l.block, 256) << file;
    EXPECT_EQ(l.until_one, file != "grid-sync") << file;  // one cooperative launch
    EXPECT_EQ(l.cooperative, file == "grid-sync") << file;
    EXPECT_EQ(l.outputs(5), file == "grid-sync" ? 6u : 5u) << file;
    EXPECT_GT(l.kernel_line, 0) << file;
  }
}

TEST(OwnFile, RefusesABadLaunchLineNamingFileAndLine) {
  const std::string ok = "//! kernel: k\n//! grid: n\n";
  EXPECT_EQ(parse_launch(ok, "a.cu").grid, "n");
  EXPECT_EQ(parse_launch(ok, "a.cu").shared, "0");
  const auto err = [](const std::string& text) { return error_of([&] { parse_launch(text, "a.cu"); }); };
  EXPECT_EQ(err("//! grid: n\n"), "a.cu:2: no '//! kernel: NAME' line");
  EXPECT_EQ(err("//! kernel: k\n"), "a.cu:2: no '//! grid: EXPRESSION' line");
  EXPECT_EQ(err(ok + "//! kernel: j\n"), "a.cu:3: kernel: given twice (first on line 1)");
  EXPECT_EQ(err(ok + "//! threads: 4\n"),
            "a.cu:3: unknown key 'threads' (kernel, block, grid, shared, passes, launch)");
  EXPECT_TRUE(parse_launch(ok + "//! launch: cooperative\n", "a.cu").cooperative);
  EXPECT_FALSE(parse_launch(ok, "a.cu").cooperative);
  EXPECT_EQ(
      err(ok + "//! launch: sideways\n"),
      "a.cu:3: launch: 'cooperative' (every block resident at once) is the one kind a file names, not 'sideways'");
  EXPECT_EQ(err(ok + "//! launch: cooperative\n//! launch: cooperative\n"),
            "a.cu:4: launch: given twice (first on line 3)");
  EXPECT_EQ(err(ok + "//! block: 0\n"), "a.cu:3: block: 0 threads; a block takes 1 to 1024");
  EXPECT_EQ(err(ok + "//! block: 2048\n"), "a.cu:3: block: 2048 threads; a block takes 1 to 1024");
  EXPECT_EQ(err(ok + "//! block: 25x\n"), "a.cu:3: block: a number of threads, not '25x'");
  EXPECT_EQ(err(ok + "//! passes: twice\n"), "a.cu:3: passes: 'until one' or 'one', not 'twice'");
  EXPECT_EQ(err("//! kernel: k<T>\n//! grid: n\n"), "a.cu:1: kernel: 'k<T>' is not a function name (or name<block>)");
  EXPECT_EQ(err("//! kernel k\n"), "a.cu:1: expected '//! key: value'");
  EXPECT_NE(err("//! kernel: k\n//! grid: n / (block - block)\n").find("a.cu:2: a division by zero"),
            std::string::npos);
  EXPECT_NE(err(std::string(own::kMaxSourceBytes + 1, ' ')).find("a.cu:1: the file is"), std::string::npos);
  // Text from the file reaches the message escaped.
  EXPECT_EQ(err(ok + "//! \x1b[31m: x\n").find('\x1b'), std::string::npos);
}

// The editor's marks: the lines of a message that name the student's file, whoever's folder.
TEST(OwnFile, LineMessagesKeepOnlyTheStudentsLines) {
  const std::string said =
      "/tmp/x/mine.cu:12: error: expected an expression\n"
      "reduction_lab.cuh:80: note: in the header\n"
      "mine.cu:7:   grid: unknown name 'q'\n"
      "mine.cu:0: not a line\nmine.cu:99999999999: too far\nmine.cu:5 no colon\nnotmine.cu:3: other\n"
      "2 errors detected";
  const auto m = own::line_messages(said, "/home/s/kernels/mine.cu");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].line, 12);
  EXPECT_EQ(m[0].text, "error: expected an expression");
  EXPECT_EQ(m[1].line, 7);
  EXPECT_EQ(m[1].text, "grid: unknown name 'q'");
  EXPECT_TRUE(own::line_messages(said, "").empty());
}

TEST(OwnNvrtc, MapsNvrtcLogLinesToFileColonLine) {
  EXPECT_EQ(own::map_log("a.cu(12): error: x is undefined\n"), "a.cu:12: error: x is undefined\n");
  EXPECT_EQ(own::map_log("a (b).cu(3): warning: w\n\n"), "a (b).cu:3: warning: w\n");
  EXPECT_EQ(own::map_log("1 error detected in the compilation of \"a.cu\".\n"),
            "1 error detected in the compilation of \"a.cu\".\n");
  EXPECT_EQ(own::map_log("a.cu(1): \x1b[2J\n").find('\x1b'), std::string::npos);
}

TEST(OwnNvrtc, EveryStarterCompilesToPtxForEveryType) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  for (std::string_view file : embedded::own_file_names()) {
    if (file == "reduction_lab") continue;
    const std::string text(embedded::own_file(file));
    const own::OwnLaunch l = parse_launch(text, std::string(file) + ".cu");
    for (const char* type : {"float", "int", "double", "half", "bf16"}) {
      const own::Compiled c = own::compile({text, std::string(file) + ".cu", l.name_expression(256), type, 0});
      EXPECT_NE(c.ptx.find(".entry " + c.lowered), std::string::npos) << file << " " << type;
      EXPECT_EQ(c.log, "") << file << " " << type;
    }
  }
}

// Timed kernels are compiled without the trace (RL_UNTRACED): no test of the traced block at the
// barriers, no write to the sink; traced ones have both.
TEST(OwnNvrtc, TheTimedBuildCarriesNoTrace) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  for (const char* file : {"reduce2", "reduce4", "warp-shuffle"}) {
    own::CompileRequest c{std::string(embedded::own_file(file)), std::string(file) + ".cu", "", "float", 0};
    c.name_expression = own::parse_launch(c.source, c.file).name_expression(256);
    const std::string traced = own::compile(c).ptx;
    c.untraced = true;
    const std::string timed = own::compile(c).ptx;
    EXPECT_NE(traced.find("[rl_traced_block]"), std::string::npos) << file;
    EXPECT_EQ(timed.find("[rl_traced_block]"), std::string::npos) << file;
    EXPECT_EQ(timed.find("[rl_sink"), std::string::npos) << file;
    const auto bars = [](const std::string& ptx) {
      std::size_t n = 0;
      for (std::size_t at = ptx.find("bar.sync"); at != std::string::npos; at = ptx.find("bar.sync", at + 1)) ++n;
      return n;
    };
    EXPECT_LT(bars(timed), bars(traced)) << file;  // the header's second barrier after each copy is gone
  }
}

TEST(OwnNvrtc, AnErrorNamesTheStudentsLine) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  std::string text(embedded::own_file("reduce2"));
  const std::size_t at = text.find("  if (tid == 0) out[blockIdx.x]");
  ASSERT_NE(at, std::string::npos);
  const int line = 1 + int(std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n'));
  text.insert(at, "  undefined_name = 1;\n");
  const std::string e = error_of([&] { own::compile({text, "mine.cu", "reduce2", "float", 0}); });
  EXPECT_NE(e.find("mine.cu:" + std::to_string(line) + ": error: identifier \"undefined_name\" is undefined"),
            std::string::npos)
      << e;
  const std::string missing = error_of([&] {
    own::compile({std::string(embedded::own_file("reduce2")), "mine.cu", "reduce9", "float", 0});
  });
  EXPECT_NE(missing.find("mine.cu: no kernel 'reduce9'"), std::string::npos) << missing;
  EXPECT_NE(error_of([&] {
              own::compile({"", "x.cu", "k", "char", 0});
            }).find("int, float, double, half or bf16, not char"),
            std::string::npos);
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

std::vector<unsigned char> as_bytes(const std::vector<double>& v, const std::string& type) {
  return own::bytes_of(v, type);
}

double value_at(const std::vector<unsigned char>& bytes, std::size_t i, const std::string& type) {
  const std::size_t size = own::value_bytes(type);
  return own::value_at(bytes.data() + i * size, type);
}

// The starters reduce0..reduce6 are Harris' seven kernels as the catalog writes them: on the CPU
// path, through NVRTC's PTX and the interpreter, every stage's shared memory (a barrier's, or the
// last warp's rl_warp_stage()), every block's result and the final value equal the catalog
// model's, bit for bit.
TEST(OwnCpu, StartersEqualTheCatalogModelStageByStage) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"reduce0", "interleaved-divergent"}, {"reduce1", "interleaved-bank-conflicts"}, {"reduce2", "sequential"},
      {"reduce3", "first-add-on-load"},     {"reduce4", "unroll-last-warp"},           {"reduce5", "complete-unroll"},
      {"reduce6", "multiple-per-thread"}};
  for (const auto& [file, id] : pairs)
    for (const char* type : {"float", "int", "half", "bf16"})  // half and bf16 add in themselves, as value_t
      for (const std::size_t n : {std::size_t(1), std::size_t(777), std::size_t(4096 + 3)}) {
        SCOPED_TRACE(file + " " + type + " n=" + std::to_string(n));
        const core::DType dt = own::own_dtype(type);
        if (core::is_narrow(dt) && !backend::kernel_row(id).narrow) continue;  // the model's rows that take them
        const std::vector<double> input = test::random_values(n, dt, seed + n);
        backend::TraceRequest req;
        req.algorithm = id, req.block = 128, req.input = input, req.type = dt, req.accumulate = core::Accumulate::Same;
        req.trace_block = n > 300 ? 1 : 0;
        const core::Trace model = backend::make_sim_backend()->trace(req);
        own::OwnRequest r;
        r.source = std::string(embedded::own_file(file)), r.file = file + ".cu", r.value_type = type;
        r.input = as_bytes(input, type), r.block = 128, r.trace_block = unsigned(req.trace_block);
        const own::OwnRun run = own::run_on_cpu(r);
        ASSERT_TRUE(run.findings.empty()) << run.findings[0].text;
        ASSERT_EQ(run.stages.size(), model.stages.size());
        for (std::size_t k = 0; k < run.stages.size(); ++k) {
          ASSERT_TRUE(model.stages[k].shared.has_value());
          for (std::size_t i = 0; i < 128; ++i)
            ASSERT_EQ(value_at(run.stages[k].shared, i, type), (*model.stages[k].shared)[i])
                << "stage " << k << " cell " << i;
          if (k > 0) {
            EXPECT_EQ(run.stages[k].param, model.stages[k].param) << "stage " << k;
          }
        }
        ASSERT_EQ(run.grids[0], model.grid);
        for (std::size_t b = 0; b < model.partials.size(); ++b)
          ASSERT_EQ(value_at(run.first_outputs, b, type), model.partials[b]) << "block " << b;
        // multiple-per-thread's second pass is a kernel of its own: its order of adds differs from
        // reduce6's second pass over the same partials, so a float sum may differ in its last bits.
        if (file != "reduce6" || dt == core::DType::Int) {
          ASSERT_EQ(value_at(run.result, 0, type), model.result);
        }
      }
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

// A small kernel file around `body` (a block of 128 threads, one pass of one block).
std::string kernel_file(const std::string& body, const std::string& shared = "block * sizeof(value_t)") {
  return "#include \"reduction_lab.cuh\"\n"
         "//! kernel: k\n//! block: 128\n//! grid: 1\n//! shared: " +
         shared +
         "\n//! passes: one\n"
         "__global__ void k(const value_t* in, value_t* out, unsigned int n) {\n"
         "  extern __shared__ value_t sdata[];\n"
         "  const unsigned int tid = threadIdx.x;\n" +
         body + "}\n";
}

own::OwnRun run_file(const std::string& text, std::size_t n = 128) {
  own::OwnRequest r;
  r.source = text, r.file = "bad.cu";
  r.input = as_bytes(std::vector<double>(n, 1.0), "float");
  r.step_budget = 2'000'000;
  return own::run_on_cpu(r);
}

// Each of the checker's findings ends the run in words naming the thread, the block and the line
// (line 10 is the body's first).
TEST(OwnCpu, FindingsNameThreadBlockAndLine) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto finding = [](const std::string& body, const std::string& shared = "block * sizeof(value_t)") {
    const own::OwnRun r = run_file(kernel_file(body, shared));
    return r.findings.empty() ? std::string("(none)") : r.findings[0].kind + ": " + r.findings[0].text;
  };
  // Past the input: thread 127 reads in[127 + 64] of 128.
  std::string f = finding("  out[0] = in[tid + 64];\n");
  EXPECT_NE(f.find("out-of-bounds: thread 64 of block 0 at line 10: 4 bytes at global address"), std::string::npos)
      << f;
  EXPECT_NE(f.find("past the end of the input, 512 bytes"), std::string::npos) << f;
  // Past the shared memory the launch line gives.
  f = finding("  sdata[tid + 1] = in[tid];\n");
  EXPECT_NE(
      f.find(
          "out-of-bounds: thread 127 of block 0 at line 10: shared memory byte 512 (4 bytes) is past the block's 512"),
      std::string::npos)
      << f;
  // A shared cell nobody wrote.
  f = finding("  sdata[tid] = in[tid];\n  __syncthreads();\n  if (tid == 0) out[0] = sdata[tid + 128];\n",
              "2 * block * sizeof(value_t)");
  EXPECT_NE(f.find("uninitialised-read: thread 0 of block 0 at line 12: reads shared memory byte 512"),
            std::string::npos)
      << f;
  // A loop that never ends.
  f = finding("  for (unsigned int i = tid; i < n + 1; i += 0 * n) sdata[tid] = in[0];\n");
  EXPECT_NE(f.find("step-budget: "), std::string::npos) << f;
  EXPECT_NE(f.find("at line 10: past the step budget of 2000000"), std::string::npos) << f;
  // Half the block at one barrier, half at another.
  f = finding(
      "  sdata[tid] = in[tid];\n  if (tid < 64) { __syncthreads(); sdata[tid] += 1; }\n"
      "  else { sdata[tid] += 2; __syncthreads(); }\n  if (tid == 0) out[0] = sdata[0];\n");
  EXPECT_NE(f.find("divergent-barrier: threads 0 and 64 of block 0 wait at different barriers (lines 11 and 12)"),
            std::string::npos)
      << f;
  // A shuffle whose mask names lanes that have left.
  f = finding(
      "  value_t v = in[tid];\n  if (tid % 32 >= 16) return;\n"
      "  v += __shfl_down_sync(0xffffffffu, v, 1);\n  if (tid == 0) out[0] = v;\n");
  EXPECT_NE(f.find("shuffle-mask: thread 0 of block 0 at line 12: the mask names lane 16, which has exited"),
            std::string::npos)
      << f;
  // And a correct kernel has none.
  EXPECT_EQ(finding("  sdata[tid] = in[tid];\n  __syncthreads();\n  if (tid == 0) out[0] = sdata[5];\n"), "(none)");
}

}  // namespace
}  // namespace rl

namespace rl {
namespace {

// The text with line `number` (1-based) emptied, so the lines after keep their numbers.
std::string blank_line(const std::string& text, int number) {
  std::size_t at = 0;
  for (int l = 1; l < number; ++l) at = text.find('\n', at) + 1;
  return text.substr(0, at) + "// (taken out)" + text.substr(text.find('\n', at));
}

// Every starter runs on the CPU path without a finding and sums ints exactly, over sizes that are
// not multiples of the block, more than one pass, one element, and both block sizes.
TEST(OwnCpu, EveryStarterIsRaceFreeAndExact) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (std::string_view file : embedded::own_file_names()) {
    if (file == "reduction_lab" || file == "template") continue;
    for (const int block : {128, 256})
      for (const std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(4096 + 7)}) {
        SCOPED_TRACE(std::string(file) + " block " + std::to_string(block) + " n " + std::to_string(n));
        const std::vector<double> input = test::random_values(n, core::DType::Int, seed + n);
        own::OwnRequest r;
        r.source = std::string(embedded::own_file(file)), r.file = std::string(file) + ".cu", r.value_type = "int";
        r.input = as_bytes(input, "int"), r.block = block;
        const own::OwnRun run = own::run_on_cpu(r);
        ASSERT_TRUE(run.findings.empty()) << run.findings[0].kind << ": " << run.findings[0].text;
        std::int64_t exact = 0;
        for (double v : input) exact += std::int64_t(v);
        ASSERT_EQ(value_at(run.result, 0, "int"), double(std::int32_t(std::uint32_t(exact))));
      }
  }
}

// A barrier or a __syncwarp() taken out is a race, named by its two lines.
TEST(OwnCpu, AMissingBarrierIsARaceNamingBothLines) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto race_of = [](const std::string& file, int line, std::size_t n = 1000) {
    const std::string text = blank_line(std::string(embedded::own_file(file)), line);
    const own::OwnRun r = run_file(text, n);
    return r.findings.empty() ? std::string("(none)") : r.findings[0].kind + ": " + r.findings[0].text;
  };
  // reduce2's loop without its barrier (line 22): thread t reads cell t + s (line 21), which
  // thread t + s wrote in the step before.
  std::string f = race_of("reduce2", 22);
  EXPECT_NE(f.find("race: block 0: thread "), std::string::npos) << f;
  EXPECT_NE(f.find(" writes shared byte "), std::string::npos) << f;
  EXPECT_NE(f.find(" at line 21 and thread "), std::string::npos) << f;
  EXPECT_NE(f.find(" reads it at line 21 with no barrier between them: a race"), std::string::npos) << f;
  // reduce4's last warp without the __syncwarp() between reading (line 33) and writing (line 35).
  f = race_of("reduce4", 34);
  EXPECT_NE(f.find(" reads shared byte "), std::string::npos) << f;
  EXPECT_NE(f.find(" at line 33 and thread "), std::string::npos) << f;
  EXPECT_NE(f.find(" writes it at line 35 with no barrier between them"), std::string::npos) << f;
  // ... and without the one after writing (line 36): the next step reads what a lane wrote, though
  // rl_warp_stage() (line 37) makes the traced warp wait around its copy.
  f = race_of("reduce4", 36);
  EXPECT_NE(f.find(" writes shared byte "), std::string::npos) << f;
  EXPECT_NE(f.find(" at line 35 and thread "), std::string::npos) << f;
  EXPECT_NE(f.find(" reads it at line 33 with no barrier between them"), std::string::npos) << f;
  // ... also where the traced block is the only one (300 elements: one block of 256).
  f = race_of("reduce4", 36, 300);
  EXPECT_NE(f.find(" reads it at line 33 with no barrier between them"), std::string::npos) << f;
  // The starter itself has none.
  EXPECT_EQ(race_of("reduce4", 1), "(none)");
}

// A run of a starter becomes a trace like ours: its barriers as stages at their lines, the
// traced block's shared memory as recorded, the file as its code; and the JSON reads back equal.
TEST(OwnTrace, AStarterRunIsATraceLikeAnyOther) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  own::OwnRequest r;
  r.source = std::string(embedded::own_file("reduce3")), r.file = "reduce3.cu", r.value_type = "float";
  r.input = as_bytes(test::random_values(1000, core::DType::Float, seed), "float");
  r.block = 128, r.trace_block = 2;
  const own::OwnRun run = own::run_on_cpu(r);
  const core::Trace t = own::own_trace(r, run, core::Op::Sum);
  EXPECT_EQ(t.algorithm, "own:reduce3");
  EXPECT_EQ(t.backend, "sim");
  EXPECT_NE(t.device.find("not a GPU"), std::string::npos);
  EXPECT_EQ(t.size, 1000u);
  EXPECT_EQ(t.grid, run.grids[0]);
  EXPECT_EQ(t.geometry.indexing, kernels::Indexing::Own);
  ASSERT_EQ(t.stages.size(), run.stages.size());
  ASSERT_FALSE(t.stages.empty());
  for (std::size_t k = 0; k < t.stages.size(); ++k) {
    EXPECT_EQ(t.stages[k].tag, kernels::kTagBarrier);
    EXPECT_EQ(t.stages[k].line, run.stages[k].line);
    ASSERT_TRUE(t.stages[k].shared);
    ASSERT_EQ(t.stages[k].shared->size(), 128u);
    for (std::size_t i = 0; i < 128; ++i)
      ASSERT_EQ((*t.stages[k].shared)[i], value_at(run.stages[k].shared, i, "float"));
  }
  ASSERT_FALSE(t.code.lines.empty());
  EXPECT_EQ(t.code.lines[0], "// Harris' kernel 4: first add during load.");
  EXPECT_EQ(t.stages[1].param, 64);  // rl_param(s) in the loop's first step at block 128
  EXPECT_TRUE(t.findings.empty()) << t.findings[0].text;
  EXPECT_EQ(t.result, value_at(run.result, 0, "float"));
  EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);
}

// reduce4's last warp: each step a stage of its own, ended by rl_warp_stage() at its line.
TEST(OwnTrace, TheLastWarpsStepsAreStagesOfTheirOwn) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  own::OwnRequest r;
  r.source = std::string(embedded::own_file("reduce4")), r.file = "reduce4.cu", r.value_type = "int";
  r.input = as_bytes(test::random_values(700, core::DType::Int, 7), "int");
  r.block = 128;
  const core::Trace t = own::own_trace(r, own::run_on_cpu(r), core::Op::Sum);
  ASSERT_EQ(t.stages.size(), 8u);  // the load, the step at 64, then 32, 16, 8, 4, 2, 1 in the warp
  for (std::size_t k = 0; k < 8; ++k) {
    const int stride = k == 0 ? 0 : 128 >> k;
    EXPECT_EQ(t.stages[k].tag, k < 2 ? kernels::kTagBarrier : kernels::kTagWarpStage) << "stage " << k;
    EXPECT_EQ(t.stages[k].param, stride) << "stage " << k;
    if (k < 2) continue;
    EXPECT_EQ(t.stages[k].label, "rl_warp_stage(), rl_param " + std::to_string(stride));
    EXPECT_EQ(t.code.lines[std::size_t(t.stages[k].line - 1)].find("rl_warp_stage();"), 6u);
  }
}

// The value is checked: ints exactly, float sums within the bound of any order of adds.
TEST(OwnTrace, AWrongValueIsAFindingNamingTheSize) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const auto findings_of = [&](const std::string& last, const std::string& type) {
    own::OwnRequest r;
    r.source = kernel_file("  if (tid == 0) {\n    value_t s = 0;\n    for (unsigned int i = 0; " + last +
                           "; ++i) s += in[i];\n    out[0] = s;\n  }\n");
    r.file = "serial.cu", r.value_type = type;
    auto values = test::random_values(777, *core::parse_dtype(type), seed);
    // The last element is the one left out: it must be past what the check forgives. A 0 leaves an
    // int sum right, and a float under the bound ((n - 1)u sum|x|, about 0.02 here) leaves a float
    // sum within it (REDLAB_TEST_SEED=15445164374942794182 drew such a float).
    values.back() = 7;
    r.input = as_bytes(values, type);
    return own::own_trace(r, own::run_on_cpu(r), core::Op::Sum).findings;
  };
  for (const std::string type : {"int", "float", "double"}) {
    SCOPED_TRACE(type);
    EXPECT_TRUE(findings_of("i < n", type).empty());
    const auto wrong = findings_of("i + 1 < n", type);  // the last element left out
    ASSERT_EQ(wrong.size(), 1u);
    EXPECT_EQ(wrong[0].kind, "wrong-result");
    EXPECT_NE(wrong[0].text.find("n = 777, block 128"), std::string::npos) << wrong[0].text;
  }
}

// A kernel that only works for one block, or only where n is a multiple of its block, passes at
// the size it was traced at and is told which other size failed and how to run it again.
TEST(OwnCheck, OtherSizesNameTheOneThatFailed) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  // A seed whose input at n = 129 has a last element that is not 0: where it was 0 the kernel that
  // sums one block's elements left the right sum there (REDLAB_TEST_SEED=777, CI of 2026-12-05).
  auto seed = test::test_seed() % 1000 + 1;
  while (core::generate_input({core::InputSpec::Kind::Random, seed, "", false}, 129, core::DType::Int)[128] == 0)
    ++seed;
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::string tree =
      "  __syncthreads();\n  for (unsigned int s = 64; s > 0; s >>= 1) {\n"
      "    if (tid < s) sdata[tid] += sdata[tid + s];\n    __syncthreads();\n  }\n"
      "  if (tid == 0) out[0] = sdata[0];\n";
  const auto findings_of = [&](const std::string& load, std::size_t traced) {
    own::OwnRequest r;
    r.source = kernel_file(load + tree), r.file = "one-block.cu", r.value_type = "int";
    r.input = own::bytes_of(test::random_values(traced, core::DType::Int, seed), "int");
    EXPECT_TRUE(own::own_trace(r, own::run_on_cpu(r), core::Op::Sum).findings.empty());
    return own::check_other_sizes(r, false, core::Op::Sum, seed);
  };
  const std::string again = " --input random:" + std::to_string(seed) + " runs it again): ";
  auto f = findings_of("  sdata[tid] = tid < n ? in[tid] : value_t(0);\n", 100);  // one block's elements
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, "wrong-size");
  EXPECT_EQ(f[0].text.rfind("at n = 129 (--size 129" + again + "the kernel left ", 0), 0u) << f[0].text;
  EXPECT_EQ(f[1].text.rfind("at n = 65539 (--size 65539" + again, 0), 0u) << f[1].text;
  f = findings_of("  sdata[tid] = in[tid];\n", 128);  // no guard: n a multiple of the block
  ASSERT_EQ(f.size(), 3u);
  EXPECT_EQ(f[0].text.rfind("at n = 1 (--size 1" + again, 0), 0u) << f[0].text;
  EXPECT_NE(f[0].text.find("out-of-bounds: thread 1 of block 0 at line 10"), std::string::npos) << f[0].text;
  EXPECT_EQ(own::check_sizes(256, true).back(), (std::size_t(1) << 24) + 3);

  // random:940693 draws 0 as in[128] at n = 129 (CI of 2026-12-06): the second draw names it.
  seed = 940693;
  f = findings_of("  sdata[tid] = tid < n ? in[tid] : value_t(0);\n", 100);
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0].text.rfind("at n = 129 (--size 129 --input random:940694 runs it again): ", 0), 0u) << f[0].text;
  ASSERT_EQ(f.size(), 2u);  // at 2^16 + 3 the first draw fails, and is named
  EXPECT_EQ(f[1].text.rfind("at n = 65539 (--size 65539 --input random:940693 runs it again): ", 0), 0u) << f[1].text;
}

// The lesson says the sizes this path uses, from its constants: nothing left unfilled.
TEST(OwnCheck, TheLessonSaysTheSizesTheChecksUse) {
  const core::AlgorithmInfo& own = core::write_your_own();
  const std::string text = own::own_lesson(own.brief + "\n" + own.detail);
  EXPECT_EQ(text.find('{'), std::string::npos) << text;
  EXPECT_NE(text.find("(up to 2^20 elements)"), std::string::npos) << text;
  EXPECT_NE(text.find("at 2^16 + 3 elements and, on a GPU, at 2^24 + 3,"), std::string::npos) << text;
  EXPECT_EQ(own::own_lesson("{own_compared} {own_checked_odd}"), "2^20 2^16 + 3");
  EXPECT_EQ(own::check_sizes(64, false), (std::vector<std::size_t>{1, 65, own::kCheckedOdd}));
}

// The starters with the grid-stride loops pass at every checked size, ints exactly.
TEST(OwnCheck, GridStrideStartersPassEverySize) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed() % 1000 + 1;
  SCOPED_TRACE("seed " + std::to_string(seed));
  for (const char* name : {"reduce6", "warp-shuffle"}) {
    own::OwnRequest r;
    r.source = std::string(embedded::own_file(name)), r.file = std::string(name) + ".cu", r.value_type = "int";
    r.input = own::bytes_of(test::random_values(1000, core::DType::Int, seed), "int");
    const auto f = own::check_other_sizes(r, false, core::Op::Sum, seed);
    EXPECT_TRUE(f.empty()) << name << ": " << f[0].text;
  }
}

// trace --kernel: the same JSON as ours; a finding exits 1 with the JSON still written; a compile
// error exits 1 naming FILE:LINE; a type the file cannot take is a usage error.
TEST(OwnCli, TraceTakesAKernelFile) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const std::string starter = std::string(REDLAB_SOURCE_DIR) + "/assets/own/reduce3.cu";
  auto r = test::run_cli({"trace", "--kernel", starter, "--backend", "sim", "--size", "1000", "--type", "int"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["algorithm"], "own:reduce3");
  EXPECT_EQ(j["geometry"]["indexing"], "own");
  EXPECT_EQ(j["block"], 256);  // the file's
  EXPECT_FALSE(j.contains("findings"));

  const core::ScratchFolder dir;
  const std::string racy = dir.path() + "/racy.cu", broken = dir.path() + "/broken.cu";
  std::string why;
  ASSERT_TRUE(core::write_file(racy, blank_line(std::string(embedded::own_file("reduce2")), 22), &why)) << why;
  r = test::run_cli({"trace", "--kernel", racy, "--backend", "sim", "--size", "1000", "--type", "int"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("reduction-lab: race: block 0: thread "), std::string::npos) << r.err;
  j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j.contains("findings"));
  EXPECT_EQ(j["findings"][0]["kind"], "race");

  std::string text(embedded::own_file("reduce3"));
  text.replace(text.find("sdata[tid + s];"), 15, "sdata[tid + s]");  // no semicolon
  ASSERT_TRUE(core::write_file(broken, text, &why)) << why;
  r = test::run_cli({"trace", "--kernel", broken, "--backend", "sim"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("broken.cu:"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());

  const std::string one_block = dir.path() + "/one-block.cu";
  text = kernel_file(
      "  sdata[tid] = tid < n ? in[tid] : value_t(0);\n  __syncthreads();\n"
      "  if (tid == 0) { for (int i = 1; i < 128; ++i) sdata[0] += sdata[i]; out[0] = sdata[0]; }\n");
  ASSERT_TRUE(core::write_file(one_block, text, &why)) << why;
  r = test::run_cli({"trace", "--kernel", one_block, "--backend", "sim", "--size", "100", "--type", "int"});
  EXPECT_EQ(r.code, 1);  // right at 100, wrong at 129: the other sizes are checked
  // At 129 it drops one int, which both draws may make 0 (one run in 39601; the fixed-seed case is
  // OwnCheck.OtherSizesNameTheOneThatFailed); at 2^16 + 3 it drops 65411, whose sum is 0 in both
  // draws about once in 10^9.
  const bool at_129 =
      r.err.find("reduction-lab: wrong-size: at n = 129 (--size 129 --input random:") != std::string::npos;
  EXPECT_TRUE(at_129 ||
              r.err.find("reduction-lab: wrong-size: at n = 65539 (--size 65539 --input random:") != std::string::npos)
      << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["findings"][0]["kind"], "wrong-size");

  // bench --kernel times on a GPU only, and reads the file's launch lines first.
  r = test::run_cli({"bench", "--kernel", starter, "--backend", "sim", "--sizes", "2^10"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("a kernel of your own is timed on a GPU only"), std::string::npos) << r.err;
  text = std::string(embedded::own_file("reduce3"));
  text.replace(text.find("//! block: 256"), 14, "//! block: 2000");
  ASSERT_TRUE(core::write_file(broken, text, &why)) << why;
  r = test::run_cli({"bench", "--kernel", broken, "--backend", "sim"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("broken.cu:8: "), std::string::npos) << r.err;

  r = test::run_cli({"trace", "--kernel", starter, "--backend", "sim", "--type", "half", "--format", "text"});
  EXPECT_EQ(r.code, 0) << r.err;  // value_t is reduction_lab.cuh's rl_half; it adds in half
  EXPECT_NE(r.out.find("type=half accumulate=half"), std::string::npos) << r.out;
  r = test::run_cli({"trace", "--backend", "sim"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--kernel FILE"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace rl
