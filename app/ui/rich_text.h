// Wrapped text whose glossary terms are underlined and explained on hover.
#pragma once
#include <string_view>

namespace rl::ui {

// Draws `text` wrapped to the available width; each glossary term in it is drawn in the
// link colour, underlined, with its entry as a tooltip.
void rich_text(std::string_view text);

}  // namespace rl::ui
