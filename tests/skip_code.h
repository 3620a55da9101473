// How a test binary's run becomes an exit code for CTest (tests/skip_main.cpp).
#pragma once

namespace rl::test {

constexpr int kSkipCode = 77;  // SKIP_RETURN_CODE in tests/CMakeLists.txt

struct RunCounts {
  int ran = 0;
  int skipped = 0;
  int failed = 0;
};

// Any failure fails; a run with nothing but skips is a skip, unless skips are not allowed
// (the GPU suite on a GPU machine), where it fails, as does a run of no test at all there (a
// filter that matches nothing must not pass a step of the suite).
inline int exit_code(const RunCounts& c, int gtest_code, bool skips_fail) {
  if (gtest_code != 0 || c.failed > 0) return 1;
  if (skips_fail && c.ran == 0) return 1;
  if (c.ran > 0 && c.skipped == c.ran) return skips_fail ? 1 : kSkipCode;
  return 0;
}

}  // namespace rl::test
