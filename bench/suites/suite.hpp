// What every suite gets, and the way a suite measures and records its variants: side by side,
// in interleaved rounds (`run_variants_interleaved`).
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

/// A row of a suite whose variants are measured side by side. Without `run`, the variant is
/// recorded as skipped with `skip_reason`.
struct InterleavedSuiteVariant {
  VariantId id;
  Cost cost = Cost::normal;
  TimedRun run;
  std::string skip_reason;
  /// Turns the variant's timing into its measurement (filling in bytes, entries), untimed; it
  /// may check once what the runs produced (read a written file back).
  std::function<Measurement(Timing)> finish;
};

/// Measures the variants that can run side by side with `measure_interleaved` (each under the
/// policy for its cost), so that their ratios compare runs made under the same conditions,
/// then records every variant in the given order: measured, failed (an exception from a run
/// or from `finish`) or skipped. Stderr shows a dot per round while they run, then one line
/// per variant.
void run_variants_interleaved(SuiteContext& context,
                              std::span<const InterleavedSuiteVariant> variants);

/// Records a variant that cannot run here, with the reason.
void skip_variant(SuiteContext& context, const VariantId& id, std::string_view reason);

}  // namespace bufstream::bench
