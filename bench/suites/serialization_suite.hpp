// The shape shared by the json, ston and csv suites: for each data set, every writer writes
// the rows to a file of its own, and every reader reads one reference file; the limits
// `write-once` and `read-once` are added to every suite. The writers of a data set, then its
// readers, are measured side by side in interleaved rounds (run_variants_interleaved), so that
// the ratios the tables show (buffered against unbuffered, the peers, the floor) compare runs
// made under the same conditions on a machine whose speed drifts.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"
#include "harness/stopwatch.hpp"
#include "suites/suite.hpp"

namespace bufstream::bench {

/// Writes the whole data set to `path` (creating or truncating it) and closes the file; throws
/// on any failure. Everything it does is timed.
using WriteFn = std::function<void(const DataSet& set, const std::filesystem::path& path)>;

/// Reads the whole file at `path` into the structure a user would work with (a DOM, row
/// structs), calls `watch.stop()` once it is built, and returns the result's checksum
/// (computed after the stop, so untimed).
using ReadFn = std::function<Checksum(const std::filesystem::path& path, Stopwatch& watch)>;

struct WriteVariant {
  std::string name;
  Cost cost = Cost::normal;
  WriteFn write;            // empty when the variant cannot run here
  std::string unavailable;  // why, when `write` is empty
};

struct ReadVariant {
  std::string name;
  Cost cost = Cost::normal;
  ReadFn read;
  std::string unavailable;
};

struct SerializationSuite {
  std::string name;       // "json": the suite column of the results
  std::string extension;  // of the files written
  std::vector<WriteVariant> writers;
  std::vector<ReadVariant> readers;
  /// Writes the file every reader reads and whose bytes `write-once` writes. It should be a
  /// writer that does not depend on the code under test.
  WriteFn reference_writer;
  /// Reads a file back with a reader that is not under test (or, for a format without another
  /// implementation, the library's own), to check every writer's output once. A suite without
  /// one has no writers but `write-once`, which is checked byte for byte.
  std::function<Checksum(const std::filesystem::path& path)> read_back;
  /// False for a suite of readers only: no op `write`, not even `write-once`.
  bool measure_writes = true;
};

/// Runs the suite over every data set the options select and records the results.
void run_serialization_suite(SuiteContext& context, const SerializationSuite& suite);

}  // namespace bufstream::bench
