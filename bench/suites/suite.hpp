// What every suite gets, and the one way a suite measures and records a variant.
#pragma once

#include <functional>
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

/// Records a variant that cannot run here, with the reason.
void skip_variant(SuiteContext& context, const VariantId& id, std::string_view reason);

}  // namespace bufstream::bench
