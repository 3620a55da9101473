// The window's one message channel, as polyscope's info / warning / error: a message has a
// level, which sets its colour, and a topic, which sets where it is drawn; a new message of a
// topic replaces the one before it, and each stays until replaced or cleared.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <utility>

namespace rl::ui {

enum class Level { Info, Warning, Error };

enum class Topic {
  Run,       // the last run's failure (the Stages tab, under the view)
  Settings,  // a problem with the settings file, once (the Stages tab)
  Export,    // the Stages tab's last export
  Bench,     // the Bandwidth tab's last export or refused field
  Open,      // the last file opened, or why it was not (the Open section, the status line)
  Race,      // a race recording not opened or made (the Stages tab)
  Scene,     // the last scene saved or opened (Scenes and plans)
  Plan,      // at a plan's end or start, or when a hand-picked algorithm left it
  kCount
};

struct Message {
  Level level = Level::Info;
  std::string text;
  bool empty() const { return text.empty(); }
};

class Messages {
 public:
  void info(Topic topic, std::string text) { post(topic, Level::Info, std::move(text)); }
  void warning(Topic topic, std::string text) { post(topic, Level::Warning, std::move(text)); }
  void error(Topic topic, std::string text) { post(topic, Level::Error, std::move(text)); }
  void post(Topic topic, Level level, std::string text) { at(topic) = {level, std::move(text)}; }
  void clear(Topic topic) { at(topic) = {}; }
  const Message& operator[](Topic topic) const { return by_topic_[std::size_t(topic)]; }
  const std::string& text(Topic topic) const { return (*this)[topic].text; }
  bool has(Topic topic) const { return !(*this)[topic].empty(); }

 private:
  Message& at(Topic topic) { return by_topic_[std::size_t(topic)]; }
  std::array<Message, std::size_t(Topic::kCount)> by_topic_;
};

}  // namespace rl::ui
