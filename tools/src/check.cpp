// bufstream check: parse each file completely and report the first error in each.
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <bufstream/csv/parallel.hpp>
#include <bufstream/csv/reader.hpp>
#include <bufstream/json/parallel.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/ston/document.hpp>
#include <bufstream/ston/reader.hpp>

#include "commands.hpp"
#include "file_format.hpp"
#include "format_readers.hpp"
#include "io.hpp"

namespace bufstream::cli {

namespace {

void check_jsonl_values(json::Reader& reader, const std::string& name) {
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

void check_jsonl(ReadStream& in, const std::string& name) {
  json::Reader reader(in, {.source_name = name});
  check_jsonl_values(reader, name);
}

// A CSV, TSV or JSON Lines file read on `threads` threads (the same errors as one reader);
// false when the input is not one that can be (then it is read as before).
bool check_in_parallel(FileFormat format, const ReadOptions& read, Input& input, unsigned threads) {
  const std::optional<std::string> path = input.parallel_path();
  if (threads < 2 || !path || format == FileFormat::json || format == FileFormat::ston) {
    return false;
  }
  const std::unique_ptr<ProgressLine> progress = input.parallel_progress();
  const auto taken = [&progress](int, const Chunk& chunk) {
    if (progress) progress->advance(chunk.bytes.size());
  };
  const ParallelOptions parallel{.threads = threads};
  if (format == FileFormat::jsonl) {
    json::read_lines_chunks(
        *path, {.read = {.source_name = input.name()}, .parallel = parallel},
        [&input](json::Reader& reader, const Chunk&) {
          check_jsonl_values(reader, input.name());
          return 0;
        },
        taken);
    return true;
  }
  csv::read_chunks(
      *path, {.read = csv_reader_options(format, read, input.name()), .parallel = parallel},
      [](csv::Reader& reader, const Chunk&) {
        while (reader.next() != nullptr) {
        }
        return 0;
      },
      taken);
  return true;
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
  std::vector<FileFormat> formats;  // each file's, told before any is read
  for (const std::string& path : args.paths.empty() ? std::vector<std::string>{"-"} : args.paths)
    formats.push_back(resolve_format(args.format, path, "--format"));
  return read_each_input(args.paths, [&](Input& input, std::size_t i) {
    // With --bytes the input is not text: no byte-order mark unless --encoding.
    if (args.read.encoding || !args.read.bytes) input.read_as(args.read.encoding);
    if (!check_in_parallel(formats[i], args.read, input, jobs_threads(args.jobs)))
      check_one(formats[i], args.read, input);
  });
}

}  // namespace bufstream::cli
