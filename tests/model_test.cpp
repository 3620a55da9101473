// The CPU model against stages derived by hand, and its results against a double reference.
#include <gtest/gtest.h>

#include "kernels/stage_tags.h"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <random>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <sstream>

#include "app/backend/backend.h"
#include "app/core/catalog.h"
#include "app/core/embedded.h"
#include "app/core/facts.h"
#include "app/core/glossary.h"
#include "app/core/input.h"
#include "kernels/algorithms.h"
#include "kernels/model/cpu_baseline.h"
#include "kernels/model/model.h"
#include "kernels/shapes.h"
#include "test_support.h"

using namespace rl;

namespace {

core::Trace model_trace(const std::string& algo, std::vector<double> input, int block = 32,
                        core::Op op = core::Op::Sum, core::DType type = core::DType::Int, int trace_block = 0) {
  if (!backend::type_refusal(algo, type, op).empty()) type = test::types_of(algo).front();  // compensated: float
  backend::TraceRequest req{algo, op, type, block, trace_block, std::move(input)};
  test::one_output_shape(req);
  return backend::make_sim_backend()->trace(req);
}

std::vector<double> iota(std::size_t n) {
  return core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, n, core::DType::Int);
}

// Sequential addressing folds iota(n) into its first s cells: cell i holds the sum of the
// values at i, i + s, i + 2s, ... (1-based). Stage k of a 128-thread fold has s = 128 >> k.
void expect_folded_iota(const core::Trace& t, std::size_t n) {
  for (std::size_t k = 0; k < t.stages.size(); ++k) {
    SCOPED_TRACE(t.algorithm + " stage " + std::to_string(k) + " (" + t.stages[k].label + ")");
    ASSERT_TRUE(t.stages[k].shared);
    const std::size_t s = std::size_t(t.block) >> k;
    for (std::size_t i = 0; i < s; ++i) {
      double want = 0;
      for (std::size_t m = i; m < n; m += s) want += double(m + 1);
      ASSERT_EQ((*t.stages[k].shared)[i], want) << "cell " << i;
    }
  }
}

std::vector<int> range(int first, int last, int step = 1) {
  std::vector<int> v;
  for (int i = first; i < last; i += step) v.push_back(i);
  return v;
}

}  // namespace

TEST(Model, SequentialIotaStagesByHand) {
  const auto t = model_trace("sequential", iota(32));
  ASSERT_EQ(t.stages.size(), 6u);  // load + strides 16, 8, 4, 2, 1
  EXPECT_EQ(t.result, 528);
  EXPECT_EQ(t.stages[0].label, "load into shared memory");
  EXPECT_EQ(t.stages[0].active, range(0, 32));
  for (int i = 0; i < 32; ++i) EXPECT_EQ((*t.stages[0].shared)[i], i + 1);
  // Stride 16: thread t < 16 adds cell t+16: (t+1) + (t+17).
  EXPECT_EQ(t.stages[1].label, "stride 16");
  EXPECT_EQ(t.stages[1].active, range(0, 16));
  for (int i = 0; i < 16; ++i) EXPECT_EQ((*t.stages[1].shared)[i], 2 * i + 18);
  for (int i = 16; i < 32; ++i) EXPECT_EQ((*t.stages[1].shared)[i], i + 1);
  EXPECT_EQ(t.stages[1].accesses[3], (core::Access{3, {3, 19}, {3}, {}}));
  EXPECT_EQ(t.stages[5].label, "stride 1");
  EXPECT_EQ(t.stages[5].active, std::vector<int>{0});
  EXPECT_EQ((*t.stages[5].shared)[0], 528);
}

TEST(Model, InterleavedDivergentStagesByHand) {
  const auto t = model_trace("interleaved-divergent", iota(32));
  ASSERT_EQ(t.stages.size(), 6u);
  EXPECT_EQ(t.stages[1].label, "stride 1");
  EXPECT_EQ(t.stages[1].active, range(0, 32, 2));  // every even thread: divergent
  for (int i = 0; i < 32; i += 2) EXPECT_EQ((*t.stages[1].shared)[i], 2 * i + 3);
  for (int i = 1; i < 32; i += 2) EXPECT_EQ((*t.stages[1].shared)[i], i + 1);
  EXPECT_EQ(t.stages[2].active, range(0, 32, 4));
  EXPECT_EQ(t.stages[2].accesses[1], (core::Access{4, {4, 6}, {4}, {}}));
  EXPECT_EQ(core::divergent_warps(t.stages[1], 32), 1);
  EXPECT_EQ(t.stages[5].label, "stride 16");
  EXPECT_EQ(t.result, 528);
}

TEST(Model, InterleavedBankConflictsStagesByHand) {
  const auto t = model_trace("interleaved-bank-conflicts", iota(64), 64);
  ASSERT_EQ(t.stages.size(), 7u);
  // Same cells as the divergent version, but done by threads 0..31 with index 2*s*t.
  EXPECT_EQ(t.stages[1].active, range(0, 32));
  EXPECT_EQ(t.stages[1].accesses[5], (core::Access{5, {10, 11}, {10}, {}}));
  for (int i = 0; i < 64; i += 2) EXPECT_EQ((*t.stages[1].shared)[i], 2 * i + 3);
  EXPECT_EQ(t.stages[2].active, range(0, 16));
  EXPECT_EQ(t.stages[2].accesses[3], (core::Access{3, {12, 14}, {12}, {}}));
  EXPECT_EQ(core::divergent_warps(t.stages[1], 64), 0);  // warp 0 all busy, warp 1 all idle
  EXPECT_EQ(t.result, 64 * 65 / 2);
}

TEST(Catalog, ASourceViewShowsTheHelpersItsKernelNames) {
  const std::string text =
      "// <<< helper\nint h() {  // [shfl]\n}\n// >>>\n\n// <<< k\nvoid k() {  // [load]\n"
      "  h();  // see <<< helper\n}\n// >>>\n";
  const auto v = core::parse_source(text, "f.cuh", "k");
  EXPECT_EQ(v.numbers, (std::vector<int>{7, 8, 9, 2, 3}));
  EXPECT_EQ(v.place_of("[load]"), (core::Place{"f.cuh", 7}));
  EXPECT_EQ(v.place_of("[shfl]"), (core::Place{"f.cuh", 2}));
  EXPECT_TRUE(v.files.empty());  // one file: none named a line
  EXPECT_EQ(v.span(), "lines 7-9 and 2-3");
  ASSERT_NE(v.text_at({"f.cuh", 2}), nullptr);
  EXPECT_EQ(*v.text_at({"f.cuh", 2}), "int h() {  // [shfl]");
  EXPECT_EQ(v.text_at({"f.cuh", 5}), nullptr);
  EXPECT_EQ(v.text_at({"g.cuh", 2}), nullptr);
  const std::string broken = "// <<< k\nvoid k() {  // [load]\n  h();  // see <<< gone\n// >>>\n";
  EXPECT_THROW(core::parse_source(broken, "f.cuh", "k"), std::runtime_error);
  // A helper's own helpers are shown too, each once, however many regions name them.
  const std::string nested =
      "// <<< inner\nint i();  // [step]\n// >>>\n// <<< outer\nint o() { return i(); }  // see <<< inner\n// >>>\n"
      "// <<< k\nvoid k() {  // [load]\n  o();  // see <<< outer\n  i();  // see <<< inner\n}\n// >>>\n";
  const auto n = core::parse_source(nested, "f.cuh", "k");
  EXPECT_EQ(n.numbers, (std::vector<int>{8, 9, 10, 11, 5, 2}));
  EXPECT_EQ(n.place_of("[step]").line, 2);
  // batched-rows shows the row span and, through it, the fold and the tree.
  const auto& rows = core::source_of("batched-rows");
  const std::string* fold = rows.text_at(rows.place_of("[row-stride]"));
  ASSERT_NE(fold, nullptr);
  EXPECT_NE(fold->find("fold_strided"), std::string::npos) << *fold;
  EXPECT_NE(rows.text_at(rows.place_of("[step]")), nullptr);
  // The three shuffle kernels share one tail: each shows it, and its stages point into it.
  for (const char* id : {"warp-shuffle", "warp-shuffle-vectorized", "work-queue"}) {
    const auto& src = core::source_of(id);
    const std::string* shfl = src.text_at(src.place_of("[shfl]"));
    ASSERT_NE(shfl, nullptr) << id;
    EXPECT_NE(shfl->find("__shfl_down_sync"), std::string::npos) << id;
    EXPECT_EQ(src.place_of("[shfl]"), core::source_of("warp-shuffle").place_of("[shfl]")) << id;
  }
}

// A helper from a file the kernel's file includes (or one that file includes) is shown with its
// file; a stage marked there points into that file, where the kernel's file has a line of the same
// number; a file not included is not looked in.
TEST(Catalog, AHelperFromAnIncludedFileIsShownWithItsFile) {
  std::map<std::string, std::string, std::less<>> files{
      {"k/a.cuh", "#include \"b.cuh\"\n// <<< k\nvoid k() {  // [load]\n  h();  // see <<< helper\n}\n// >>>\n"},
      {"k/b.cuh",
       "#include \"c.cuh\"\n// <<< helper\nint h() {  // [shfl]\n  return g();  // see <<< inner\n}\n// >>>\n"},
      {"k/c.cuh", "// <<< inner\nint g() { return 1; }  // [step]\n// >>>\n"}};
  const core::SourceReader read = [&](std::string_view path) {
    const auto it = files.find(path);
    return it == files.end() ? std::string_view{} : std::string_view(it->second);
  };
  const auto v = core::parse_source("k/a.cuh", "k", read);
  EXPECT_EQ(v.numbers, (std::vector<int>{3, 4, 5, 3, 4, 5, 2}));
  EXPECT_EQ(v.files,
            (std::vector<std::string>{"k/a.cuh", "k/a.cuh", "k/a.cuh", "k/b.cuh", "k/b.cuh", "k/b.cuh", "k/c.cuh"}));
  EXPECT_EQ(v.place_of("[shfl]"), (core::Place{"k/b.cuh", 3}));
  EXPECT_EQ(v.place_of("[step]"), (core::Place{"k/c.cuh", 2}));
  EXPECT_EQ(*v.text_at({"k/a.cuh", 3}), "void k() {  // [load]");
  EXPECT_EQ(*v.text_at({"k/b.cuh", 3}), "int h() {  // [shfl]");
  EXPECT_EQ(v.index_of({"k/b.cuh", 3}), 3);
  EXPECT_EQ(v.span(), "lines 3-5; b.cuh lines 3-5; c.cuh lines 2-2");
  // Each file once in the span, its runs in the order shown; a file elsewhere by its path.
  const core::Code back{"k/a.cuh",
                        {3, 4, 10, 5, 6, 7},
                        {"", "", "", "", "", ""},
                        {"k/a.cuh", "k/a.cuh", "k/b.cuh", "k/a.cuh", "k/a.cuh", "x/c.cuh"}};
  EXPECT_EQ(back.span(), "lines 3-4 and 5-6; b.cuh lines 10-10; x/c.cuh lines 7-7");
  core::Stage s;
  s.tag = kernels::kTagShuffle;
  core::point_at_tag(s, v);
  EXPECT_EQ((core::Place{s.file, s.line}), (core::Place{"k/b.cuh", 3}));
  s.tag = kernels::kTagLoad;
  core::point_at_tag(s, v);
  EXPECT_EQ((core::Place{s.file, s.line}), (core::Place{"", 3}));  // the kernel's own file goes unnamed
  files["k/a.cuh"].erase(0, files["k/a.cuh"].find('\n') + 1);    // no longer includes b.cuh
  try {
    core::parse_source("k/a.cuh", "k", read);
    ADD_FAILURE() << "a helper found in a file the kernel does not include";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no helper helper"), std::string::npos) << e.what();
  }
}

