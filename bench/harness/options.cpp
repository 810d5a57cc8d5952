#include "harness/options.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

namespace bufstream::bench {
namespace {

constexpr const char* footer =
    R"(Measures bufstream's buffered and unbuffered streams, and the JSON, STON, CSV and CC-CEDICT
readers and writers on top of them, against the C++ libraries a user would otherwise pick.
Prints one table per suite; progress goes to stderr.)";

// A whole number from `min` to `max`: CLI11's range check, whose message names the range; its
// description would repeat it after the option's name in --help.
CLI::Validator count_range(int min, int max) { return CLI::Range(min, max).description(""); }

// The options, read into `options` as CLI11 parses them, except --suite and --data: each name
// given goes once into `suites` or `data`, in the order given.
void define(CLI::App& app, Options& options, std::vector<std::string>& suites,
            std::vector<DataKind>& data) {
  app.get_formatter()->label("Usage", "usage");
  app.get_formatter()->column_width(20);
  app.footer(footer);
  app.option_defaults()->take_last();
  app.add_option("--suite",
                 "streams, json, json-files, json-lines, json-small, json-select, ston, csv,\n"
                 "csv-table, numbers, cedict, compressed or parallel; repeatable (default: all)")
      ->type_name("NAME")
      ->take_all()
      ->each([&suites](const std::string& name) {
        if (!std::ranges::count(all_suites(), name)) {
          throw CLI::ValidationError(fmt::format("unknown suite '{}' (choose from {})", name,
                                                 fmt::join(all_suites(), ", ")));
        }
        if (!std::ranges::count(suites, name)) suites.push_back(name);
      });
  app.add_option("--data", "floats or integers; repeatable (default: both)")
      ->type_name("NAME")
      ->take_all()
      ->each([&data](const std::string& name) {
        const auto kind = parse_data_kind(name);
        if (!kind) {
          throw CLI::ValidationError(
              fmt::format("unknown data set '{}' (floats or integers)", name));
        }
        if (!std::ranges::count(data, *kind)) data.push_back(*kind);
      });
  app.add_option("--rows", options.rows,
                 "rows per data set (default: 25000; json-lines: one per line;\n"
                 "parallel: 1000000)")
      ->type_name("N")
      ->check(count_range(1, 100'000'000));
  app.add_option("--repeat", options.repeat,
                 "measured repetitions per variant, after one warm-up (default: 5);\n"
                 "variants making one system call per byte run at most 3, without warm-up")
      ->type_name("N")
      ->check(count_range(1, 1000));
  app.add_option("--stream-mb", options.stream_mb,
                 "megabytes moved byte by byte in the streams suite (default: 100; the\n"
                 "unbuffered stream moves 1 MB and is scaled to the same unit)")
      ->type_name("N")
      ->check(count_range(1, 100'000));
  app.add_option("--json", options.json_path,
                 "write every measurement as JSON: \"results\" [{suite, op, data, variant,\n"
                 "median_ms, min_ms, max_ms, runs, bytes}] (cedict adds entries and\n"
                 "median_ms_incl_destructors), \"skipped\" [{suite, op, data, variant,\n"
                 "reason}], \"machine\" {cpu_model, cores, compiler, build_type, isa,\n"
                 "isa_cpu, simdjson} (isa: what BUFSTREAM_ISA leaves of isa_cpu)")
      ->type_name("FILE");
  app.add_option("--svg", options.svg_path, "write a chart (log-scale bars per suite and variant)")
      ->type_name("FILE");
  app.add_option("--cedict", options.cedict_path,
                 "the CC-CEDICT file (default: bench/data/cedict_ts.u8 of the source tree)")
      ->type_name("FILE");
  app.add_option("--json-files", options.json_files_path,
                 "the json-files suite's files: every *.json in DIR (default:\n"
                 "bench/data/json of the source tree: twitter.json, citm_catalog.json,\n"
                 "canada.json); the numbers suite reads canada.json's numbers from there")
      ->type_name("DIR");
  app.add_option("--tmpdir", options.temp_parent,
                 "where the scratch directory is made (default: the system's temp dir)")
      ->type_name("DIR");
  // --help is an option like the others (Options::help): main() prints usage_text().
  app.set_help_flag();
  app.add_flag("-h,--help", options.help, "this text");
}

}  // namespace

bool Options::runs(std::string_view suite) const {
  return std::find(suites.begin(), suites.end(), suite) != suites.end();
}

Options parse_options(int argc, const char* const* argv) {
  Options options;
  std::vector<std::string> suites;
  std::vector<DataKind> data;
  CLI::App app;
  define(app, options, suites, data);
  app.parse(argc, argv);
  options.rows_given = app.count("--rows") > 0;
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
  Options options;
  std::vector<std::string> suites;
  std::vector<DataKind> data;
  CLI::App app("", std::string(program));
  define(app, options, suites, data);
  return app.help();
}

}  // namespace bufstream::bench
