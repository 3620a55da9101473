#include "code_editor.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <cstdio>

#include "colors.h"

namespace rl::ui {
namespace {

int line_count(const std::string& text) { return 1 + int(std::count(text.begin(), text.end(), '\n')); }

// Records the cursor's line (1-based) on every frame the field is active.
int track_cursor(ImGuiInputTextCallbackData* data) {
  auto* line = static_cast<int*>(data->UserData);
  *line = 1 + int(std::count(data->Buf, data->Buf + data->CursorPos, '\n'));
  return 0;
}

const EditorMark* mark_at(const std::vector<EditorMark>& marks, int line) {
  const auto m = std::find_if(marks.begin(), marks.end(), [line](const EditorMark& k) { return k.line == line; });
  return m == marks.end() ? nullptr : &*m;
}

// Line numbers in a column of their own; a marked line's number on red, its message on hover.
void gutter(ImVec2 at, float width, int lines, float line_h, const std::vector<EditorMark>& marks) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float top = ImGui::GetScrollY(), height = ImGui::GetWindowHeight();
  const int first = std::max(0, int(top / line_h) - 1), last = std::min(lines, int((top + height) / line_h) + 2);
  const ImU32 number = ImGui::GetColorU32(ImGuiCol_TextDisabled);
  const ImU32 red = ImGui::ColorConvertFloat4ToU32(ImVec4(kErrorRed.x, kErrorRed.y, kErrorRed.z, 0.45f));
  for (int i = first; i < last; ++i) {
    const ImVec2 p = {at.x, at.y + float(i) * line_h};
    const EditorMark* m = mark_at(marks, i + 1);
    if (m) draw->AddRectFilled(p, {p.x + width, p.y + line_h}, red);
    char label[16];
    std::snprintf(label, sizeof label, "%4d", i + 1);
    draw->AddText(p, m ? ImGui::GetColorU32(ImGuiCol_Text) : number, label);
    if (m && ImGui::IsMouseHoveringRect(p, {p.x + width, p.y + line_h})) ImGui::SetTooltip("%s", m->text.c_str());
  }
}

// Scrolls the editor's window so that the cursor's line stays in view while typing.
void keep_in_view(int line, float line_h, float pad) {
  const float y = pad + float(line - 1) * line_h, top = ImGui::GetScrollY(), h = ImGui::GetWindowHeight();
  if (y < top)
    ImGui::SetScrollY(y);
  else if (y + 2 * line_h > top + h)
    ImGui::SetScrollY(y + 2 * line_h - h);
}

}  // namespace

bool code_editor(const char* id, CodeEditor& e, const std::vector<EditorMark>& marks) {
  ImGui::BeginChild(id, {0, 0}, true, ImGuiWindowFlags_HorizontalScrollbar);
  const float line_h = ImGui::GetTextLineHeight(), pad = ImGui::GetStyle().FramePadding.y;
  const float gutter_w = ImGui::CalcTextSize("00000 ").x;
  const int lines = line_count(e.text);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  gutter({origin.x, origin.y + pad}, gutter_w, lines, line_h, marks);
  ImGui::SetCursorScreenPos({origin.x + gutter_w, origin.y});
  // As tall as its lines: the child scrolls, so the numbers and the text scroll together.
  const float h = std::max(ImGui::GetContentRegionAvail().y, float(lines + 1) * line_h + 2 * pad);
  const float w = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 50);
  const int before = e.cursor_line;
  ImGui::PushStyleColor(ImGuiCol_FrameBg, ImVec4(0, 0, 0, 0));
  const bool changed = ImGui::InputTextMultiline("##code", &e.text, {w, h},
                                                 ImGuiInputTextFlags_AllowTabInput | ImGuiInputTextFlags_CallbackAlways,
                                                 track_cursor, &e.cursor_line);
  ImGui::PopStyleColor();
  if (ImGui::IsItemActive() && (changed || e.cursor_line != before)) keep_in_view(e.cursor_line, line_h, pad);
  ImGui::EndChild();
  return changed;
}

}  // namespace rl::ui
