// Stopwatch: the clock a measured run stops itself, so that it can leave out of the timing what
// must not be timed (validating the result, and optionally destroying it).
#pragma once

#include <chrono>
#include <optional>

namespace bufstream::bench {

class Stopwatch {
 public:
  using Clock = std::chrono::steady_clock;

  /// Starts (or restarts) the clock. The harness starts it before each run; a run that must
  /// prepare something untimed first (remove the previous output) restarts it after that.
  void start() noexcept {
    start_ = Clock::now();
    stop_.reset();
    destroying_.reset();
    destroyed_.reset();
  }
  /// Ends the timed part of a run; later calls do nothing. The harness calls it when the run
  /// returns, so a run that has nothing to leave out need not call it.
  void stop() noexcept {
    if (!stop_) stop_ = Clock::now();
  }
  /// For runs that time the destruction of their result apart (CEDICT): call
  /// `begin_destructors()` just before destroying the result (after untimed checks) and
  /// `stop_after_destructors()` just after; the time in between is added to the timed part.
  void begin_destructors() noexcept {
    stop();
    destroying_ = Clock::now();
  }
  void stop_after_destructors() noexcept {
    stop();
    if (!destroyed_) destroyed_ = Clock::now();
  }

  double elapsed_ms() const noexcept { return ms(start_, stop_.value_or(Clock::now())); }
  /// The timed part plus the destruction, when the run marked it; else the same as `elapsed_ms`.
  double elapsed_incl_destructors_ms() const noexcept {
    if (!destroyed_) return elapsed_ms();
    return elapsed_ms() + ms(destroying_.value_or(*stop_), *destroyed_);
  }
  bool marked_destructors() const noexcept { return destroyed_.has_value(); }

 private:
  static double ms(Clock::time_point from, Clock::time_point to) noexcept {
    return std::chrono::duration<double, std::milli>(to - from).count();
  }

  Clock::time_point start_ = Clock::now();
  std::optional<Clock::time_point> stop_;
  std::optional<Clock::time_point> destroying_;
  std::optional<Clock::time_point> destroyed_;
};

}  // namespace bufstream::bench
