// Issue 31: a trace carries its own layout (core::Geometry), written by the backend that ran it,
// so the views read the run and not today's kernel rules.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/backend/backend.h"
#include "app/backend/geometry.h"
#include "app/core/facts.h"
#include "app/core/input.h"
#include "app/core/trace.h"
#include "app/core/work.h"
#include "test_support.h"

using namespace rl;

namespace {

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

backend::TraceRequest request(const std::string& id, std::size_t rows, std::size_t cols, std::size_t n, int block) {
  backend::TraceRequest r;
  r.algorithm = id, r.type = core::DType::Float, r.block = block, r.rows = rows, r.cols = cols;
  r.input = core::generate_input(core::InputSpec{core::InputSpec::Kind::Random, 7, {}}, rows ? rows * cols : n, r.type);
  return r;
}

}  // namespace

// Traces recorded at d59dd79, before traces carried their layout: they still open, and the
// layout completed from this build's kernels is the one a fresh run writes.
TEST(Geometry, TracesRecordedBeforeItOpenAndGetTheLayoutAFreshRunWrites) {
  const auto dir = std::filesystem::path(REDLAB_SOURCE_DIR) / "tests/data/recorded";
  auto sim = backend::make_sim_backend();
  int seen = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(entry.path().filename().string());
    core::Trace old = core::trace_from_json(slurp(entry.path()));
    EXPECT_FALSE(old.geometry.known());
    backend::complete_geometry(old);
    ASSERT_TRUE(old.geometry.known());
    // Against what the file itself recorded (not this build's rules twice over): its grid and block.
    EXPECT_EQ(old.geometry.grid_x * old.geometry.grid_y, old.grid);
    EXPECT_EQ(old.geometry.block_x * old.geometry.block_y, old.block);
    const bool matrix = old.rows > 0;
    auto req = request(old.algorithm, old.rows, old.cols, old.size, old.block);
    req.input = core::generate_input(core::InputSpec{core::InputSpec::Kind::Random, 7, {}}, old.size, old.type);
    req.tickets = old.tickets;
    req.grid = old.grid;
    const core::Trace fresh = sim->trace(req);
    EXPECT_EQ(old.geometry, fresh.geometry) << (matrix ? "matrix" : "array");
    EXPECT_EQ(core::work_of(old).additions, core::work_of(fresh).additions);
    ++seen;
  }
  EXPECT_GE(seen, 4);
}

// Every field written is read back, and a layout that contradicts the trace is refused by name.
TEST(Geometry, RoundTripsAndContradictionsAreRefused) {
  auto sim = backend::make_sim_backend();
  const core::Trace t = sim->trace(request("column-sums-vectorized", 33, 300, 0, 64));
  ASSERT_TRUE(t.geometry.known());
  EXPECT_EQ(t.geometry.thread_cols, 4);
  EXPECT_EQ(t.geometry.indexing, kernels::Indexing::ColumnTiles);
  EXPECT_EQ(t.geometry.folds.size(), 64u);
  EXPECT_EQ(core::trace_from_json(core::to_json(t)).geometry, t.geometry);
  const auto refused = [&](const std::string& what, auto change) {
    auto j = nlohmann::json::parse(core::to_json(t));
    change(j["geometry"]);
    try {
      core::trace_from_json(j.dump());
      ADD_FAILURE() << what << " was taken";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("geometry"), std::string::npos) << what << ": " << e.what();
    }
  };
  refused("a grid of other than 'grid' blocks", [](auto& g) { g["grid"][0] = g["grid"][0].template get<int>() + 1; });
  refused("a block of other than 'block' threads", [](auto& g) { g["block"][1] = 3; });
  refused("five columns a thread", [](auto& g) { g["thread_cols"] = 5; });
  refused("an array's indexing for a matrix", [](auto& g) { g["indexing"] = "tile"; });
  refused("folds for half the block", [](auto& g) { g["folds"].erase(g["folds"].begin()); });
  refused("a fold adding more than it read", [](auto& g) { g["folds"][0][1] = g["folds"][0][0].template get<int>() + 1; });
}

