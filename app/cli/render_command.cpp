#include "render_command.h"

#include "../platform/headless.h"
#include "../render/bench_chart.h"
#include "../render/canvas.h"
#include "../render/memory_view.h"
#include "../render/offscreen.h"

namespace rl::cli {

namespace {

// A headless context, an offscreen target and a canvas; draw() paints, then the PNG is written.
template <class Draw>
int render_png(int width, int height, const std::string& path, std::ostream& err, Draw draw) {
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
    draw(canvas);
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

}  // namespace

int render_stage_png(const core::Trace& trace, int stage, int width, int height, const std::string& path,
                     std::ostream& err) {
  return render_png(width, height, path, err,
                    [&](render::Canvas& c) { render::draw_memory_view(c, trace, stage, width, height); });
}

int render_chart_png(const core::BenchReport& report, const std::string& type, const std::string& op, int width,
                     int height, const std::string& path, std::ostream& err) {
  const auto spec = render::bench_chart(report, type, op);
  if (spec.series.empty()) {
    err << "reduction-lab: error: the results hold no rows for " << op << " of " << type << "\n";
    return 2;
  }
  return render_png(width, height, path, err, [&](render::Canvas& c) { render::draw_plot(c, spec, width, height); });
}

}  // namespace rl::cli
