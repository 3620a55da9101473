#include "embedded.h"

// Symbols emitted by the build's .incbin stubs (see CMakeLists.txt, rl_embed).
#define RL_EMBEDDED(sym)                      \
  extern "C" const char rl_embed_##sym[];     \
  extern "C" const char rl_embed_##sym##_end[];
RL_EMBEDDED(quad_vert)
RL_EMBEDDED(quad_frag)
RL_EMBEDDED(text_vert)
RL_EMBEDDED(text_frag)
RL_EMBEDDED(tri_vert)
RL_EMBEDDED(tri_frag)
RL_EMBEDDED(mono_font)

namespace rl::embedded {
namespace {
std::string_view view(const char* begin, const char* end) {
  return {begin, static_cast<std::size_t>(end - begin)};
}
#define RL_VIEW(sym) view(rl_embed_##sym, rl_embed_##sym##_end)
}  // namespace

std::string_view mono_font() { return RL_VIEW(mono_font); }

std::string_view shader(std::string_view name) {
  if (name == "quad.vert") return RL_VIEW(quad_vert);
  if (name == "quad.frag") return RL_VIEW(quad_frag);
  if (name == "text.vert") return RL_VIEW(text_vert);
  if (name == "text.frag") return RL_VIEW(text_frag);
  if (name == "tri.vert") return RL_VIEW(tri_vert);
  if (name == "tri.frag") return RL_VIEW(tri_frag);
  return {};
}

}  // namespace rl::embedded
