// The stage views, one registry: each view's enum value, name (the CLI's, settings', lesson
// pointers' and the window's), and what it shows. Why a view has nothing for a trace is asked
// here too; how each is drawn is render's table (render/warp_views.cpp), indexed by the same
// enum. A new view is its row here and its entry there.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "trace.h"

namespace rl::core {

enum class View { Memory, Lanes, Divergence, Banks, Grid, Coalescing, Gpus };

struct ViewRow {
  View view;
  std::string_view name;
  std::string_view shows;  // what the view draws: its button's tooltip
};

inline constexpr ViewRow kViewRows[] = {
    {View::Memory, "memory",
     "the block's shared memory after the stage, reads and writes marked (global-halving: the array; a matrix: the "
     "cells around the block)"},
    {View::Lanes, "lanes", "each warp's registers, and where a shuffle took each lane's value from"},
    {View::Divergence, "divergence", "which lanes of each warp worked in the stage"},
    {View::Banks, "banks", "the 32 banks each warp-wide shared-memory access touched"},
    {View::Grid, "grid", "the grid's blocks and how their results become one"},
    {View::Coalescing, "coalescing", "each warp-wide global load and the 32-byte sectors it fetched"},
    {View::Gpus, "gpus",
     "an all-reduce across GPUs: every GPU's chunks after the step, and what moved over which link"},
};
inline constexpr int kViewCount = int(std::size(kViewRows));

std::optional<View> parse_view(std::string_view name);
const char* to_string(View view);
bool is_view_name(std::string_view name);
// Every view's name, joined: "memory | lanes | divergence | banks | grid | coalescing".
std::string view_names(std::string_view separator = " | ");
// Why a view has nothing to show for this trace ("" when it applies): the lanes view needs
// recorded registers, the banks view shared-memory accesses, the coalescing view global loads.
std::string why_not(View view, const Trace& trace);
// Whether a view is one of the trace's kind: the gpus view for an all-reduce across GPUs, the
// others for a run inside one GPU (the window shows buttons for these alone).
inline bool of_its_kind(View view, const Trace& trace) { return (view == View::Gpus) == trace.collective.has_value(); }
// The view a trace opens on where the one asked for has nothing: memory, or gpus across GPUs.
inline View home_view(const Trace& trace) { return trace.collective ? View::Gpus : View::Memory; }
// The next view after `view` that applies (V cycles through these).
View next_view(View view, const Trace* trace);

}  // namespace rl::core
