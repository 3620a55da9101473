// A plain code editor: line numbers, a marker on each line a message names (hover for the
// message), ImGui's own editing (undo with Ctrl+Z while it has focus, Tab inserts a tab), and the
// cursor's line kept in view. It edits text; saving and running are the caller's.
#pragma once
#include <string>
#include <vector>

namespace rl::ui {

struct EditorMark {
  int line = 0;      // 1-based
  std::string text;  // what is said about the line (already printable)
};

struct CodeEditor {
  std::string text;   // the text being edited
  std::string saved;  // the text as last read from or written to its file
  int cursor_line = 1;
  bool dirty() const { return text != saved; }
};

// Fills the rest of the current window. True when the text changed this frame.
bool code_editor(const char* id, CodeEditor& editor, const std::vector<EditorMark>& marks);

}  // namespace rl::ui
