// bufstream check: parse each file completely and report the first error in each.
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <bufstream/csv/reader.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>

#include "commands.hpp"
#include "file_format.hpp"
#include "format_readers.hpp"
#include "io.hpp"

namespace bufstream::cli {

namespace {

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

void check_one(FileFormat format, const ReadOptions& read, Input& input) {
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
      csv::Reader reader(in, csv_reader_options(format, read, input.name()));
      while (reader.next() != nullptr) {
      }
      return;
    }
    case FileFormat::ston: {
      // At least one value: an empty input is an error, as in Pharo.
      ston::Reader reader(in, ston_reader_options(read, input.name()));
      do {
        ston::Document doc;  // one value at a time: memory stays proportional to one value
        reader.read(doc);
      } while (!reader.at_end());
      return;
    }
  }
}

}  // namespace

int run_check(const CheckArgs& args) {
  std::vector<std::string> paths = args.paths;
  if (paths.empty()) paths.push_back("-");
  int status = 0;
  for (const std::string& path : paths) {
    const FileFormat format = resolve_format(args.format, path, "--format");
    try {
      std::optional<ParseError> invalid;
      std::string name;
      {
        Input input(path);
        name = input.name();
        try {
          // With --bytes the input is not text: no byte-order mark unless --encoding.
          if (args.read.encoding || !args.read.bytes) input.read_as(args.read.encoding);
          check_one(format, args.read, input);
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
