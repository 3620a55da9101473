// The names PTX text uses, as the reader (ptx_module.cpp) decodes them: opcodes, types, state
// spaces, comparisons, special registers, and which mbarrier and bulk-copy forms are modelled.
#pragma once
#include <string_view>

#include "ptx_module.h"

namespace rl::own::ptx {

Cmp cmp_of(std::string_view m);  // Cmp::None: not a comparison
bool op_of(std::string_view name, Op* op);
bool type_of(std::string_view s, Type* t);  // .u8 .s32 .f16 .bf16x2 .pred ...
bool space_of(std::string_view s, Space* sp);
bool special_of(std::string_view name, Special* which);  // %tid.x ... %envreg2
// The mbarrier and bulk-copy forms the interpreter models (a block's own barriers in shared
// memory; a copy from global memory into the block's shared memory): not a cluster's, not a
// reduction's, not the arrivals that leave a phase incomplete.
bool modelled_async(const Instr& in);

}  // namespace rl::own::ptx
