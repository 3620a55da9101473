// The window's message colours: one meaning each, wherever the text appears.
#pragma once
#include <imgui.h>

namespace rl::ui {

inline const ImVec4 kAmber{0.95f, 0.72f, 0.2f, 1};          // the CPU model, an adjusted value
inline const ImVec4 kShippedBlue{0.55f, 0.78f, 1.0f, 1};    // figures shipped with the program
inline const ImVec4 kErrorRed{1.0f, 0.45f, 0.3f, 1};        // a failure
inline const ImVec4 kGpuGreen{0.35f, 0.85f, 0.55f, 1};      // a GPU run
inline const ImVec4 kEqualGreen{0.6f, 0.9f, 0.3f, 1};       // two runs equal bit for bit

}  // namespace rl::ui