// A cluster trace from a file: its size, its grid, its traced block and every remote read's
// source block must fit the clusters it claims; each misfit is refused by name.
TEST(Geometry, ClusterFieldsFromAFileAreChecked) {
  backend::TraceRequest req{
      "cluster-dsmem", core::Op::Sum, core::DType::Float, 64, 4, test::random_values(700, core::DType::Float, 7)};
  req.cluster = 4;
  const core::Trace t = backend::make_sim_backend()->trace(req);
  ASSERT_EQ(t.geometry.cluster, 4);
  EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);
  const auto refused = [&](const std::string& what, const std::string& says, auto change) {
    auto j = nlohmann::json::parse(core::to_json(t));
    change(j);
    try {
      core::trace_from_json(j.dump());
      ADD_FAILURE() << what << " was taken";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << what << ": " << e.what();
    }
  };
  refused("a cluster of 3", "'cluster' of 3", [](auto& j) { j["geometry"]["cluster"] = 3; });
  refused("clusters for a shuffle tree", "'cluster' of 4", [](auto& j) { j["geometry"]["tree"] = "shuffle"; });
  refused("a traced block inside a cluster", "do not tile the grid", [](auto& j) { j["trace_block"] = 5; });
  std::size_t at = 0;
  while (at < t.stages.size() && t.stages[at].tag != kernels::kTagDsmemRead) ++at;
  ASSERT_LT(at, t.stages.size());
  refused("a read from block 4 of 4", "names block 4 of a cluster",
          [&](auto& j) { j["stages"][at]["accesses"][0]["sources"][0] = 4; });
  refused("a source for no read", "'sources' for other than one a read",
          [&](auto& j) { j["stages"][at]["accesses"][0]["sources"].push_back(1); });
  refused("a source for an empty read slot", "beside a read slot of -1",
          [&](auto& j) { j["stages"][at]["accesses"][0]["reads"][0] = -1; });
  refused("a result a block, not a cluster", "first-pass results for 3 clusters",
          [](auto& j) { j["pass_outputs"][0] = 12; });
  refused("a read stage of 8 blocks", "read of 8 blocks in clusters of 4",
          [&](auto& j) { j["stages"][at]["param"] = 8; });
}

// A trace of a kernel this build does not have opens when it carries its layout, and is refused,
// with the reason, when it does not.
TEST(Geometry, AKernelThisBuildLacksDrawsFromItsOwnLayout) {
  auto sim = backend::make_sim_backend();
  core::Trace t = sim->trace(request("block-2d", 20, 70, 0, 64));
  t.algorithm = "students-own-2d";
  const core::Trace back = core::trace_from_json(core::to_json(t));
  EXPECT_EQ(core::matrix_grid_of(back).x, t.geometry.grid_x);
  EXPECT_EQ(core::work_of(back).additions, core::work_of(t).additions);
  auto j = nlohmann::json::parse(core::to_json(t));
  j.erase("geometry");
  core::Trace bare = core::trace_from_json(j.dump());
  try {
    backend::complete_geometry(bare);
    ADD_FAILURE() << "a layout was made up for an unknown kernel";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("students-own-2d"), std::string::npos) << e.what();
  }
}

// A trace the H200 recorded with its layout (2026-11-26): the CPU model, given the same request
// and grid, writes the same layout, and the trace opens here without this build's GPU.
TEST(Geometry, AGpuTraceCarriesTheLayoutTheModelWrites) {
  const auto path = std::filesystem::path(REDLAB_SOURCE_DIR) / "tests/data/gpu/column-sums-vectorized-h200.json";
  const core::Trace gpu = core::trace_from_json(slurp(path));
  ASSERT_TRUE(gpu.geometry.known());
  EXPECT_EQ(gpu.backend, "cuda");
  EXPECT_FALSE(gpu.code.lines.empty());
  auto req = request(gpu.algorithm, gpu.rows, gpu.cols, 0, gpu.block);
  req.type = gpu.type;
  req.input = core::generate_input(core::InputSpec{core::InputSpec::Kind::Random, 1, {}}, gpu.size, gpu.type);
  req.grid = gpu.grid;
  const core::Trace model = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(gpu.geometry, model.geometry);
  EXPECT_EQ(gpu.input, model.input);
}