// Every region a kernel source marks ("// <<< name") is shown: a catalog row's kernel, or a
// helper some kernel's view names with "// see <<< name" (a name written otherwise is not found).
TEST(Catalog, EveryRegionOfTheKernelSourcesIsShown) {
  std::set<std::string> named;
  for (const auto& table : {core::algorithms(), core::collectives()})
    for (const auto& a : table) {
      if (a.file.empty()) continue;
      for (const auto& line : core::source_of(a.id).lines)
        if (const auto at = line.find("// see <<< "); at != std::string::npos) named.insert(line.substr(at + 11));
    }
  for (const std::string_view file : embedded::kernel_source_names()) {
    const std::string text(embedded::kernel_source(file));
    for (std::size_t at = text.find("\n// <<< "); at != std::string::npos; at = text.find("\n// <<< ", at + 1)) {
      const std::string name = text.substr(at + 8, text.find('\n', at + 1) - at - 8);  // a line of its own
      EXPECT_TRUE(core::find_any(name) || named.count(name)) << file << ": region " << name << " is never shown";
    }
  }
}

TEST(Model, EveryStageLinePointsAtItsTaggedSourceLine) {
  for (const auto& id : core::traced_ids()) {
    const auto& src = core::source_of(id);
    const auto t = model_trace(id, iota(300), id == "non-pow2-block" ? 100 : 64);
    ASSERT_FALSE(t.stages.empty()) << id;
    EXPECT_EQ(t.source, src.file);
    for (const auto& s : t.stages) {
      const std::string* text = src.text_at(core::stage_place(t, s));
      ASSERT_NE(text, nullptr) << id << " " << s.label << ": line " << s.line << " is not shown";
      // The stage's own tag, not any tag: a stage pointing at the load line must fail here.
      ASSERT_GE(s.tag, 0) << id << " " << s.label;
      EXPECT_NE(text->find(kernels::tag_marker(s.tag)), std::string::npos)
          << id << " " << s.label << ": line " << s.line << " is " << *text << ", not " << kernels::tag_marker(s.tag);
    }
    bool kernel = false;
    for (const auto& line : src.lines) kernel |= line.find("__global__") != std::string::npos;
    EXPECT_TRUE(kernel) << id;
  }
}

TEST(Model, NaiveSerialIsOneThreadWalkingTheBlock) {
  const auto t = model_trace("naive-serial", iota(32));
  ASSERT_EQ(t.stages.size(), 2u);
  EXPECT_EQ(t.stages[1].active, std::vector<int>{0});
  EXPECT_EQ(t.stages[1].accesses.size(), 1u);
  EXPECT_EQ(t.stages[1].accesses[0].reads, range(0, 32));
  EXPECT_EQ(t.stages[1].accesses[0].writes, std::vector<int>{0});
  EXPECT_EQ((*t.stages[1].shared)[0], 528);
  EXPECT_EQ(t.result, 528);
}

TEST(Model, GlobalHalvingKeepsTheLivePart) {
  const auto t = model_trace("global-halving", iota(5));
  EXPECT_EQ(t.memory, core::Memory::Global);
  ASSERT_EQ(t.stages.size(), 4u);  // the input, then halves of 3, 2, 1
  EXPECT_EQ(*t.stages[0].shared, (std::vector<double>{1, 2, 3, 4, 5}));
  EXPECT_EQ(*t.stages[1].shared, (std::vector<double>{5, 7, 3}));  // 1+4, 2+5, 3 waits
  EXPECT_EQ(t.stages[1].active, (std::vector<int>{0, 1}));
  EXPECT_EQ(t.stages[1].accesses[1], (core::Access{1, {1, 4}, {1}, {}}));
  EXPECT_EQ(*t.stages[2].shared, (std::vector<double>{8, 7}));
  EXPECT_EQ(*t.stages[3].shared, (std::vector<double>{15}));
  EXPECT_FALSE(t.stages[1].bank_conflicts);  // global memory has no banks
  EXPECT_EQ(t.result, 15);
}

// Every array kernel records its global loads as it issues them, and the sectors they touch
// follow from the addresses (4-byte ints from a 256-byte aligned array; sector = 8 ints).
TEST(Model, ArrayLoadsAreRecordedAsTheKernelsIssueThem) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const auto input = [&](std::size_t n) { return test::random_values(n, core::DType::Int, seed); };
  // The last block of 100 in blocks of 32: threads 0..3 load elements 96..99, one sector.
  const auto tail = model_trace("sequential", input(100), 32, core::Op::Sum, core::DType::Int, 3);
  ASSERT_EQ(tail.stages[0].loads.size(), 4u);
  EXPECT_EQ(tail.stages[0].loads[3], (core::Load{3, {99}, {}}));
  EXPECT_EQ(core::warp_loads(tail.stages[0], 4), (std::vector<core::WarpLoad>{{0, 0, 4, 1, 1}}));
  // First add on load: thread t loads t and t + 32; two loads of 4 sectors. A block past
  // the end of the second half loads only what exists.
  const auto two = model_trace("first-add-on-load", input(130), 32);
  EXPECT_EQ(two.stages[0].loads[5], (core::Load{5, {5, 37}, {}}));
  EXPECT_EQ(core::warp_loads(two.stages[0], 4), (std::vector<core::WarpLoad>{{0, 0, 32, 4, 4}, {0, 1, 32, 4, 4}}));
  const auto last = model_trace("first-add-on-load", input(130), 32, core::Op::Sum, core::DType::Int, 2);
  EXPECT_EQ(last.stages[0].loads, (std::vector<core::Load>{{0, {128}, {}}, {1, {129}, {}}}));
  // 16-byte loads: one load of 4 ints a thread, 16 sectors a warp; then the scalar tail.
  const auto vec = model_trace("warp-shuffle-vectorized", input(130), 32);
  ASSERT_EQ(vec.grid, 1u);  // 32 vectors: one each; elements 128, 129 to threads 0, 1
  EXPECT_EQ(vec.stages[0].loads[0], (core::Load{0, {0, 128}, {4, 1}}));
  EXPECT_EQ(vec.stages[0].loads[31], (core::Load{31, {124}, {4}}));
  EXPECT_EQ(core::warp_loads(vec.stages[0], 4), (std::vector<core::WarpLoad>{{0, 0, 32, 16, 16}, {0, 1, 2, 1, 1}}));
  // Grid stride, 3 blocks of 32 over 170: thread t of block 2 loads 64 + t, then 96 further on
  // while that is below 170 (threads 0..9): ten lanes, elements 160..169, two sectors.
  backend::TraceRequest req{"cg-two-phase", core::Op::Sum, core::DType::Int, 32, 2, input(170)};
  req.grid = 3;
  const auto strided = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(strided.stages[0].loads[9], (core::Load{9, {73, 169}, {}}));
  EXPECT_EQ(strided.stages[0].loads[10], (core::Load{10, {74}, {}}));
  EXPECT_EQ(core::warp_loads(strided.stages[0], 4), (std::vector<core::WarpLoad>{{0, 0, 32, 4, 4}, {0, 1, 10, 2, 2}}));
  // global-halving's reads are its loads: the second half of 1000 starts at element 500, mid
  // sector, so a warp's 32 reads of it touch 5 sectors where 4 could hold them.
  const auto halving = model_trace("global-halving", input(1000), 256);
  EXPECT_EQ(halving.stages[1].loads[0], (core::Load{0, {0, 500}, {}}));
  const auto warp0 = core::warp_loads(halving.stages[1], 4);
  ASSERT_GE(warp0.size(), 2u);
  EXPECT_EQ(warp0[0], (core::WarpLoad{0, 0, 32, 4, 4}));
  EXPECT_EQ(warp0[1], (core::WarpLoad{0, 1, 32, 5, 4}));
}

TEST(Model, FirstAddOnLoadAddsTwoBlocksApart) {
  const auto t = model_trace("first-add-on-load", iota(64));
  EXPECT_EQ(t.grid, 1u);
  EXPECT_EQ(t.input.size(), 64u);
  for (int i = 0; i < 32; ++i) EXPECT_EQ((*t.stages[0].shared)[i], 2 * i + 34);  // (i+1) + (i+33)
  EXPECT_EQ(t.stages[0].label, "add two elements while loading");
  EXPECT_EQ(t.result, 64 * 65 / 2);
}

TEST(Model, NonPow2BlockChecksBothCells) {
  const auto t = model_trace("non-pow2-block", iota(270), 270);
  ASSERT_EQ(t.stages.size(), 10u);  // load + strides 256 .. 1
  EXPECT_EQ(t.stages[1].label, "stride 256");
  EXPECT_EQ(t.stages[1].active, range(0, 14));  // only cells 256..269 exist above
  EXPECT_EQ((*t.stages[1].shared)[13], 14 + 270);
  EXPECT_EQ(t.result, 270 * 271 / 2);
}

TEST(Model, UnrolledLastWarpStepsAreWarpSteps) {
  const auto t = model_trace("unroll-last-warp", iota(128), 128);
  ASSERT_EQ(t.stages.size(), 8u);
  EXPECT_EQ(t.stages[1].label, "stride 64");
  EXPECT_EQ(t.stages[2].label, "last warp, stride 32");
  EXPECT_EQ(t.stages[2].active, range(0, 32));
  EXPECT_EQ(t.stages[7].label, "last warp, stride 1");
  EXPECT_EQ(t.result, 128 * 129 / 2);
  expect_folded_iota(t, 128);
  const auto c = model_trace("complete-unroll", iota(128), 128);
  ASSERT_EQ(c.stages.size(), t.stages.size());
  expect_folded_iota(c, 128);
}

TEST(Model, ShuffleDownHandsEdgeLanesTheirOwnValue) {
  const auto t = model_trace("warp-shuffle", iota(32));
  ASSERT_EQ(t.stages.size(), 13u);
  EXPECT_FALSE(t.stages[0].shared);
  EXPECT_EQ(t.stages[1].label, "shuffle down by 16");
  const auto& lanes = *t.stages[1].lanes;
  for (int l = 0; l < 16; ++l) EXPECT_EQ(lanes[l], (l + 1) + (l + 17)) << l;
  for (int l = 16; l < 32; ++l) EXPECT_EQ(lanes[l], 2 * (l + 1)) << "lane " << l << " adds its own value";
  EXPECT_EQ((*t.stages[5].lanes)[0], 528);
  EXPECT_EQ(t.stages[6].label, "warp totals to shared memory");
  EXPECT_EQ(*t.stages[6].shared, std::vector<double>{528});
  EXPECT_EQ(t.result, 528);
}

