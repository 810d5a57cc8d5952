#include "harness/progress.hpp"

#include <cstdio>

#include <fmt/format.h>

namespace bufstream::bench {

void progress_begin(std::string_view suite, std::string_view data, std::string_view op,
                    std::string_view variant) {
  fmt::print(stderr, "  {:<7} {:<8} {:<6} {:<16} ", suite, data, op, variant);
  std::fflush(stderr);
}

void progress_done(const Timing& timing) {
  fmt::print(stderr, "{:>10.2f} ms  ({} run{})\n", timing.median_ms, timing.runs(),
             timing.runs() == 1 ? "" : "s");
}

void progress_rounds_begin(std::string_view suite, std::string_view data, std::string_view op,
                           std::size_t variants) {
  fmt::print(stderr, "  {:<7} {:<8} {:<6} {} variants side by side, warm-ups then rounds ", suite,
             data, op, variants);
  std::fflush(stderr);
}

void progress_round_done() {
  std::fputc('.', stderr);
  std::fflush(stderr);
}

void progress_rounds_done(int rounds) {
  fmt::print(stderr, " {} round{}\n", rounds, rounds == 1 ? "" : "s");
}

void progress_skipped(std::string_view reason) { fmt::print(stderr, "skipped: {}\n", reason); }

void progress_failed(std::string_view reason) { fmt::print(stderr, "FAILED: {}\n", reason); }

void progress_note(std::string_view text) { fmt::print(stderr, "{}\n", text); }

}  // namespace bufstream::bench
