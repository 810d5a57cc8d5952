#include "suites/suite.hpp"

#include <exception>
#include <string>

#include "harness/progress.hpp"

namespace bufstream::bench {

void run_variant(SuiteContext& context, const VariantId& id, Cost cost, const TimedRun& run,
                 const std::function<Measurement(Timing)>& finish) {
  progress_begin(id.suite, id.data, id.op, id.variant);
  try {
    Timing timing = measure(run_policy(cost, context.options.repeat), run);
    Measurement measurement = finish(std::move(timing));
    measurement.cost = cost;
    progress_done(measurement.timing);
    context.results.add_measured(std::string(id.suite), std::string(id.op), std::string(id.data),
                                 std::string(id.variant), std::move(measurement));
  } catch (const std::exception& e) {
    progress_failed(e.what());
    context.results.add_failed(std::string(id.suite), std::string(id.op), std::string(id.data),
                               std::string(id.variant), e.what());
  }
}

void skip_variant(SuiteContext& context, const VariantId& id, std::string_view reason) {
  progress_begin(id.suite, id.data, id.op, id.variant);
  progress_skipped(reason);
  context.results.add_skipped(std::string(id.suite), std::string(id.op), std::string(id.data),
                              std::string(id.variant), std::string(reason));
}

}  // namespace bufstream::bench
