// bufstream fmt: rewrite JSON or STON in the library's canonical compact or pretty layout.
#include <cstdio>
#include <string>

#include <fmt/format.h>

#include <bufstream/json/reader.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>

#include "command_line.hpp"
#include "commands.hpp"
#include "event_writers.hpp"
#include "file_format.hpp"
#include "format_readers.hpp"
#include "io.hpp"

namespace bufstream::cli {

namespace {

constexpr std::string_view help =
    R"(usage: bufstream fmt [--pretty | --compact] [--indent N] [--format F] [FILE]

Rewrite a JSON, JSON Lines or STON file (standard input if none, or '-') in the canonical
layout, on standard output.
  pretty (default)  JSON: one member or element per line, indented; STON: tabs, 'key : value'
  compact           no whitespace at all (JSON Lines is always one compact value per line)

Options:
      --pretty        pretty layout (the default)
      --compact       compact layout
      --indent N      JSON: spaces per level in the pretty layout (default 2)
  -f, --format F      json, jsonl or ston (default: from the file's extension)
      --comments      STON: allow /* */ and // comments in the input
      --flush-each    flush the output after each top-level value, JSON Lines line or element
                      of a top-level array, for pipelines (default: when the buffer is full)
  -h, --help          show this help

A UTF-8 byte-order mark at the start of the input is skipped; an empty STON input is an error.
An input whose content is gzip or zstd compressed is decompressed first (whatever its name; the
format is taken from the name without .gz or .zst).
)";

}  // namespace

int run_fmt(std::span<const std::string> argv) {
  const ParsedArgs args = parse_args(argv, {{"pretty", 0, false},
                                            {"compact", 0, false},
                                            {"indent", 0, true},
                                            {"format", 'f', true},
                                            {"comments", 0, false},
                                            {"flush-each", 0, false}});
  if (args.has("help")) {
    std::fputs(help.data(), stdout);
    return 0;
  }
  if (args.has("pretty") && args.has("compact"))
    throw UsageError("--pretty and --compact exclude each other");
  if (args.positional().size() > 1) throw UsageError("fmt takes at most one file");
  const std::string path = args.positional().empty() ? "-" : args.positional()[0];
  const FileFormat format = resolve_format(args.value("format"), path, "format");
  const bool pretty = !args.has("compact");
  std::size_t indent = 2;
  if (auto n = args.value("indent")) {
    try {
      indent = static_cast<std::size_t>(std::stoul(*n));
    } catch (const std::exception&) {
      throw UsageError(fmt::format("--indent needs a number, not '{}'", *n));
    }
  }

  Input input(path);  // decompressed if it is compressed, whatever its name
  Output output("-", args.has("flush-each"));
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
      ston::Reader reader(input.stream(), ston_reader_options(args, input.name()));
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
      throw UsageError("fmt rewrites json, jsonl and ston; for CSV use 'bufstream convert'");
  }
  output.finish();
  return 0;
}

}  // namespace bufstream::cli