TEST(Model, CgTileReduceLeavesTheTotalInEveryLane) {
  const auto t = model_trace("cg-block", iota(64), 64);
  ASSERT_EQ(t.stages.size(), 5u);
  const auto& lanes = *t.stages[1].lanes;
  for (int l = 0; l < 32; ++l) EXPECT_EQ(lanes[l], 528);
  for (int l = 32; l < 64; ++l) EXPECT_EQ(lanes[l], 1552);
  EXPECT_EQ(*t.stages[2].shared, (std::vector<double>{528, 1552}));
  EXPECT_EQ(t.result, 2080);
}

// redux-sync over iota(96) in a block of 128: one instruction leaves every lane of warp w its
// warp's total (1..32: 528; 33..64: 1552; 65..96: 2576; warp 3 past the array: 0), lane 0s store
// them, the first warp loads 4 totals and the identity, and its redux leaves 4656 in all 32 lanes.
// min and max take the same stages.
TEST(Model, ReduxSyncLeavesEachWarpsTotalInEveryLaneInOneStage) {
  const auto t = model_trace("redux-sync", iota(96), 128);
  ASSERT_EQ(t.stages.size(), 5u);
  EXPECT_EQ(t.stages[1].tag, kernels::kTagRedux);
  EXPECT_EQ(t.stages[1].label, "each warp reduces its 32 values in one instruction");
  const auto& lanes = *t.stages[1].lanes;
  const double totals[] = {528, 1552, 2576, 0};
  for (int l = 0; l < 128; ++l) ASSERT_EQ(lanes[std::size_t(l)], totals[l / 32]) << "lane " << l;
  EXPECT_EQ(*t.stages[2].shared, (std::vector<double>{528, 1552, 2576, 0}));
  const auto& loaded = *t.stages[3].lanes;
  EXPECT_EQ(std::vector<double>(loaded.begin(), loaded.begin() + 6), (std::vector<double>{528, 1552, 2576, 0, 0, 0}));
  EXPECT_EQ(t.stages[4].tag, kernels::kTagFinalRedux);
  for (int l = 0; l < 32; ++l) EXPECT_EQ((*t.stages[4].lanes)[std::size_t(l)], 4656) << "lane " << l;
  EXPECT_EQ((*t.stages[4].lanes)[40], 1552);  // the other warps keep their own total
  EXPECT_EQ(t.result, 4656);
  EXPECT_EQ(model_trace("redux-sync", iota(96), 128, core::Op::Max).result, 96);
  EXPECT_EQ(model_trace("redux-sync", iota(96), 128, core::Op::Min).result, 1);
}

// cluster-dsmem over iota(300) in blocks of 64, clusters of 4: 5 blocks of data, a grid of 8.
// Block 0's warp totals and those of blocks 1-3 are read by block 0's first 8 threads, thread t
// from block t / 2 (cell t % 2); the cluster's 1..256 sum to 32896, the second cluster's 257..300
// to 12254 (its blocks 5-7 hold identities only).
TEST(Model, ClusterDsmemTheFirstBlockReadsEveryBlocksWarpTotals) {
  backend::TraceRequest req{"cluster-dsmem", core::Op::Sum, core::DType::Int, 64, 0, iota(300)};
  req.cluster = 4;
  const auto sim = backend::make_sim_backend();
  const auto t = sim->trace(req);
  EXPECT_EQ(t.grid, 8u);
  EXPECT_EQ(t.geometry.cluster, 4);
  EXPECT_EQ(t.pass_outputs, (std::vector<std::size_t>{2, 1}));
  EXPECT_EQ(t.partials, (std::vector<double>{32896, 12254}));
  EXPECT_EQ(t.result, 300 * 301 / 2);
  ASSERT_EQ(t.stages.size(), 20u);
  EXPECT_EQ(*t.stages[6].shared, (std::vector<double>{528, 1552}));
  const auto& read = t.stages[7];
  EXPECT_EQ(read.tag, kernels::kTagDsmemRead);
  EXPECT_EQ(read.label, "the cluster's first block reads the warp totals of its 4 blocks (DSMEM)");
  EXPECT_EQ(std::vector<double>(read.lanes->begin(), read.lanes->begin() + 9),
            (std::vector<double>{528, 1552, 2576, 3600, 4624, 5648, 6672, 7696, 0}));
  ASSERT_EQ(read.accesses.size(), 8u);
  for (int th = 0; th < 8; ++th) {
    EXPECT_EQ(read.accesses[std::size_t(th)], (core::Access{th, {th % 2}, {}, {th / 2}})) << "thread " << th;
  }
  EXPECT_EQ(read.active, (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7}));
  EXPECT_FALSE(read.bank_conflicts);  // reads through the cluster's window: no bank of this block's
  EXPECT_EQ((*t.stages.back().lanes)[0], 32896);

  req.trace_block = 4;  // the second cluster's first block: its own totals, then identities
  const auto second = sim->trace(req);
  EXPECT_EQ(std::vector<double>(second.stages[7].lanes->begin(), second.stages[7].lanes->begin() + 3),
            (std::vector<double>{8720, 3534, 0}));
  // A recording of it reads back as it was written, sources and all.
  EXPECT_EQ(core::trace_from_json(core::to_json(second)), second);

  for (int size : {2, 8}) {
    req.cluster = size, req.trace_block = 0;
    const auto other = sim->trace(req);
    EXPECT_EQ(other.grid, std::size_t((5 + size - 1) / size * size)) << size;
    EXPECT_EQ(other.stages[7].accesses.size(), std::size_t(2 * size)) << size;
    EXPECT_EQ(other.result, 300 * 301 / 2) << size;
  }
}

// The determinism column, derived from each row's columns: blocks that meet by atomics or bulk
// reductions may differ run to run; passes, second kernels, last blocks, grid syncs and outputs
// keep one order; pitfalls promise nothing; the libraries' promises are their lessons'.
TEST(Catalog, RunToRunFollowsHowTheBlocksCombine) {
  using kernels::RunToRun;
  const std::map<std::string, RunToRun> expected{{"sequential", RunToRun::Fixed},
                                                 {"warp-shuffle-vectorized", RunToRun::Arrival},
                                                 {"work-queue", RunToRun::Arrival},
                                                 {"cg-reduce-update-async", RunToRun::Arrival},
                                                 {"bulk-async", RunToRun::Arrival},
                                                 {"vectorized-ordered", RunToRun::Fixed},
                                                 {"compensated", RunToRun::Fixed},
                                                 {"threadfence-single-pass", RunToRun::Fixed},
                                                 {"cg-grid-sync", RunToRun::Fixed},
                                                 {"multiple-per-thread", RunToRun::Fixed},
                                                 {"missing-syncthreads", RunToRun::Pitfall},
                                                 {"syncthreads-in-branch", RunToRun::Pitfall},
                                                 {"batched-rows-vectorized", RunToRun::Fixed},
                                                 {"cub", RunToRun::Library},
                                                 {"cpu", RunToRun::Fixed},
                                                 {"copy", RunToRun::None}};
  for (const auto& [id, want] : expected) EXPECT_EQ(kernels::run_to_run(*kernels::find_row(id)), want) << id;
  // An ints-only row whose blocks meet in arrival order still gives the same result every run.
  EXPECT_TRUE(core::run_to_run_text("redux-sync-streaming").starts_with("the same result every run"));
  EXPECT_TRUE(core::run_to_run_text("bulk-async").starts_with("float and double sums may differ"));
  for (const auto& a : core::algorithms()) {
    const auto& row = *kernels::find_row(a.id);
    const RunToRun r = kernels::run_to_run(row);
    EXPECT_FALSE(core::run_to_run_text(a.id).empty()) << a.id;
    // A library's promise is in its lesson, with what it promises.
    if (r == RunToRun::Library) {
      const std::string words = a.lesson + a.brief + a.detail;
      EXPECT_NE(words.find("run to run"), std::string::npos) << a.id << ": " << words;
    }
  }
}

// 2^24 + 1 - 2^24 in one thread's vector: a float loop rounds 2^24 + 1 to 2^24 and ends at 0;
// Neumaier keeps the 1 the rounding dropped ((s - t) + x) and adds it back at stage [compensate].
// vectorized-ordered, the same kernel uncompensated, gives 0.
TEST(Model, CompensatedKeepsWhatARoundingDropped) {
  const double big = 16777216.0;  // 2^24: float's last integer step of one
  const std::vector<double> in{big, 1, -big, 0};
  const auto c = model_trace("compensated", in, 32, core::Op::Sum, core::DType::Float);
  EXPECT_EQ(c.result, 1);
  ASSERT_GE(c.stages.size(), 2u);
  EXPECT_EQ(c.stages[0].tag, kernels::kTagVectorLoad);
  EXPECT_EQ(c.stages[0].lanes->at(0), 0);  // the running sum alone
  EXPECT_EQ(c.stages[1].tag, kernels::kTagCompensate);
  EXPECT_EQ(c.stages[1].lanes->at(0), 1);  // plus what it lost
  EXPECT_EQ(model_trace("vectorized-ordered", in, 32, core::Op::Sum, core::DType::Float).result, 0);
  EXPECT_EQ(model_trace("warp-shuffle-vectorized", in, 32, core::Op::Sum, core::DType::Float).result, 0);
  // An infinity makes the lost part NaN; the plain sum is kept: +inf, as a plain loop gives.
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(model_trace("compensated", {1, inf, 2, 3}, 32, core::Op::Sum, core::DType::Float).result, inf);
  // A sum of finite floats past float's range: the lost part is -inf; the plain sum, +inf, is kept.
  EXPECT_EQ(model_trace("compensated", {3e38, 3e38, 0, 0}, 32, core::Op::Sum, core::DType::Float).result, inf);
}

// The compensated sum's error against the exact one, on random floats: each thread's loop errs
// by at most about 2u sum|x| (Higham 4.3), plus the roundings of the lost parts' own plain total
// (Neumaier keeps them apart): m lost parts of at most u times the running sum, summed with m
// roundings, at most about (m u)^2 sum|x| for m elements a thread; the plain tree over the
// threads' totals adds at most one rounding a level: u (2 + levels) sum|x|, levels = the block's
// shuffles (10), the last block's fold of the partials and its shuffles (10). The plain kernel's
// loop errs further. (REDLAB_TEST_SEED=4470145443717605557 found the (m u)^2 term: 2^17 copies
// of 0.1057f a thread.)
TEST(Model, CompensatedSumsStayWithinTheirBound) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  const double u = std::ldexp(1.0, -24);
  for (std::size_t n : {std::size_t(1), std::size_t(33), std::size_t(4099), (std::size_t(1) << 18) + 5}) {
    SCOPED_TRACE("n=" + std::to_string(n));
    auto in = test::random_values(n, core::DType::Float, seed + n);
    for (std::size_t i = 0; i < n; i += 7) in[i] *= 4096;  // magnitudes that round away small addends
    long double exact = 0;
    for (double x : in) exact += x;  // floats: 64-bit long double holds these sums exactly enough
    for (int block : {32, 256, 1024}) {
      const std::size_t grid = kernels::first_pass_grid(kernels::Algo::Compensated, n, block, model::kModelDevice, 1);
      const double levels = 10 + double((grid + block - 1) / block + 4) + 10;  // + a vector's 4
      const double mu = u * double((n + grid * std::size_t(block) - 1) / (grid * std::size_t(block)));
      const double got = test::model_result("compensated", core::Op::Sum, core::DType::Float, in, block);
      EXPECT_LE(std::fabs(got - double(exact)), (u * (2 + levels) + mu * mu) * test::abs_sum(in)) << "block " << block;
    }
  }
  // One block of 32 over 2^22 copies of one float: 2^17 adds a thread, each rounding the same way
  // while the sum stays between two powers of two, so a plain loop's error grows with every add,
  // far past the bound.
  const float x = float(0.05 + 0.1 * double(seed % 1000) / 1000);
  const std::vector<double> in(std::size_t(1) << 22, double(x));
  const long double exact = (long double)x * in.size();
  const double levels = 10 + 1 + 4 + 10, mu = u * double(in.size() / 32);
  const double bound = (u * (2 + levels) + mu * mu) * test::abs_sum(in);
  const double got = test::model_result("compensated", core::Op::Sum, core::DType::Float, in, 32, 1);
  EXPECT_LE(std::fabs(got - double(exact)), bound);
  // The same kernel uncompensated errs past the bound: shown at 0.1f, since at some other values
  // the loop's roundings partly cancel (REDLAB_TEST_SEED=10963372353017038957, 0.1457f: 20.9
  // against a bound of 38.3).
  const std::vector<double> tenths(in.size(), double(0.1f));
  const double tenths_bound = (u * (2 + levels) + mu * mu) * test::abs_sum(tenths);
  const double plain = test::model_result("vectorized-ordered", core::Op::Sum, core::DType::Float, tenths, 32, 1);
  EXPECT_GT(std::fabs(plain - double((long double)0.1f * tenths.size())), tenths_bound);
}

