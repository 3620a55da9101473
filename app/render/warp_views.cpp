#include "warp_views.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "../core/facts.h"
#include "coalescing_view.h"
#include "gpus_view.h"
#include "grid_view.h"
#include "lanes_view.h"
#include "memory_view.h"
#include "view_parts.h"

namespace rl::render {
namespace {

Rect frame(Canvas& c, const core::Trace& t, int stage, const char* view, const MemoryLayout& L, const Palette& pal,
           const std::string& note, float min_px) {
  return view_frame(c, t, stage, view, L, pal, note, min_px);
}

void message(Canvas& c, const Rect& area, const std::string& text, float px, const Palette& pal) {
  view_message(c, area, text, px, pal);
}

// "warp 9", "warps 9, 11", "4 warps"; lanes of one warp: "lane 16".
std::string names(const std::vector<int>& ids, const char* one, const char* many) {
  if (ids.size() == 1) return std::string(one) + " " + std::to_string(ids[0]);
  if (ids.size() > 3) return std::to_string(ids.size()) + " " + many;
  std::string out = many;
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : " ") + std::to_string(ids[i]);
  return out;
}

// A race recording: what warp wp did in this stage's stale reads ("ahead of warp 9; behind
// warp 0"), or, inside the warp, which lanes ran ahead of which; empty when nothing.
std::string ahead_text(const std::vector<core::Ahead>& ahead, int wp) {
  std::vector<int> before, after, lanes;
  for (const auto& a : ahead) {
    if (a.lanes && a.ahead / 32 == wp) lanes.push_back(a.ahead % 32);
    if (!a.lanes && a.ahead == wp) before.push_back(a.behind);
    if (!a.lanes && a.behind == wp) after.push_back(a.ahead);
  }
  std::string text;
  if (!before.empty()) text = "ahead of " + names(before, "warp", "warps");
  if (!after.empty()) text += (text.empty() ? "" : "; ") + std::string("behind ") + names(after, "warp", "warps");
  if (!lanes.empty()) text += (text.empty() ? "" : "; ") + names(lanes, "lane", "lanes") + " ran ahead";
  return text;
}

// The caption's note for a race: who ran ahead first in this stage, and how many more pairs.
std::string ahead_note(const std::vector<core::Ahead>& ahead) {
  if (ahead.empty()) return "no stale read in this stage";
  const auto& a = ahead[0];
  std::string text = a.lanes ? "lane " + std::to_string(a.ahead % 32) + " of warp " + std::to_string(a.ahead / 32) +
                                   " ran ahead of lane " + std::to_string(a.behind % 32)
                             : "warp " + std::to_string(a.ahead) + " ran ahead of warp " + std::to_string(a.behind);
  text += " (" + core::count_text(std::size_t(a.reads), "stale read", "stale reads") + ")";
  if (ahead.size() > 1) text += " and " + std::to_string(ahead.size() - 1) + " more";
  return text;
}

// Which threads of the block read a stale value in this stage (none without a race).
std::vector<char> stale_readers(const core::Trace& t, int stage, int threads) {
  std::vector<char> out(std::size_t(std::max(threads, 0)), 0);
  if (t.race)
    for (const auto& x : core::stale_in(*t.race, stage))
      if (x.thread >= 0 && x.thread < threads) out[std::size_t(x.thread)] = 1;
  return out;
}

// Per warp, which of its 32 lanes were active in this stage and whether they ran apart (split_warps:
// "branched" where all worked); with a race recording, the lanes
// that read a stale value framed and which warps ran ahead of which.
// Rows are a square's height apart, or a line of text's where the area has the room (a block
// of few warps in a narrow panel); rows still too low for their text label every `step`th warp.
void draw_divergence(const ViewContext& ctx) {
  auto& [c, t, stage, L, pal, options, min_px] = ctx;
  const core::Stage& s = t.stages[stage];
  const int threads = t.memory == core::Memory::Global ? int(std::min<std::size_t>(t.size, 1024)) : t.block;
  const int warps = std::max(1, (threads + 31) / 32);
  const auto ahead = t.race ? core::warps_ahead(*t.race, stage) : std::vector<core::Ahead>{};
  const Rect area = frame(c, t, stage, "divergence", L, pal, t.race ? ahead_note(ahead) : std::string(), min_px);
  const float label_w = L.label_px * 4.6f, right_w = L.label_px * (t.race ? 17 : 11);
  const float side = std::min((area.w - label_w - right_w) / 32.0f, area.h / float(warps));
  const float text_px = std::max(min_px, std::min(L.label_px * 0.8f, side * 0.8f));
  const float pitch = std::min(area.h / float(warps), std::max(side, text_px * 1.15f));  // a row's height
  const float top = area.y + (area.h - pitch * warps) / 2 + (pitch - side) / 2;
  const int step = std::max(1, int(std::ceil(text_px * 1.1f / std::max(pitch, 1.0f))));
  std::vector<int> active(warps, 0);
  for (int th : s.active)
    if (th >= 0 && th < warps * 32) ++active[th / 32];
  const auto readers = stale_readers(t, stage, warps * 32);
  std::vector<std::string> race(static_cast<std::size_t>(warps));
  for (int wp = 0; wp < warps; ++wp) race[std::size_t(wp)] = ahead_text(ahead, wp);
  // A warp with a part in the race is always labelled (it is what the stage shows); the
  // others' labels give way where they would run into one.
  const auto crowded = [&](int wp) {
    for (int d = 1; d < step; ++d)
      if ((wp >= d && !race[std::size_t(wp - d)].empty()) || (wp + d < warps && !race[std::size_t(wp + d)].empty())) return true;
    return false;
  };
  bool branched = false;  // a warp labelled "branched": the legend says what that means
  for (int wp = 0; wp < warps; ++wp) {
    const float y = top + wp * pitch;
    const int size = std::min(32, threads - wp * 32);
    const std::string& part = race[std::size_t(wp)];
    const bool labelled = !part.empty() || (wp % step == 0 && !crowded(wp));
    if (labelled) c.text(area.x, y + side / 2, "warp " + std::to_string(wp), text_px, part.empty() ? pal.muted : pal.stale);
    for (int lane = 0; lane < 32; ++lane) {
      const float x = area.x + label_w + lane * side;
      const Color col = lane >= size ? pal.padding : is_active(s, wp * 32 + lane) ? pal.active : pal.inactive;
      const bool stale = lane < size && readers[std::size_t(wp * 32 + lane)];
      c.rect({x + side * 0.08f, y + side * 0.08f, side * 0.84f, side * 0.84f}, col, stale ? pal.stale : col,
             stale ? std::max(1.5f, side * 0.14f) : 0);
    }
    const bool split = std::binary_search(s.split_warps.begin(), s.split_warps.end(), wp);
    const bool idled =
        active[wp] > 0 && active[wp] < size;  // else a split warp's lanes all worked, or none recorded work
    const bool divergent = idled || split;
    branched = branched || (labelled && split && !idled);
    const std::string text = std::to_string(active[wp]) + "/" + std::to_string(size) +
                             (divergent ? idled ? "  divergent" : "  branched" : "") +
                             (part.empty() ? "" : "; " + part);
    const float tx = area.x + label_w + 32 * side + L.label_px * 0.6f;
    if (labelled)
      fitted_text(c, tx, y + side / 2, text, text_px, min_px, area.x + area.w - tx,
                  !part.empty() ? pal.stale : divergent ? pal.conflict : pal.muted);
  }
  std::vector<LegendEntry> lg{{pal.active, "lane active"}, {pal.inactive, "lane idle"}};
  if (branched) lg.push_back({pal.conflict, "branched: its lanes took different paths"});  // before the longer entry
  lg.push_back({pal.conflict, "divergent: some lanes of the warp idle while others work"});
  if (t.race) lg.push_back({pal.stale, "framed: read a stale value; ahead of: ran ahead of that warp", true});
  draw_legend(c, L.legend, lg, L.label_px, min_px, pal);
}

// The 32 banks of each warp-wide shared-memory access (or of each group of a warp that 8- or
// 16-byte accesses are served in): how many distinct 4-byte words each bank had to serve; two or
// more are a conflict, served one after another.
// Accesses a page of the banks view holds in `area`: kBankRowsShown, or fewer, so that every
// row is tall enough for its name at the minimum size (a compare view in presenter mode had 16
// rows of 8 px and named every third).
int bank_page(const Rect& area, float min_px, int rows, float label_w) {
  for (int page = std::min(rows, kBankRowsShown); page > 1; --page) {
    const float cell = std::min((area.w - label_w) / 32.0f, area.h / float(page + 1));
    const float row_h = std::min(cell * 2.2f, area.h / float(page + 1));
    if (min_px * 1.1f <= row_h) return page;
  }
  return 1;
}

// "warp 3, access 2"; where 8 or 16 bytes a thread are served half or a quarter of a warp at a
// time, "threads 104-111, access 2".
std::string bank_row_name(const core::BankRow& row) {
  const std::string access = ", access " + std::to_string(row.access + 1);
  if (row.threads >= 32) return "warp " + std::to_string(row.first_thread / 32) + access;
  return "threads " + std::to_string(row.first_thread) + "-" + std::to_string(row.first_thread + row.threads - 1) +
         access;
}

ViewDrawn draw_banks(const ViewContext& ctx) {
  auto& [c, t, stage, L, pal, options, min_px] = ctx;
  int first = options.first_bank_row;
  const core::Stage& s = t.stages[stage];
  const auto rows = core::bank_rows(s, core::shared_cell_bytes(t));
  const bool groups = std::any_of(rows.begin(), rows.end(), [](const core::BankRow& r) { return r.threads < 32; });
  const float label_w = L.label_px * (groups ? 13.0f : 9.5f);  // "threads 104-111, access 2", "warp 31, access 2"
  const int page =
      bank_page(view_area(L, t.algorithm, "banks", min_px), min_px, std::max(1, int(rows.size())), label_w);
  first = std::clamp(first, 0, std::max(0, int(rows.size()) - page));
  const int shown = std::min(int(rows.size()) - first, page);
  ViewDrawn drawn;
  drawn.page = page<kBankRowsShown&& int(rows.size())> page ? page : 0;
  const Rect area = frame(c, t, stage, "banks", L, pal,
                          int(rows.size()) > shown
                              ? std::string(groups ? "rows " : "accesses ") + std::to_string(first + 1) + "-" +
                                    std::to_string(first + shown) + " of " + std::to_string(rows.size()) +
                                    (groups ? " (groups of a warp, served one after another)" : " warp-wide accesses")
                              : std::string(),
                          min_px);
  if (t.memory == core::Memory::Global || rows.empty()) {
    message(c, area, "no shared-memory access in this stage", L.label_px * 1.2f, pal);
    return drawn;
  }
  const float cell = std::min((area.w - label_w) / 32.0f, area.h / float(shown + 1));
  // Rows grow taller than the banks are wide where the canvas has the height (a few accesses).
  const float row_h = std::min(cell * 2.2f, area.h / float(shown + 1));
  // Bank numbers at the minimum size or larger: every one where they fit, else every 2nd or 4th,
  // in a header row tall enough for them.
  const float number_px = std::max(min_px, std::min(cell * 0.4f, L.label_px * 0.7f));
  const float number_w = c.text_width("31", number_px) * 1.2f;
  const int every = number_w <= cell ? 1 : number_w <= 2 * cell ? 2 : 4;
  const float head = std::max(cell, number_px * 1.3f);
  const float top = area.y + (area.h - row_h * shown - head) / 2;
  for (int b = 0; b < 32; b += every)
    c.text(area.x + label_w + b * cell + cell / 2, top + head / 2, std::to_string(b), number_px, pal.muted, Align::Center);
  const float name_px = std::max(min_px, std::min(L.label_px * 0.8f, row_h * 0.6f));
  const int name_step = std::max(1, int(std::ceil(name_px * 1.1f / std::max(row_h, 1.0f))));
  const float count_px = std::max(min_px, std::min(std::min(cell * 0.45f, row_h * 0.45f), L.label_px));
  const bool counts = c.text_width("2x", count_px) <= cell * 0.88f;  // "Nx" inside a box, or the legend says it
  bool conflict = false;
  for (int r = 0; r < shown; ++r) {
    const core::BankRow& row = rows[std::size_t(first + r)];
    const float y = top + head + r * row_h;
    const std::string name = bank_row_name(row);
    if (r % name_step == 0)
      fitted_text(c, area.x, y + row_h / 2, name, name_px, min_px, label_w - cell * 0.2f, pal.muted);
    for (int b = 0; b < 32; ++b) {
      const int n = row.words[b];
      const Color col = n == 0 ? pal.padding : n == 1 ? pal.active : pal.conflict;
      const Rect box{area.x + label_w + b * cell + cell * 0.06f, y + row_h * 0.06f, cell * 0.88f, row_h * 0.88f};
      c.rect(box, col);
      conflict = conflict || n >= 2;
      if (n >= 2 && counts) c.text(box.cx(), box.cy(), std::to_string(n) + "x", count_px, {1, 1, 1, 1}, Align::Center);
    }
  }
  std::vector<LegendEntry> lg{{pal.padding, "bank unused"}, {pal.active, "one 4-byte word"}};
  if (conflict)
    lg.push_back({pal.conflict, counts ? "Nx: N different words in one bank, served one after another"
                                       : "two or more different words in one bank, served one after another"});
  draw_legend(c, L.legend, lg, L.label_px, min_px, pal);
  return drawn;
}

}  // namespace

