// What kind of step a recorded stage is. The kernels and the model record a tag and a
// parameter per stage; the app turns them into a label, and finds the stage's source line
// by the tag's marker ("// [name]") inside the algorithm's kernel.
#pragma once

namespace rl::kernels {

// One tag a line with its marker and meaning; the markers below in the same order.
// clang-format off
enum Tag : int {
  kTagLoad = 0,     // [load]       one element per thread into shared memory / registers
  kTagLoadAdd,      // [load-add]   two elements added while loading
  kTagGridStride,   // [grid-stride] many elements accumulated per thread
  kTagVectorLoad,   // [vector-load] 16-byte loads accumulated per thread
  kTagStep,         // [step]       a tree step over shared memory; param = stride
  kTagWarpStep,     // [warp-step]  a tree step inside the last warp; param = stride
  kTagSerial,       // [serial]     one thread adds the block's cells one by one
  kTagShuffle,      // [shfl]       a __shfl_down_sync step; param = offset
  kTagWarpSums,     // [warp-sums]  each warp's lane 0 stores its total to shared memory
  kTagFinalLoad,    // [final-load] the first warp loads the warps' totals
  kTagFinalShuffle, // [final-shfl] the first warp's shuffle steps; param = offset
  kTagTileReduce,   // [tile-reduce] cg::reduce over a 32-thread tile
  kTagTileSums,     // [tile-sums]  tile leaders store tile totals to shared memory
  kTagFinalReduce,  // [final-reduce] the first tile reduces the tile totals
  kTagAtomic,       // [atomic]     the block's total combined into the result atomically
  kTagHalving,      // [halving]    a launch adds the upper half of the array onto the lower
  kTagInput,        // [input]      the array in global memory, before any launch
  kTagRowStride,    // [row-stride] each thread accumulates its row's elements a block apart
  kTagColumnStride, // [column-stride] each thread accumulates its column over a chunk of rows
  kTagColumnStep,   // [column-step] a tree step down the block's rows; param = stride in rows
  kTagColumnWalk,   // [column-walk] one thread walks down its whole column
  kTagTileStride,   // [tile-stride] 2D grid stride: each thread accumulates a tile's elements
  kTagColumnVector, // [column-vector] each thread accumulates 4 columns, 16 bytes a load
  kTagRowVector,    // [row-vector]  each thread accumulates its chunk of a row, 16 bytes a load
  kTagRowLanes,     // [row-lanes]   each lane of a row's segment accumulates its part; param = lanes a row
  kTagTileCopy,     // [tile-copy]   a block copies a tile of rows into shared memory; param = the tile's row pitch
  kTagRowWalk,      // [row-walk]    each thread adds its own row of the tile; param = columns it adds
  kTagRedux,        // [redux]       each warp's values reduced by one __reduce_*_sync (redux.sync)
  kTagFinalRedux,   // [final-redux] the first warp reduces the warps' totals the same way
  kTagDsmemRead,    // [dsmem-read]  a cluster's first block reads every block's warp totals; param = blocks a cluster
  kTagBulkCopy,     // [bulk-copy]   thread 0 arms an mbarrier and starts a tile's bulk copy; param = bytes expected
  kTagBulkWait,     // [bulk-wait]   the mbarrier's phase completes: the tile is in shared memory; param = bytes copied
  kTagTileFold,     // [tile-fold]   each thread folds its 16 bytes of every tile its block took
  kTagBulkReduce,   // [bulk-reduce] thread 0 adds the block's result to out by cp.reduce.async.bulk; param = bytes
  kTagCompensate,   // [compensate]  each thread adds back what its loop's roundings lost (Neumaier)
  kTagBarrier,      // [barrier]     a kernel of your own: a __syncthreads() ended the stage; param = rl_param's value
  kTagLanes,        // [lanes]       a kernel of your own: rl_lanes recorded each calling thread's register
  kTagWarpStage,    // [warp-stage]  a kernel of your own: rl_warp_stage() ended the stage inside one warp; param = rl_param's
  kTagReduceScatter, // [reduce-scatter] across GPUs: each GPU adds the chunk its ring neighbour sent; param = the step, from 1
  kTagAllGather,    // [all-gather]  across GPUs: each GPU copies the summed chunk its ring neighbour sent; param = the step, from 1
  kTagPeerAdd,      // [peer-add]    across GPUs: each GPU reads every peer's buffer and adds them in the GPUs' order
  kTagRowSegment,   // [row-segment] each lane of a row longer than its segment walks it, loads `lanes` apart; param = lanes a row
  kTagGridSync,     // [grid-sync]   a kernel of your own: rl_grid_sync() ended the stage, every block arrived; param = rl_param's
  kTagCount
};

// The marker that tags a line in the kernel source, e.g. "[step]".
inline const char* tag_marker(int tag) {
  static const char* const names[kTagCount] = {
      "[load]", "[load-add]", "[grid-stride]", "[vector-load]", "[step]", "[warp-step]", "[serial]",
      "[shfl]", "[warp-sums]", "[final-load]", "[final-shfl]", "[tile-reduce]", "[tile-sums]",
      "[final-reduce]", "[atomic]", "[halving]", "[input]", "[row-stride]", "[column-stride]",
      "[column-step]", "[column-walk]", "[tile-stride]", "[column-vector]", "[row-vector]", "[row-lanes]",
      "[tile-copy]", "[row-walk]", "[redux]", "[final-redux]", "[dsmem-read]", "[bulk-copy]", "[bulk-wait]",
      "[tile-fold]", "[bulk-reduce]", "[compensate]", "[barrier]", "[lanes]", "[warp-stage]", "[reduce-scatter]",
      "[all-gather]", "[peer-add]", "[row-segment]", "[grid-sync]"};
  return tag >= 0 && tag < kTagCount ? names[tag] : "[?]";
}

// clang-format on

}  // namespace rl::kernels
