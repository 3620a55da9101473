#include <iostream>

#include "cli/cli.h"
#include "core/file_io.h"
#ifdef REDLAB_HAS_GUI
#include "ui/gui.h"
#endif

int main(int argc, char** argv) {
  rl::core::install_cleanup_handlers();  // temporaries and frame folders go with SIGINT/SIGTERM
#ifdef REDLAB_HAS_GUI
  const rl::cli::GuiEntry gui = rl::ui::run_gui;
#else
  const rl::cli::GuiEntry gui;
#endif
  return rl::cli::run(argc, argv, std::cout, std::cerr, gui);
}