int paged_rows(View view, const core::Trace& t, int stage) {
  if (stage < 0 || stage >= int(t.stages.size())) return 0;
  const core::Stage& s = t.stages[std::size_t(stage)];
  if (view == View::Banks) return int(core::bank_rows(s, core::shared_cell_bytes(t)).size());
  if (view == View::Coalescing) return int(core::warp_loads(s, core::element_bytes(t.type)).size());
  return 0;
}

int page_rows(View view) { return view == View::Coalescing ? kLoadRowsShown : kBankRowsShown; }

// Why the view has nothing of this run, in lines of about 60 characters, centred.
void why_not_drawn(Canvas& c, const Rect& area, const std::string& why, const MemoryLayout& L, const Palette& pal) {
  std::vector<std::string> lines{"Nothing to show:"};
  std::string line;
  for (std::size_t at = 0; at < why.size();) {
    const std::size_t end = std::min(why.find(' ', at), why.size());
    const std::string word = why.substr(at, end - at);
    if (!line.empty() && line.size() + 1 + word.size() > 60) lines.push_back(line), line.clear();
    line += (line.empty() ? "" : " ") + word;
    at = end + 1;
  }
  if (!line.empty()) lines.push_back(line);
  const float px = L.label_px * 1.2f, top = area.cy() - px * 0.75f * float(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i)
    c.text(area.cx(), top + px * 1.5f * float(i), lines[i], px, pal.muted, Align::Center);
}