// bulk-async by hand: iota 259 as ints, blocks of 32, one block: two tiles of 32 vectors (512
// bytes each) come by bulk copy, the three-element tail from global memory.
TEST(Model, BulkAsyncFoldsTilesTheCopiesBrought) {
  backend::TraceRequest req{"bulk-async", core::Op::Sum, core::DType::Int, 32, 0, iota(259)};
  req.grid = 1;
  const auto t = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(t.result, 259 * 260 / 2);
  EXPECT_EQ(t.combine, kernels::Combine::BulkReduce);
  ASSERT_EQ(t.stages.size(), 16u);
  const auto& copy = t.stages[0];
  EXPECT_EQ(copy.tag, kernels::kTagBulkCopy);
  EXPECT_EQ(copy.label,
            "thread 0 arms the first tile's mbarrier for 512 bytes (arrive.expect_tx) and starts the bulk "
            "copies of the block's first tiles, one a buffer");
  EXPECT_EQ(copy.active, (std::vector<int>{0}));
  EXPECT_FALSE(copy.shared);
  const auto& wait = t.stages[1];
  EXPECT_EQ(wait.label, "the mbarrier's phase completes: the copy's 512 bytes are in shared memory");
  ASSERT_TRUE(wait.shared);
  ASSERT_EQ(wait.shared->size(), 128u);  // the first tile's cells, no more
  EXPECT_EQ((*wait.shared)[0], 1);
  EXPECT_EQ((*wait.shared)[127], 128);
  const auto& fold = t.stages[2];
  EXPECT_EQ(fold.tag, kernels::kTagTileFold);
  ASSERT_TRUE(fold.lanes);
  EXPECT_EQ((*fold.lanes)[0], 10 + 522 + 257);  // its vector of each tile, then tail element 256
  EXPECT_EQ((*fold.lanes)[1], 26 + 538 + 258);
  EXPECT_EQ((*fold.lanes)[31], 506 + 1018);  // no tail
  ASSERT_EQ(fold.loads.size(), 3u);          // the tail alone: no thread loads a tile
  EXPECT_EQ(fold.loads[0].elements, (std::vector<long long>{256}));
  EXPECT_EQ(t.stages[8].shared->size(), 1u);  // the warp totals: one warp, one cell
  EXPECT_EQ(t.stages.back().tag, kernels::kTagBulkReduce);
  EXPECT_EQ(t.stages.back().active, (std::vector<int>{0}));
  // Three ints take no 16 bytes: no tile comes, and the tail is every element.
  req.input = iota(3);
  const auto tiny = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(tiny.result, 6);
  EXPECT_EQ(tiny.stages[1].label, "this block takes no whole 16 bytes: no tile arrives");
  EXPECT_TRUE(tiny.stages[1].active.empty());
  EXPECT_FALSE(tiny.stages[1].shared);
  EXPECT_EQ(tiny.stages[0].label, "thread 0 starts no copy: this block takes no whole 16 bytes");
}

// bulk-async-streaming by hand: iota(10243) as ints in blocks of 32, a grid of 1. Its tiles are
// 32768 bytes (2048 vectors of 4 ints) whatever the block: two tiles, the second of 512 vectors,
// then a tail of 3 ints; thread t folds vectors t, t + 32, ... of each tile.
TEST(Model, BulkAsyncStreamingFoldsEveryBlockthVectorOfItsTiles) {
  backend::TraceRequest req{"bulk-async-streaming", core::Op::Sum, core::DType::Int, 32, 0, iota(10243)};
  req.grid = 1;
  const auto t = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(t.result, 10243 * 10244 / 2);
  EXPECT_EQ(t.stages[0].param, 32768);  // the first tile's bytes, not 32 threads x 16
  ASSERT_TRUE(t.stages[1].shared);
  ASSERT_EQ(t.stages[1].shared->size(), 8192u);  // the whole first tile
  EXPECT_EQ((*t.stages[1].shared)[8191], 8192);
  const auto& fold = *t.stages[2].lanes;
  for (int th : {0, 2, 3, 31}) {
    long long want = th < 3 ? 10241 + th : 0;                       // the tail: three threads
    for (long long v = th; v < 2560; v += 32) want += 16 * v + 10;  // vector v: 4v+1 .. 4v+4
    EXPECT_EQ(fold[std::size_t(th)], double(want)) << "thread " << th;
  }
}

// redux-sync-streaming: warp-shuffle-vectorized's loads (a thread's vectors by grid stride, then
// the tail), redux.sync's stages, and the block's atomic as its last stage. iota(1030) in blocks
// of 64, a grid of 2: thread t of block b folds vectors 64b + t and 64b + t + 128, ...
TEST(Model, ReduxSyncStreamingFoldsVectorsThenReducesInOneInstructionAWarp) {
  backend::TraceRequest req{"redux-sync-streaming", core::Op::Sum, core::DType::Int, 64, 0, iota(1030)};
  req.grid = 2;
  const auto t = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(t.result, 1030 * 1031 / 2);
  ASSERT_EQ(t.stages.size(), 6u);
  EXPECT_EQ(t.stages[0].tag, kernels::kTagVectorLoad);
  // Thread 1: vectors 1 and 129 (values 5..8 and 517..520); the tail starts at index 1028, and
  // thread 1's is index 1029, the value 1030.
  EXPECT_EQ((*t.stages[0].lanes)[1], 5 + 6 + 7 + 8 + 517 + 518 + 519 + 520 + 1030);
  EXPECT_EQ(t.stages[1].tag, kernels::kTagRedux);
  EXPECT_EQ(t.stages.back().tag, kernels::kTagAtomic);
  EXPECT_EQ(t.stages.back().active, (std::vector<int>{0}));
  EXPECT_EQ(t.partials.size(), 2u);
  EXPECT_EQ(t.partials[0] + t.partials[1], t.result);
}

// cluster-dsmem-streaming: blocks fold vectors by grid stride; each cluster's first block holds
// the cluster's total, and the last cluster folds the clusters' totals in a fixed order: floats
// whose sum depends on that order come out as the order says, the same every run.
TEST(Model, ClusterDsmemStreamingFoldsTheClustersTotalsInAFixedOrder) {
  const std::uint64_t seed = test::test_seed();
  const auto in = test::random_values(4096, core::DType::Float, seed);
  backend::TraceRequest req{"cluster-dsmem-streaming", core::Op::Sum, core::DType::Float, 64, 0, in};
  req.grid = 8;
  const auto sim = backend::make_sim_backend();
  const auto t = sim->trace(req);
  EXPECT_EQ(t.geometry.cluster, 2);                     // the row's own size when none is asked
  ASSERT_EQ(t.partials.size(), 4u) << "seed " << seed;  // one total a cluster
  EXPECT_EQ(t.pass_outputs, (std::vector<std::size_t>{4}));
  EXPECT_EQ(t.stages[0].tag, kernels::kTagVectorLoad);
  float first = 0;  // thread 0 of 512: vectors 0 and 512, elements 0..3 and 2048..2051, in order
  for (std::size_t i : {0, 1, 2, 3, 2048, 2049, 2050, 2051}) first += float(in[i]);
  EXPECT_EQ(float((*t.stages[0].lanes)[0]), first) << "seed " << seed;
  EXPECT_EQ(t.stages[7].tag, kernels::kTagDsmemRead);
  // 4 totals of 4 bytes make one 16-byte vector: thread 0 folds them in order, then the shuffles.
  float want = 0;
  for (double p : t.partials) want += float(p);
  EXPECT_EQ(float(t.result), want) << "seed " << seed;
  EXPECT_EQ(sim->trace(req).result, t.result);
}

// The sizes a cluster takes, and the block a cluster trace records, are refused in words.
TEST(Model, ClusterSizesAndTracedBlocksAreChecked) {
  const auto sim = backend::make_sim_backend();
  backend::TraceRequest req{"cluster-dsmem", core::Op::Sum, core::DType::Float, 64, 5, iota(1000)};
  try {
    sim->trace(req);
    ADD_FAILURE() << "block 5 of clusters of 4 was traced";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is not the first of its cluster of 4: trace block 4"), std::string::npos)
        << e.what();
  }
  req.trace_block = 0, req.grid = 6;  // a grid asked for: whole clusters only
  try {
    sim->trace(req);
    ADD_FAILURE() << "a grid of 6 blocks in clusters of 4 was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("a grid of 6 blocks is not a whole number of clusters of 4"),
              std::string::npos)
        << e.what();
  }
  req.grid = 0, req.cluster = 3;
  try {
    sim->trace(req);
    ADD_FAILURE() << "a cluster of 3 was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("cluster size must be 2, 4 or 8 blocks, got 3"), std::string::npos)
        << e.what();
  }
  req.algorithm = "warp-shuffle", req.cluster = 2;
  try {
    sim->trace(req);
    ADD_FAILURE() << "warp-shuffle took a cluster size";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("warp-shuffle launches no clusters"), std::string::npos) << e.what();
  }
}

TEST(Model, GridStrideThreadsSumPairsEveryGridWidthApart) {
  backend::TraceRequest req{"multiple-per-thread", core::Op::Sum, core::DType::Int, 32, 1, iota(1000), 4};
  const auto t = backend::make_sim_backend()->trace(req);
  EXPECT_EQ(t.grid, 4u);
  // Block 1, thread 0 adds the pairs (64, 96), (320, 352), ... (iota: value = index + 1).
  double expect = 0;
  for (int i = 64; i < 1000; i += 256) expect += (i + 1) + (i + 32 < 1000 ? i + 33 : 0);
  EXPECT_EQ((*t.stages[0].shared)[0], expect);
  EXPECT_EQ(t.input.size(), 256u);  // 4 strides of 64 elements
  EXPECT_EQ(t.stages[0].label.find("grid-stride"), 0u) << t.stages[0].label;
  EXPECT_EQ(t.stages.back().label, "last warp, stride 1");  // the complete-unroll tree
  EXPECT_EQ(t.result, 1000 * 1001 / 2);
}

