#include "harness/measure.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

namespace bufstream::bench {
namespace {

// The measured runs of one variant so far, and whether its policy wants another one.
class Samples {
 public:
  explicit Samples(const RunPolicy& policy) noexcept : policy_(policy) {}

  bool wants_another_run() const noexcept {
    const int taken = static_cast<int>(samples_ms_.size());
    return taken == 0 || (taken < policy_.runs && spent_ms_ < policy_.budget_ms);
  }

  // One measured run: the harness starts the clock, and stops it when `run` returns in case
  // `run` did not (a run that has nothing to leave out need not).
  void run_once(const TimedRun& run, Stopwatch& watch) {
    watch.start();
    run(watch);
    watch.stop();
    samples_ms_.push_back(watch.elapsed_ms());
    if (watch.marked_destructors())
      incl_destructors_ms_.push_back(watch.elapsed_incl_destructors_ms());
    spent_ms_ += watch.elapsed_incl_destructors_ms();
  }

  // Median, min and max of the samples; the median including destructors only when every
  // run marked them. Needs at least one sample.
  Timing timing() && {
    Timing timing;
    timing.median_ms = median(samples_ms_);
    timing.min_ms = *std::min_element(samples_ms_.begin(), samples_ms_.end());
    timing.max_ms = *std::max_element(samples_ms_.begin(), samples_ms_.end());
    if (incl_destructors_ms_.size() == samples_ms_.size()) {
      timing.median_incl_destructors_ms = median(std::move(incl_destructors_ms_));
    }
    timing.samples_ms = std::move(samples_ms_);
    return timing;
  }

 private:
  RunPolicy policy_;
  std::vector<double> samples_ms_;
  std::vector<double> incl_destructors_ms_;
  double spent_ms_ = 0;
};

// A warm-up: validated like a measured run, not recorded.
void warm_up(const TimedRun& run, Stopwatch& watch) {
  watch.start();
  run(watch);
}

}  // namespace

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

std::vector<InterleavedResult> measure_interleaved(
    std::span<const InterleavedVariant> variants,
    const std::function<void(int round)>& round_done) {
  std::vector<InterleavedResult> results(variants.size());
  Stopwatch watch;
  // Runs variant i once (a warm-up or a measured run); a throw fails the variant.
  auto attempt = [&](std::size_t i, auto&& run_it) {
    try {
      run_it();
    } catch (...) {
      results[i].error = std::current_exception();
    }
  };

  int most_warmups = 0;
  for (const InterleavedVariant& v : variants)
    most_warmups = std::max(most_warmups, v.policy.warmups);
  for (int round = 0; round < most_warmups; ++round) {
    for (std::size_t i = 0; i < variants.size(); ++i) {
      if (results[i].error || variants[i].policy.warmups <= round) continue;
      attempt(i, [&] { warm_up(variants[i].run, watch); });
    }
  }

  std::vector<Samples> samples;
  samples.reserve(variants.size());
  for (const InterleavedVariant& v : variants) samples.emplace_back(v.policy);
  for (int round = 0;; ++round) {
    bool any_ran = false;
    // Round r starts with variant r (modulo their count): each follows each of the others in
    // turn, so that one that leaves the caches cold does not always slow down the same one.
    for (std::size_t k = 0; k < variants.size(); ++k) {
      const std::size_t i = (static_cast<std::size_t>(round) + k) % variants.size();
      if (results[i].error || !samples[i].wants_another_run()) continue;
      any_ran = true;
      attempt(i, [&] { samples[i].run_once(variants[i].run, watch); });
    }
    if (!any_ran) break;
    if (round_done) round_done(round);
  }

  for (std::size_t i = 0; i < variants.size(); ++i) {
    if (!results[i].error) results[i].timing = std::move(samples[i]).timing();
  }
  return results;
}

}  // namespace bufstream::bench
