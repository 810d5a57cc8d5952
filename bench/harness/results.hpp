// What a benchmark run collects: one entry per suite, op, data set and variant, either measured
// or skipped with the reason. Entries keep the order in which the suites produced them, which
// is the order of the rows in the tables.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/measure.hpp"

namespace bufstream::bench {

/// A read that produced the wrong result, or a write whose file does not read back right.
class ValidationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Measurement {
  Timing timing;
  Cost cost = Cost::normal;
  /// Size of the file written or read (for the streams suite: bytes moved).
  std::uint64_t bytes = 0;
  /// CEDICT: dictionary entries loaded.
  std::optional<std::uint64_t> entries;
};

struct Entry {
  std::string suite;
  std::string op;
  std::string data;
  std::string variant;
  std::optional<Measurement> measured;
  /// Why the variant did not run, when `measured` is empty.
  std::string reason;
  /// True when the variant ran and failed (its reason says how): the program then exits 1.
  bool failed = false;
};

class Results {
 public:
  void add_measured(std::string suite, std::string op, std::string data, std::string variant,
                    Measurement measurement);
  void add_skipped(std::string suite, std::string op, std::string data, std::string variant,
                   std::string reason);
  void add_failed(std::string suite, std::string op, std::string data, std::string variant,
                  std::string reason);

  const std::vector<Entry>& entries() const noexcept { return entries_; }
  bool any_failed() const noexcept;

 private:
  std::vector<Entry> entries_;
};

}  // namespace bufstream::bench
