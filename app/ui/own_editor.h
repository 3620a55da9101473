// The editor of a kernel of your own, in the source panel's place while it is open: the file's
// text with line numbers, a red mark on each line a compile error or a finding names, Run (F5:
// save, compile, trace), Save (Ctrl+S), Revert. A starter is copied into the student's own folder
// before it is edited, never changed where it ships.
#pragma once
#include <string>

#include "app_state.h"

namespace rl::ui {

// Opens path in the editor (the file's text as on disk), as the kernel of your own watched.
void open_in_editor(AppState& state, const std::string& path);
// Copies the starter `name` (assets/own/NAME.cu, and the header beside it) into the student's
// folder where no copy is there yet, then opens the copy in the editor and runs it.
void open_starter(AppState& state, const std::string& name);
// Writes the editor's text to its file (the one writer); false, with the reason in the section,
// where it could not (the text stays in the editor).
bool save_editor(OwnUi& own);
// The editor, filling the rest of the current window.
void own_editor(AppState& state);
// The student's folder of kernels: $XDG_DATA_HOME/reduction-lab/kernels (or ~/.local/share/...).
std::string own_folder();

}  // namespace rl::ui
