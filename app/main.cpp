#include <iostream>

#include "cli/cli.h"
#ifdef REDLAB_HAS_GUI
#include "ui/gui.h"
#endif

int main(int argc, char** argv) {
#ifdef REDLAB_HAS_GUI
  const rl::cli::GuiEntry gui = rl::ui::run_gui;
#else
  const rl::cli::GuiEntry gui;
#endif
  return rl::cli::run(argc, argv, std::cout, std::cerr, gui);
}
