#include "glossary.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "embedded.h"

namespace rl::core {
namespace {

char fold(char c) { return c == '-' ? ' ' : char(std::tolower(static_cast<unsigned char>(c))); }
bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Whether text[at] starts a hyphen joined to a word ("warp-shuffle": the word goes on).
bool joined(std::string_view text, std::size_t at) {
  return at + 1 < text.size() && text[at] == '-' && word_char(text[at + 1]);
}

// Length of the term's match at text[pos], 0 if none: the term, then "s" or "es", then no
// further word character, nor a hyphen joining one (a name such as warp-shuffle-vectorized).
std::size_t match_at(std::string_view text, std::size_t pos, std::string_view term) {
  if (pos + term.size() > text.size()) return 0;
  for (std::size_t i = 0; i < term.size(); ++i)
    if (fold(text[pos + i]) != fold(term[i])) return 0;
  std::size_t end = pos + term.size();
  for (std::string_view suffix : {"es", "s", ""}) {
    const std::size_t e = end + suffix.size();
    if (e <= text.size() && text.substr(end, suffix.size()) == suffix &&
        (e == text.size() || (!word_char(text[e]) && !joined(text, e))))
      return e - pos;
  }
  return 0;
}

}  // namespace

std::vector<Term> parse_glossary(std::string_view text) {
  std::vector<Term> out;
  std::string para;
  const auto flush = [&] {
    if (para.empty()) return;
    const std::size_t colon = para.find(": ");
    if (colon == std::string::npos || colon == 0) throw std::runtime_error("glossary entry without 'term: ': " + para);
    Term t{{}, para.substr(colon + 2), {}};
    std::string names = para.substr(0, colon) + " | ";
    for (std::size_t at = 0, bar; (bar = names.find(" | ", at)) != std::string::npos; at = bar + 3)
      (t.term.empty() ? t.term : t.aliases.emplace_back()) = names.substr(at, bar - at);
    out.push_back(std::move(t));
    para.clear();
  };
  for (std::size_t pos = 0; pos <= text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    if (line.empty()) flush();
    else if (!line.starts_with("#")) para += (para.empty() ? "" : " ") + std::string(line);
  }
  flush();
  return out;
}

std::span<const Term> glossary() {
  static const std::vector<Term> terms = parse_glossary(embedded::lesson("glossary"));
  return terms;
}

const Term* find_term(std::string_view word) {
  for (const auto& t : glossary())
    if (match_at(word, 0, t.term) == word.size()) return &t;
  return nullptr;
}

std::vector<TermAt> find_terms(std::string_view text, std::span<const Term> terms) {
  std::vector<TermAt> out;
  for (std::size_t pos = 0; pos < text.size();) {
    if (pos > 0 && (word_char(text[pos - 1]) || (pos > 1 && text[pos - 1] == '-' && word_char(text[pos - 2])))) {
      ++pos;
      continue;
    }
    TermAt best;
    for (const auto& t : terms) {
      if (const std::size_t len = match_at(text, pos, t.term); len > best.len) best = {pos, len, &t};
      for (const auto& alias : t.aliases)
        if (const std::size_t len = match_at(text, pos, alias); len > best.len) best = {pos, len, &t};
    }
    if (best.term) out.push_back(best), pos += best.len;
    else ++pos;
  }
  return out;
}

}  // namespace rl::core
