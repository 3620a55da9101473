// Undo and redo over whole window states (the scene a settings file holds): the window shows
// its state to History once a frame, and a state that differs from the last becomes a step.
// Header only: it is a few lines over the standard containers.
#pragma once
#include <cstddef>
#include <deque>
#include <optional>
#include <vector>

#include "settings.h"

namespace rl::core {

class History {
 public:
  explicit History(std::size_t depth = 100) : depth_(depth > 0 ? depth : 1) {}

  // The state now. A change from the last one seen keeps that one for undo and clears redo;
  // the same state again records nothing. Returns whether it recorded a step.
  bool observe(const Settings& now) {
    if (!current_) {
      current_ = now;
      return false;
    }
    if (*current_ == now) return false;
    past_.push_back(*current_);
    if (past_.size() > depth_) past_.pop_front();  // the oldest step goes first
    future_.clear();
    current_ = now;
    return true;
  }

  // The state to go back to (the caller applies it), or none when there is no earlier one.
  std::optional<Settings> undo() {
    if (past_.empty() || !current_) return std::nullopt;
    future_.push_back(*current_);
    current_ = past_.back();
    past_.pop_back();
    return current_;
  }

  // The state undone last, or none when a change since (or no undo) left nothing to redo.
  std::optional<Settings> redo() {
    if (future_.empty() || !current_) return std::nullopt;
    past_.push_back(*current_);
    current_ = future_.back();
    future_.pop_back();
    return current_;
  }

  std::size_t undo_steps() const { return past_.size(); }
  std::size_t redo_steps() const { return future_.size(); }

 private:
  std::size_t depth_;
  std::deque<Settings> past_;
  std::vector<Settings> future_;
  std::optional<Settings> current_;
};

}  // namespace rl::core
