// bufstream-bench: the benchmark program of docs/BENCHMARKS.md. Runs the selected suites,
// prints one table per suite, and writes the results as JSON and as an SVG chart on request.
#include <cstdio>
#include <exception>

#include <fmt/format.h>

#include "harness/options.hpp"
#include "harness/results.hpp"
#include "harness/temp_dir.hpp"
#include "output/json_report.hpp"
#include "output/machine_info.hpp"
#include "output/svg_chart.hpp"
#include "output/table_report.hpp"
#include "suites/suites.hpp"

namespace bufstream::bench {
namespace {

int run(const Options& options) {
  const MachineInfo machine = machine_info();
  Results results;
  {
    const TempDir temp(options.temp_parent);
    fmt::print(stderr, "bufstream-bench: files in {}\n", temp.path().string());
    SuiteContext context{.options = options, .temp = temp, .results = results};
    if (options.runs("streams")) run_streams_suite(context);
    if (options.runs("json")) run_json_suite(context);
    if (options.runs("json-files")) run_json_files_suite(context);
    if (options.runs("json-lines")) run_json_lines_suite(context);
    if (options.runs("json-small")) run_json_small_suite(context);
    if (options.runs("json-select")) run_json_select_suite(context);
    if (options.runs("ston")) run_ston_suite(context);
    if (options.runs("csv")) run_csv_suite(context);
    if (options.runs("csv-table")) run_csv_table_suite(context);
    if (options.runs("numbers")) run_numbers_suite(context);
    if (options.runs("cedict")) run_cedict_suite(context);
    if (options.runs("compressed")) run_compressed_suite(context);
    if (options.runs("parallel")) run_parallel_suite(context);
  }
  print_tables(stdout, results, options, machine);
  if (!options.json_path.empty()) {
    write_json_report(options.json_path, results, machine);
    fmt::print(stderr, "wrote {}\n", options.json_path.string());
  }
  if (!options.svg_path.empty()) {
    write_svg_chart(options.svg_path, results, options, machine);
    fmt::print(stderr, "wrote {}\n", options.svg_path.string());
  }
  if (results.any_failed()) {
    fmt::print(stderr, "bufstream-bench: some variants FAILED (see the tables)\n");
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace bufstream::bench

int main(int argc, char** argv) {
  using namespace bufstream::bench;
  try {
    const Options options = parse_options(argc, argv);
    if (options.help) {
      fmt::print("{}", usage_text(argc > 0 ? argv[0] : "bufstream-bench"));
      return 0;
    }
    return run(options);
  } catch (const UsageError& e) {
    fmt::print(stderr, "bufstream-bench: {}\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    fmt::print(stderr, "bufstream-bench: {}\n", e.what());
    return 1;
  }
}
