// The test harness itself: a failure is never reported to CTest as a skip, and a run with
// nothing but skips is a skip (exit 77) unless skips are not allowed.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <string>

#include "skip_code.h"

namespace {

int fixture(const std::string& filter, const std::string& env = "") {
  const std::string cmd = env + " " REDLAB_SKIP_FIXTURE " --gtest_filter=" + filter + " >/dev/null 2>&1";
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace

TEST(Harness, AFailureBesideASkipFails) {
  EXPECT_EQ(fixture("Fixture.Fails:Fixture.Skips"), 1);
  EXPECT_EQ(fixture("Fixture.Skips:Fixture.Fails"), 1);
}

TEST(Harness, OnlySkipsIsASkip) { EXPECT_EQ(fixture("Fixture.Skips"), rl::test::kSkipCode); }

TEST(Harness, SkipsFailWhereAGpuIsRequired) {
  EXPECT_EQ(fixture("Fixture.Skips", "REDLAB_REQUIRE_GPU=1"), 1);
}

TEST(Harness, PassesBesideASkipPass) { EXPECT_EQ(fixture("Fixture.Passes:Fixture.Skips"), 0); }

TEST(Harness, ExitCodes) {
  using rl::test::exit_code;
  EXPECT_EQ(exit_code({3, 0, 0}, 0, false), 0);
  EXPECT_EQ(exit_code({3, 3, 0}, 0, false), 77);
  EXPECT_EQ(exit_code({3, 3, 0}, 0, true), 1);
  EXPECT_EQ(exit_code({3, 2, 1}, 1, false), 1);
  EXPECT_EQ(exit_code({0, 0, 0}, 0, false), 0);
  EXPECT_EQ(exit_code({0, 0, 0}, 0, true), 1);  // REDLAB_REQUIRE_GPU: a filter that ran nothing fails
}
