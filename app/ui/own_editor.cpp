#include "own_editor.h"

#include <imgui.h>
#include <GLFW/glfw3.h>  // key codes: the ImGui GLFW backend reports GLFW keys

#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <utility>

#include "../core/embedded.h"
#include "../core/file_io.h"
#include "../core/text.h"
#include "../own/own_file.h"
#include "colors.h"
#include "own_pane.h"
#include "panel_parts.h"

namespace rl::ui {
namespace {

namespace fs = std::filesystem;

// What the last run said about the file's lines: compile errors and launch lines (NAME:LINE:),
// and the findings' lines.
std::vector<EditorMark> marks_of(const OwnUi& o) {
  std::vector<EditorMark> marks;
  if (o.failed)
    for (const auto& m : own::line_messages(o.said, o.file)) marks.push_back({m.line, m.text});
  for (const auto& f : o.findings)
    if (f.line > 0) marks.push_back({f.line, f.kind + ": " + core::printable(f.text)});
  return marks;
}

}  // namespace

bool save_editor(OwnUi& o) {
  std::string why;
  if (!core::write_file(o.file, o.editor.text, &why)) {
    o.failed = true, o.said = core::printable(why) + " (your text is kept here)";
    return false;
  }
  o.editor.saved = o.editor.text, o.disk_changed = false;
  return true;
}

namespace {

void revert(OwnUi& o) {
  std::string text, why;
  if (!core::read_file(o.file, core::files::kKernel, &text, &why)) {
    o.failed = true, o.said = core::printable(why);
    return;
  }
  o.editor.text = o.editor.saved = text, o.disk_changed = false;
}

void toolbar(AppState& s) {
  OwnUi& o = s.own;
  const bool busy = o.busy();
  const ImGuiIO& io = ImGui::GetIO();
  const bool focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_ChildWindows);
  ImGui::BeginDisabled(busy);
  if ((ImGui::Button("Run (F5)") || (focused && !busy && ImGui::IsKeyPressed(GLFW_KEY_F5))) && save_editor(o))
    run_own(s, o.file);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Save") || (focused && io.KeyCtrl && ImGui::IsKeyPressed(GLFW_KEY_S, false))) save_editor(o);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Ctrl+S; a save runs the file again where the box is ticked");
  ImGui::SameLine();
  ImGui::BeginDisabled(!o.editor.dirty() && !o.disk_changed);
  if (ImGui::Button("Revert")) revert(o);
  ImGui::EndDisabled();
  ImGui::SameLine();
  if (ImGui::Button("Close editor")) o.editing = false;
  ImGui::SameLine();
  ImGui::TextDisabled("%s%s, line %d", core::printable(fs::path(o.file).filename().string()).c_str(),
                      o.editor.dirty() ? " (edited)" : "", o.editor.cursor_line);
  if (o.disk_changed)
    wrapped(kAmber, "The file changed on disk while you edited it: Save keeps your text, Revert takes the file's.");
  own_status(s);
}

}  // namespace

std::string own_folder() {
  fs::path base;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
    base = xdg;
  else if (const char* home = std::getenv("HOME"); home && *home)
    base = fs::path(home) / ".local/share";
  else
    base = fs::temp_directory_path();
  return (base / "reduction-lab" / "kernels").string();
}

void open_in_editor(AppState& s, const std::string& path) {
  OwnUi& o = s.own;
  if (o.editing && o.file == path) return;
  if (o.editor.dirty() && !save_editor(o)) return;  // the text being edited is never dropped
  o.file = path, o.editing = true;
  std::snprintf(o.path, sizeof o.path, "%s", path.c_str());
  revert(o);
}

void open_starter(AppState& s, const std::string& name) {
  const fs::path folder = own_folder();
  std::error_code ec;
  fs::create_directories(folder, ec);
  const std::pair<std::string, std::string> files[] = {{name + ".cu", name}, {"reduction_lab.cuh", "reduction_lab"}};
  for (const auto& [file, id] : files) {
    const fs::path to = folder / file;
    std::string why;
    if (fs::exists(to, ec)) continue;  // the student's copy, perhaps edited: kept as it is
    if (!core::write_file(to.string(), embedded::own_file(id), &why)) {
      s.own.failed = true, s.own.said = core::printable(why);
      return;
    }
  }
  open_in_editor(s, (folder / (name + ".cu")).string());
  run_own(s, s.own.file);
}

void own_editor(AppState& s) {
  toolbar(s);
  code_editor("##own editor", s.own.editor, marks_of(s.own));
}

}  // namespace rl::ui
