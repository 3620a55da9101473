// libFuzzer: settings files, scenes and lesson plans, which a teacher hands out. Any text reads
// as settings (what is wrong reported, defaults in its place) and as a plan or a
// std::runtime_error; whatever reads is written and read back the same, with no problem.
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "app/core/settings.h"

namespace {

// A reader's settings, written (to_json names presenter mode and the panels) and read again.
void round_trip(rl::core::Settings s) {
  const auto again = rl::core::settings_from_json(rl::core::to_json(s), "again");
  s.names_presenter = s.names_panels = true;
  if (!again.problem.empty() || !(again.settings == s)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  round_trip(rl::core::settings_from_json(text, "fuzz").settings);
  try {
    for (const auto& scene : rl::core::plan_from_json(text, "fuzz").scenes) round_trip(scene);
  } catch (const std::runtime_error&) {}
  return 0;
}
