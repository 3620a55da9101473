#include "ptx_module.h"

#include <cctype>
#include <charconv>
#include <limits>
#include <stdexcept>

#include "../core/text.h"
#include "ptx_names.h"

namespace rl::own::ptx {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '{' || s[i] == '[') ++depth;
    if (s[i] == '}' || s[i] == ']') --depth;
    if (s[i] == sep && depth == 0) out.push_back(trim(s.substr(start, i - start))), start = i + 1;
  }
  out.push_back(trim(s.substr(start)));
  return out;
}

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  std::shared_ptr<const Module> run() {
    auto m = std::make_shared<Module>();
    module_ = m.get();
    std::size_t at = 0;
    while (at < text_.size()) {
      std::size_t end = text_.find('\n', at);
      if (end == std::string_view::npos) end = text_.size();
      ++line_;
      line(strip_comment(text_.substr(at, end - at)));
      at = end + 1;
    }
    if (entry_) fail("the file ends inside an entry");
    mark_header_code(*m);  // .file lines come after the code that names them
    return m;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw std::invalid_argument("PTX line " + std::to_string(line_) + ": " + what);
  }
  static constexpr std::size_t kMaxInt = std::numeric_limits<int>::max();
  static constexpr std::size_t kMaxVariableBytes = std::size_t(1) << 30;  // a variable's, and all of them
  // A decimal number in the text (a file's, a line's, a length): digits only, at most `max`.
  std::size_t number(std::string_view w, std::size_t max, const char* what) const {
    std::size_t n = 0;
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), n);
    if (w.empty() || ec != std::errc() || end != w.data() + w.size() || n > max)
      fail(std::string(what) + " that is not a number up to " + std::to_string(max) + ": '" + core::printable(w, 40) +
           "'");
    return n;
  }
  static std::string_view strip_comment(std::string_view s) {
    const std::size_t c = s.find("//");
    return trim(c == std::string_view::npos ? s : s.substr(0, c));
  }

  void line(std::string_view s) {
    if (s.empty()) return;
    if (params_open_) return param_line(s);
    if (!entry_) return module_line(s);
    // The entry's braces, and inline asm's scopes, which may hold several statements on one line:
    // "{ .reg .b16 one; mov.b16 one, 0x3F80; fma.rn.bf16 %rs3, %rs1, one, %rs2; }".
    while (!s.empty()) {
      if (s.front() == '{' || s.front() == '}') {
        if (s.front() == '}' && depth_ == 0) fail("a '}' with no '{' open");
        depth_ += s.front() == '{' ? 1 : -1;
        s = trim(s.substr(1));
        if (depth_ > 0) continue;
        close_entry();
        return line(s);  // what follows the entry's end is the module's
      }
      const std::size_t semi = s.find(';');
      if (semi == std::string_view::npos) return body_line(s);  // a label, a .loc
      body_line(trim(s.substr(0, semi + 1)));
      s = trim(s.substr(semi + 1));
    }
  }

  void body_line(std::string_view s) {
    if (s.back() == ':') return label(s.substr(0, s.size() - 1));
    if (s.rfind(".reg", 0) == 0) return declare(s);
    if (s.rfind(".loc", 0) == 0) return loc(s);
    if (s.rfind(".local", 0) == 0) fail("a local array (.local): not modelled on the CPU: run it on a GPU");
    if (s.rfind(".shared", 0) == 0) return variable(s);  // a function's static __shared__: its mangled name is unique
    if (s.rfind(".pragma", 0) == 0 || s.rfind(".maxntid", 0) == 0 || s.rfind(".reqntid", 0) == 0 ||
        s.rfind(".minnctapersm", 0) == 0 || s.rfind(".maxnreg", 0) == 0)
      return;
    instruction(s);
  }

  // ".reg .pred P_OUT;": inline asm's own registers are named without a '%' (cuda::ptx's); those
  // the compiler numbers (%r<12>) are made when first used.
  void declare(std::string_view s) {
    if (s.back() == ';') s.remove_suffix(1);
    const std::vector<std::string_view> words = split(trim(s.substr(4)), ' ');
    for (std::size_t i = 1; i < words.size(); ++i)
      for (std::string_view name : split(words[i], ','))
        if (!name.empty() && name[0] != '%' && name.find('<') == std::string_view::npos) reg(trim(name));
  }

  static void mark_header_code(Module& m) {
    for (Entry& e : m.entries)
      for (Instr& in : e.code) {
        const auto f = m.files.find(in.origin);
        in.header = f != m.files.end() && f->second.size() >= 17 &&
                    f->second.compare(f->second.size() - 17, 17, "reduction_lab.cuh") == 0;
      }
  }

  void module_line(std::string_view s) {
    if (s.rfind(".version", 0) == 0 || s.rfind(".target", 0) == 0 || s.rfind(".address_size", 0) == 0) return;
    if (s.rfind(".file", 0) == 0) return file(s);
    if (s.rfind("$L__info", 0) == 0 || s.rfind(".b8", 0) == 0 || s.rfind(".section", 0) == 0 || s == "{" || s == "}" ||
        s.rfind(".b32", 0) == 0 || s.rfind(".b64", 0) == 0)
      return;  // debug sections' bytes
    if (s.find(".entry") != std::string_view::npos) return open_entry(s);
    if (s.find(".func") != std::string_view::npos)
      fail("a device function that was not inlined (.func): not modelled on the CPU; mark it __forceinline__");
    if (s.find(".global") != std::string_view::npos || s.find(".shared") != std::string_view::npos ||
        s.find(".const") != std::string_view::npos)
      return variable(s);
    fail("a module directive not modelled on the CPU: '" + core::printable(s, 80) + "'");
  }

  void file(std::string_view s) {
    const std::size_t q = s.find('"'), q2 = s.rfind('"');
    const std::string_view num = trim(s.substr(5, q == std::string_view::npos ? s.size() : q - 5));
    if (q == std::string_view::npos || q2 <= q) fail("a .file without a name");
    module_->files[int(number(num, kMaxInt, "a .file's number"))] = std::string(s.substr(q + 1, q2 - q - 1));
  }

  // [.visible|.extern] .global|.shared|.const [.align N] .TYPE name[SIZE] [= {...}];
  void variable(std::string_view s) {
    Symbol v;
    if (s.back() == ';') s.remove_suffix(1);
    std::string_view init;
    if (const std::size_t eq = s.find('='); eq != std::string_view::npos)
      init = trim(s.substr(eq + 1)), s = trim(s.substr(0, eq));
    const bool is_extern = s.find(".extern") != std::string_view::npos;
    Type t{Kind::B, 1};
    std::string_view name;
    std::size_t count = 1;
    for (std::string_view w : split_words(s)) {
      if (w == ".extern" || w == ".visible" || w == ".weak") continue;
      if (w == ".global" || w == ".shared" || w == ".const") {
        space_of(w.substr(1), &v.space);
      } else if (w == ".align") {
        align_next_ = true;
      } else if (align_next_) {
        v.align = number(w, 4096, "an alignment"), align_next_ = false;
      } else if (w[0] == '.') {
        if (!type_of(w.substr(1), &t)) fail("a variable type not modelled: " + core::printable(w));
      } else {
        name = w;
      }
    }
    if (const std::size_t br = name.find('['); br != std::string_view::npos) {
      const std::string_view n = name.substr(br + 1, name.size() - br - 2);
      if (n.empty()) {
        if (!is_extern || v.space != Space::Shared) fail("an unsized array that is not extern .shared");
        v.dynamic = true, count = 0;
      } else {
        count = number(n, kMaxVariableBytes, "an array's length");  // elements of at least a byte
      }
      name = name.substr(0, br);
    }
    if (name.empty()) fail("a variable without a name");
    v.name = std::string(name);
    v.bytes = count * t.bytes;
    if (v.bytes > kMaxVariableBytes) fail("a variable past 1 GiB");
    if ((variable_bytes_ += v.bytes) > kMaxVariableBytes) fail("the module's variables past 1 GiB");
    if (!init.empty()) v.init.assign(v.bytes, 0), initial_bytes(init, t, &v);  // none: zeros (the machine's)
    module_->symbol_index[v.name] = int(module_->symbols.size());
    module_->symbols.push_back(std::move(v));
  }

  void initial_bytes(std::string_view init, Type t, Symbol* v) {
    if (init.front() == '{') init = init.substr(1, init.size() - 2);
    std::size_t at = 0;
    for (std::string_view w : split(init, ',')) {
      w = trim(w);
      // Another variable's address (generic($str)): the catalog's rows' names, as -default-device
      // makes them device variables. No kernel reads one; it reads as 0, a null pointer.
      const std::uint64_t value = w.rfind("generic(", 0) == 0 ? 0 : immediate(w);
      if (at + t.bytes > v->bytes) fail("an initialiser past its variable");
      for (int b = 0; b < t.bytes; ++b) v->init[at++] = static_cast<unsigned char>(value >> (8 * b));
    }
  }

  static std::vector<std::string_view> split_words(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
      while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      const std::size_t b = i;
      while (i < s.size() && !std::isspace(static_cast<unsigned char>(s[i]))) ++i;
      if (i > b) out.push_back(s.substr(b, i - b));
    }
    return out;
  }

  void open_entry(std::string_view s) {
    const std::size_t e = s.find(".entry") + 6, paren = s.find('(');
    module_->entries.push_back({});
    entry_ = &module_->entries.back();
    entry_->name = std::string(trim(s.substr(e, paren == std::string_view::npos ? s.size() - e : paren - e)));
    labels_.clear(), pending_.clear(), regs_.clear();
    params_open_ = paren != std::string_view::npos && s.find(')') == std::string_view::npos;
    if (paren != std::string_view::npos && !params_open_) {  // ( ... ) on one line
      for (std::string_view p : split(s.substr(paren + 1, s.find(')') - paren - 1), ',')) param_line(p);
      params_open_ = false;
    }
  }

  void param_line(std::string_view s) {
    if (s == ")" || s.empty()) {
      params_open_ = s != ")";
      return;
    }
    if (s.back() == ',') s.remove_suffix(1);
    if (!s.empty() && s.back() == ')') s.remove_suffix(1), params_open_ = false;
    const std::vector<std::string_view> w = split_words(s);
    if (w.size() < 3 || w[0] != ".param") fail("a kernel parameter not modelled: " + core::printable(s, 80));
    Param p;
    if (!type_of(w[w.size() - 2].substr(1), &p.type)) fail("a parameter type not modelled: " + core::printable(s, 80));
    p.name = std::string(w.back());
    p.bytes = p.align = p.type.bytes;
    if (const std::size_t open = p.name.find('['); open != std::string::npos) {  // a struct by value
      std::string_view length = std::string_view(p.name).substr(open + 1);
      if (!length.empty() && length.back() == ']') length.remove_suffix(1);
      const std::size_t count = number(length, 4096, "a parameter's length");
      p.align = w.size() == 5 && w[1] == ".align" ? number(w[2], 4096, "a parameter's alignment") : 0;
      if (count == 0 || p.align == 0) fail("a kernel parameter not modelled: " + core::printable(s, 80));
      p.bytes = count * p.type.bytes;
      p.name.resize(open);
    }
    entry_->params.push_back(p);
  }

  void loc(std::string_view s) {
    // ".loc F L C" or ".loc F L C, function_name ..., inlined_at F2 L2 C2": the student's line is
    // the outermost inlined_at in the kernel's own file.
    const std::vector<std::string_view> w = split_words(s);
    if (w.size() < 3) return;
    file_ = int(number(w[1], kMaxInt, "a .loc's file")), src_line_ = int(number(w[2], kMaxInt, "a .loc's line"));
    origin_ = file_;
    const std::size_t in = s.rfind("inlined_at");
    if (in != std::string_view::npos) {
      const std::vector<std::string_view> v = split_words(s.substr(in + 10));
      if (v.size() >= 2)
        file_ = int(number(v[0], kMaxInt, "an inlined_at's file")),
        src_line_ = int(number(v[1], kMaxInt, "an inlined_at's line"));
    }
  }

  void label(std::string_view name) { labels_[std::string(name)] = int(entry_->code.size()); }

  void close_entry() {
    for (const auto& [index, name] : pending_) {
      const auto it = labels_.find(name);
      if (it == labels_.end()) fail("a branch to an unknown label " + core::printable(name));
      entry_->code[std::size_t(index)].args.back().imm = std::uint64_t(it->second);
    }
    entry_->registers = int(regs_.size());
    entry_ = nullptr;
  }

  int reg(std::string_view name) {
    const auto [it, added] = regs_.emplace(std::string(name), int(regs_.size()));
    (void)added;
    return it->second;
  }

  Operand operand(std::string_view s) {
    Operand o;
    if (s.empty()) fail("an empty operand");
    if (s[0] == '!') o.negate = true, s.remove_prefix(1);
    if (s.empty()) fail("an empty operand after '!'");
    if (s[0] == '{') {
      o.what = Operand::Vector;
      for (std::string_view r : split(s.substr(1, s.size() - 2), ',')) o.regs.push_back(r == "_" ? -1 : reg(r));
      return o;
    }
    if (s[0] == '[') return address(s.substr(1, s.size() - 2));
    if (s[0] == '%') {
      if (Special which; special_of(s, &which)) return o.what = Operand::Special, o.imm = which, o;
      if (s.rfind("%envreg", 0) == 0 || s.rfind("%clock", 0) == 0 || s.rfind("%smid", 0) == 0 ||
          s.rfind("%globaltimer", 0) == 0)
        fail("the special register " + core::printable(s) + ": not modelled on the CPU: run it on a GPU");
      if (s.rfind("%tid", 0) != 0 && s.rfind("%ntid", 0) != 0 && s.find('.') != std::string_view::npos)
        fail("the special register " + core::printable(s) + ": not modelled on the CPU");
      return o.what = Operand::Reg, o.reg = reg(s), o;
    }
    if (s[0] == '-' || std::isdigit(static_cast<unsigned char>(s[0])))
      return o.what = Operand::Imm, o.imm = immediate(s), o;
    if (s[0] == '$') return o.what = Operand::Label, o;
    if (const int symbol = symbol_of(s); symbol != -1) return o.what = Operand::Symbol, o.symbol = symbol, o;
    if (const auto it = regs_.find(s); it != regs_.end()) return o.what = Operand::Reg, o.reg = it->second, o;
    fail("an unknown name " + core::printable(s));
  }

  // A module variable's index, -2 - i for the entry's parameter i (a struct's address), -1 for none.
  int symbol_of(std::string_view s) const {
    if (const auto it = module_->symbol_index.find(s); it != module_->symbol_index.end()) return it->second;
    for (std::size_t i = 0; entry_ && i < entry_->params.size(); ++i)
      if (entry_->params[i].name == s) return -2 - int(i);
    return -1;
  }

  Operand address(std::string_view s) {
    Operand o;
    o.what = Operand::Address;
    std::int64_t offset = 0;
    if (const std::size_t plus = s.find('+'); plus != std::string_view::npos) {
      offset = std::int64_t(immediate(trim(s.substr(plus + 1))));
      s = trim(s.substr(0, plus));
    }
    o.imm = std::uint64_t(offset);
    if (!s.empty() && s[0] == '%') {
      o.reg = reg(s);
    } else if (!s.empty() && std::isdigit(static_cast<unsigned char>(s[0]))) {
      o.imm += immediate(s);
    } else {
      o.symbol = symbol_of(s);
      if (o.symbol == -1) fail("an address of an unknown name " + core::printable(s));
    }
    return o;
  }

  // An integer (decimal, 0x hex, 0 octal, 0b binary, an optional U suffix: the PTX ISA's
  // literals) or 0f/0d and a float's or double's bits in hex, read whole: std::sto* would take
  // a prefix and throw words of their own.
  std::uint64_t immediate(std::string_view s) {
    const bool bits = (s.size() == 10 && (s.rfind("0f", 0) == 0 || s.rfind("0F", 0) == 0)) ||
                      (s.size() == 18 && (s.rfind("0d", 0) == 0 || s.rfind("0D", 0) == 0));
    if (!bits && !s.empty() && (s.back() == 'U' || s.back() == 'u')) s.remove_suffix(1);
    const bool negative = !bits && !s.empty() && s[0] == '-';
    std::string_view digits = negative ? s.substr(1) : s;
    int base = 10;
    if (bits) {
      digits.remove_prefix(2), base = 16;
    } else if (digits.size() > 2 && digits[0] == '0' &&
               (digits[1] == 'x' || digits[1] == 'X' || digits[1] == 'b' || digits[1] == 'B')) {
      base = digits[1] == 'x' || digits[1] == 'X' ? 16 : 2;
      digits.remove_prefix(2);
    } else if (digits.size() > 1 && digits[0] == '0') {
      base = 8;
    }
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
        (negative && v > std::uint64_t(1) << 63))
      fail("an immediate not understood: " + core::printable(s));
    return negative ? ~v + 1 : v;
  }

  void instruction(std::string_view s) {
    if (s.back() != ';') fail("an instruction without ';': " + core::printable(s, 80));
    s = trim(s.substr(0, s.size() - 1));
    Instr in{};
    if (s[0] == '@') {
      std::size_t sp = 1;
      while (sp < s.size() && !std::isspace(static_cast<unsigned char>(s[sp]))) ++sp;
      std::string_view g = s.substr(1, sp - 1);
      if (!g.empty() && g[0] == '!') in.guard_negated = true, g.remove_prefix(1);
      in.guard = reg(g);
      s = trim(s.substr(sp));
    }
    std::size_t sp = 0;
    while (sp < s.size() && !std::isspace(static_cast<unsigned char>(s[sp]))) ++sp;
    opcode(s.substr(0, sp), &in);
    for (std::string_view a : split(trim(s.substr(sp)), ',')) {
      if (a.empty()) continue;
      if (const std::size_t bar = a.find('|'); bar != std::string_view::npos) {  // shfl's value|predicate
        Operand o;
        o.what = Operand::Vector;
        o.regs = {reg(trim(a.substr(0, bar))), reg(trim(a.substr(bar + 1)))};
        in.args.push_back(o);
        continue;
      }
      in.args.push_back(operand(a));
    }
    if (in.op == Op::Bra) {
      if (in.args.size() != 1 || in.args[0].what != Operand::Label) fail("a branch without one label");
      pending_.emplace_back(int(entry_->code.size()), std::string(trim(s.substr(sp))));
    }
    in.file = file_, in.line = src_line_, in.origin = origin_;
    entry_->code.push_back(std::move(in));
  }

  void opcode(std::string_view word, Instr* in) {
    const std::vector<std::string_view> parts = split(word, '.');
    if (!op_of(parts[0], &in->op))
      fail("the instruction '" + core::printable(word, 60) + "': not modelled on the CPU: run it on a GPU");
    int types = 0;
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::string_view m = parts[i];
      Type t;
      Space sp;
      if (type_of(m, &t)) {
        (types++ == 0 ? in->type : in->type2) = t;
      } else if (space_of(m, &sp)) {
        in->space = sp;
      } else if (m == "v2" || m == "v4") {
        in->vec = m[1] - '0';
      } else {
        if (in->mods.empty()) in->cmp = cmp_of(m);
        in->mods += "." + std::string(m);
        for (std::size_t k = 0; k < std::size(kModNames); ++k)
          if (m == kModNames[k]) in->mod_bits |= std::uint64_t(1) << k;
      }
    }
    if (in->space == Space::Local)
      fail("local memory (." + std::string("local") + "): not modelled on the CPU: run it on a GPU");
    if ((in->op == Op::Mbarrier || in->op == Op::Cp) && !modelled_async(*in))
      fail("the instruction '" + core::printable(word, 60) + "': not modelled on the CPU: run it on a GPU");
    if (in->space == Space::Const && in->op != Op::Ld)  // the host writes constant memory; kernels read it
      fail("a write to constant memory (.const): not modelled on the CPU: run it on a GPU");
  }

  std::string_view text_;
  Module* module_ = nullptr;
  Entry* entry_ = nullptr;
  int line_ = 0, file_ = 0, src_line_ = 0, depth_ = 0;  // depth_: braces open in the entry
  std::size_t variable_bytes_ = 0;                      // the module's variables so far
  bool params_open_ = false, align_next_ = false;
  int origin_ = 0;
  std::map<std::string, int, std::less<>> labels_, regs_;
  std::vector<std::pair<int, std::string>> pending_;
};

}  // namespace

const Entry* Module::entry(std::string_view name) const {
  for (const Entry& e : entries)
    if (e.name == name) return &e;
  return nullptr;
}

std::shared_ptr<const Module> parse(std::string_view ptx) {
  if (ptx.size() > kMaxPtxBytes) throw std::invalid_argument("PTX past " + std::to_string(kMaxPtxBytes >> 20) + " MiB");
  return Parser(ptx).run();
}

}  // namespace rl::own::ptx
