// Any recorded run, opened in the window: a trace, a race recording or a results file, from
// --open, the Open section (a path field and the folder's files) or a file dropped on the
// window. Each is checked before it is shown (core::open_run_file) and labelled with the device
// and date it was recorded on.
#pragma once
#include <string>

#include "../core/catalog.h"
#include "app_state.h"

namespace rl::ui {

// Shows t as an opened trace of path (its fields become the run's where this build has its
// algorithm), saying `said` in the Open section and the status line.
void put_trace(AppState& state, core::Trace t, const std::string& path, const std::string& said);
// Opens path: a trace goes on the Stages tab, a race recording into the Race section, a results
// file onto the Bandwidth tab. A file that cannot be shown posts a warning (Topic::Open) and leaves the
// window as it was.
void open_file(AppState& state, const std::string& path);
// While the opened trace's fields are the run's, it is the trace on screen; true when it is.
bool show_opened(AppState& state);
// The Open section: a path field, Open, and the JSON files of the path's folder.
void open_section(AppState& state);
// The source lines beside the stages: the opened trace's own, when it carries them; else this
// build's kernel of the chosen algorithm.
core::SourceView shown_source(const AppState& state);
// The line of `src` the stage on screen ran: the trace's own place where src is the code the
// trace carries; otherwise the line holding the stage's [tag] marker (a recording made by another
// version of the kernel numbers other lines); line 0 when neither.
core::Place shown_place(const AppState& state, const core::SourceView& src);
// The line of `src` holding the stage's [tag] marker; line 0 where it has none.
core::Place tag_place(const core::Stage& stage, const core::SourceView& src);
// Whether the trace on screen is an opened one of an algorithm this build does not have.
bool shows_foreign_trace(const AppState& state);

}  // namespace rl::ui
