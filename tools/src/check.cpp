// bufstream check: parse each file completely and report the first error in each.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include <bufstream/csv/reader.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>

#include "command_line.hpp"
#include "commands.hpp"
#include "file_format.hpp"
#include "format_readers.hpp"
#include "io.hpp"

namespace bufstream::cli {

namespace {

constexpr std::string_view help =
    R"(usage: bufstream check [--format F] [--separator C] [--comments] [--encoding E] [FILE...]

Parse each FILE completely (standard input if none, or '-'), strictly:
  json   RFC 8259: one value, nothing after it but whitespace
  jsonl  one JSON value per line
  csv    RFC 4180: quotes closed, no bare quote in an unquoted field, nothing but a separator
         or line end after a closing quote, the same number of fields in every record;
         every field UTF-8 (unless --bytes)
  tsv    the same, with tabs
  ston   the STON grammar (at least one value); every @N reference must point to an object
         that exists
A byte-order mark at the start of a file is skipped (UTF-16 and UTF-32 are read as it says).
A file whose content is gzip or zstd compressed is decompressed first (whatever its name; the
format is taken from the name without .gz or .zst); corrupt or truncated compressed data is
invalid input, reported with its compressed byte offset.

Options:
  -f, --format F      json, jsonl, csv, tsv or ston (default: from each file's extension)
  -s, --separator C   CSV field separator (one byte; default ',' for csv, tab for tsv)
      --bytes         CSV: fields may be any bytes, not only UTF-8 text
      --comments      STON: allow /* */ and // comments
      --encoding E    the files' text encoding: utf-8, utf-16le, utf-16be, utf-32le,
                      utf-32be, iso-8859-1 (latin1), windows-1252 (cp1252); default: what a
                      byte-order mark says, else UTF-8
  -h, --help          show this help

Errors are printed as PATH:LINE:COLUMN: error: MESSAGE.
Exit status: 0 all valid, 1 some file is invalid, 2 usage or I/O error.
)";

void check_jsonl(ReadStream& in, const std::string& name) {
  json::Reader reader(in, {.source_name = name});
  // at_end() skips the whitespace before a value, so position() is then where it starts.
  while (!reader.at_end()) {
    const SourcePosition start = reader.position();
    reader.skip_value();
    const std::uint64_t end_line = reader.position().line;
    if (end_line != start.line)
      throw ParseError(start, "a JSON Lines value must be on one line", name);
    if (!reader.at_end() && reader.position().line == end_line) {
      throw ParseError(reader.position(), "expected a line end after the value (JSON Lines)", name);
    }
  }
}

void check_one(FileFormat format, const ParsedArgs& args, Input& input) {
  ReadStream& in = input.stream();
  switch (format) {
    case FileFormat::json: {
      json::Reader reader(in, {.source_name = input.name()});
      reader.skip_value();
      reader.finish();
      return;
    }
    case FileFormat::jsonl: check_jsonl(in, input.name()); return;
    case FileFormat::csv:
    case FileFormat::tsv: {
      csv::Reader reader(in, csv_reader_options(format, args, input.name()));
      while (reader.next() != nullptr) {
      }
      return;
    }
    case FileFormat::ston: {
      // At least one value: an empty input is an error, as in Pharo.
      ston::Reader reader(in, ston_reader_options(args, input.name()));
      do {
        ston::Document doc;  // one value at a time: memory stays proportional to one value
        reader.read(doc);
      } while (!reader.at_end());
      return;
    }
  }
}

}  // namespace

int run_check(std::span<const std::string> argv) {
  const ParsedArgs args = parse_args(argv, {{"format", 'f', true},
                                            {"separator", 's', true},
                                            {"bytes", 0, false},
                                            {"comments", 0, false},
                                            {"encoding", 0, true}});
  if (args.has("help")) {
    std::fputs(help.data(), stdout);
    return 0;
  }
  const std::optional<Encoding> encoding = encoding_option(args, "encoding");
  std::vector<std::string> paths = args.positional();
  if (paths.empty()) paths.push_back("-");
  int status = 0;
  for (const std::string& path : paths) {
    const FileFormat format = resolve_format(args.value("format"), path, "format");
    try {
      std::optional<ParseError> invalid;
      std::string name;
      {
        Input input(path);
        name = input.name();
        try {
          if (encoding || !args.has("bytes")) input.read_as(encoding);  // bytes: no mark
          check_one(format, args, input);
        } catch (const ParseError& e) {
          invalid = e;
        }
      }  // closing the input erases its progress line, which the error line must not follow
      if (invalid) {
        print_parse_error(*invalid, name);
        status = std::max(status, 1);
      }
    } catch (const IoError& e) {
      std::fprintf(stderr, "bufstream: error: %s\n", e.what());
      status = 2;
    }
  }
  return status;
}

}  // namespace bufstream::cli
