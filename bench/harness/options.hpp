// The command line of bufstream-bench.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/Error.hpp>

#include "data_sets/data_set.hpp"

namespace bufstream::bench {

/// Every suite, in the order they run and print.
inline const std::vector<std::string>& all_suites() {
  static const std::vector<std::string> suites{
      "streams", "json",      "json-files", "json-lines", "json-small", "json-select", "ston",
      "csv",     "csv-table", "numbers",    "cedict",     "compressed", "parallel"};
  return suites;
}

struct Options {
  std::vector<std::string> suites = all_suites();
  std::vector<DataKind> data{DataKind::floats, DataKind::integers};
  std::size_t rows = 25000;
  /// Whether --rows was given (the parallel suite has a larger default of its own).
  bool rows_given = false;
  int repeat = 5;
  /// Size of the streams suite's byte-at-a-time transfers (the unbuffered stream moves 1 MB).
  std::size_t stream_mb = 100;
  std::filesystem::path json_path;
  std::filesystem::path svg_path;
  std::filesystem::path temp_parent;
  std::filesystem::path cedict_path;
  std::filesystem::path json_files_path;
  bool help = false;

  bool runs(std::string_view suite) const;
};

/// A command line that cannot be understood: CLI11's parse errors, whose `what()` says why and
/// names the option.
using UsageError = CLI::ParseError;

/// Parses `argv[1..]` with CLI11. Throws `UsageError`.
Options parse_options(int argc, const char* const* argv);

/// The text of `--help`, made by CLI11 from the options that parse_options() takes.
std::string usage_text(std::string_view program);

}  // namespace bufstream::bench
