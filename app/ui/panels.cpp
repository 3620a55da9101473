#include "panels.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "../core/catalog.h"
#include "../core/facts.h"

namespace rl::ui {
namespace {

void place(const Frame& f, const char* name, ImGuiWindowFlags extra = 0) {
  ImGui::SetNextWindowPos({f.x, f.y}, ImGuiCond_Always);
  ImGui::SetNextWindowSize({f.w, f.h}, ImGuiCond_Always);
  ImGui::Begin(name, nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoSavedSettings | extra);
}

template <class E>
bool combo(const char* label, E& value, const char* const* names, int count) {
  int i = static_cast<int>(value);
  if (!ImGui::Combo(label, &i, names, count)) return false;
  value = static_cast<E>(i);
  return true;
}

}  // namespace

void algorithm_panel(AppState& s, const Frame& f) {
  place(f, "Algorithm");
  ImGui::BeginChild("list", {0, f.h * 0.38f}, true);
  std::string family;
  for (const auto& a : core::algorithms()) {
    if (a.kind == core::Kind::Baseline) continue;  // timed by bench; nothing to step through
    if (a.family != family) {
      family = a.family;
      ImGui::TextDisabled("%s family", family.c_str());
    }
    if (ImGui::Selectable(a.title.c_str(), s.choice.algorithm == a.id)) s.choice.algorithm = a.id;
  }
  ImGui::EndChild();
  ImGui::BeginChild("lesson", {0, f.h * 0.27f}, false);
  if (const auto* about = core::find_algorithm(s.choice.algorithm)) ImGui::TextWrapped("%s", about->detail.c_str());
  ImGui::EndChild();
  ImGui::Separator();
  ImGui::TextDisabled("Run");
  const float em = ImGui::GetFontSize();
  ImGui::PushItemWidth(-em * 6);
  static const char* ops[] = {"sum", "min", "max"};
  static const char* types[] = {"int", "float", "double"};
  combo("operator", s.choice.op, ops, 3);
  combo("type", s.choice.type, types, 3);
  const auto* info = core::find_algorithm(s.choice.algorithm);
  if (info && info->any_block) {
    ImGui::InputInt("block size", &s.choice.block, 1, 32);
    s.choice.block = std::clamp(s.choice.block, 2, 1024);
  } else {
    static const char* blocks[] = {"32", "64", "128", "256", "512", "1024"};
    int bi = 0;
    while ((32 << bi) < s.choice.block && bi < 5) ++bi;
    if (ImGui::Combo("block size", &bi, blocks, 6) || (32 << bi) != s.choice.block) s.choice.block = 32 << bi;
  }
  ImGui::InputInt("array size", &s.choice.size, 1, 32);
  s.choice.size = std::clamp(s.choice.size, 1, 1 << 20);
  ImGui::InputInt("traced block", &s.choice.trace_block);
  const int grid = s.trace && s.trace->algorithm == s.choice.algorithm ? int(s.trace->grid)
                                                                       : (s.choice.size + s.choice.block - 1) / s.choice.block;
  s.choice.trace_block = std::clamp(s.choice.trace_block, 0, std::max(grid - 1, 0));
  static const char* inputs[] = {"iota (1, 2, 3, ...)", "ones", "random"};
  int kind = static_cast<int>(s.choice.input.kind);
  if (kind > 2) kind = 2;
  if (ImGui::Combo("input", &kind, inputs, 3)) s.choice.input.kind = static_cast<core::InputSpec::Kind>(kind);
  if (s.choice.input.kind == core::InputSpec::Kind::Random) {
    int seed = static_cast<int>(s.choice.input.seed);
    if (ImGui::InputInt("seed", &seed)) s.choice.input.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  }
  ImGui::PopItemWidth();
  ImGui::Text("%d block%s of %d threads", grid, grid == 1 ? "" : "s", s.choice.block);
  ImGui::End();
}

Frame stage_panel(AppState& s, const Frame& f, unsigned view_texture) {
  place(f, "Stages");
  const float em = ImGui::GetFontSize();
  const float controls_h = em * 5.2f;
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const Frame view{origin.x, origin.y, avail.x, std::max(em * 4, avail.y - controls_h)};
  if (view_texture) {
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(view_texture)),
                 {view.w, view.h}, {0, 1}, {1, 0});
  } else {
    ImGui::Dummy({view.w, view.h});
  }
  if (!s.error.empty()) ImGui::TextColored({1.0f, 0.45f, 0.3f, 1}, "%s", s.error.c_str());
  if (!s.trace) {
    ImGui::End();
    return view;
  }
  auto& p = s.player;
  if (ImGui::Button("|<")) p.first();
  ImGui::SameLine();
  if (ImGui::Button("<")) p.step_back();
  ImGui::SameLine();
  if (ImGui::Button(p.playing() ? "Pause" : "Play", {em * 4, 0})) p.toggle();
  ImGui::SameLine();
  if (ImGui::Button(">")) p.step_forward();
  ImGui::SameLine();
  if (ImGui::Button(">|")) p.last();
  ImGui::SameLine();
  int stage = p.stage();
  ImGui::SetNextItemWidth(std::max(em * 6, ImGui::GetContentRegionAvail().x - em * 14));
  if (ImGui::SliderInt("##stage", &stage, 0, p.stage_count() - 1, "stage %d")) p.seek(stage);
  ImGui::SameLine();
  float speed = static_cast<float>(p.speed());
  ImGui::SetNextItemWidth(em * 8);
  if (ImGui::SliderFloat("##speed", &speed, 0.25f, 8.0f, "%.2g stages/s", ImGuiSliderFlags_Logarithmic))
    p.set_speed(speed);
  ImGui::TextWrapped("%s", core::stage_caption(*s.trace, p.stage()).c_str());
  ImGui::End();
  return view;
}

