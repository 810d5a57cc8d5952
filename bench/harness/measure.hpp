// The measurement loop: the variants a table compares, side by side in interleaved rounds
// (warm-ups, then one run of each per round); median/min/max of each one's runs.
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// `slow`: a variant that makes one system call per byte or per token (the unbuffered
/// streams). It runs fewer repetitions, without warm-up, and the tables say so.
enum class Cost { normal, slow };

struct RunPolicy {
  int warmups = 1;
  /// Measured runs (at least one runs, whatever this says).
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

/// One of the variants that `measure_interleaved` measures side by side.
struct InterleavedVariant {
  RunPolicy policy;
  TimedRun run;
};

/// What `measure_interleaved` found for one variant: exactly one of the two is set.
struct InterleavedResult {
  /// The variant's timing, from its own samples.
  std::optional<Timing> timing;
  /// What a warm-up or a measured run of the variant threw; it ran no more after that.
  std::exception_ptr error;
};

/// Measures several variants side by side, so that the ratio of two of them compares runs made
/// under the same conditions (on a shared machine, whose speed drifts over seconds, variants
/// measured one after the other would compare time windows minutes apart).
///
/// Warm-up rounds come first: warm-up round w runs, in the given order, each variant that has
/// more than w warm-ups. Then measured round i runs, in the given order from the i-th variant
/// on (modulo their count; each variant follows each other one in turn, so that the caches and
/// the heap one variant leaves behind do not always fall to the same one), each variant that
/// still wants a run: no failure so far, fewer than `policy.runs` samples, and (after its first
/// run) fewer than `policy.budget_ms` spent on its measured runs. A variant whose warm-up or run
/// throws is recorded as failed and takes no part in the later rounds; the others go on.
/// `round_done`, if set, is called after each measured round with the round's index (from 0),
/// so that a long measurement can show it is alive. Results are in the order of `variants`.
std::vector<InterleavedResult> measure_interleaved(
    std::span<const InterleavedVariant> variants,
    const std::function<void(int round)>& round_done = {});

/// The median of a non-empty list (the mean of the middle two for an even count).
double median(std::vector<double> values);

}  // namespace bufstream::bench
