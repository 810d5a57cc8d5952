// What every suite gets, and the ways a suite measures and records its variants: one after the
// other (`run_variant`), or side by side in interleaved rounds (`run_variants_interleaved`).
#pragma once

#include <functional>
#include <span>
#include <string>
#include <string_view>

#include "harness/measure.hpp"
#include "harness/options.hpp"
#include "harness/results.hpp"
#include "harness/temp_dir.hpp"

namespace bufstream::bench {

struct SuiteContext {
  const Options& options;
  const TempDir& temp;
  Results& results;
};

struct VariantId {
  std::string_view suite;
  std::string_view op;
  std::string_view data;
  std::string_view variant;
};

/// Measures `run` under the policy for `cost` and records the result, with progress on stderr.
/// `finish` turns the timing into the measurement (filling in bytes, entries) and may check
/// once what the runs produced (read a written file back); it is not timed. A
/// `ValidationError` or any other exception from either is recorded as a failure of this
/// variant, and the suite goes on with the next one.
void run_variant(SuiteContext& context, const VariantId& id, Cost cost, const TimedRun& run,
                 const std::function<Measurement(Timing)>& finish);

/// A row of a suite whose variants are measured side by side. Without `run`, the variant is
/// recorded as skipped with `skip_reason`.
struct InterleavedSuiteVariant {
  VariantId id;
  Cost cost = Cost::normal;
  TimedRun run;
  std::string skip_reason;
  /// As for `run_variant`: turns the variant's timing into its measurement, untimed.
  std::function<Measurement(Timing)> finish;
};

/// Measures the variants that can run side by side with `measure_interleaved` (each under the
/// policy for its cost), so that their ratios compare runs made under the same conditions,
/// then records every variant in the given order: measured, failed (an exception from a run
/// or from `finish`) or skipped. Stderr shows a dot per round while they run, then one line
/// per variant.
void run_variants_interleaved(SuiteContext& context, std::span<const InterleavedSuiteVariant> variants);

/// Records a variant that cannot run here, with the reason.
void skip_variant(SuiteContext& context, const VariantId& id, std::string_view reason);

}  // namespace bufstream::bench
