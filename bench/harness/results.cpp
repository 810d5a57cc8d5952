#include "harness/results.hpp"

#include <algorithm>
#include <utility>

namespace bufstream::bench {

void Results::add_measured(std::string suite, std::string op, std::string data, std::string variant,
                           Measurement measurement) {
  entries_.push_back({.suite = std::move(suite),
                      .op = std::move(op),
                      .data = std::move(data),
                      .variant = std::move(variant),
                      .measured = std::move(measurement),
                      .reason = {},
                      .failed = false});
}

void Results::add_skipped(std::string suite, std::string op, std::string data, std::string variant,
                          std::string reason) {
  entries_.push_back({.suite = std::move(suite),
                      .op = std::move(op),
                      .data = std::move(data),
                      .variant = std::move(variant),
                      .measured = std::nullopt,
                      .reason = std::move(reason),
                      .failed = false});
}

void Results::add_failed(std::string suite, std::string op, std::string data, std::string variant,
                         std::string reason) {
  add_skipped(std::move(suite), std::move(op), std::move(data), std::move(variant),
              "FAILED: " + std::move(reason));
  entries_.back().failed = true;
}

bool Results::any_failed() const noexcept {
  return std::any_of(entries_.begin(), entries_.end(), [](const Entry& e) { return e.failed; });
}

}  // namespace bufstream::bench
