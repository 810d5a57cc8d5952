// The measurement loop: warm-up, repetitions, median/min/max.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// `slow`: a variant that makes one system call per byte or per token (the unbuffered
/// streams). It runs fewer repetitions, without warm-up, and the tables say so.
enum class Cost { normal, slow };

struct RunPolicy {
  int warmups = 1;
  int runs = 5;
  /// Once the measured runs have taken this long, no more are started (at least one runs).
  double budget_ms = 20000;
};

/// The policy for a variant of the given cost when the user asked for `repeat` repetitions.
RunPolicy run_policy(Cost cost, int repeat) noexcept;

/// What the repetitions of one variant measured.
struct Timing {
  std::vector<double> samples_ms;
  double median_ms = 0;
  double min_ms = 0;
  double max_ms = 0;
  /// Set when the run marked the destruction of its result (CEDICT).
  std::optional<double> median_incl_destructors_ms;

  int runs() const noexcept { return static_cast<int>(samples_ms.size()); }
};

/// One run: the harness starts the stopwatch and calls `run`, which stops it at the end of
/// what is to be timed, then validates its result (throwing `ValidationError` if wrong).
using TimedRun = std::function<void(Stopwatch&)>;

/// Runs the warm-ups (validated too, not recorded), then the repetitions.
Timing measure(const RunPolicy& policy, const TimedRun& run);

/// The median of a non-empty list (the mean of the middle two for an even count).
double median(std::vector<double> values);

}  // namespace bufstream::bench
