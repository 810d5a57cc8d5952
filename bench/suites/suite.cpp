#include "suites/suite.hpp"

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "harness/progress.hpp"

namespace bufstream::bench {
namespace {

void record_failed(SuiteContext& context, const VariantId& id, std::string_view reason) {
  progress_failed(reason);
  context.results.add_failed(std::string(id.suite), std::string(id.op), std::string(id.data),
                             std::string(id.variant), std::string(reason));
}

// Turns a variant's timing into its measurement with `finish` and records it, or records the
// failure if `finish` throws. The variant's progress line has been begun.
void record_measured(SuiteContext& context, const VariantId& id, Cost cost, Timing timing,
                     const std::function<Measurement(Timing)>& finish) {
  try {
    Measurement measurement = finish(std::move(timing));
    measurement.cost = cost;
    progress_done(measurement.timing);
    context.results.add_measured(std::string(id.suite), std::string(id.op), std::string(id.data),
                                 std::string(id.variant), std::move(measurement));
  } catch (const std::exception& e) {
    record_failed(context, id, e.what());
  }
}

std::string describe(const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

}  // namespace

void run_variants_interleaved(SuiteContext& context,
                              std::span<const InterleavedSuiteVariant> variants) {
  // The variants that can run, and where each one's result goes back in table order.
  std::vector<InterleavedVariant> runnable;
  std::vector<std::size_t> row_of;
  for (std::size_t row = 0; row < variants.size(); ++row) {
    if (!variants[row].run) continue;
    runnable.push_back({.policy = run_policy(variants[row].cost, context.options.repeat),
                        .run = variants[row].run});
    row_of.push_back(row);
  }
  std::vector<InterleavedResult> measured;
  if (!runnable.empty()) {
    const VariantId& first = variants[row_of.front()].id;
    progress_rounds_begin(first.suite, first.data, first.op, runnable.size());
    int rounds = 0;
    measured = measure_interleaved(runnable, [&rounds](int round) {
      rounds = round + 1;
      progress_round_done();
    });
    progress_rounds_done(rounds);
  }

  std::size_t next_measured = 0;
  for (std::size_t row = 0; row < variants.size(); ++row) {
    const InterleavedSuiteVariant& v = variants[row];
    if (next_measured == row_of.size() || row_of[next_measured] != row) {
      skip_variant(context, v.id, v.skip_reason);
      continue;
    }
    InterleavedResult& result = measured[next_measured++];
    progress_begin(v.id.suite, v.id.data, v.id.op, v.id.variant);
    if (result.error) {
      record_failed(context, v.id, describe(result.error));
    } else {
      record_measured(context, v.id, v.cost, std::move(*result.timing), v.finish);
    }
  }
}

void skip_variant(SuiteContext& context, const VariantId& id, std::string_view reason) {
  progress_begin(id.suite, id.data, id.op, id.variant);
  progress_skipped(reason);
  context.results.add_skipped(std::string(id.suite), std::string(id.op), std::string(id.data),
                              std::string(id.variant), std::string(reason));
}

}  // namespace bufstream::bench
