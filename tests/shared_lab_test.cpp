// Issue 30: a lab where students share a machine, /tmp and files. One test a finding; each
// failed on the code before the change (the closing note names them).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "app/cli/cli.h"
#include "app/core/file_io.h"
#include "app/core/input.h"
#include "app/core/race.h"
#include "app/core/settings.h"
#include "app/core/text.h"
#include "app/core/trace.h"
#include "cli_support.h"
#include "test_support.h"

using namespace rl;
namespace fs = std::filesystem;

namespace {

constexpr core::FileKind kSmall{"test file", 1024};

fs::path fresh_dir(const std::string& name) {
  const auto dir = fs::path(testing::TempDir()) / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// The real binary through sh: exit code (128 + N where signal N ended it) and stderr.
int shell(const std::string& cmd, std::string* err) {
  const auto err_file = fs::path(testing::TempDir()) / "redlab_shared_lab_err.txt";
  const int status = std::system((cmd + " 2>" + err_file.string()).c_str());
  *err = slurp(err_file);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A shipped race recording as JSON, to be spoiled one field at a time.
nlohmann::json recording() {
  return nlohmann::json::parse(slurp(REDLAB_SOURCE_DIR "/assets/races/missing-syncthreads.json"));
}

// read_race_file of j written to a file: the error, or "" when it was accepted.
std::string refusal(const nlohmann::json& j) {
  const auto path = fs::path(testing::TempDir()) / "redlab_spoiled.json";
  std::ofstream(path) << j.dump();
  try {
    core::read_race_file(path.string());
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace

// Finding 1: a link another user plants at the old guessable temporary name (PATH.tmp-PID) is
// neither followed nor replaced; the output is written and nothing is left beside it.
TEST(SharedLab, TemporaryFilesCannotBeGuessedOrFollowed) {
  const auto dir = fresh_dir("redlab_tmp_names");
  const auto victim = dir / "victim.txt", out = dir / "out.png";
  std::ofstream(victim) << "someone's work\n";
  fs::create_symlink(victim, dir / ("out.png.tmp-" + std::to_string(::getpid())));
  std::string why;
  ASSERT_TRUE(core::write_file(out.string(), "PNG bytes", &why)) << why;
  EXPECT_EQ(slurp(victim), "someone's work\n");
  EXPECT_EQ(slurp(out), "PNG bytes");
  EXPECT_EQ(names_in(dir), (std::vector<std::string>{"out.png", "out.png.tmp-" + std::to_string(::getpid()), "victim.txt"}));
  // Scratch folders: new each time, private, gone with their owner.
  std::string first;
  {
    const core::ScratchFolder a, b;
    first = a.path();
    EXPECT_NE(a.path(), b.path());
    struct stat st {};
    ASSERT_EQ(::stat(a.path().c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0700u);
    std::ofstream(fs::path(a.path()) / "frame.png") << "x";
  }
  EXPECT_FALSE(fs::exists(first));
}

// Finding 2: only the program's own settings file is set aside; a scene the user named is
// reported and left where it is, as it is.
TEST(SharedLab, NamedScenesAreReportedAndLeftAlone) {
  const auto dir = fresh_dir("redlab_named_scene");
  const auto notes = dir / "notes.txt";
  std::ofstream(notes) << "my notes, not JSON\n";
  const auto loaded = core::load_settings(notes.string(), core::Whose::Named);
  EXPECT_NE(loaded.problem.find("is broken"), std::string::npos) << loaded.problem;
  EXPECT_EQ(slurp(notes), "my notes, not JSON\n");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"notes.txt"});
}

// Finding 3: escape sequences, binary and a 100 KB line never reach the terminal raw.
TEST(SharedLab, UntrustedTextIsEscapedAndCapped) {
  EXPECT_EQ(core::printable("a\x1b]0;pwned\x07z"), "a\\x1b]0;pwned\\x07z");
  EXPECT_EQ(core::printable("tab\there\\"), "tab\\there\\\\");
  EXPECT_EQ(core::printable(std::string(1000, 'x'), 10), "xxxxxxxxxx... (1000 bytes)");
  // Past C0: DEL, C1's CSI as one byte (0x9b) and as UTF-8 (c2 9b), and bytes that are no UTF-8.
  EXPECT_EQ(core::printable("a\x7f"
                            "b\x9b"
                            "31m\xc2\x9b"
                            "c\xff\xfe"),
            "a\\x7fb\\x9b31m\\xc2\\x9bc\\xff\\xfe");
  EXPECT_EQ(core::terminal_text("a\x7f"
                                "b\x9b"
                                "\r\t\\\n"),
            "a\\x7fb\\x9b\\x0d\\x09\\\n");
  const auto dir = fresh_dir("redlab_escape");
  const auto bad = dir / "input.txt";
  std::ofstream(bad) << "1\n\x1b]2;owned\x07" << std::string(100000, 'A') << "\n";
  const auto r = test::run_cli({"trace", "-a", "sequential", "--backend", "sim", "--input", bad.string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err.substr(0, 200);
  EXPECT_LT(r.err.size(), 600u);
  EXPECT_NE(r.err.find("is not a number"), std::string::npos) << r.err.substr(0, 300);
}

// Finding 14: the trace cap applies to input files, and the reading stops at the first number
// past it (a file of 2^27 + 1 numbers was read whole and traced: 40 s, 2.4 GB).
TEST(SharedLab, InputFilesStopAtTheTraceCap) {
  EXPECT_EQ(core::parse_numbers("1 2\n3", core::DType::Int, "f", 3).size(), 3u);
  try {
    core::parse_numbers("1 2\n3 4 5", core::DType::Int, "f", 3);
    ADD_FAILURE() << "a fourth number was taken past a cap of 3";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "f:2: holds more than 3 numbers, the most a trace takes");
  }
}

// Finding 5: bench --out replaces the previous results only with complete new ones.
TEST(SharedLab, BenchOutKeepsThePreviousResultsUntilNewOnesAreWhole) {
  const auto dir = fresh_dir("redlab_bench_out");
  const auto out = dir / "results.json";
  std::ofstream(out) << "previous results\n";
  auto r = test::run_cli({"bench", "--backend", "sim", "-a", "sequential", "--sizes", "2^70", "--out", out.string()});
  EXPECT_EQ(r.code, 2) << r.err;
  r = test::run_cli({"bench", "--backend", "sim", "-a", "batched-rows", "--shapes", "1x2^40", "--format", "json", "--out",
                     out.string()});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_EQ(slurp(out), "previous results\n");
  r = test::run_cli({"bench", "--backend", "sim", "-a", "sequential", "--sizes", "2^10", "--seconds", "0.01", "--format",
                     "json", "--out", out.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(slurp(out).find("\"rows\""), std::string::npos);
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"results.json"});
}

// Finding 6: a file-size limit (a full disk) is reported in words, exit 1, the old file kept,
// no temporary left; SIGXFSZ no longer kills the program silently (exit 153).
TEST(SharedLab, AFileSizeLimitIsReportedAndLosesNothing) {
  const auto dir = fresh_dir("redlab_fsize");
  const auto out = dir / "results.json";
  std::ofstream(out) << "previous results\n";
  std::string err;
  const int code = shell("ulimit -f 1; exec " REDLAB_BINARY " bench --backend sim -a sequential,warp-shuffle,cg-block "
                         "--sizes 2^10,2^11,2^12 --seconds 0.01 --format json --out " + out.string(), &err);
  EXPECT_EQ(code, 1) << err;
  EXPECT_NE(err.find("File too large"), std::string::npos) << err;
  EXPECT_EQ(slurp(out), "previous results\n");
  for (const auto& n : names_in(dir)) EXPECT_TRUE(n == "results.json" || n == "results.json.partial") << n;
}

// Finding 9: a plan nested 100,000 levels deep is refused in words (it crashed), and a device
// string of 20,000 characters reaches the window capped (ImGui's 16-bit index assertion).
TEST(SharedLab, DeepNestingAndHugeStringsAreBounded) {
  const std::string deep = "{\"scenes\": " + std::string(100000, '[') + std::string(100000, ']') + "}";
  try {
    core::plan_from_json(deep, "plan file 'deep.json'");
    ADD_FAILURE() << "a plan nested 100,000 deep was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nested deeper than"), std::string::npos) << e.what();
  }
  auto j = recording();
  j["device"] = std::string(20000, 'D');
  const auto path = fs::path(testing::TempDir()) / "redlab_long_device.json";
  std::ofstream(path) << j.dump();
  const auto t = core::read_race_file(path.string());
  EXPECT_LT(t.device.size(), 300u);
}

// Finding 10: what is not a regular file, or is over its kind's limit, is refused before it is
// read: /dev/zero, a FIFO (which would block), a sparse 65 MiB "recording".
TEST(SharedLab, ReadersRefuseDevicesFifosAndHugeFiles) {
  std::string bytes, why;
  EXPECT_FALSE(core::read_file("/dev/zero", core::files::kResults, &bytes, &why));
  EXPECT_NE(why.find("not a regular file"), std::string::npos) << why;
  const auto dir = fresh_dir("redlab_readers");
  const auto fifo = dir / "settings.json";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(core::read_file(fifo.string(), core::files::kSettings, &bytes, &why));  // returns: no writer awaited
  const auto loaded = core::load_settings(fifo.string(), core::Whose::Own);
  EXPECT_TRUE(loaded.unreadable);
  EXPECT_TRUE(fs::is_fifo(fifo));  // not set aside, not replaced
  const auto big = dir / "big.json";
  { std::ofstream(big) << "{"; }
  fs::resize_file(big, std::uintmax_t(65) << 20);
  EXPECT_FALSE(core::read_file(big.string(), core::files::kRecording, &bytes, &why));
  EXPECT_NE(why.find("at most 67108864 bytes"), std::string::npos) << why;
  std::ofstream(dir / "small.txt") << std::string(1025, 'x');
  EXPECT_FALSE(core::read_file((dir / "small.txt").string(), kSmall, &bytes, &why));
  const auto r = test::run_cli({"render", "--chart", "/dev/zero", "--out", (dir / "c.png").string()});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("not a regular file"), std::string::npos) << r.err;
}

// Finding 11: recordings that contradict themselves are refused naming the field, never drawn.
TEST(SharedLab, RecordingsThatContradictThemselvesAreRefusedByField) {
  ASSERT_EQ(refusal(recording()), "");
  const std::pair<const char*, nlohmann::json> spoils[] = {
      {"trace_block", -1}, {"trace_block", 1000000}, {"grid", 0}, {"size", 0}, {"size", std::uint64_t(1) << 62},
      {"block", 0},       {"block", 4096}};
  for (const auto& [field, value] : spoils) {
    auto j = recording();
    j[field] = value;
    const auto why = refusal(j);
    EXPECT_NE(why.find(std::string("'") + field + "'"), std::string::npos) << field << " = " << value << ": " << why;
  }
  auto j = recording();
  j["stages"] = nlohmann::json::array();
  EXPECT_NE(refusal(j).find("'stages'"), std::string::npos) << refusal(j);
  j = recording();
  ASSERT_FALSE(j["race"]["stale"].empty());
  j["race"]["stale"][0]["writer"] = -99;
  EXPECT_NE(refusal(j).find("'writer'"), std::string::npos) << refusal(j);
}

// Findings 12 and 13: the block the user gave is the block that runs; a shape too large for
// the host names the memory instead of printing std::bad_alloc.
TEST(SharedLab, BenchRunsTheBlockGivenAndChecksShapesMemory) {
  auto r = test::run_cli({"bench", "--backend", "sim", "-a", "non-pow2-block", "--block", "1024", "--sizes", "2^12",
                          "--seconds", "0.01", "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["rows"][0]["block"], 1024);
  r = test::run_cli({"bench", "--backend", "sim", "-a", "batched-rows", "--shapes", "1x2^40"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("MiB of host memory"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("bad_alloc"), std::string::npos) << r.err;
}

// Finding 15: empty lists, runs that measured nothing, trailing junk and a folder for a prefix
// are refused; a capped list of outputs says how many there were.
TEST(SharedLab, EmptyAndMalformedRequestsAreRefused) {
  for (const auto& [list, says] : {std::pair{"", "--algorithm: is empty"}, {",,,", "names no algorithm"}}) {
    const auto r = test::run_cli({"bench", "--backend", "sim", "-a", list, "--sizes", "2^10"});
    EXPECT_EQ(r.code, 2) << "'" << list << "': " << r.err;
    EXPECT_NE(r.err.find(says), std::string::npos) << r.err;
  }
  auto r = test::run_cli({"bench", "--backend", "sim", "-a", "cub", "--sizes", "2^10", "--seconds", "0.01"});
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("nothing was measured"), std::string::npos) << r.err;
  r = test::run_cli({"--window-size", "1600x900junk"});
  EXPECT_EQ(r.code, 2) << r.err;
  const auto dir = fresh_dir("redlab_prefix");
  r = test::run_cli({"render", "-a", "sequential", "--backend", "sim", "--all-stages", "--out", dir.string() + "/"});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(names_in(dir).empty());
  r = test::run_cli({"trace", "-a", "batched-rows", "--backend", "sim", "--rows", "5000", "--cols", "2", "--block", "32",
                     "--format", "json"});
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["outputs"].size(), 4096u);
  EXPECT_EQ(j["outputs_total"], 5000);
}

// Finding 16: messages name the problem and the reason, briefly.
TEST(SharedLab, MessagesNameTheReason) {
  auto r = test::run_cli({"render", "-a", "sequential", "--backend", "sim", "--stage", "-1", "--out", "x.png"});
  EXPECT_EQ(r.code, 2);
  EXPECT_LT(r.err.size(), 200u) << r.err;
  EXPECT_NE(r.err.find("1048576"), std::string::npos) << r.err;
  const auto dir = fresh_dir("redlab_messages");
  r = test::run_cli({"trace", "-a", "sequential", "--backend", "sim", "--input", dir.string()});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("is a folder, not a file"), std::string::npos) << r.err;
  r = test::run_cli({"render", "-a", "sequential", "--backend", "sim", "--stage", "0", "--out", (dir / "no" / "x.png").string()});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("No such file or directory"), std::string::npos) << r.err;
}

// A row that fails its check fails the run, and so does a run that measured nothing.
TEST(SharedLab, BenchFailsWhenARowIsWrongOrNothingRan) {
  core::BenchReport report;
  report.backend = "cuda";
  core::BenchRow row;
  row.algorithm = "sequential", row.n = 1024, row.check_ok = true, row.check = "ok";
  report.rows = {row};
  std::ostringstream err;
  EXPECT_EQ(cli::bench_verdict(report, err), 0);
  report.rows.push_back(row);
  report.rows.back().check_ok = false, report.rows.back().check = "got 3, want 4";
  EXPECT_EQ(cli::bench_verdict(report, err), 1);
  EXPECT_NE(err.str().find("computed a wrong result: got 3, want 4"), std::string::npos) << err.str();
  report.rows.clear();
  EXPECT_EQ(cli::bench_verdict(report, err), 1);
  // Issue 48, item 16: on a GPU below sm_90 the cluster kernel's row is "not run": no wrong result,
  // so a default bench there exits 0; a run where no row ran at all still fails.
  core::BenchRow skipped = row;
  skipped.algorithm = "cluster-dsmem", skipped.check_ok = false;
  skipped.check = std::string(core::kNotRun) + "thread block clusters need a GPU of compute capability 9.0 or later";
  report.rows = {row, skipped};
  std::ostringstream quiet;
  EXPECT_EQ(cli::bench_verdict(report, quiet), 0) << quiet.str();
  report.rows = {skipped};
  EXPECT_EQ(cli::bench_verdict(report, quiet), 1);
  EXPECT_NE(quiet.str().find("nothing was measured: not run: thread block clusters"), std::string::npos) << quiet.str();
}
