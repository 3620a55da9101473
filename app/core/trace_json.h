// The trace's JSON values, shared by trace.cpp and trace_json.cpp: numbers that may be Inf or
// NaN, fields that must be there, and an all-reduce's own fields. Not for use outside them.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "json_fields.h"
#include "trace.h"

namespace rl::core::trace_json {

using json = nlohmann::ordered_json;

// JSON has no Inf or NaN; they travel as strings. Integers travel as integers.
json encode(double v, DType type);
double decode(const json& j, const char* field);
json encode_all(const std::vector<double>& values, DType type);
std::vector<double> decode_all(const json& j, const char* name);
// j's field `name`; throws naming it where j has none.
const json& field(const json& j, const char* name);
template <class T>
T typed(const json& j, const char* name) {
  return json_fields::as<T>(field(j, name), std::string("trace field '") + name + "'");
}

// An all-reduce across GPUs: its GPUs, chunks and results beside the trace's fields; its steps'
// transfers and held values in each stage; and both in words.
void write_collective(const Collective& c, DType type, json& j);
void write_gpu_stage(const GpuStage& g, DType type, json& js);
Collective read_collective(const json& j);
GpuStage read_gpu_stage(const json& js);
std::string collective_text(const Collective& c);
std::string gpu_stage_text(const GpuStage& g, DType type);

}  // namespace rl::core::trace_json
