// bufstream get: the one value at a JSON Pointer in each file, printed as JSON. The reader
// stops at the value: what follows it is not read (a huge file costs its bytes up to there).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <CLI/Error.hpp>

#include <bufstream/json/reader.hpp>
#include <bufstream/json/select.hpp>
#include <bufstream/json/writer.hpp>

#include "commands.hpp"
#include "file_format.hpp"
#include "io.hpp"

namespace bufstream::cli {

json::Pointer parse_pointer_argument(const std::string& text, std::string_view what,
                                     bool wildcards) {
  std::optional<json::Pointer> pointer;
  try {
    pointer.emplace(text);
  } catch (const UsageError& e) {
    throw CLI::ValidationError(std::string(what), e.what());
  }
  if (!wildcards && pointer->has_wildcards()) {
    throw CLI::ValidationError(
        std::string(what),
        "'" + text + "' has a '*', which selects many values (convert --select takes those)");
  }
  return *std::move(pointer);
}

namespace {

// Writes the value at the reader, one line (indented over several with --pretty).
void print_value(json::Reader& reader, Output& output, bool pretty) {
  json::Writer writer(output.stream(), {.indent = pretty ? 2U : 0U});
  json::EventWriter events(writer);
  reader.parse(events);
  writer.finish();
  output.stream().lf();
  output.end_record();
}

// The value at `pointer` in each value of the input (one for JSON, one per line for JSON
// Lines).
void get_from(Input& input, FileFormat format, const json::Pointer& pointer, Output& output,
              bool pretty) {
  json::Reader reader(input.stream(), {.source_name = input.name()});
  if (format == FileFormat::json) {
    json::seek(reader, pointer);
    print_value(reader, output, pretty);
    return;
  }
  while (!reader.at_end()) {
    json::Selection at = json::seek(reader, pointer);
    print_value(reader, output, pretty);
    at.skip_rest();  // on to the next line's value
  }
}

}  // namespace

int run_get(const GetArgs& args) {
  const json::Pointer pointer = parse_pointer_argument(args.pointer, "POINTER", false);
  std::vector<FileFormat> formats;  // each file's, told before any is read
  for (const std::string& path : args.paths.empty() ? std::vector<std::string>{"-"} : args.paths) {
    formats.push_back(resolve_format(args.format, path, "--format"));
    if (formats.back() != FileFormat::json && formats.back() != FileFormat::jsonl)
      throw CLI::ValidationError("get reads json and jsonl, not " + path);
  }
  Output output("-", args.flush_each);
  const int status = read_each_input(args.paths, [&](Input& input, std::size_t i) {
    input.read_as(args.encoding);
    try {
      get_from(input, formats[i], pointer, output, args.pretty);
    } catch (const ParseError&) {
      output.stream().flush();  // what was found comes before the error line
      throw;
    }
  });
  output.finish();
  return status;
}

}  // namespace bufstream::cli