TEST(Model, HarrisStepsFromFirstAddOnBuildOnIt) {
  // Kernels 4 to 6 of Harris' progression load two elements a block apart and add them.
  for (const char* id : {"first-add-on-load", "unroll-last-warp", "complete-unroll", "legacy-warp-synchronous"}) {
    backend::TraceRequest req{id, core::Op::Sum, core::DType::Int, 64, 2, iota(1000), 0};
    const auto t = backend::make_sim_backend()->trace(req);
    EXPECT_EQ(t.grid, 8u) << id;  // ceil(1000 / 128)
    ASSERT_EQ(t.input.size(), 128u) << id;
    EXPECT_EQ(t.input[0], 257) << id;  // block 2 starts at element 256
    EXPECT_EQ((*t.stages[0].shared)[5], (256 + 5 + 1) + (320 + 5 + 1)) << id;
    EXPECT_EQ(t.result, 1000 * 1001 / 2) << id;
  }
}

TEST(Model, BankConflictsComeFromRecordedAddresses) {
  const auto strided = model_trace("interleaved-bank-conflicts", iota(1024), 1024);
  // Stride s: thread t touches 2*s*t, so a warp's 32 threads hit min(2s, 32)-way conflicts.
  for (int k = 1; k <= 5; ++k) EXPECT_EQ(strided.stages[k].bank_conflicts, std::min(1 << k, 32)) << strided.stages[k].label;
  const auto seq = model_trace("sequential", iota(1024), 1024);
  for (std::size_t k = 0; k < seq.stages.size(); ++k) EXPECT_EQ(seq.stages[k].bank_conflicts, 1) << k;
  EXPECT_EQ(core::bank_conflict_degree({{0}, {32}, {64}, {1}}), 3);
  EXPECT_EQ(core::bank_conflict_degree({{0}, {0}, {0}}), 1);  // one word: a broadcast
  EXPECT_EQ(core::bank_conflict_degree({}), 0);
}

TEST(Model, DivergentWarpsAreCounted) {
  const auto div = model_trace("interleaved-divergent", iota(256), 256);
  EXPECT_EQ(div.stages[1].divergent_warps, 8);  // every warp has idle lanes
  const auto seq = model_trace("sequential", iota(256), 256);
  EXPECT_EQ(seq.stages[1].divergent_warps, 0);  // stride 128: warps 0-3 all work, 4-7 all idle
  EXPECT_EQ(seq.stages[4].divergent_warps, 1);  // stride 16: half of warp 0
}

TEST(Model, TailBlockIsPaddedWithTheIdentity) {
  const auto input = iota(40);
  auto t = model_trace("sequential", input, 32, core::Op::Sum, core::DType::Int, 1);
  EXPECT_EQ(t.input, std::vector<double>(input.begin() + 32, input.end()));
  for (int i = 8; i < 32; ++i) EXPECT_EQ((*t.stages[0].shared)[i], 0);
  EXPECT_EQ(t.result, 820);
  t = model_trace("sequential", input, 32, core::Op::Min, core::DType::Int, 1);
  EXPECT_EQ((*t.stages[0].shared)[20], std::numeric_limits<int>::max());
  EXPECT_EQ(t.result, 1);
  t = model_trace("sequential", input, 32, core::Op::Max, core::DType::Float, 1);
  EXPECT_EQ((*t.stages[0].shared)[20], -std::numeric_limits<double>::infinity());
  EXPECT_EQ(t.result, 40);
}

TEST(Model, ResultsMatchDoubleReferenceOnRandomInputs) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (const auto& id : core::array_ids()) {
    const std::vector<int> blocks =
        id == "non-pow2-block" ? std::vector<int>{33, 270, 1000} : std::vector<int>{32, 128, 1024};
    for (std::size_t n : {std::size_t(1), std::size_t(31), std::size_t(33), std::size_t(1000), std::size_t(4096),
                          std::size_t(3 * 4096), std::size_t(4099), (std::size_t(1) << 17) + 3})
      for (int block : blocks) {
        // Under the sanitizers 2^17 + 3 at the middle block alone (most of the test's time there).
        if (test::sanitized() && n > 4 * 4096 && block != blocks[1]) continue;
        for (auto type : test::types_of(id))
          for (auto op : test::ops_of(id, type)) {
            const auto input = test::random_values(n, type, seed + n + block);
            SCOPED_TRACE(id + " n=" + std::to_string(n) + " block=" + std::to_string(block) + " " +
                         core::to_string(op) + " " + core::to_string(type));
            const double got = test::model_result(id, op, type, input, block);
            const double ref = test::reference(op, input);
            if (type == core::DType::Int || op != core::Op::Sum) EXPECT_EQ(got, ref);
            else EXPECT_NEAR(got, ref, test::sum_tolerance(type, input));
          }
      }
  }
}

// vectorized-ordered at the grid an H100 runs it with (1056 blocks of 256: 132 SMs x 8): the last
// block folds the 1056 partials as 264 16-byte vectors, thread t vectors t and t + 256, each
// vector's four in order, then block_shuffle (five shuffles a warp, the eight warp totals, five
// more). Each block's quarter of the input holds one nonzero element, so its partial is that
// element; 24 random significant bits make the order show (issue 48: the goldens' grids were 1
// or odd, never a grid of whole vectors of partials).
TEST(Model, TheFixedOrderFoldAtAnH100sGridAddsInItsOrder) {
  const auto seed = test::test_seed();
  constexpr int kBlocks = 1056, kBlock = 256, kEach = kBlock * 4;  // one float4 a thread
  const auto warp_total = [](std::vector<float> lanes) {           // lane 0 after five shuffles down
    for (int offset = 16; offset > 0; offset /= 2)
      for (int l = 0; l + offset < 32; ++l)
        lanes[std::size_t(l)] = lanes[std::size_t(l)] + lanes[std::size_t(l + offset)];
    return lanes[0];
  };
  for (std::uint64_t attempt = 0; attempt < 100; ++attempt) {  // values a plain sum adds differently
    std::mt19937_64 rng(seed + attempt);
    std::vector<float> p(kBlocks);
    std::vector<double> input(std::size_t(kBlocks) * kEach, 0.0);
    for (int b = 0; b < kBlocks; ++b) {
      p[std::size_t(b)] = test::order_revealing_float(rng);
      input[std::size_t(b) * kEach + rng() % kEach] = p[std::size_t(b)];
    }
    std::vector<float> v(kBlock, 0.0f);
    for (int t = 0; t < kBlock; ++t)
      for (int i = t; i < kBlocks / 4; i += kBlock)
        for (int e = 0; e < 4; ++e) v[std::size_t(t)] = v[std::size_t(t)] + p[std::size_t(i * 4 + e)];
    std::vector<float> totals(32, 0.0f);
    for (int w = 0; w < kBlock / 32; ++w)
      totals[std::size_t(w)] = warp_total(std::vector<float>(v.begin() + w * 32, v.begin() + w * 32 + 32));
    const float want = warp_total(totals);
    float in_order = 0.0f;
    for (float x : p) in_order = in_order + x;
    if (want == in_order) continue;
    SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed) + ", attempt " + std::to_string(attempt));
    const double got =
        test::model_result("vectorized-ordered", core::Op::Sum, core::DType::Float, input, kBlock, kBlocks);
    EXPECT_EQ(got, double(want));
    return;
  }
  FAIL() << "no values of 100 tries add differently in order";
}

TEST(Model, IntSumsWrapLikeTheGpu) {
  const std::vector<double> big(4, 2147483647.0);
  const auto t = model_trace("sequential", big, 32);
  EXPECT_EQ(t.result, -4);  // 4 * (2^31 - 1) mod 2^32, as a signed int
  // Every algorithm, sums that wrap many times over, with a partly filled last block.
  for (std::size_t n : {std::size_t(4099), (std::size_t(1) << 17) + 3}) {
    const auto ints = test::wrapping_ints(n);
    const std::vector<double> values(ints.begin(), ints.end());
    for (const auto& id : core::array_ids())
      for (int block : {id == "non-pow2-block" ? 270 : 32, 256}) {
        if (test::types_of(id).front() != core::DType::Int) continue;  // compensated: floats only
        SCOPED_TRACE(id + " n=" + std::to_string(n) + " block=" + std::to_string(block));
        EXPECT_EQ(test::model_result(id, core::Op::Sum, core::DType::Int, values, block), test::wrapped_sum(ints));
      }
  }
}

TEST(Model, ImpossibleRequestsNameTheProblem) {
  const auto expect_msg = [](auto fn, const std::string& part) { test::expect_refusal(fn, part); };
  expect_msg([] { model_trace("sequential", {}, 32); }, "size must be at least 1");
  expect_msg([] { model_trace("sequential", iota(8), 48); }, "power of two");
  expect_msg([] { model_trace("sequential", iota(8), 2048); }, "32 to 1024");
  expect_msg([] { model_trace("sequential", iota(8), 16); }, "power of two");
  expect_msg([] { model_trace("sequential", iota(40), 32, core::Op::Sum, core::DType::Int, 2); }, "outside the grid");
  expect_msg([] { model_trace("nope", iota(8), 32); }, "unknown algorithm");
  expect_msg([] { model_trace("cub", iota(8), 32); }, "baseline");
  expect_msg([] { model_trace("global-halving", iota(70000), 32); }, "at most 2^16");
  expect_msg([] { model_trace("non-pow2-block", iota(8), 1025); }, "from 2 to 1024");
  expect_msg([] { model_trace("non-pow2-block", iota(8), 1); }, "from 2 to 1024");
}

TEST(Model, CpuBaselineMatchesTheReference) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(100003)})
    for (auto op : {core::Op::Sum, core::Op::Min, core::Op::Max}) {
      const auto ints = test::random_values(n, core::DType::Int, seed + n);
      const std::vector<int> vi(ints.begin(), ints.end());
      EXPECT_EQ(model::cpu_reduce<int>(op, vi.data(), n), test::reference(op, ints));
      const auto floats = test::random_values(n, core::DType::Float, seed + n);
      const std::vector<float> vf(floats.begin(), floats.end());
      const double got = model::cpu_reduce<float>(op, vf.data(), n);
      EXPECT_NEAR(got, test::reference(op, floats), op == core::Op::Sum ? 1e-5 * test::abs_sum(floats) : 0.0);
    }
}

TEST(Model, VectorizedLoadsFourThenTheTail) {
  const auto t = model_trace("warp-shuffle-vectorized", iota(10));
  EXPECT_EQ(t.grid, 1u);
  const auto& lanes = *t.stages[0].lanes;
  EXPECT_EQ(lanes[0], 1 + 2 + 3 + 4 + 9);   // vector 0, then tail element 8
  EXPECT_EQ(lanes[1], 5 + 6 + 7 + 8 + 10);  // vector 1, then tail element 9
  for (int l = 2; l < 32; ++l) EXPECT_EQ(lanes[l], 0) << l;
  EXPECT_EQ(t.stages.back().label, "atomic update of the result");
  EXPECT_EQ(t.stages.back().active, std::vector<int>{0});
  EXPECT_EQ(t.result, 55);
}

