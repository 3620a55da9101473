#include "rich_text.h"

#include <imgui.h>

#include <algorithm>

#include "../core/glossary.h"

namespace rl::ui {
namespace {

// One word (with the space after it) or one term, placed on the current line if it fits.
void piece(std::string_view text, const core::Term* term, float left, float right, bool& line_start) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  const float w = ImGui::CalcTextSize(begin, end).x;
  if (!line_start) {
    ImGui::SameLine(0, 0);
    if (ImGui::GetCursorScreenPos().x + w > right) ImGui::NewLine(), line_start = true;
  }
  if (line_start) {  // a line never starts with the space between two words
    while (begin < end && *begin == ' ') ++begin;
    if (begin == end) return;
  }
  ImGui::SetCursorScreenPos({std::max(ImGui::GetCursorScreenPos().x, left), ImGui::GetCursorScreenPos().y});
  line_start = false;
  if (!term) {
    ImGui::TextUnformatted(begin, end);
    return;
  }
  const ImVec4 link = ImGui::GetStyleColorVec4(ImGuiCol_PlotLinesHovered);
  ImGui::PushStyleColor(ImGuiCol_Text, link);
  ImGui::TextUnformatted(begin, end);
  ImGui::PopStyleColor();
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  ImGui::GetWindowDrawList()->AddLine({lo.x, hi.y - 1}, {hi.x, hi.y - 1}, ImGui::GetColorU32(link));
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::Text("%s", term->term.c_str());
    ImGui::Separator();
    ImGui::TextUnformatted(term->definition.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// Plain text between terms, a word at a time, each word keeping the spaces after it.
void words(std::string_view text, float left, float right, bool& line_start) {
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find(' ', pos);
    end = end == std::string_view::npos ? text.size() : text.find_first_not_of(' ', end);
    if (end == std::string_view::npos) end = text.size();
    piece(text.substr(pos, end - pos), nullptr, left, right, line_start);
    pos = end;
  }
}

}  // namespace

void rich_text(std::string_view text) {
  const float left = ImGui::GetCursorScreenPos().x;
  const float right = left + ImGui::GetContentRegionAvail().x;
  bool line_start = true;
  // Paragraphs ("\n\n") start on a new line with a gap.
  for (std::size_t pos = 0; pos <= text.size();) {
    std::size_t end = text.find("\n\n", pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view para = text.substr(pos, end - pos);
    if (pos > 0) ImGui::Spacing();
    line_start = true;
    std::size_t at = 0;
    for (const auto& t : core::find_terms(para)) {
      words(para.substr(at, t.pos - at), left, right, line_start);
      piece(para.substr(t.pos, t.len), t.term, left, right, line_start);
      at = t.pos + t.len;
    }
    words(para.substr(at), left, right, line_start);
    pos = end + 2;
  }
}

}  // namespace rl::ui
