// Stage player: which stage is shown, and play/pause/step/scrub over time.
#pragma once

namespace rl::core {

class Player {
 public:
  void reset(int stage_count);  // back to stage 0, paused
  int stage() const { return stage_; }
  int stage_count() const { return count_; }
  bool playing() const { return playing_; }
  double speed() const { return speed_; }  // stages per second
  // How far the animation is from the current stage towards the next, 0..1.
  double phase() const { return playing_ ? elapsed_ * speed_ : 0.0; }

  void play();  // from the last stage, starts over at 0
  void pause() { playing_ = false; }
  void toggle() { playing_ ? pause() : play(); }
  void step_forward();
  void step_back();
  void first() { seek(0); }
  void last() { seek(count_ - 1); }
  void seek(int stage);  // clamps; pauses
  void set_speed(double stages_per_second);  // clamped to 0.1..20
  // Advances time by dt seconds; returns true if the stage changed. Stops at the last stage.
  bool tick(double dt);

 private:
  int stage_ = 0;
  int count_ = 0;
  bool playing_ = false;
  double speed_ = 1.0;
  double elapsed_ = 0.0;
};

}  // namespace rl::core