void source_panel(AppState& s, const Frame& f) {
  place(f, "Kernel source");
  const auto& src = core::source_of(s.choice.algorithm);
  int line = 0;
  if (s.trace && s.trace->algorithm == s.choice.algorithm && !s.trace->stages.empty())
    line = s.trace->stages[s.player.stage()].line;
  ImGui::TextDisabled("%s, lines %d-%d", src.file.c_str(), src.first_line,
                      src.first_line + int(src.lines.size()) - 1);
  ImGui::BeginChild("code", {0, 0}, false, ImGuiWindowFlags_HorizontalScrollbar);
  static int scrolled_to = -1;
  for (std::size_t i = 0; i < src.lines.size(); ++i) {
    const int number = src.first_line + int(i);
    char label[512];
    std::snprintf(label, sizeof label, "%3d  %s##%d", number, src.lines[i].c_str(), number);
    // The probe calls are the instrumentation: dimmed, so the algorithm reads first.
    const bool probe = src.lines[i].find("probe.") != std::string::npos;
    if (probe) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::Selectable(label, number == line);
    if (probe) ImGui::PopStyleColor();
    if (number == line && scrolled_to != line) {
      ImGui::SetScrollHereY(0.4f);
      scrolled_to = line;
    }
  }
  ImGui::EndChild();
  ImGui::End();
}

void status_bar(const AppState& s, const Frame& f) {
  place(f, "Status", ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
  const bool gpu = s.backend.backend && s.backend.backend->name() == "cuda";
  const ImVec4 color = gpu ? ImVec4{0.35f, 0.85f, 0.55f, 1} : ImVec4{0.95f, 0.72f, 0.2f, 1};
  ImGui::TextColored(color, "%s", backend::status_line(s.backend).c_str());
  if (s.trace) {
    ImGui::SameLine();
    ImGui::Text("  |  %s of %zu elements = %s", core::to_string(s.trace->op).c_str(), s.trace->size,
                core::format_value(s.trace->result, s.trace->type).c_str());
  }
  char frame[32];
  std::snprintf(frame, sizeof frame, "frame %.1f ms", s.frame_ms);
  ImGui::SameLine(f.w - ImGui::CalcTextSize(frame).x - ImGui::GetStyle().WindowPadding.x * 2);
  ImGui::TextDisabled("%s", frame);
  ImGui::End();
}

void handle_keys(AppState& s) {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  auto& p = s.player;
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Space), false)) p.toggle();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_RightArrow))) p.step_forward();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_LeftArrow))) p.step_back();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Home), false)) p.first();
  if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_End), false)) p.last();
}

}  // namespace rl::ui
