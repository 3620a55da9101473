#include "ptx_names.h"

#include <string>
#include <utility>

namespace rl::own::ptx {
Cmp cmp_of(std::string_view m) {
  static constexpr std::pair<std::string_view, Cmp> kCmps[] = {
      {"eq", Cmp::Eq},   {"ne", Cmp::Ne},   {"lt", Cmp::Lt},   {"le", Cmp::Le},   {"gt", Cmp::Gt},   {"ge", Cmp::Ge},
      {"equ", Cmp::Equ}, {"neu", Cmp::Neu}, {"ltu", Cmp::Ltu}, {"leu", Cmp::Leu}, {"gtu", Cmp::Gtu}, {"geu", Cmp::Geu},
      {"num", Cmp::Num}, {"nan", Cmp::Nan}, {"lo", Cmp::Lo},   {"ls", Cmp::Ls},   {"hi", Cmp::Hi},   {"hs", Cmp::Hs}};
  for (const auto& [name, c] : kCmps)
    if (m == name) return c;
  return Cmp::None;
}

namespace {

struct OpName {
  std::string_view name;
  Op op;
};
constexpr OpName kOps[] = {
    {"mov", Op::Mov},
    {"add", Op::Add},
    {"sub", Op::Sub},
    {"mul", Op::Mul},
    {"mad", Op::Mad},
    {"fma", Op::Fma},
    {"div", Op::Div},
    {"rem", Op::Rem},
    {"min", Op::Min},
    {"max", Op::Max},
    {"neg", Op::Neg},
    {"abs", Op::Abs},
    {"and", Op::And},
    {"or", Op::Or},
    {"xor", Op::Xor},
    {"not", Op::Not},
    {"shl", Op::Shl},
    {"shr", Op::Shr},
    {"setp", Op::Setp},
    {"selp", Op::Selp},
    {"cvt", Op::Cvt},
    {"cvta", Op::Cvta},
    {"ld", Op::Ld},
    {"st", Op::St},
    {"bra", Op::Bra},
    {"bar", Op::Bar},
    {"barrier", Op::Bar},
    {"ret", Op::Ret},
    {"exit", Op::Ret},
    {"shfl", Op::Shfl},
    {"atom", Op::Atom},
    {"red", Op::Red},
    {"membar", Op::Membar},
    {"fence", Op::Membar},
    {"vote", Op::Vote},
    {"activemask", Op::Activemask},
    {"popc", Op::Popc},
    {"clz", Op::Clz},
    {"brev", Op::Brev},
    {"bfe", Op::Bfe},
    {"bfi", Op::Bfi},
    {"rcp", Op::Rcp},
    {"sqrt", Op::Sqrt},
    {"redux", Op::Redux},
    {"trap", Op::Trap},
    {"bfind", Op::Bfind},
    {"mbarrier", Op::Mbarrier},
    {"cp", Op::Cp},
};

}  // namespace

bool op_of(std::string_view name, Op* op) {
  for (const auto& o : kOps)
    if (o.name == name) return *op = o.op, true;
  return false;
}

bool type_of(std::string_view s, Type* t) {
  if (s == "pred") return *t = {Kind::Pred, 1}, true;
  if (s == "bf16") return *t = {Kind::Bf, 2}, true;
  if (s == "f16x2" || s == "bf16x2") return *t = {s[0] == 'b' ? Kind::Bf : Kind::F, 4, true}, true;
  if (s.size() < 2 || s.size() > 3) return false;
  const char k = s[0];
  const std::string_view bits = s.substr(1);
  int b = 0;
  if (bits == "8")
    b = 1;
  else if (bits == "16")
    b = 2;
  else if (bits == "32")
    b = 4;
  else if (bits == "64")
    b = 8;
  else
    return false;
  switch (k) {
    case 'u': return *t = {Kind::U, std::uint8_t(b)}, true;
    case 's': return *t = {Kind::S, std::uint8_t(b)}, true;
    case 'f': return b >= 2 && (*t = {Kind::F, std::uint8_t(b)}, true);
    case 'b': return *t = {Kind::B, std::uint8_t(b)}, true;
    default: return false;
  }
}

bool space_of(std::string_view s, Space* sp) {
  if (s == "global") return *sp = Space::Global, true;
  if (s == "shared") return *sp = Space::Shared, true;
  if (s == "param") return *sp = Space::Param, true;
  if (s == "local") return *sp = Space::Local, true;
  if (s == "const") return *sp = Space::Const, true;
  return false;
}

bool modelled_async(const Instr& in) {
  const std::string& m = in.mods;
  if (in.op == Op::Cp)
    return in.space == Space::Global && m == ".async.bulk.shared::cluster.mbarrier::complete_tx::bytes";
  if (m.find(".shared::cluster") != std::string::npos || m.find(".cluster") != std::string::npos) return false;
  if (m.rfind(".init", 0) == 0) return m == ".init" || m == ".init.shared::cta";
  if (m.rfind(".arrive", 0) == 0)  // .expect_tx, .release, .cta may follow
    return m.find("noComplete") == std::string::npos && m.find("arrive_drop") == std::string::npos;
  return m.rfind(".try_wait", 0) == 0 || m.rfind(".test_wait", 0) == 0;
}

namespace {

struct SpecialName {
  std::string_view name;
  Special which;
};
constexpr SpecialName kSpecials[] = {
    {"%tid.x", kTidX},       {"%tid.y", kTidY},       {"%tid.z", kTidZ},
    {"%ntid.x", kNtidX},     {"%ntid.y", kNtidY},     {"%ntid.z", kNtidZ},
    {"%ctaid.x", kCtaidX},   {"%ctaid.y", kCtaidY},   {"%ctaid.z", kCtaidZ},
    {"%nctaid.x", kNctaidX}, {"%nctaid.y", kNctaidY}, {"%nctaid.z", kNctaidZ},
    {"%laneid", kLaneId},    {"%warpid", kWarpId},    {"%lanemask_lt", kLanemaskLt},
    {"%envreg1", kEnvReg1},  {"%envreg2", kEnvReg2},
};

}  // namespace

bool special_of(std::string_view name, Special* which) {
  for (const auto& s : kSpecials)
    if (s.name == name) return *which = s.which, true;
  return false;
}

}  // namespace rl::own::ptx
