#include "coalescing_view.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "../../kernels/raw_trace.h"
#include "../../kernels/matrix_shapes.h"
#include "view_parts.h"

namespace rl::render {

std::vector<LoadRow> load_rows(const core::Stage& stage, std::size_t element_bytes) {
  const long long per = 32 / (long long)element_bytes;  // elements a sector holds
  std::vector<LoadRow> rows;
  for (const core::WarpLoad& w : core::warp_loads(stage, element_bytes)) {
    std::map<long long, std::vector<int>> sectors;
    for (const core::Load& l : stage.loads) {
      if (l.thread / 32 != w.warp || std::size_t(w.slot) >= l.elements.size()) continue;
      const long long first = l.elements[std::size_t(w.slot)];
      for (long long e = first; e >= 0 && e < first + l.width(std::size_t(w.slot)); ++e) {
        auto& lanes = sectors.try_emplace(e / per, std::vector<int>(std::size_t(per), -1)).first->second;
        int& at = lanes[std::size_t(e % per)];
        if (at < 0) at = l.thread % 32;  // two lanes on one element: the first is shown
      }
    }
    LoadRow row{w, {}};
    for (auto& [sector, lanes] : sectors) row.sectors.push_back({sector, std::move(lanes)});
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

// Where a page of loads goes: a name column (with the count under the name where the rows
// are tall enough for two lines), the boxes, and otherwise a count column.
struct Rows {
  Rect area;
  float name_w = 0, count_w = 0, row_h = 0, box_w = 0, box_h = 0, gap = 0, far_gap = 0;
  float name_px = 0, number_px = 0;
  bool numbers = false;      // room over the boxes for their first elements' indices
  bool count_below = false;  // the count under the name, not in a column of its own
  float first_y = 0;  // the page's rows, centred in the area
  float top(int r) const { return first_y + r * row_h; }
};

std::string count_text(const core::WarpLoad& w) {
  const std::string sectors = core::count_text(std::size_t(w.sectors), "sector", "sectors");
  const std::string lanes = w.lanes == 32 ? "" : " for " + core::count_text(std::size_t(w.lanes), "lane", "lanes");
  return sectors + lanes + " (ideal " + std::to_string(w.ideal) + ")";
}

std::string load_name(const core::WarpLoad& w) {
  return "warp " + std::to_string(w.warp) + ", load " + std::to_string(w.slot + 1);
}

Rows layout_rows(Canvas& c, const Rect& area, const std::vector<LoadRow>& page, float label_px, float min_px) {
  Rows R;
  R.area = area;
  R.name_px = std::max(min_px, label_px);
  float names = 0, counts = 0;  // measured from this page's own texts: a count is never cut
  std::size_t most = 4;
  for (const auto& r : page) {
    names = std::max(names, c.text_width(load_name(r.load), R.name_px));
    counts = std::max(counts, c.text_width(count_text(r.load), R.name_px));
    most = std::max(most, r.sectors.size());
  }
  const float fair_h = area.h / float(std::max<std::size_t>(page.size(), 1));
  R.count_below = fair_h >= R.name_px * 2.6f;
  R.name_w = (R.count_below ? std::max(names, counts) : names) + R.name_px;
  R.count_w = R.count_below ? 0.0f : counts + R.name_px;
  const float boxes_w = std::max(1.0f, area.w - R.name_w - R.count_w);
  R.box_w = boxes_w / (float(most) * 1.3f);
  R.gap = std::max(1.0f, R.box_w * 0.04f), R.far_gap = R.box_w * 0.3f;
  R.row_h = std::min(fair_h, R.box_w * 1.6f + R.name_px * 2);
  R.row_h = std::max({R.row_h, 1.0f, R.count_below ? R.name_px * 2.6f : 0.0f});
  R.number_px = std::max(min_px, std::min(R.row_h * 0.22f, R.name_px));
  // A band over each box for its first element's index and one under it for its lanes, where
  // the row has room for both and a box at least as tall as the text.
  R.first_y = area.y + std::max(0.0f, area.h - R.row_h * float(page.size())) / 2;
  R.numbers = R.row_h * 0.85f - 2 * R.number_px * 1.3f >= R.number_px * 1.2f;
  R.box_h = R.numbers ? R.row_h * 0.85f - 2 * R.number_px * 1.3f : R.row_h * 0.75f;
  return R;
}

// A lane's slots: the worked colour, every other row's lanes a shade darker where rows own
// segments of lanes (thread_band_color), as in the memory view's strips.
Color lane_color(const core::Trace& t, int lane, const Palette& pal) { return thread_band_color(t, lane, true, pal); }

// Lane numbers in the slots, where they fit with room to spare (a wide view).
void draw_lanes(Canvas& c, const core::Trace& t, const Rect& box, const SectorBox& s, float px, const Palette& pal) {
  const float slot = box.w / float(s.lane_at.size());
  if (c.text_width("31", px) * 1.4f > slot || px > box.h * 0.6f) return;
  for (std::size_t k = 0; k < s.lane_at.size(); ++k)
    if (const int lane = s.lane_at[k]; lane >= 0)
      c.text(box.x + slot * (float(k) + 0.5f), box.cy(), std::to_string(lane), px, text_on(lane_color(t, lane, pal)),
             Align::Center);
}

// The lanes whose elements a group of sectors holds, as fits `width`: "lanes 0-7", "0-7",
// "lane 31", "3 lanes", or nothing.
std::string lanes_text(const std::vector<const SectorBox*>& group, Canvas& c, float px, float width) {
  std::vector<int> lanes;
  for (const SectorBox* s : group)
    for (int l : s->lane_at)
      if (l >= 0) lanes.push_back(l);
  std::sort(lanes.begin(), lanes.end());
  lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
  if (lanes.empty()) return {};
  const bool run = lanes.back() - lanes.front() + 1 == int(lanes.size());
  const std::string span = std::to_string(lanes.front()) + "-" + std::to_string(lanes.back());
  std::vector<std::string> tries;
  if (lanes.size() == 1) tries = {"lane " + std::to_string(lanes[0]), std::to_string(lanes[0])};
  else if (run) tries = {"lanes " + span, span};
  else tries = {std::to_string(lanes.size()) + " lanes", std::to_string(lanes.size())};
  for (const auto& t : tries)
    if (c.text_width(t, px) <= width) return t;
  return {};
}

// The boxes' labels, a group of neighbouring sectors at a time: the fewest sectors a group
// (1, 2, 4, ...) whose every label fits its width, so 16 narrow sectors of 16-byte loads read
// "lanes 0-7" over four boxes rather than nothing. Over a group its first element, under it its lanes.
void draw_labels(Canvas& c, const Rows& R, const LoadRow& row, const std::vector<Rect>& boxes, long long per,
                 const Palette& pal) {
  const float band = R.number_px * 1.3f;
  for (std::size_t g = 1; g < 2 * boxes.size(); g *= 2) {  // the last g covers every box
    std::vector<std::tuple<Rect, std::string, std::string>> labels;
    bool fits = true;
    for (std::size_t i = 0; i < boxes.size() && fits; i += g) {
      const std::size_t end = std::min(boxes.size(), i + g);
      std::vector<const SectorBox*> group;
      for (std::size_t k = i; k < end; ++k) group.push_back(&row.sectors[k]);
      const Rect span{boxes[i].x, boxes[i].y, boxes[end - 1].x + boxes[end - 1].w - boxes[i].x, boxes[i].h};
      const float room = span.w + R.gap - R.number_px * 0.6f;  // a space between neighbours' labels
      const std::string first = std::to_string(row.sectors[i].sector * per);
      const std::string lanes = lanes_text(group, c, R.number_px, room);
      fits = c.text_width(first, R.number_px) <= room && !lanes.empty();
      labels.emplace_back(span, first, lanes);
    }
    if (!fits) continue;
    // One form for the row: "0-3 ... 28-31", not "lanes 0-3" beside "8-11".
    const bool short_form =
        std::any_of(labels.begin(), labels.end(), [](const auto& l) { return !std::get<2>(l).starts_with("lane"); });
    for (auto& [span, first, lanes] : labels)
      if (short_form && lanes.starts_with("lanes "))
        lanes = lanes.substr(6);
      else if (short_form && lanes.starts_with("lane "))
        lanes = lanes.substr(5);
    for (const auto& [span, first, lanes] : labels) {
      c.text(span.x, span.y - band / 2, first, R.number_px, pal.muted);
      c.text(span.cx(), span.y + span.h + band / 2, lanes, R.number_px, pal.text, Align::Center);
    }
    return;
  }
}

// One warp-wide load: its name, its sectors in address order (a wider gap where they are not
// neighbours), its count. Returns the boxes drawn.
std::vector<Rect> draw_row(Canvas& c, const core::Trace& t, const Rows& R, int r, const LoadRow& row, std::size_t bytes,
                           const Palette& pal, float min_px) {
  const float y = R.top(r), band = R.numbers ? R.number_px * 1.3f : 0.0f, box_y = y + R.row_h * 0.1f + band;
  const float line = R.count_below ? R.name_px * 0.65f : 0.0f, mid = box_y + R.box_h / 2;
  fitted_text(c, R.area.x, mid - line, load_name(row.load), R.name_px, min_px, R.name_w - R.name_px * 0.5f, pal.muted);
  const long long per = 32 / (long long)bytes;
  std::vector<Rect> boxes;
  float x = R.area.x + R.name_w;
  for (std::size_t i = 0; i < row.sectors.size(); ++i) {
    const SectorBox& s = row.sectors[i];
    if (i > 0) x += s.sector == row.sectors[i - 1].sector + 1 ? R.gap : R.far_gap;
    const Rect box{x, box_y, R.box_w, R.box_h};
    c.rect(box, pal.padding, pal.muted, 1);
    const float slot = R.box_w / float(per);
    const float inset = std::min(1.0f, slot * 0.1f);  // a narrow slot keeps its width
    for (std::size_t k = 0; k < s.lane_at.size(); ++k)
      if (s.lane_at[k] >= 0)
        c.rect({box.x + slot * float(k) + inset, box.y + 1, slot - 2 * inset, box.h - 2},
               lane_color(t, s.lane_at[k], pal));
    draw_lanes(c, t, box, s, std::max(min_px, std::min(R.box_h * 0.5f, R.name_px)), pal);
    boxes.push_back(box);
    x += R.box_w;
  }
  if (R.numbers) draw_labels(c, R, row, boxes, per, pal);
  const Color count = row.load.sectors <= row.load.ideal ? pal.active : pal.conflict;
  const float count_x = R.count_below ? R.area.x : R.area.x + R.area.w - R.count_w + R.name_px * 0.5f;
  const float count_w = R.count_below ? R.name_w - R.name_px * 0.5f : R.count_w - R.name_px * 0.5f;
  fitted_text(c, count_x, mid + line, count_text(row.load), R.name_px, min_px, count_w, count);
  return boxes;
}

// "warp-wide loads 1-8 of 64; 4 to 32 sectors each"; "of 16 recorded (a trace keeps a warp's
// first 16)" where a warp reached that limit and may have loaded more.
std::string page_note(const std::vector<LoadRow>& rows, int first, int shown, bool cut) {
  if (rows.empty()) return {};
  const auto [lo, hi] = std::minmax_element(rows.begin(), rows.end(), [](const LoadRow& a, const LoadRow& b) {
    return a.load.sectors < b.load.sectors;
  });
  const std::string kept =
      cut ? " recorded (a trace keeps a warp's first " + std::to_string(kernels::kLoadSlots) + ")" : "";
  std::string note = int(rows.size()) > shown
                         ? "warp-wide loads " + std::to_string(first + 1) + "-" + std::to_string(first + shown) + " of " +
                               std::to_string(rows.size()) + kept
                         : core::count_text(rows.size(), "warp-wide load", "warp-wide loads") + kept;
  const std::string each = lo->load.sectors == hi->load.sectors
                               ? std::to_string(lo->load.sectors)
                               : std::to_string(lo->load.sectors) + " to " + std::to_string(hi->load.sectors);
  return note + "; " + each + (hi->load.sectors == 1 ? " sector each" : " sectors each");
}

// The stages that did load, for a stage that did not: "stage 0".
std::string loading_stages(const core::Trace& t) {
  std::string out;
  for (std::size_t i = 0; i < t.stages.size(); ++i)
    if (!t.stages[i].loads.empty()) out += (out.empty() ? "stage " : ", ") + std::to_string(i);
  return out;
}

int first_load_shown(const std::vector<LoadRow>& rows, int first, int page) {
  return std::clamp(first, 0, std::max(0, int(rows.size()) - page));
}

// Loads a page holds: kLoadRowsShown, or fewer rather than none of their addresses and lanes
// (presenter mode's large type).
int page_for(const ViewContext& ctx, const std::vector<LoadRow>& rows) {
  for (int page = kLoadRowsShown; page > 1; --page) {
    const int first = first_load_shown(rows, ctx.options.first_bank_row, page);
    const int shown = std::min(int(rows.size()) - first, page);
    if (shown <= 0) continue;
    const std::vector<LoadRow> part(rows.begin() + first, rows.begin() + first + shown);
    if (layout_rows(ctx.c, view_area(ctx.L, ctx.t.algorithm, "coalescing", ctx.min_px), part, ctx.L.label_px,
                    ctx.min_px)
            .numbers)
      return page;
  }
  return 1;
}

}  // namespace

std::string coalescing_note(const core::Trace& t, int stage, int first, int page) {
  const auto rows = load_rows(t.stages[std::size_t(stage)], core::element_bytes(t.type));
  first = first_load_shown(rows, first, page);
  return page_note(rows, first, std::min(int(rows.size()) - first, page),
                   core::loads_cut(t.stages[std::size_t(stage)]));
}

CoalescingDrawn draw_coalescing(const ViewContext& ctx) {
  auto& [c, t, stage, L, pal, options, min_px] = ctx;
  const std::size_t bytes = core::element_bytes(t.type);
  const auto rows = load_rows(t.stages[std::size_t(stage)], bytes);
  const int page = page_for(ctx, rows);
  const int first = first_load_shown(rows, options.first_bank_row, page);
  const int shown = std::min(int(rows.size()) - first, page);
  const std::string note = page_note(rows, first, shown, core::loads_cut(t.stages[std::size_t(stage)]));
  const Rect area = view_frame(c, t, stage, "coalescing", L, pal, note, min_px);
  if (rows.empty()) {
    const std::string others = loading_stages(t);
    view_message(c, area, "no global loads in this stage" + (others.empty() ? "" : "; see " + others), L.label_px * 1.2f, pal);
    return {{}, page};
  }
  const std::vector<LoadRow> part(rows.begin() + first, rows.begin() + first + shown);
  const Rows R = layout_rows(c, area, part, L.label_px, min_px);
  std::vector<Rect> boxes;
  for (int r = 0; r < shown; ++r) {
    const auto drawn = draw_row(c, t, R, r, part[std::size_t(r)], bytes, pal, min_px);
    boxes.insert(boxes.end(), drawn.begin(), drawn.end());
  }
  const std::string sector = "box: one 32-byte sector (" + std::to_string(32 / bytes) + " " + core::to_string(t.type) + "s)";
  std::vector<LegendEntry> legend{{pal.active, "element a lane loaded"},
                                  {pal.padding, sector},
                                  {pal.conflict, "count: more sectors than ideal"},
                                  {pal.muted, "wide gap: sectors not adjacent in memory", true}};
  if (const int k = t.geometry.segment_lanes; k > 0 && k < 32)
    legend.insert(legend.begin() + 1, {segment_shade(pal.active), "darker: odd rows' " + std::to_string(k) + " lanes"});
  if (R.numbers) legend.push_back({pal.muted, "over a box: its first element; under it: its lanes", true});
  draw_legend(c, L.legend, legend, L.label_px, min_px, pal);
  return {boxes, page};
}

}  // namespace rl::render
