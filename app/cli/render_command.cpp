#include "render_command.h"

#include "../platform/headless.h"
#include "../render/canvas.h"
#include "../render/memory_view.h"
#include "../render/offscreen.h"

namespace rl::cli {

int render_stage_png(const core::Trace& trace, int stage, int width, int height,
                     const std::string& path, std::ostream& err) {
  std::string why;
  auto ctx = platform::HeadlessContext::create(&why);
  if (!ctx) {
    err << "reduction-lab: error: cannot render: " << why << "\n";
    return 1;
  }
  try {
    render::Offscreen target;
    target.resize(width, height);
    render::Canvas canvas;
    target.bind();
    render::draw_memory_view(canvas, trace, stage, width, height);
    render::Offscreen::unbind();
    if (!render::write_png(path, width, height, target.read_rgba(), &why)) {
      err << "reduction-lab: error: " << why << "\n";
      return 1;
    }
  } catch (const std::exception& e) {
    err << "reduction-lab: error: rendering failed: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace rl::cli
