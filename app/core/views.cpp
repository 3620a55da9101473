#include "views.h"

#include <algorithm>

namespace rl::core {

static_assert([] {
  for (int i = 0; i < kViewCount; ++i)
    if (int(kViewRows[i].view) != i) return false;
  return true;
}(), "kViewRows lists the views in their enum's order");

std::optional<View> parse_view(std::string_view name) {
  for (const auto& r : kViewRows)
    if (r.name == name) return r.view;
  return std::nullopt;
}

const char* to_string(View view) { return kViewRows[int(view)].name.data(); }

bool is_view_name(std::string_view name) { return parse_view(name).has_value(); }

std::string view_names(std::string_view separator) {
  std::string out;
  for (const auto& r : kViewRows) out += (out.empty() ? "" : std::string(separator)) + std::string(r.name);
  return out;
}

std::string why_not(View v, const Trace& t) {
  const auto any = [&](auto has) { return std::any_of(t.stages.begin(), t.stages.end(), has); };
  if (t.collective && v != View::Gpus)
    return "an all-reduce across GPUs runs no block of yours to look inside: the gpus view shows its buffers and links";
  if (!t.collective && v == View::Gpus)
    return "the gpus view shows an all-reduce across GPUs (ring-all-reduce, one-shot-all-reduce); this run is inside "
           "one GPU";
  if (!records_work(t) && (v == View::Divergence || v == View::Banks || v == View::Coalescing))
    return "a GPU run of a kernel of your own records its shared memory after each barrier and rl_lanes' "
           "registers, not which lanes worked or which addresses they touched: its run on the CPU path does";
  if (own_kernel(t) && v == View::Lanes && !any([](const Stage& s) { return s.lanes.has_value(); }))
    return "no stage recorded registers: call rl_lanes(value) in the kernel to record them";
  if (v == View::Lanes && !any([](const Stage& s) { return s.lanes.has_value(); }))
    return "this algorithm keeps its values in shared memory: no stage recorded registers";
  if (v == View::Banks && t.memory == Memory::Global) return "this algorithm works in global memory, which has no banks";
  if (v == View::Banks && !any([](const Stage& s) { return !s.accesses.empty(); }))
    return "no stage of this algorithm read or wrote shared memory";
  if (v == View::Coalescing && !any([](const Stage& s) { return !s.loads.empty(); }))
    return "this trace recorded no global loads";
  return "";
}

View next_view(View v, const Trace* t) {
  for (int k = 1; k <= kViewCount; ++k) {
    const View next = View((int(v) + k) % kViewCount);
    if (!t || why_not(next, *t).empty()) return next;
  }
  return v;
}

}  // namespace rl::core