// work-queue: 1..(4 * 32 * 4 * 3) in blocks of 32 is three tickets of 128 vectors. With a
// grid of two, block 0 takes tickets 0 and 2 round-robin, or all but ticket 1 when a GPU run
// says so; a record that breaks the kernel's rules is refused.
TEST(Model, WorkQueueBlocksFoldTheTicketsTheyTook) {
  const std::size_t n = 4 * 32 * 4 * 3 + 3;  // three full tickets, then a scalar tail of 3
  const auto in = iota(n);
  const auto sum_of = [&](std::size_t first, std::size_t last) {  // elements [first, last), 1-based values
    double s = 0;
    for (std::size_t i = first; i < last; ++i) s += in[i];
    return s;
  };
  backend::TraceRequest req{"work-queue", core::Op::Sum, core::DType::Int, 32, 1, in, 2};
  const auto sim = backend::make_sim_backend();
  const auto t = sim->trace(req);
  EXPECT_EQ(t.combine, kernels::Combine::Atomics);
  EXPECT_EQ(t.tickets, (std::vector<int>{0, 1, 0}));
  ASSERT_EQ(t.partials.size(), 2u);
  const std::size_t ticket = 4 * 32 * 4;  // elements a ticket covers
  // Block 0: tickets 0 and 2, and the tail elements 1536-1538 (its threads 0-2).
  EXPECT_EQ(t.partials[0], sum_of(0, ticket) + sum_of(2 * ticket, 3 * ticket) + sum_of(3 * ticket, n));
  EXPECT_EQ(t.partials[1], sum_of(ticket, 2 * ticket));
  EXPECT_EQ(t.result, sum_of(0, n));
  // Block 1 is traced: lane 0 folds vectors 128, 160, 192, 224 of ticket 1.
  const auto& lanes = *t.stages[0].lanes;
  double lane0 = 0;
  for (std::size_t v : {128, 160, 192, 224}) lane0 += sum_of(4 * v, 4 * v + 4);
  EXPECT_EQ(lanes[0], lane0);
  EXPECT_EQ(t.input.size(), ticket);  // the traced block's elements: its one ticket

  req.tickets = {0, 1, 1};  // a run where block 1 came back first
  const auto replay = sim->trace(req);
  EXPECT_EQ(replay.tickets, req.tickets);
  EXPECT_EQ(replay.partials[0], sum_of(0, ticket) + sum_of(3 * ticket, n));
  EXPECT_EQ(replay.partials[1], sum_of(ticket, 3 * ticket));
  EXPECT_EQ(replay.input.size(), 2 * ticket);
  EXPECT_EQ(replay.result, t.result);

  // The record survives JSON, and the text names the traced block's tickets.
  EXPECT_EQ(core::trace_from_json(core::to_json(replay)).tickets, replay.tickets);
  EXPECT_NE(core::to_text(replay).find("tickets: 3 in all; block 1 took 1 2\n"), std::string::npos);

  // A block no kernel takes is refused before any grid is sized from it (no division by 0).
  req.tickets = {};
  req.grid = 0;  // the model sizes the grid itself
  for (int block : {0, -32, 48}) {
    req.block = block;
    EXPECT_THROW(sim->trace(req), std::invalid_argument) << block;
  }
  req.block = 32;
  req.grid = 2;

  for (const std::vector<int>& bad : {std::vector<int>{0, 1}, std::vector<int>{1, 1, 0}, std::vector<int>{0, 1, 2},
                                      std::vector<int>{0, 1, -1}}) {
    req.tickets = bad;
    EXPECT_THROW(sim->trace(req), std::invalid_argument) << ::testing::PrintToString(bad);
  }
}

TEST(Model, CgWarpMatchesTheSeedExample) {
  // 1..64 in one block of 64: warp 0 reduces to 528, warp 1 to 1552.
  const auto t = model_trace("cg-warp", iota(64), 64);
  ASSERT_EQ(t.stages.size(), 2u);
  EXPECT_EQ(t.stages[1].label, "cg::reduce over each 32-thread tile");
  EXPECT_EQ((*t.stages[1].lanes)[0], 528);
  EXPECT_EQ((*t.stages[1].lanes)[63], 1552);
  EXPECT_EQ(t.result, 2080);
}

TEST(Model, CgReduceUpdateAsyncUpdatesPerTile) {
  const auto t = model_trace("cg-reduce-update-async", iota(64), 64);
  ASSERT_EQ(t.stages.size(), 2u);
  EXPECT_EQ(t.stages[0].label, "grid-stride: each thread accumulates many elements");
  EXPECT_EQ(t.stages[1].label, "atomic update of the result");
  EXPECT_FALSE(t.stages[1].lanes);
  EXPECT_EQ(t.result, 2080);
}

TEST(Model, GridSyncAndTwoPhaseUseTheGivenGrid) {
  for (const char* id : {"cg-grid-sync", "cg-two-phase"}) {
    backend::TraceRequest req{id, core::Op::Sum, core::DType::Int, 32, 1, iota(1000), 2};
    const auto t = backend::make_sim_backend()->trace(req);
    EXPECT_EQ(t.grid, 2u) << id;
    // Block 1, thread 0: elements 32, 96, 160, ... (stride 2 blocks x 32 threads).
    double expect = 0;
    for (int i = 32; i < 1000; i += 64) expect += i + 1;
    EXPECT_EQ((*t.stages[0].lanes)[0], expect) << id;
    EXPECT_EQ(t.stages[2].label, "tile totals to shared memory") << id;
    EXPECT_EQ(t.result, 500500) << id;
  }
}

TEST(Model, ThreadfenceSinglePassTracesTheBlockPhase) {
  const auto t = model_trace("threadfence-single-pass", iota(100), 32, core::Op::Max);
  EXPECT_EQ(t.grid, 4u);
  ASSERT_EQ(t.stages.size(), 6u);
  EXPECT_EQ((*t.stages[5].shared)[0], 32);
  EXPECT_EQ(t.result, 100);
}

TEST(Model, PitfallsModelTheIntendedStages) {
  // Against sums derived by hand, not against another of the model's algorithms.
  for (const char* id : {"sequential", "missing-syncthreads", "syncthreads-in-branch", "legacy-warp-synchronous"}) {
    const auto t = model_trace(id, iota(128), 128);
    ASSERT_EQ(t.stages.size(), 8u) << id;
    expect_folded_iota(t, 128);
    EXPECT_EQ(t.result, 128 * 129 / 2) << id;
  }
  EXPECT_EQ(core::find_algorithm("syncthreads-in-branch")->kind, core::Kind::ModelOnly);
}

TEST(Model, EveryTracedAlgorithmHasALessonAndSource) {
  for (const auto& a : core::algorithms()) {
    EXPECT_GT(a.lesson.size(), 20u) << a.id;
    if (a.kind == core::Kind::Baseline) continue;
    EXPECT_GT(a.detail.size(), 150u) << a.id;
    EXPECT_NO_THROW(core::source_of(a.id)) << a.id;
  }
}

TEST(Model, DoublesUseTwoPerVectorAndTwoBanks) {
  backend::TraceRequest req{"warp-shuffle-vectorized", core::Op::Sum, core::DType::Double, 32, 0,
                            core::generate_input({core::InputSpec::Kind::Iota, 0, {}}, 5, core::DType::Double)};
  const auto t = backend::make_sim_backend()->trace(req);
  EXPECT_EQ((*t.stages[0].lanes)[0], 1 + 2 + 5);  // vector 0 (two doubles), then tail element 4
  EXPECT_EQ((*t.stages[0].lanes)[1], 3 + 4);
  EXPECT_EQ(t.result, 15);
  // 8-byte elements: consecutive ones fill a half-warp's 32 banks; a stride of two doubles conflicts 2-way.
  std::vector<std::vector<int>> consecutive(32), strided(32);
  for (int i = 0; i < 32; ++i) consecutive[i] = {i}, strided[i] = {2 * i};
  EXPECT_EQ(core::bank_conflict_degree(consecutive, 8), 1);
  EXPECT_EQ(core::bank_conflict_degree(strided, 8), 2);
  EXPECT_EQ(core::bank_conflict_degree(strided, 4), 2);
}

// Accesses of 16 and 8 bytes a thread are served a quarter and half a warp at a time, 128 bytes:
// eight threads reading 16-byte slots of one 128-byte line in any order fill the 32 banks once,
// and two of them reading the same slot of different lines conflict 2-way. Counted as one cell
// each (the rule for 4-byte accesses), the consecutive float4 reads would show a 4-way conflict.
TEST(Model, WideSharedAccessesAreServed128BytesAtATime) {
  const auto seed = test::test_seed();
  SCOPED_TRACE("REDLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  using Touches = std::vector<std::vector<core::SharedTouch>>;
  for (int trial = 0; trial < 50; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    std::vector<int> slot(8);
    std::iota(slot.begin(), slot.end(), 0);
    Touches quarter(32), clash(32), pairs(32);
    for (int q = 0; q < 4; ++q) {
      std::shuffle(slot.begin(), slot.end(), rng);
      for (int i = 0; i < 8; ++i) quarter[std::size_t(8 * q + i)] = {{32 * q + 4 * slot[std::size_t(i)], 4}};
    }
    clash = quarter;
    const int victim = int(rng() % 32), other = (victim / 8) * 8 + (victim % 8 + 1 + int(rng() % 7)) % 8;
    clash[std::size_t(other)] = {
        {clash[std::size_t(victim)][0].cell + 32 * (1 + int(rng() % 3)), 4}};  // its slot, another line
    for (int t = 0; t < 32; ++t) pairs[std::size_t(t)] = {{2 * t + 64 * int(rng() % 4) * (t >= 16), 2}};
    EXPECT_EQ(core::bank_conflict_degree(quarter, 4), 1);
    EXPECT_EQ(core::bank_conflict_degree(clash, 4), 2) << "threads " << victim << " and " << other;
    EXPECT_EQ(core::bank_conflict_degree(pairs, 4), 1);  // 8 bytes: each half-warp apart
  }
  std::vector<std::vector<int>> cells(32);
  for (int t = 0; t < 32; ++t) cells[std::size_t(t)] = {4 * t};
  EXPECT_EQ(core::bank_conflict_degree(cells, 4), 4);
  // Halves two a 4-byte word: 32 threads over 32 words, apart.
  Touches halves(32);
  for (int t = 0; t < 32; ++t) halves[std::size_t(t)] = {{2 * t, 2}};
  EXPECT_EQ(core::bank_conflict_degree(halves, 2), 1);
  halves[5] = {{2 * 6 + 64, 2}};  // thread 6's bank, another word
  EXPECT_EQ(core::bank_conflict_degree(halves, 2), 2);
  // The same as a stage: both halves of each word in the conflict are marked, and the rows are
  // a warp's (4 bytes a thread), whole though only 32 threads of a larger block touched.
  core::Stage s;
  for (int t = 0; t < 32; ++t) {
    core::Access a{t, {2 * t}, {}, {}};
    a.read_widths = {2};
    s.accesses.push_back(a);
  }
  s.accesses[5].reads = {2 * 6 + 64};
  const auto degree = core::cell_conflicts(s, 128, 2);
  for (int c : {12, 13, 76, 77}) EXPECT_EQ(degree[std::size_t(c)], 2) << "cell " << c;
  EXPECT_EQ(degree[10], 1);
  EXPECT_EQ(degree[14], 1);
  s.accesses.resize(16);
  for (auto& a : s.accesses) a.read_widths.clear();
  const auto rows = core::bank_rows(s, 2);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].threads, 32);
}

