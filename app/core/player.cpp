#include "player.h"

#include <algorithm>

namespace rl::core {

void Player::reset(int stage_count) {
  count_ = std::max(stage_count, 0);
  stage_ = 0;
  playing_ = false;
  elapsed_ = 0;
}

void Player::play() {
  if (count_ <= 1) return;
  if (stage_ >= count_ - 1) stage_ = 0;
  playing_ = true;
  elapsed_ = 0;
}

void Player::step_forward() {
  pause();
  if (stage_ + 1 < count_) ++stage_;
}

void Player::step_back() {
  pause();
  if (stage_ > 0) --stage_;
}

void Player::seek(int stage) {
  pause();
  stage_ = count_ == 0 ? 0 : std::clamp(stage, 0, count_ - 1);
}

void Player::set_speed(double s) { speed_ = std::clamp(s, 0.1, 20.0); }

bool Player::tick(double dt) {
  if (!playing_ || dt <= 0) return false;
  elapsed_ += dt;
  bool changed = false;
  while (playing_ && elapsed_ * speed_ >= 1.0) {
    elapsed_ -= 1.0 / speed_;
    if (stage_ + 1 < count_) {
      ++stage_;
      changed = true;
    }
    if (stage_ + 1 >= count_) {
      playing_ = false;
      elapsed_ = 0;
    }
  }
  return changed;
}

}  // namespace rl::core