// How each view is drawn, in core::kViewRows' order (the memory view has its own layout).
using DrawView = ViewDrawn (*)(const ViewContext&);
template <void (*draw)(const ViewContext&)>
ViewDrawn drawn_whole(const ViewContext& v) {
  draw(v);
  return {};
}
constexpr DrawView kDraw[] = {
    [](const ViewContext&) { return ViewDrawn{}; },
    draw_lanes,
    drawn_whole<draw_divergence>,
    draw_banks,
    drawn_whole<draw_grid>,
    [](const ViewContext& v) {
      ViewDrawn drawn;
      drawn.page = draw_coalescing(v).page;
      return drawn;
    },
    drawn_whole<draw_gpus>,
};
static_assert(std::size(kDraw) == std::size_t(core::kViewCount), "a draw function for each view of core::kViewRows");

ViewDrawn draw_stage_view(Canvas& c, View view, const core::Trace& t, int stage, int width, int height,
                          const ViewOptions& options) {
  const bool across = t.collective.has_value();
  if ((view == View::Memory && !across) || t.stages.empty())
    return draw_memory_view(c, t, stage, width, height, options);
  const Palette pal = options.high_contrast ? high_contrast_palette() : standard_palette();
  c.begin(width, height, pal.background);
  stage = std::clamp(stage, 0, int(t.stages.size()) - 1);
  const float min_px = options.min_text_px;
  const MemoryLayout L = layout_memory(32, width, height, options.text_scale, min_px);
  // A kernel of your own says what is not recorded; the views of one GPU and of several, why not.
  if ((!core::records_work(t) || across || view == View::Gpus) && !why_not(view, t).empty()) {
    why_not_drawn(c, frame(c, t, stage, core::to_string(view), L, pal, "", min_px), why_not(view, t), L, pal);
    c.end();
    return {};
  }
  const ViewDrawn drawn = kDraw[int(view)]({c, t, stage, L, pal, options, min_px});
  c.end();
  return drawn;
}

}  // namespace rl::render
