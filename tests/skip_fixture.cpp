// Not a test of the product: a binary whose tests fail, skip or pass on demand
// (--gtest_filter), run by harness_test to check what the tests' main reports to CTest.
#include <gtest/gtest.h>

TEST(Fixture, Fails) { ADD_FAILURE() << "failing on purpose"; }
TEST(Fixture, Skips) { GTEST_SKIP() << "SKIPPED: on purpose"; }
TEST(Fixture, Passes) { SUCCEED(); }
