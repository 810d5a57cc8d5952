// The subcommands of the bufstream command, each a function of the arguments the command line
// gave it (command_line.cpp reads them). Each returns the exit status (0 success, 1 invalid
// input, 2 usage or I/O error); errors it does not handle itself propagate to main(), which
// prints them and chooses the status. A usage error that only the command can see (options
// that exclude each other, a format that no option or name tells) is a CLI::ValidationError,
// reported as the command line's own.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <bufstream/encoding.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/json/pointer.hpp>

#include "file_format.hpp"
#include "format_readers.hpp"

namespace bufstream::cli {

struct CheckArgs {
  std::optional<FileFormat> format;
  ReadOptions read;
  unsigned jobs = 0;               // -j: threads for CSV, TSV and JSON Lines files; 0: every core
  std::vector<std::string> paths;  // none: standard input
};
int run_check(const CheckArgs& args);

struct ConvertArgs {
  std::optional<FileFormat> from;
  std::optional<FileFormat> to;
  bool pretty = false;
  bool no_header = false;
  bool infer = false;
  bool typed = false;  // --typed: CSV read whole into a csv::Table, values typed by column
  ReadOptions read;
  bool lf = false;
  bool flush_each = false;
  std::optional<Encoding> output_encoding;
  bool bom = false;
  std::optional<std::string> select;  // JSON input: the values this pointer selects
  unsigned jobs = 0;  // -j: threads for CSV, TSV and JSON Lines files; 0: every core
  std::string in = "-";
  std::string out = "-";
};
int run_convert(const ConvertArgs& args);

struct GetArgs {
  std::string pointer;
  bool pretty = false;
  std::optional<FileFormat> format;
  std::optional<Encoding> encoding;
  bool flush_each = false;
  std::vector<std::string> paths;  // none: standard input
};
int run_get(const GetArgs& args);

/// `text` as a JSON Pointer; a malformed one, or with `wildcards` false one with a `*`, is a
/// usage error of the argument `what` ("--select", "POINTER").
json::Pointer parse_pointer_argument(const std::string& text, std::string_view what,
                                     bool wildcards);

struct FmtArgs {
  bool pretty = false;
  bool compact = false;
  std::size_t indent = 2;
  std::optional<FileFormat> format;
  ReadOptions read;
  bool flush_each = false;
  std::string path = "-";
};
int run_fmt(const FmtArgs& args);

struct StatsArgs {
  bool header = false;              // --header: the first record is the names
  bool no_header = false;           // --no-header: it is data
  std::size_t sample_rows = 20480;  // --sample-rows: values a column's type is inferred from
  ReadOptions read;                 // --separator (default: inferred), --bytes, --encoding
  std::vector<std::string> paths;   // none: standard input
};
int run_stats(const StatsArgs& args);

struct CedictArgs {
  bool stats = false;  // `cedict stats`, else `cedict lookup`
  std::string dict;    // empty: the dictionary installed with bufstream
  std::vector<std::string> queries;
};
int run_cedict(const CedictArgs& args);

/// Prints a ParseError as compilers do: "PATH:LINE:COLUMN: error: MESSAGE".
void print_parse_error(const ParseError& error, const std::string& path);

class Input;
/// For the commands that read files one after another (check, get): opens each path (or
/// standard input for none) and calls `read(input, index)` on it; an invalid file's ParseError
/// is printed as an error line (status 1) and an I/O error as "bufstream: error: ..." (status
/// 2), after its input is closed, and the next file is read. Returns the worst status.
int read_each_input(const std::vector<std::string>& paths,
                    const std::function<void(Input&, std::size_t)>& read);

}  // namespace bufstream::cli
