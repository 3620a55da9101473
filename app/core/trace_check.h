// A trace read from a file is checked field by field before it is shown (trace.cpp's reader
// calls these): every value one its type holds, every index within what it indexes, the layout
// agreeing with the grid and block. Each throws std::runtime_error naming the field.
#pragma once
#include <vector>

#include "trace.h"

namespace rl::core {

// Every value one the type holds (an int a 32-bit whole number; a float, half or bf16 one its
// bits hold); `field` names the field in the error.
void check_values(const std::vector<double>& values, DType type, const char* field);
// The run's values against the accumulator's type, the matrix window's against the element type.
void check_held_values(const Trace& t);
// Everything the views index by: block, grid, size, launches, layout and every stage's cells.
void check_geometry(const Trace& t);

}  // namespace rl::core
