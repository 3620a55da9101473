// The bandwidth chart: GB/s against n (log2), one series per algorithm measured, CUB drawn
// as the reference, the device copy (a reference), and the device's theoretical peak as a line.
// Over matrix shapes: % of the peak against a row's length (log2), the anchors as references.
#pragma once
#include <string_view>

#include "../core/bench.h"
#include "plot.h"

namespace rl::render {

// Whose timings the chart shows: a run made here, or a GPU run shipped with the program
// (titled "measured on DEVICE, not this machine").
enum class Origin { ThisMachine, Shipped, File };  // File: a results file opened, its date in the title

PlotSpec bench_chart(const core::BenchReport& report, std::string_view type, std::string_view op,
                     Origin origin = Origin::ThisMachine);

}  // namespace rl::render
