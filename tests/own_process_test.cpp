// A GPU run of a kernel of your own in a process of its own (own_process.h): here the child runs
// the CPU path (--backend sim), which CI has, so the round trip, the errors, the watchdog and Stop
// are all exercised without a GPU. The GPU suite runs the same through --backend cuda.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "app/backend/backend.h"
#include "app/core/embedded.h"
#include "app/own/own_compare.h"
#include "app/core/file_io.h"
#include "app/core/input.h"
#include "app/own/child_process.h"
#include "app/own/own_process.h"
#include "app/own/own_trace.h"
#include "own_support.h"
#include "test_support.h"

namespace rl {
namespace {

own::OwnRequest request(std::string source, const std::string& file, std::size_t n, std::uint64_t seed) {
  const auto values = test::random_values(n, core::DType::Float, seed);
  return own::own_request(std::move(source), "/some/folder/" + file, core::DType::Float, values, 128, 1);
}

own::ProcessOptions sim(double watchdog_s) { return {REDLAB_BINARY, "sim", watchdog_s}; }

TEST(OwnProcess, TheChildsTraceIsTheTraceOfTheSameRunHere) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const own::OwnRequest r = request(std::string(embedded::own_file("reduce3")), "reduce3.cu", 777, seed);
  const core::Trace there = own::trace_in_process(r, core::Op::Sum, sim(60));
  const core::Trace here = own::trace_own(r, false, core::Op::Sum, 0);
  const own::Agreement a = own::agreement(there, here);  // bit for bit, through the JSON and back
  EXPECT_TRUE(a.compared && a.equal) << a.text;
  EXPECT_EQ(there.source, r.file);
  EXPECT_EQ(there.code.lines, here.code.lines);
  EXPECT_EQ(there.code.file, here.code.file);
  EXPECT_TRUE(there.findings.empty());
}

// The window's run comes back alone (--no-check), so that its trace is on screen sooner; the
// checks after it (later_findings here, the child again on a GPU) find what the other sizes show:
// a kernel that adds one block's worth of ints, right at 100 elements and off by a million past
// 128: no drawn int is near a million, so no draw of the element it drops can hide the error.
TEST(OwnProcess, TheRunComesBackAloneAndTheChecksFollow) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const std::string source =
      "#include \"reduction_lab.cuh\"\n//! kernel: k\n//! block: 128\n//! grid: 1\n"
      "//! shared: block * sizeof(value_t)\n//! passes: one\n"
      "__global__ void k(const value_t* in, value_t* out, unsigned int n) {\n"
      "  extern __shared__ value_t sdata[];\n  const unsigned int tid = threadIdx.x;\n"
      "  sdata[tid] = tid < n ? in[tid] : value_t(0);\n  __syncthreads();\n"
      "  if (tid == 0) { for (int i = 1; i < 128; ++i) sdata[0] += sdata[i]; out[0] = sdata[0] + (n > 128) * 1000000; "
      "}\n}\n";
  const auto values = test::random_values(100, core::DType::Int, seed);
  const own::OwnRequest r = own::own_request(source, "/some/folder/one-block.cu", core::DType::Int, values, 128, 0);
  own::ProcessOptions alone = sim(60);
  alone.check = false;
  const core::Trace t = own::trace_in_process(r, core::Op::Sum, alone);
  EXPECT_TRUE(t.findings.empty()) << t.findings[0].text;
  const std::vector<core::Finding> later = own::later_findings(r, false, core::Op::Sum, t, seed);
  ASSERT_FALSE(later.empty());
  EXPECT_EQ(later[0].kind, "wrong-size");
  EXPECT_NE(later[0].text.find("at n = 129"), std::string::npos) << later[0].text;
  const core::Trace checked = own::trace_in_process(r, core::Op::Sum, sim(60));  // the checks' own child
  ASSERT_FALSE(checked.findings.empty());
  EXPECT_EQ(checked.findings[0].kind, "wrong-size");
  EXPECT_NE(checked.findings[0].text.find("at n = 129"), std::string::npos) << checked.findings[0].text;
}

TEST(OwnProcess, ACompileErrorIsSaidAtTheStudentsLine) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  std::string source(embedded::own_file("reduce3"));
  source += "\n__global__ void broken() { int x = ; }\n";
  const auto lines = std::count(source.begin(), source.end(), '\n');
  const std::string said =
      error_of([&] { own::trace_in_process(request(source, "mine.cu", 100, 1), core::Op::Sum, sim(60)); });
  EXPECT_NE(said.find("mine.cu:" + std::to_string(lines) + ":"), std::string::npos) << said;
  EXPECT_EQ(said.find("reduction-lab-run-"), std::string::npos) << said;  // not the temporary folder
}

