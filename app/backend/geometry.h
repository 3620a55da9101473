// The layout a run had, written into its trace by the backend that launched it (core::Geometry):
// grid and block in x and y, how threads picked their elements, the passes, and what each thread
// of the traced block folded. The kernels' rules are asked here, once, at record time; the views
// read the trace.
#pragma once
#include <cstddef>
#include <vector>

#include "../../kernels/algorithms.h"
#include "../../kernels/plan.h"
#include "../core/trace.h"

namespace rl::backend {

// The plan as recorded: grid, block, indexing, passes, and what each thread of the traced block
// folded (tickets: work-queue's record of who took each ticket).
core::Geometry geometry(const kernels::Plan& plan, const std::vector<int>& tickets);
// A trace read from a file without geometry (recorded before traces carried it) gets its layout
// from this build's kernel of its algorithm. Throws std::runtime_error when this build has none:
// then the trace cannot say how its threads were laid out.
void complete_geometry(core::Trace& t);

}  // namespace rl::backend
