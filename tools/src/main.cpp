// bufstream: check, convert and pretty-print CSV, JSON and STON files; look words up in the
// CC-CEDICT dictionary. The contract (exit codes, error lines) is in the README.
#include <csignal>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <bufstream/errors.hpp>

#include "command_line.hpp"
#include "commands.hpp"

#ifndef BUFSTREAM_VERSION
#define BUFSTREAM_VERSION "unknown"
#endif

namespace {

constexpr std::string_view usage = R"(usage: bufstream [--help] [--version] COMMAND [ARGS...]

Check, convert and pretty-print CSV, JSON and STON files, in constant memory.

Commands:
  check [--format F] [FILE...]              parse files completely; report the first error
  convert [--from F] [--to G] [IN [OUT]]     stream one format into another
  fmt [--pretty | --compact] [FILE]          rewrite JSON or STON in canonical layout
  cedict lookup [--dict FILE] QUERY...       look words up in CC-CEDICT
  cedict stats [--dict FILE]                 facts about the dictionary

Formats: json, jsonl, csv, tsv, ston (else taken from the file's extension).
A path of '-' or no path means standard input or output.
Compressed files: an input whose content is gzip or zstd is decompressed (whatever its name);
an output named *.gz or *.zst is compressed; data.csv.gz is CSV.
Exit status: 0 success, 1 invalid input, 2 usage or I/O error.
Run 'bufstream COMMAND --help' for a command's options.
)";

bool lost_data = false;

// The library's default would abort; the command reports the loss and exits with status 2.
void report_lost_data(std::string_view description) noexcept {
  std::fprintf(stderr, "bufstream: error: %.*s\n", static_cast<int>(description.size()),
               description.data());
  lost_data = true;
}

int dispatch(const std::string& command, std::span<const std::string> rest) {
  if (command == "check") return bufstream::cli::run_check(rest);
  if (command == "convert") return bufstream::cli::run_convert(rest);
  if (command == "fmt") return bufstream::cli::run_fmt(rest);
  if (command == "cedict") return bufstream::cli::run_cedict(rest);
  throw bufstream::cli::UsageError(fmt::format("unknown command '{}'", command));
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that goes away (`bufstream convert big.csv | head`) must give an I/O error
  // (EPIPE, exit 2), never death by signal. This is the program's own setting, not the
  // library's: the library never touches signal dispositions.
  std::signal(SIGPIPE, SIG_IGN);
  // An output beyond the file size limit (ulimit -f) must be a write error (EFBIG, exit 2),
  // after which the temporary file is removed, not death by signal, which would leave it.
  std::signal(SIGXFSZ, SIG_IGN);
  bufstream::set_lost_data_handler(&report_lost_data);

  const std::vector<std::string> args(argv + 1, argv + argc);
  std::string command = "bufstream";
  int status = 2;
  try {
    if (args.empty()) {
      std::fputs(usage.data(), stderr);
      return 2;
    }
    if (args[0] == "--help" || args[0] == "-h") {
      std::fputs(usage.data(), stdout);
      return 0;
    }
    if (args[0] == "--version") {
      std::printf("bufstream %s\n", BUFSTREAM_VERSION);
      return 0;
    }
    if (args[0].starts_with("-"))
      throw bufstream::cli::UsageError(fmt::format("unknown option '{}'", args[0]));
    command = "bufstream " + args[0];
    status = dispatch(args[0], std::span(args).subspan(1));
  } catch (const bufstream::cli::UsageError& e) {
    std::fprintf(stderr, "%s: %s\nTry '%s --help'.\n", command.c_str(), e.what(), command.c_str());
    status = 2;
  } catch (const bufstream::ParseError& e) {
    bufstream::cli::print_parse_error(e, e.source_name().empty() ? "<input>" : e.source_name());
    status = 1;
  } catch (const bufstream::IoError& e) {
    std::fprintf(stderr, "bufstream: error: %s\n", e.what());
    status = 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "bufstream: error: out of memory\n");
    status = 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bufstream: error: %s\n", e.what());
    status = 2;
  }
  return lost_data ? 2 : status;
}
