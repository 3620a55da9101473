// The tests' main: exit 77 (CTest's SKIP_RETURN_CODE) only when every test that ran skipped and
// none failed, so a failure can never be reported as a skip. REDLAB_REQUIRE_GPU=1 (the GPU
// suite) or REDLAB_REQUIRE_GL=1 (CI) turn an all-skipped run into a failure instead.
#include <gtest/gtest.h>

#include <cstdlib>

#include "skip_code.h"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int gtest_code = RUN_ALL_TESTS();
  const auto& unit = *testing::UnitTest::GetInstance();
  const rl::test::RunCounts counts{unit.test_to_run_count(), unit.skipped_test_count(), unit.failed_test_count()};
  return rl::test::exit_code(counts, gtest_code, std::getenv("REDLAB_REQUIRE_GPU") != nullptr);
}
