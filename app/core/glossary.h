// The glossary (kernels/lessons/glossary.md, built in) and where its terms occur in a text,
// so the window can underline them and show an entry on hover.
#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace rl::core {

struct Term {
  std::string term;                  // as the file writes it: "warp", "grid stride"
  std::string definition;            // one paragraph
  std::vector<std::string> aliases;  // other forms found in text: "divergent" for "divergence"
};

std::span<const Term> glossary();
const Term* find_term(std::string_view word);  // case-insensitive; nullptr when not defined

// A run of a text that names a glossary term ("Warps", "grid-stride"): whole words only,
// case-insensitive, with a plural "s" or "es" and a hyphen for a space allowed.
struct TermAt {
  std::size_t pos = 0, len = 0;
  const Term* term = nullptr;
};
std::vector<TermAt> find_terms(std::string_view text, std::span<const Term> terms = glossary());

// Parses "term | alias | ...: definition" paragraphs. Throws std::runtime_error on a paragraph without one.
std::vector<Term> parse_glossary(std::string_view text);

}  // namespace rl::core
