#include "harness/options.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/format.h>

namespace bufstream::bench {
namespace {

template <class T>
T parse_count(std::string_view option, std::string_view text, T min, T max) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || text.empty() || value < min || value > max) {
    throw UsageError(
        fmt::format("{} expects a number from {} to {}, not '{}'", option, min, max, text));
  }
  return value;
}

}  // namespace

bool Options::runs(std::string_view suite) const {
  return std::find(suites.begin(), suites.end(), suite) != suites.end();
}

Options parse_options(int argc, const char* const* argv) {
  Options options;
  std::vector<std::string> suites;
  std::vector<DataKind> data;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::optional<std::string_view> inline_value;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      inline_value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    auto value = [&]() -> std::string_view {
      if (inline_value) return *inline_value;
      if (i + 1 >= argc) throw UsageError(fmt::format("{} needs a value", arg));
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      options.help = true;
    } else if (arg == "--suite") {
      const std::string_view name = value();
      if (!std::ranges::count(all_suites(), name)) {
        throw UsageError(fmt::format("unknown suite '{}' (choose from {})", name,
                                     fmt::join(all_suites(), ", ")));
      }
      if (!std::ranges::count(suites, name)) suites.emplace_back(name);
    } else if (arg == "--data") {
      const std::string_view name = value();
      const auto kind = parse_data_kind(name);
      if (!kind) throw UsageError(fmt::format("unknown data set '{}' (floats or integers)", name));
      if (!std::ranges::count(data, *kind)) data.push_back(*kind);
    } else if (arg == "--rows") {
      options.rows = parse_count<std::size_t>(arg, value(), 1, 100'000'000);
    } else if (arg == "--repeat") {
      options.repeat = parse_count<int>(arg, value(), 1, 1000);
    } else if (arg == "--stream-mb") {
      options.stream_mb = parse_count<std::size_t>(arg, value(), 1, 100'000);
    } else if (arg == "--json") {
      options.json_path = std::string(value());
    } else if (arg == "--svg") {
      options.svg_path = std::string(value());
    } else if (arg == "--tmpdir") {
      options.temp_parent = std::string(value());
    } else if (arg == "--cedict") {
      options.cedict_path = std::string(value());
    } else if (arg == "--json-files") {
      options.json_files_path = std::string(value());
    } else {
      throw UsageError(fmt::format("unknown option '{}' (try --help)", arg));
    }
  }
  if (!suites.empty()) {  // keep the canonical order whatever the order on the command line
    std::vector<std::string> ordered;
    for (const std::string& s : all_suites()) {
      if (std::ranges::count(suites, s)) ordered.push_back(s);
    }
    options.suites = std::move(ordered);
  }
  if (!data.empty()) options.data = std::move(data);
  return options;
}

std::string usage_text(std::string_view program) {
  return fmt::format(
      R"(usage: {} [options]

Measures bufstream's buffered and unbuffered streams, and the JSON, STON, CSV and CC-CEDICT
readers and writers on top of them, against the C++ libraries a user would otherwise pick.
Prints one table per suite; progress goes to stderr.

options:
  --suite NAME     streams, json, json-files, json-lines, json-select, ston, csv, numbers,
                   cedict or compressed; repeatable (default: all)
  --data NAME      floats or integers; repeatable (default: both)
  --rows N         rows per data set (default: 25000; json-lines: one per line)
  --repeat N       measured repetitions per variant, after one warm-up (default: 5);
                   variants making one system call per byte run at most 3, without warm-up
  --stream-mb N    megabytes moved byte by byte in the streams suite (default: 100; the
                   unbuffered stream moves 1 MB and is scaled to the same unit)
  --json FILE      write every measurement as JSON: "results" [{{suite, op, data, variant,
                   median_ms, min_ms, max_ms, runs, bytes}}] (cedict adds entries and
                   median_ms_incl_destructors), "skipped" [{{suite, op, data, variant,
                   reason}}], "machine" {{cpu_model, cores, compiler, build_type, isa,
                   isa_cpu, simdjson}} (isa: what BUFSTREAM_ISA leaves of isa_cpu)
  --svg FILE       write a chart (log-scale bars per suite and variant)
  --cedict FILE    the CC-CEDICT file (default: bench/data/cedict_ts.u8 of the source tree)
  --json-files DIR the json-files suite's files: every *.json in DIR (default: bench/data/json
                   of the source tree: twitter.json, citm_catalog.json, canada.json); the
                   numbers suite reads canada.json's numbers from there
  --tmpdir DIR     where the scratch directory is made (default: the system's temp dir)
  --help           this text
)",
      program);
}

}  // namespace bufstream::bench
