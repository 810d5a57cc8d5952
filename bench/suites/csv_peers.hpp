// The CSV code a C++ user would otherwise write or pick, on the same rows, and a strict
// reference parser that checks every writer's output.
#pragma once

#include <filesystem>
#include <string_view>
#include <vector>

#include "data_sets/checksum.hpp"
#include "data_sets/data_set.hpp"
#include "harness/stopwatch.hpp"

namespace bufstream::bench {

/// stdio: one fprintf per row (%.17g for doubles), the string quoted when it holds a comma.
void write_csv_stdio(const DataSet& set, const std::filesystem::path& path);
/// iostreams: operator<< into a std::ofstream with precision 17.
void write_csv_ofstream(const DataSet& set, const std::filesystem::path& path);

/// std::getline per line, then a std::stringstream split on ',' with std::stoll/std::stod,
/// and the last field unquoted by hand: the code found in many answers on the web.
Checksum read_csv_getline(const std::filesystem::path& path, Stopwatch& watch);

#ifdef BUFSTREAM_BENCH_HAVE_LIBCSV
/// libcsv: the callback parser fed 64 KiB chunks, numbers converted with strtoll/strtod.
Checksum read_csv_libcsv(const std::filesystem::path& path, Stopwatch& watch);
#endif

/// Parses RFC 4180 text of five-field rows (integer, integer, number, number, string) strictly;
/// throws `ValidationError` naming the line of the first problem. Not timed: it checks files.
std::vector<Row> parse_csv_reference(std::string_view text);

}  // namespace bufstream::bench
