// bufstream fmt: rewrite JSON or STON in the library's canonical compact or pretty layout.
#include <string>

#include <CLI/Error.hpp>

#include <bufstream/json/reader.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>

#include "commands.hpp"
#include "event_writers.hpp"
#include "file_format.hpp"
#include "format_readers.hpp"
#include "io.hpp"

namespace bufstream::cli {

int run_fmt(const FmtArgs& args) {
  if (args.pretty && args.compact)
    throw CLI::ValidationError("--pretty and --compact exclude each other");
  const FileFormat format = resolve_format(args.format, args.path, "--format");
  const bool pretty = !args.compact;
  const std::size_t indent = args.indent;

  Input input(args.path);  // decompressed if it is compressed, whatever its name
  Output output("-", args.flush_each);
  switch (format) {
    case FileFormat::json: {
      json::Reader reader(input.stream(), {.source_name = input.name()});
      json::Writer writer(output.stream(), {.indent = pretty ? indent : 0});
      json::EventWriter events(writer);
      copy_by_elements(reader, events, [&] { output.end_record(); });
      reader.finish();
      writer.finish();
      output.stream().lf();
      break;
    }
    case FileFormat::jsonl: {
      json::Reader reader(input.stream(), {.source_name = input.name()});
      json::Writer writer(output.stream(), {.json_lines = true});
      json::EventWriter events(writer);
      while (!reader.at_end()) {
        reader.parse(events);
        output.end_record();
      }
      writer.finish();
      break;
    }
    case FileFormat::ston: {
      ston::Reader reader(input.stream(), ston_reader_options(args.read, input.name()));
      ston::Writer writer(output.stream(), {.indent = pretty ? 1U : 0U});
      do {  // at least one value: an empty input is an error, as in Pharo
        ston::Document doc;
        writer.write(reader.read(doc));
        output.end_record();
      } while (!reader.at_end());
      output.stream().lf();
      break;
    }
    case FileFormat::csv:
    case FileFormat::tsv:
      throw CLI::ValidationError(
          "fmt rewrites json, jsonl and ston; for CSV use 'bufstream convert'");
  }
  output.finish();
  return 0;
}

}  // namespace bufstream::cli