TEST(Model, CellConflictsMarkTheCellsOfConflictingAccesses) {
  // interleaved-bank-conflicts, block 64, stride 1: thread t reads 2t and 2t+1 and writes 2t;
  // in warp 0, cells 0 and 32 share bank 0: a 2-way conflict marks both.
  const auto t = model_trace("interleaved-bank-conflicts", iota(64), 64);
  const auto degree = core::cell_conflicts(t.stages[1], 64, 4);
  EXPECT_EQ(degree[0], 2);
  EXPECT_EQ(degree[32], 2);
  EXPECT_EQ(degree[1], 2);  // the second reads: 1 and 33, both in bank 1
  const auto seq = model_trace("sequential", iota(64), 64);
  for (int d : core::cell_conflicts(seq.stages[1], 64, 4)) EXPECT_EQ(d, 1);
}

TEST(Model, TracesRecordEveryBlocksResultAndHowTheyCombine) {
  const auto values = core::generate_input({core::InputSpec::Kind::Random, 7, {}}, 5000, core::DType::Int);
  const auto sum = [](const std::vector<double>& v, std::size_t count) {
    double s = 0;
    for (std::size_t i = 0; i < count && i < v.size(); ++i) s += v[i];
    return s;
  };
  struct Case {
    const char* id;
    const char* combine;
    std::vector<std::size_t> passes;  // results each launch leaves, block 128, n 5000
  };
  for (const Case& c : {Case{"sequential", "passes", {40, 1}}, Case{"first-add-on-load", "passes", {20, 1}},
                        Case{"cg-warp", "passes", {157, 5, 1}}, Case{"warp-shuffle-vectorized", "atomics", {}},
                        Case{"work-queue", "atomics", {3}},
                        Case{"threadfence-single-pass", "last-block", {40}}, Case{"cg-grid-sync", "grid-sync", {}},
                        Case{"multiple-per-thread", "second-kernel", {}}}) {
    backend::TraceRequest req{c.id, core::Op::Sum, core::DType::Int, 128, 1, values};
    const auto t = backend::make_sim_backend()->trace(req);
    SCOPED_TRACE(c.id);
    ASSERT_TRUE(t.combine);
    EXPECT_EQ(kernels::to_string(*t.combine), c.combine);
    if (!c.passes.empty()) {
      EXPECT_EQ(t.pass_outputs, c.passes);
    }
    ASSERT_FALSE(t.pass_outputs.empty());
    ASSERT_GE(t.partials.size(), t.pass_outputs.front());
    // The first pass's results hold the whole sum (ints: exactly).
    EXPECT_EQ(sum(t.partials, t.pass_outputs.front()), t.result);
    EXPECT_EQ(core::trace_from_json(core::to_json(t)), t);  // and survive the JSON round trip
  }
  backend::TraceRequest halving{"global-halving", core::Op::Sum, core::DType::Int, 128, 0, values};
  const auto h = backend::make_sim_backend()->trace(halving);
  EXPECT_EQ(h.combine, kernels::Combine::Halving);
  EXPECT_TRUE(h.partials.empty());
}

// The one table: every kernel has a row, and every row its kernel source marker, its model,
// its lesson and its place in docs/algorithms.md.
// What a GPU must have for a row's kernel: clusters and bulk copies sm_90, redux.sync sm_80, the
// rest anything this toolkit builds for; the host refuses an older GPU with these words.
TEST(Catalog, EachRowSaysTheComputeCapabilityItNeeds) {
  const auto major = [](const char* id) { return kernels::needs(*kernels::find_row(id)).major; };
  EXPECT_EQ(major("cluster-dsmem"), 9);
  EXPECT_EQ(major("bulk-async"), 9);
  EXPECT_EQ(major("redux-sync"), 8);
  EXPECT_EQ(kernels::needs(*kernels::find_row("redux-sync")).what, "the warp reduce instruction (redux.sync)");
  for (const char* id : {"warp-shuffle", "work-queue", "sequential", "cg-grid-sync", "lanes-per-row"})
    EXPECT_EQ(major(id), 0) << id;
}

TEST(Catalog, EveryRowHasItsMarkerModelLessonAndDocs) {
  std::ifstream in(REDLAB_SOURCE_DIR "/docs/algorithms.md");
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  for (int a = 0; a <= int(kernels::kLastAlgo); ++a) {
    const auto algo = kernels::Algo(a);
    EXPECT_EQ(kernels::row(algo).algo, algo) << "no row for Algo " << a;
  }
  for (const auto& r : kernels::kAlgorithms) {
    const std::string id(r.id);
    SCOPED_TRACE(id);
    const auto* info = core::find_algorithm(id);
    ASSERT_TRUE(info);
    EXPECT_GT(info->lesson.size(), 20u) << "kernels/lessons/" << id << ".md is missing or empty";
    EXPECT_NE(doc.find("### `" + id + "`"), std::string::npos) << "not in docs/algorithms.md";
    if (kernels::is_baseline(r)) continue;
    EXPECT_NO_THROW(core::source_of(id)) << "no `// <<< " << id << "` in " << r.source;
    const auto values = test::random_values(1000, core::DType::Int, 7);
    const double got = info->matrix ? model_trace(id, values, 128).result  // one output: the whole input
                                    : test::model_result(id, core::Op::Sum, core::DType::Int, values,
                                                         r.blocks == kernels::BlockRule::Any ? 270 : 128);
    EXPECT_EQ(got, test::reference(core::Op::Sum, values));
  }
}

// Each lesson is short enough for a projector, and its pointer names a stage the run has and a
// view that shows it.
TEST(Catalog, EveryLessonIsShortAndPointsAtAStageItsRunHas) {
  for (const auto& a : core::algorithms()) {
    SCOPED_TRACE(a.id);
    if (a.kind == core::Kind::Baseline) {
      EXPECT_FALSE(a.look) << "a baseline has no stages to point at";
      continue;
    }
    std::istringstream words(a.brief);
    const auto count = std::distance(std::istream_iterator<std::string>(words), std::istream_iterator<std::string>());
    EXPECT_GE(count, 35) << a.brief;
    EXPECT_LE(count, 80) << a.brief;
    ASSERT_TRUE(a.look) << "kernels/lessons/" << a.id << ".md has no 'Look: ' line";
    const auto t = model_trace(a.id, iota(1024), a.any_block ? 250 : 256);
    const int stage = core::pointed_stage(t, *a.look);
    ASSERT_GE(stage, 0) << "no stage " << kernels::tag_marker(a.look->tag) << " " << a.look->param.value_or(-1);
    const auto& st = t.stages[std::size_t(stage)];
    const auto& view = a.look->view;
    EXPECT_TRUE(view != "lanes" || st.lanes) << "the lanes view needs recorded registers";
    EXPECT_TRUE(view != "banks" || !st.accesses.empty()) << "the banks view needs shared-memory accesses";
    EXPECT_TRUE(view != "memory" || st.shared || st.lanes);
    EXPECT_FALSE(a.look->text.empty());
  }
}

// Every lesson's Look lands at every block a class may pick: at the block on screen, or the
// window offers the smallest larger block that shows its point (issue 47: at the fresh start's
// 32 threads five Looks pointed at stages that did not exist).
TEST(Catalog, EveryLookLandsOrNamesTheBlockThatShowsIt) {
  for (const auto& a : core::algorithms()) {
    if (a.kind == core::Kind::Baseline || !a.look) continue;
    for (int block = 32; block <= 1024; block *= 2) {
      SCOPED_TRACE(a.id + " at block " + std::to_string(block));
      const auto at = backend::look_block(a, block);
      if (block <= 256) {
        ASSERT_TRUE(at) << "no block from here to 1024 shows the Look";
      }
      if (!at) continue;
      EXPECT_GE(*at, block);
      if (a.matrix) continue;  // look_block runs the matrix rows itself; the arrays are checked here
      const auto t = model_trace(a.id, iota(std::size_t(*at)), *at);
      EXPECT_GE(core::pointed_stage(t, *a.look), 0) << "look_block(" << block << ") = " << *at;
    }
  }
  // The two the review named: at 32 threads sequential has no stride 64, and interleaved
  // addressing's stride 4 conflicts in no bank (64 threads queue two a bank; 128 show stride 64).
  EXPECT_EQ(backend::look_block(*core::find_algorithm("sequential"), 32), 128);
  EXPECT_EQ(backend::look_block(*core::find_algorithm("interleaved-bank-conflicts"), 32), 64);
  EXPECT_EQ(backend::look_block(*core::find_algorithm("sequential"), 256), 256);
}

TEST(Catalog, PointersParseOrNameTheirFault) {
  const auto p = core::parse_pointer("Look: banks step=4: lanes queue on one bank");
  EXPECT_EQ(p.view, "banks");
  EXPECT_EQ(p.tag, kernels::kTagStep);
  EXPECT_EQ(p.param, 4);
  EXPECT_EQ(p.text, "lanes queue on one bank");
  EXPECT_FALSE(core::parse_pointer("Look: lanes shfl: arrows").param);
  for (const char* bad : {"Look: bank step=4: x", "Look: banks stp: x", "Look: banks step=four: x", "Look: banks", "Look banks step: x"})
    EXPECT_THROW(core::parse_pointer(bad), std::runtime_error) << bad;
}

// The terms a class meets are defined, and found in running text whatever their case or number.
TEST(Glossary, DefinesTheClassTermsAndFindsThemInText) {
  for (const char* term : {"SM", "warp", "lane", "bank", "coalesced", "identity", "grid stride", "occupancy",
                           "shuffle mask", "butterfly", "atomic", "fence", "independent thread scheduling"}) {
    const auto* t = core::find_term(term);
    ASSERT_TRUE(t) << term;
    EXPECT_GT(t->definition.size(), 40u) << term;
  }
  // A term inside a hyphenated name is no term: warp-shuffle-vectorized and cg-warp underline nothing.
  const std::string text =
      "Warps of 32 lanes; the grid-stride loop; a bank conflict; atomicAdd and __threadfence; SMs; "
      "warp-shuffle-vectorized, cg-warp.";
  std::vector<std::string> found;
  for (const auto& at : core::find_terms(text)) found.push_back(text.substr(at.pos, at.len) + "=" + at.term->term);
  EXPECT_EQ(found, (std::vector<std::string>{"Warps=warp", "lanes=lane", "grid-stride=grid stride",
                                              "bank conflict=bank conflict", "SMs=SM"}));
  EXPECT_THROW(core::parse_glossary("warp: a\n\nno colon here\n"), std::runtime_error);
  // Every term a lesson underlines has its entry, and every entry is used by some lesson or entry.
  std::string all;
  for (const auto& a : core::algorithms()) all += a.lesson + " " + a.brief + " " + a.detail + " ";
  for (const auto& t : core::glossary()) all += t.definition + " ";
  for (const auto& t : core::glossary()) {
    bool used = false;
    for (const auto& at : core::find_terms(all)) used |= at.term == &t;
    EXPECT_TRUE(used) << t.term << " is defined but no lesson or entry uses it";
  }
}

