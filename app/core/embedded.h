// Files built into the binary (kernel source, shaders, font), so the program needs no
// data directory at run time.
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

namespace rl::embedded {

std::string_view kernel_source(std::string_view path);  // "kernels/tree.cuh" as compiled; empty when unknown
const std::vector<std::string_view>& kernel_source_names();  // every kernel source built in
std::string_view lesson(std::string_view id);  // kernels/lessons/ID.md; empty when there is none
std::string_view shader(std::string_view name);  // shaders/NAME; empty when unknown
std::string_view plan(std::string_view name);  // assets/plans/NAME.json; empty when there is none
const std::vector<std::string_view>& plan_names();
std::string_view mono_font();  // DejaVu Sans Mono (fonts-dejavu-core), TrueType bytes
// The GPU measurements shipped with the program: "RUN/bench_TYPE_OP" is
// assets/runs/RUN/bench_TYPE_OP.json as built; empty when unknown.
std::string_view shipped_report(std::string_view name);
const std::vector<std::string_view>& shipped_report_names();  // in the build's order (CMakeLists.txt)

// assets/races/NAME.json: race recordings made on a GPU (NAME an algorithm id) and the
// racecheck findings ("racecheck"); empty when unknown.
std::string_view shipped_race(std::string_view name);
// assets/machine_code/ID.txt: `cuobjdump -sass` lines from a GPU machine's build (core/machine_code.h).
std::string_view machine_code(std::string_view id);
// assets/counters/RUN.json: Nsight Compute's counters of a GPU run (core/counters.h).
std::string_view counters(std::string_view run);
const std::vector<std::string_view>& shipped_race_names();
// assets/own/NAME.cu and reduction_lab.cuh: the header and starter files of kernels of your own.
std::string_view own_file(std::string_view name);
const std::vector<std::string_view>& own_file_names();

}  // namespace rl::embedded