TEST(OwnProcess, AKernelThatNeverEndsIsStoppedByTheWatchdog) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const std::string source =
      "#include \"reduction_lab.cuh\"\n//! kernel: spin\n//! block: 32\n//! grid: 1\n//! passes: one\n"
      "__global__ void spin(const value_t* in, value_t* out, unsigned int n) {\n"
      "  volatile value_t* o = out;\n  for (unsigned int i = 0;; ++i) *o = in[0] + value_t(i);\n}\n";
  own::OwnRequest spin = request(source, "spin.cu", 64, 2);
  spin.trace_block = 0;
  const auto start = std::chrono::steady_clock::now();
  const std::string said = error_of([&] { own::trace_in_process(spin, core::Op::Sum, sim(1)); });
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(said.find("had not ended after 1 s and was stopped"), std::string::npos) << said;
  EXPECT_LT(s, 10) << "the watchdog took " << s << " s";

  std::atomic<bool> stop{false};
  std::thread pressed([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    stop = true;
  });
  const std::string stopped = error_of([&] { own::trace_in_process(spin, core::Op::Sum, sim(60), &stop); });
  pressed.join();
  EXPECT_EQ(stopped, "the GPU run was stopped");
}

// A standby process (what the window keeps ready on a GPU, so that Run skips CUDA's start): it
// waits, runs the one command whose words it is sent, and ends; a run given one comes back as a
// run in a fresh process does, and one whose standby has ended starts a process of its own.
TEST(OwnProcess, AStandbyRunsTheCommandItIsSentAndEnds) {
  own::Standby version(REDLAB_BINARY);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(version.waiting());
  ASSERT_TRUE(version.send({"--version"}));
  EXPECT_FALSE(version.waiting());
  for (int i = 0; i < 500 && !version.child().poll(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_TRUE(version.child().poll());
  EXPECT_EQ(version.child().poll()->code, 0);
  std::string out, why;
  ASSERT_TRUE(core::read_file(version.at("out.json"), core::files::kTrace, &out, &why)) << why;
  EXPECT_EQ(out.rfind("reduction-lab ", 0), 0u) << out;

  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  const auto seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  const own::OwnRequest r = request(std::string(embedded::own_file("reduce3")), "reduce3.cu", 777, seed);
  const core::Trace here = own::trace_own(r, false, core::Op::Sum, 0);
  const core::Trace there =
      own::trace_in_process(r, core::Op::Sum, sim(60), nullptr, std::make_unique<own::Standby>(REDLAB_BINARY));
  const own::Agreement a = own::agreement(there, here);
  EXPECT_TRUE(a.compared && a.equal) << a.text;
  EXPECT_EQ(there.source, r.file);
  // A drawn input goes over as how it was drawn, not as 777 numbers: the child draws the same.
  const core::InputSpec spec{core::InputSpec::Kind::Random, seed % 100000 + 1, "", false};
  own::OwnRequest drawn = own::own_request(std::string(embedded::own_file("reduce3")), "reduce3.cu", core::DType::Float,
                                           core::generate_input(spec, 777, core::DType::Float), 128, 1);
  drawn.input_spec = core::to_string(spec);
  const core::Trace drawn_here = own::trace_own(drawn, false, core::Op::Sum, 0);
  EXPECT_TRUE(own::agreement(own::trace_in_process(drawn, core::Op::Sum, sim(60)), drawn_here).equal);
  drawn.input_spec = "random:" + std::to_string(spec.seed + 1);  // the words are what the child uses
  EXPECT_FALSE(own::agreement(own::trace_in_process(drawn, core::Op::Sum, sim(60)), drawn_here).equal);
  auto ended = std::make_unique<own::Standby>(REDLAB_BINARY);
  ended->child().stop();
  const core::Trace fresh = own::trace_in_process(r, core::Op::Sum, sim(60), nullptr, std::move(ended));
  EXPECT_TRUE(own::agreement(fresh, here).equal);
}

// Timing in a process of its own: without a GPU the child refuses, and its words come back (the
// GPU suite times a starter this way).
TEST(OwnProcess, TimingWithoutAGpuSaysWhy) {
  if (!nvrtc_or_skip()) GTEST_SKIP() << "NVRTC does not load here";
  if (backend::select(backend::Choice::Auto).backend->name() == "cuda")
    GTEST_SKIP() << "a GPU is here: the GPU suite times through the child";
  const own::OwnRequest r = request(std::string(embedded::own_file("reduce3")), "mine.cu", 100, 3);
  const std::string said = error_of([&] { own::bench_in_process(r, {"--type", "float", "--sizes", "1000"}, sim(60)); });
  EXPECT_NE(said.find("GPU"), std::string::npos) << said;
  EXPECT_EQ(said.find("reduction-lab-run-"), std::string::npos) << said;
}

TEST(OwnProcess, WithoutTheProgramItSaysSo) {
  own::ProcessOptions o = sim(1);
  o.program = "/nonexistent/reduction-lab";
  const std::string said = error_of([&] { own::trace_in_process(request("x", "a.cu", 1, 1), core::Op::Sum, o); });
  EXPECT_NE(said, "(no error)");
  EXPECT_FALSE(own::this_program().empty());
}

}  // namespace
}  // namespace rl
