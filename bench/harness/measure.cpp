#include "harness/measure.hpp"

#include <algorithm>
#include <numeric>

namespace bufstream::bench {

RunPolicy run_policy(Cost cost, int repeat) noexcept {
  repeat = std::max(repeat, 1);
  if (cost == Cost::slow) return {.warmups = 0, .runs = std::min(repeat, 3), .budget_ms = 12000};
  return {.warmups = 1, .runs = repeat, .budget_ms = 20000};
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

Timing measure(const RunPolicy& policy, const TimedRun& run) {
  Stopwatch watch;
  for (int i = 0; i < policy.warmups; ++i) {
    watch.start();
    run(watch);
  }
  Timing timing;
  std::vector<double> incl;
  double spent = 0;
  for (int i = 0; i < policy.runs && (i == 0 || spent < policy.budget_ms); ++i) {
    watch.start();
    run(watch);
    watch.stop();
    const double ms = watch.elapsed_ms();
    timing.samples_ms.push_back(ms);
    if (watch.marked_destructors()) incl.push_back(watch.elapsed_incl_destructors_ms());
    spent += watch.elapsed_incl_destructors_ms();
  }
  timing.median_ms = median(timing.samples_ms);
  timing.min_ms = *std::min_element(timing.samples_ms.begin(), timing.samples_ms.end());
  timing.max_ms = *std::max_element(timing.samples_ms.begin(), timing.samples_ms.end());
  if (incl.size() == timing.samples_ms.size()) timing.median_incl_destructors_ms = median(incl);
  return timing;
}

}  // namespace bufstream::bench