// Fixed grids follow the device's threads per SM, not an assumed 2048: the GPUs students own
// hold 1536 (sm_86, sm_89) or 1024 (sm_75).
TEST(Shapes, ResidentGridsFollowTheDevicesThreadsPerSm) {
  const std::size_t n = std::size_t(1) << 26;
  using kernels::Algo;
  for (int threads : {2048, 1536, 1024})
    for (int block : {128, 256, 1024}) {
      const std::size_t wave = std::size_t(threads / block) * 46;
      EXPECT_EQ(kernels::first_pass_grid(Algo::MultiplePerThread, n, block, kernels::DeviceShape(46, threads)), wave)
          << threads << " " << block;
      EXPECT_EQ(kernels::first_pass_grid(Algo::WorkQueue, n, block, kernels::DeviceShape(46, threads)), wave)
          << threads << " " << block;
    }
}

// A float sum's rounding bound follows the grid that ran: with a grid asked for (bench --grid),
// a thread's chain is its share of that grid, and atomics add one after another once a block.
// warp-shuffle-vectorized over 2^20 in blocks of 256: trees 2 * 20 + 2 = 42.
TEST(Shapes, RoundingDepthFollowsAnAskedGrid) {
  using kernels::Algo;
  const kernels::DeviceShape h100{132, 2048};
  EXPECT_EQ(kernels::rounding_depth(Algo::WarpShuffleVectorized, 1 << 20, 256, h100, 4), 512u + 42u + 2u);
  EXPECT_EQ(kernels::rounding_depth(Algo::WarpShuffleVectorized, 1 << 20, 256, h100, 4096), 1u + 42u + 2048u);
  // cg-reduce-update-async: an atomic update a warp tile, eight a block of 256.
  EXPECT_EQ(kernels::rounding_depth(Algo::CgReduceUpdateAsync, 1 << 20, 256, h100, 4), 512u + 42u + 16u);
  // vectorized-ordered: one block walks the 4096 partials, 256 at a time.
  EXPECT_EQ(kernels::rounding_depth(Algo::VectorizedOrdered, 1 << 20, 256, h100, 4096), 1u + 42u + 8u);
  const std::size_t own = kernels::first_pass_grid(Algo::WarpShuffleVectorized, 1 << 20, 256, h100);
  EXPECT_EQ(kernels::rounding_depth(Algo::WarpShuffleVectorized, 1 << 20, 256, h100, 0),
            kernels::rounding_depth(Algo::WarpShuffleVectorized, 1 << 20, 256, h100, own));
}

// Every lesson's numbers are filled: no {placeholder} is left in any text a student reads, and
// the shipped runs' figures are the runs' own.
TEST(Lessons, EveryPlaceholderIsFilled) {
  for (const auto& info : core::algorithms()) {
    const auto filled = backend::with_numbers(info);
    for (const std::string* text : {&filled.lesson, &filled.brief, &filled.detail})
      EXPECT_EQ(text->find('{'), std::string::npos) << info.id << ": " << *text;
    if (filled.look) {
      EXPECT_EQ(filled.look->text.find('{'), std::string::npos) << info.id;
    }
  }
  EXPECT_EQ(core::shipped_figure("device:h200"), "NVIDIA H200");
  EXPECT_EQ(core::shipped_figure("us:h200:float:naive-serial:2^28"), "944 us");
  EXPECT_EQ(core::shipped_figure("pct:h200:float:work-queue:2^28"), "94.5 % of peak");  // 94.505 in the run
  EXPECT_EQ(core::shipped_figure("pct:h200:float:work-queue:2^27x"), "");
  EXPECT_EQ(core::shipped_figure("us:h100:float:batched-rows:4096x65536"), "345 us");  // 345.0 in the run
  EXPECT_EQ(core::shipped_figure("us:h200:float:no-such-kernel:2^28"), "");
  EXPECT_EQ(core::shipped_figure("us:h200:float:naive-serial:3"), "");
  // A row's block, its blocks of one element a thread, and those a thread of one block reads.
  EXPECT_EQ(core::shipped_figure("block:h100:float:threadfence-single-pass:2^28"), "256");
  EXPECT_EQ(core::shipped_figure("blocks:h100:float:threadfence-single-pass:2^28"), "2^20");
  EXPECT_EQ(core::shipped_figure("each:h100:float:threadfence-single-pass:2^28"), "4096");
  EXPECT_EQ(core::shipped_figure("block:h100:float:cub:2^28"), "");  // CUB picks its own
  const auto naive = backend::with_numbers(*core::find_algorithm("naive-serial")).detail;
  EXPECT_NE(naive.find("in 944 us, against 2575 us"), std::string::npos) << naive;
}

// Lessons quote the trace's numbers: interleaved addressing's working lanes share
// 32 / min(2 * stride, 32) banks, so the degree rises then falls (2, 4, 8, 8, 8, 4, 2, 1 at 256
// threads; 32 at 1024); sequential addressing's divergent warps appear from stride 16 down.
TEST(Lessons, QuoteTheDegreesAndDivergenceTheTraceComputed) {
  for (int block : {256, 1024}) {
    const auto t = model_trace("interleaved-bank-conflicts", iota(std::size_t(block)), block);
    std::string expected;
    for (int stride = 1; stride < block; stride *= 2) {
      const int working = std::min(32, block / (2 * stride));  // lanes of the first warp that add
      const int degree = std::max(1, working * std::min(2 * stride, 32) / 32);
      const auto& s = t.stages[std::size_t(std::countr_zero(unsigned(stride))) + 1];
      EXPECT_EQ(s.bank_conflicts, degree) << "block " << block << " stride " << stride;
      expected += (expected.empty() ? "" : ", ") + std::to_string(degree);
    }
    const auto filled = core::fill_lesson(core::find_algorithm("interleaved-bank-conflicts")->detail, t);
    EXPECT_NE(filled.find("at " + std::to_string(block) + " threads the steps give " + expected), std::string::npos) << filled;
  }
  const auto seq = model_trace("sequential", iota(256), 256);
  const auto filled = backend::with_numbers(*core::find_algorithm("sequential")).detail;
  EXPECT_NE(filled.find("at 256 threads: 0, 0, 0, 1, 1, 1, 1, 1."), std::string::npos) << filled;
  for (const auto& s : seq.stages) {
    if (s.tag == kernels::kTagStep) {
      EXPECT_EQ(s.divergent_warps, s.param < 32 ? 1 : 0) << s.label;
    }
  }
}

// The one pass plan (kernels::pass_plan) the launcher, the model and pass_outputs walk: each
// pass reads what the one before left, launches whole clusters that cover its elements, and the
// last leaves one value. Seeded sizes from 1 to 2^26, every row combined in passes.
TEST(Shapes, ThePassPlanCoversEveryElementAndEndsInOneValue) {
  const std::uint64_t seed = test::test_seed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (const auto& r : kernels::kAlgorithms) {
    if (kernels::is_baseline(r) || r.combine != kernels::Combine::Passes || r.shape != kernels::Shape::Array) continue;
    SCOPED_TRACE(std::string(r.id));
    const int cluster = r.tree == kernels::Tree::Cluster ? 4 : 1;
    const int block = r.blocks == kernels::BlockRule::Any ? 96 : 128;
    const std::size_t per_block = std::size_t(kernels::tiles_on_load(r.algo)) * std::size_t(block);
    for (std::size_t n :
         {std::size_t(1), std::size_t(2), std::size_t(block) + 1, std::size_t(1) + rng() % (1u << 26)}) {
      SCOPED_TRACE("n " + std::to_string(n));
      const auto plan = kernels::pass_plan(r.algo, n, block, cluster);
      ASSERT_FALSE(plan.empty());
      EXPECT_EQ(plan.front().count, n);
      EXPECT_EQ(plan.back().outputs, 1u);
      for (std::size_t p = 0; p < plan.size(); ++p) {
        EXPECT_EQ(plan[p].blocks % std::size_t(cluster), 0u) << "pass " << p;
        EXPECT_GE(plan[p].blocks * per_block, plan[p].count) << "pass " << p;
        EXPECT_LT((plan[p].blocks - std::size_t(cluster)) * per_block, plan[p].count)
            << "pass " << p << ": a cluster more";
        if (p + 1 < plan.size()) {
          EXPECT_EQ(plan[p + 1].count, plan[p].outputs) << "pass " << p + 1;
          EXPECT_LT(plan[p].outputs, plan[p].count) << "pass " << p << " leaves no fewer";
        }
      }
      std::vector<std::size_t> outputs;
      for (const auto& p : plan) outputs.push_back(p.outputs);
      EXPECT_EQ(kernels::pass_outputs(r.algo, n, block, plan.front().blocks, cluster), outputs);
    }
  }
}

// The panel's choice is settled in one place (backend::settle): every algorithm, type, operator
// and accumulator comes out as a choice its row accepts, changed only where it was refused, and
// every change has its note.
TEST(Settle, EveryChoiceComesOutAcceptedAndEveryChangeIsNamed) {
  const core::DType types[] = {core::DType::Int, core::DType::Float, core::DType::Double, core::DType::Half,
                               core::DType::Bf16};
  const core::Op ops[] = {core::Op::Sum, core::Op::Min, core::Op::Max};
  int changed = 0;
  for (const auto& a : core::algorithms())
    for (const auto type : types)
      for (const auto op : ops)
        for (const auto acc : {core::Accumulate::Float, core::Accumulate::Same}) {
          const auto s = backend::settle(a.id, type, op, acc);
          SCOPED_TRACE(a.id + " " + core::to_string(type) + " " + core::to_string(op));
          EXPECT_EQ(backend::type_refusal(a.id, s.type, s.op, acc), "");
          const bool refused = !backend::type_refusal(a.id, type, op, acc).empty();
          EXPECT_EQ(refused, s.type != type || s.op != op);
          EXPECT_EQ(s.type != type, !s.type_note.empty());
          EXPECT_EQ(s.op != op, !s.op_note.empty());
          changed += refused;
        }
  EXPECT_GT(changed, 0);
  const auto redux = backend::settle("redux-sync", core::DType::Float, core::Op::Max, core::Accumulate::Float);
  EXPECT_EQ(redux.type, core::DType::Int);
  EXPECT_EQ(redux.op, core::Op::Max);
  EXPECT_NE(redux.type_note.find("'redux-sync' reduces int only, not float"), std::string::npos) << redux.type_note;
  EXPECT_NE(redux.type_note.find("the type is int"), std::string::npos) << redux.type_note;
  const auto kahan = backend::settle("compensated", core::DType::Int, core::Op::Min, core::Accumulate::Float);
  EXPECT_EQ(kahan.type, core::DType::Float);
  EXPECT_EQ(kahan.op, core::Op::Sum);
  EXPECT_NE(kahan.type_note.find("the type is float"), std::string::npos) << kahan.type_note;
  const auto bulk = backend::settle("bulk-async", core::DType::Float, core::Op::Max, core::Accumulate::Float);
  EXPECT_EQ(bulk.type, core::DType::Float);
  EXPECT_EQ(bulk.op, core::Op::Sum);
  EXPECT_NE(bulk.op_note.find("the operator is sum"), std::string::npos) << bulk.op_note;
}
