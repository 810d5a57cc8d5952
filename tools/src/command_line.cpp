#include "command_line.hpp"

#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "commands.hpp"

#ifndef BUFSTREAM_VERSION
#define BUFSTREAM_VERSION "unknown"
#endif

namespace bufstream::cli {

namespace {

// ---- Help texts: after the options, what the command does -----------------------------------

constexpr const char* root_footer =
    R"(Formats: json, jsonl, csv, tsv, ston (else taken from the file's extension).
A path of '-' or no path means standard input or output.
Compressed files: an input whose content is gzip or zstd is decompressed (whatever its name);
an output named *.gz or *.zst is compressed; data.csv.gz is CSV.
Exit status: 0 success, 1 invalid input, 2 usage or I/O error.
Run 'bufstream COMMAND --help' for a command's options.)";

constexpr const char* check_footer = R"(Each FILE is parsed completely, strictly:
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

Errors are printed as PATH:LINE:COLUMN: error: MESSAGE.
Exit status: 0 all valid, 1 some file is invalid, 2 usage or I/O error.)";

constexpr const char* convert_footer =
    R"(IN is streamed into OUT, from format F to format G (default: from the file extensions):
  csv/tsv -> json/jsonl/ston  the first record is the header; each further record becomes an
                              object of the field strings exactly as read (a STON map with
                              string keys; --no-header: arrays, STON lists, of strings)
  json/jsonl -> csv/tsv       an array of objects (header from the first object's keys; every
                              object must have the same keys) or an array of arrays; fields
                              are strings, numbers or booleans (null, arrays and objects are
                              errors: CSV cannot hold them)
  ston -> json/jsonl          symbols become strings, nil null, fractions floats; a value JSON
                              cannot hold (a tag, an association, NaN, a shared container) is
                              an error; written as JSON from CSV or JSON is, byte for byte;
                              several top-level values make one array, and one top-level
                              list's elements make the JSON Lines
  json/jsonl -> ston          always possible
  ston -> csv/tsv             STON to JSON, then JSON to CSV: one top-level list whose elements
                              are the records (or several top-level values, each a record);
                              integers are written digit for digit, whatever their size
  json <-> jsonl              an array's elements are the lines, and back

--typed (CSV input to json, jsonl or ston): the whole input is read into typed columns as
'bufstream stats' reads it (separator, header and column types inferred unless given, see
docs/CSV_TABLES.md); each row becomes an object keyed by the column names (column1, ... without
a header), each value an integer, a double, a boolean or a string as its column's type says, and
an empty field null. It holds the input in memory.

--select POINTER (JSON or JSON Lines input): the values the JSON Pointer selects, in document
order, take the place of the top-level array's elements: each becomes a line (jsonl), a record
(csv/tsv) or an element of the one array written (json, ston). `*` stands for every element or
member at its level ('/rows/*', '/data/*/items/*'); ~0 and ~1 stand for ~ and / in a name.
What is not selected is skipped, not kept: memory stays constant whatever the input's size. A
pointer without `*` selects at most one value and reading stops after it.

IN is decompressed when its content is gzip or zstd (whatever its name, standard input too);
OUT is compressed when its name ends in .gz (gzip) or .zst (zstd). The format is taken from the
name without that suffix (data.csv.gz is CSV). Encodings apply to the text: IN is decompressed,
then decoded; OUT is encoded, then compressed.

OUT, when it is a file, is written to a temporary file beside it and renamed over it only when
the whole conversion succeeded (a compressed OUT with its trailer written): on any error OUT
keeps its old content, and IN may be OUT. Corrupt or truncated compressed input is an error
(exit 1) with the compressed byte offset.)";

constexpr const char* get_footer =
    R"(Prints the value at POINTER (a JSON Pointer, RFC 6901: '/meta/version', '/rows/0'; ~0 and
~1 stand for ~ and / in a name) in each FILE (JSON, or JSON Lines: the value in each line), as
compact JSON on one line, or indented with --pretty. Reading stops at the value: what follows
it is not read. A gzip or zstd compressed input is decompressed first.
When a file has no such value, the reason is printed as PATH:LINE:COLUMN: error: MESSAGE, where
the document parted from the pointer, and the exit status is 1.)";

constexpr const char* fmt_footer =
    R"(Rewrites FILE (JSON, JSON Lines or STON; standard input if none, or '-') in the canonical
layout, on standard output:
  pretty (default)  JSON: one member or element per line, indented; STON: tabs, 'key : value'
  compact           no whitespace at all (JSON Lines is always one compact value per line)
A UTF-8 byte-order mark at the start of the input is skipped; an empty STON input is an error.
An input whose content is gzip or zstd compressed is decompressed first (whatever its name; the
format is taken from the name without .gz or .zst).)";

constexpr const char* stats_footer =
    R"(Each FILE is read as CSV into typed columns, as the library's csv::Table reads it: the
separator (',' ';' tab '|') and whether the first record is a header are inferred unless
given, and each column gets the narrowest of boolean, int64, double and text that its first
20,480 values fit; a later value that does not fit widens the column (int64 to double, else
to text) and is listed. Printed for each file: the dialect, then per column its type, the count
of values, of empty fields, and the least and greatest value (numbers by value, text by its
bytes). The rules are in docs/CSV_TABLES.md. The whole file is held in memory.
Errors are printed as PATH:LINE:COLUMN: error: MESSAGE (exit status 1).)";

constexpr const char* lookup_footer =
    R"(Matching entries are printed one per line, in CC-CEDICT's own format. A QUERY in Chinese
characters matches traditional or simplified headwords exactly; otherwise it matches pinyin
(tone numbers or marks optional, case and spaces ignored, u:/v/ü alike) and English words in
the glosses (whole words, case ignored).)";

constexpr const char* cedict_footer =
    "Run 'bufstream cedict COMMAND --help' for a command's options.";

constexpr const char* encodings =
    "utf-8, utf-16le, utf-16be, utf-32le,\n"
    "utf-32be, iso-8859-1 (latin1), windows-1252 (cp1252); default: what\n"
    "a byte-order mark says, else UTF-8";

// ---- How help looks, and options whose values are the library's types ----------------------

// CLI11's layout with the usage line first, as Unix tools print it, then the one-line
// description, the arguments, the options, the subcommands and the footer.
class HelpFormatter : public CLI::Formatter {
 public:
  HelpFormatter() {
    label("Usage", "usage");
    label("SUBCOMMAND", "COMMAND");
    label("Positionals", "Arguments");
    column_width(24);
  }

  std::string make_help(const CLI::App* app, std::string name,
                        CLI::AppFormatMode mode) const override {
    if (mode == CLI::AppFormatMode::Sub) return make_expanded(app);
    return make_usage(app, std::move(name)) + '\n' + make_description(app) + make_positionals(app) +
           make_groups(app, mode) + make_subcommands(app, mode) + '\n' + make_footer(app);
  }
};

// An option whose value `parse` turns into a T, as it is parsed; a value it does not take
// (std::nullopt) is a usage error, `complaint(value)`, which CLI11 prefixes with the option's
// name.
template <class T, class Parse, class Complaint>
CLI::Option* add_parsed_option(CLI::App& app, const std::string& names, std::optional<T>& target,
                               Parse parse, Complaint complaint, const std::string& description) {
  CLI::Option* option = app.add_option(names, description);
  option->each([&target, parse, complaint](const std::string& value) {
    target = parse(value);
    if (!target) throw CLI::ValidationError(complaint(value));
  });
  return option;
}

// --format, --from, --to: json, jsonl, csv, tsv or ston.
CLI::Option* add_format_option(CLI::App& app, const std::string& names,
                               std::optional<FileFormat>& format, const std::string& description) {
  const auto complaint = [](const std::string& value) {
    return fmt::format("unknown format '{}' (expected json, jsonl, csv, tsv or ston)", value);
  };
  return add_parsed_option(app, names, format, parse_format_name, complaint, description)
      ->type_name("F");
}

// One byte other than a quote or a line end; `tab` and `\t` name the tab.
std::optional<char> parse_separator(std::string_view s) {
  if (s == "\\t" || s == "tab") return '\t';
  if (s.size() != 1 || s == "\"" || s == "\r" || s == "\n") return std::nullopt;
  return s[0];
}

CLI::Option* add_separator_option(CLI::App& app, std::optional<char>& separator,
                                  const std::string& description) {
  const auto complaint = [](const std::string& value) {
    return fmt::format("the separator must be one byte other than a quote or a line end, not '{}'",
                       value);
  };
  return add_parsed_option(app, "-s,--separator", separator, parse_separator, complaint,
                           description)
      ->type_name("C");
}

// --encoding, --output-encoding: an encoding the library knows, by any of its names.
CLI::Option* add_encoding_option(CLI::App& app, const std::string& names,
                                 std::optional<Encoding>& encoding,
                                 const std::string& description) {
  const auto complaint = [](const std::string& value) {
    return fmt::format(
        "unknown encoding '{}' (utf-8, utf-16le, utf-16be, utf-32le, utf-32be, iso-8859-1 or "
        "latin1, windows-1252 or cp1252)",
        value);
  };
  return add_parsed_option(app, names, encoding, parse_encoding, complaint, description)
      ->type_name("E");
}

void add_help_flag(CLI::App& app) { app.set_help_flag("-h,--help", "show this help"); }

// A command (a subcommand of `parent`) whose options, those `define` adds and then --help, are
// added only when the command line names it, in CLI11's preparse callback, before the
// command's own words are parsed: start-up builds the options of the one command that runs,
// not of all of them. `parent` gets its own --help after its commands, which would inherit it.
CLI::App* add_command(CLI::App& parent, const std::string& name, const std::string& description,
                      const char* footer, std::function<void(CLI::App&)> define) {
  CLI::App* command = parent.add_subcommand(name, description);
  command->group("Commands");
  command->footer(footer);
  command->preparse_callback([command, define = std::move(define)](std::size_t) {
    define(*command);
    add_help_flag(*command);
  });
  return command;
}

// ---- The options of each command -------------------------------------------------------------

// -j N: how many threads read a CSV, TSV or JSON Lines file (a regular file, not compressed).
void add_jobs_option(CLI::App& app, unsigned& jobs) {
  app.add_option("-j,--jobs", jobs,
                 "threads that read a CSV, TSV or JSON Lines file (default: every core);\n"
                 "the output is the same whatever N")
      ->type_name("N")
      ->check(CLI::Range(1u, 1024u).description(""));
}

void define_check(CLI::App& app, CheckArgs& args) {
  app.add_option("FILE", args.paths, "the files (default: standard input, also named '-')")
      ->type_name("");
  add_format_option(app, "-f,--format", args.format,
                    "json, jsonl, csv, tsv or ston (default: from each file's extension)");
  add_separator_option(app, args.read.separator,
                       "CSV field separator (one byte; default ',' for csv, tab for tsv)");
  app.add_flag("--bytes", args.read.bytes, "CSV: fields may be any bytes, not only UTF-8 text");
  app.add_flag("--comments", args.read.comments, "STON: allow /* */ and // comments");
  add_jobs_option(app, args.jobs);
  add_encoding_option(app, "--encoding", args.read.encoding,
                      std::string("the files' text encoding: ") + encodings);
}

void define_convert(CLI::App& app, ConvertArgs& args) {
  app.add_option("IN", args.in, "the input (default: standard input, also named '-')")
      ->type_name("");
  app.add_option("OUT", args.out, "the output (default: standard output, also named '-')")
      ->type_name("");
  add_format_option(app, "--from", args.from, "input format");
  add_format_option(app, "--to", args.to, "output format")->type_name("G");
  app.add_flag("--pretty", args.pretty, "JSON: indented output; STON: pretty layout");
  app.add_flag("--no-header", args.no_header, "CSV input: records become arrays of strings");
  app.add_flag("--infer", args.infer,
               "CSV input: fields that are JSON numbers or true/false become\n"
               "numbers and booleans");
  app.add_flag("--typed", args.typed,
               "CSV input: read it whole as 'bufstream stats' does (dialect and\n"
               "column types inferred) and write typed values, null for empty\n"
               "fields");
  add_separator_option(app, args.read.separator,
                       "CSV input separator (default ',' for csv, tab for tsv; with\n"
                       "--typed: inferred)");
  app.add_flag("--bytes", args.read.bytes,
               "CSV to CSV: fields may be any bytes (default: they must be UTF-8)");
  app.add_flag("--lf", args.lf, "CSV output: end lines with LF (default CRLF, as RFC 4180 says)");
  app.add_flag("--comments", args.read.comments, "STON input: allow /* */ and // comments");
  add_jobs_option(app, args.jobs);
  app.add_flag("--flush-each", args.flush_each,
               "flush the output after each record or top-level value, so that a\n"
               "pipeline sees each one as it comes (default: when the buffer is full)");
  add_encoding_option(app, "--encoding", args.read.encoding,
                      std::string("the input's text encoding: ") + encodings);
  add_encoding_option(app, "--output-encoding", args.output_encoding,
                      "CSV/TSV output: write the text in E; UTF-16 and UTF-32 with their\n"
                      "byte-order mark (Excel's \"Unicode text\" is --to tsv\n"
                      "--output-encoding utf-16le)");
  app.add_option("--select", args.select,
                 "JSON input: convert the values the JSON Pointer POINTER selects\n"
                 "(`*`: every element or member there), not the top-level array's")
      ->type_name("POINTER");
  app.add_flag("--bom", args.bom,
               "CSV/TSV output: start with a byte-order mark (UTF-8 by default:\n"
               "what Excel needs to read a UTF-8 CSV file as UTF-8)");
}

void define_fmt(CLI::App& app, FmtArgs& args) {
  app.add_option("FILE", args.path, "the file (default: standard input, also named '-')")
      ->type_name("");
  app.add_flag("--pretty", args.pretty, "pretty layout (the default)");
  app.add_flag("--compact", args.compact, "compact layout");
  app.add_option("--indent", args.indent, "JSON: spaces per level in the pretty layout (default 2)")
      ->type_name("N")
      ->check(CLI::Range(0, std::numeric_limits<int>::max()).description(""));
  add_format_option(app, "-f,--format", args.format,
                    "json, jsonl or ston (default: from the file's extension)");
  app.add_flag("--comments", args.read.comments, "STON: allow /* */ and // comments in the input");
  app.add_flag("--flush-each", args.flush_each,
               "flush the output after each top-level value, JSON Lines line or\n"
               "element of a top-level array, for pipelines (default: when the\n"
               "buffer is full)");
}

void define_get(CLI::App& app, GetArgs& args) {
  app.add_option("POINTER", args.pointer, "a JSON Pointer, without '*'")->required()->type_name("");
  app.add_option("FILE", args.paths, "the files (default: standard input, also named '-')")
      ->type_name("");
  app.add_flag("--pretty", args.pretty, "indented output");
  add_format_option(app, "-f,--format", args.format,
                    "json or jsonl (default: from each file's extension)");
  add_encoding_option(app, "--encoding", args.encoding,
                      std::string("the files' text encoding: ") + encodings);
  app.add_flag("--flush-each", args.flush_each, "flush the output after each value, for pipelines");
}

void define_stats(CLI::App& app, StatsArgs& args) {
  app.add_option("FILE", args.paths, "the CSV files (default: standard input, also named '-')")
      ->type_name("");
  add_separator_option(app, args.read.separator,
                       "the field separator (one byte; default: inferred among\n"
                       "',' ';' tab '|')");
  app.add_flag("--header", args.header, "the first record is the column names");
  app.add_flag("--no-header", args.no_header, "the first record is data (default: inferred)");
  app.add_option("--sample-rows", args.sample_rows,
                 "the values a column's type is inferred from (default 20480;\n"
                 "0: every value)")
      ->type_name("N");
  app.add_flag("--bytes", args.read.bytes, "fields may be any bytes, not only UTF-8 text");
  add_encoding_option(app, "--encoding", args.read.encoding,
                      std::string("the files' text encoding: ") + encodings);
}

void define_dictionary(CLI::App& app, CedictArgs& args) {
  app.add_option("-d,--dict", args.dict,
                 "the dictionary (default: the one installed with bufstream);\n"
                 "a gzip or zstd compressed one is decompressed as it loads")
      ->type_name("FILE");
}

// `cedict lookup` and `cedict stats`: `run` becomes the one named (until then, an error).
void define_cedict(CLI::App& app, CedictArgs& args, std::function<int()>& run) {
  app.require_subcommand(0, 1);  // once one is named, "stats" can be a query of "lookup"
  run = []() -> int { throw CLI::ValidationError("expected 'lookup' or 'stats'"); };
  add_command(
      app, "lookup", "print the entries that match each QUERY", lookup_footer,
      [&args, &run](CLI::App& lookup) {
        lookup.add_option("QUERY", args.queries, "a word: Chinese characters, pinyin or English")
            ->required()
            ->type_name("");
        define_dictionary(lookup, args);
        run = [&args] { return run_cedict(args); };
      });
  add_command(app, "stats", "the entry count and other facts about the dictionary", "",
              [&args, &run](CLI::App& stats) {
                define_dictionary(stats, args);
                args.stats = true;
                run = [&args] { return run_cedict(args); };
              });
}

// "bufstream" and the commands the command line named, as far as it was parsed: what a usage
// error and its hint to --help name.
std::string command_name(const CLI::App& app) {
  std::string name = app.get_name();
  for (const CLI::App* command = &app; !command->get_subcommands().empty();) {
    command = command->get_subcommands().front();
    name += ' ' + command->get_name();
  }
  return name;
}

}  // namespace

int run_command_line(int argc, const char* const* argv) {
  CLI::App app("Check, convert and pretty-print CSV, JSON and STON files, in constant memory.",
               "bufstream");
  app.formatter(std::make_shared<HelpFormatter>());
  app.footer(root_footer);
  app.set_help_flag();  // until the commands are added
  app.set_version_flag("--version", "bufstream " BUFSTREAM_VERSION, "show the version");
  // An option given twice takes its last value, as in most Unix tools. At most one command is
  // named: a path or a query after it may be named like another one.
  app.option_defaults()->take_last();
  app.require_subcommand(0, 1);

  // The arguments of every command; the one the command line names is read and run.
  CheckArgs check;
  ConvertArgs convert;
  FmtArgs fmt;
  GetArgs get;
  StatsArgs stats;
  CedictArgs cedict;
  std::function<int()> run;
  add_command(app, "check", "parse files completely; report the first error", check_footer,
              [&](CLI::App& command) {
                define_check(command, check);
                run = [&] { return run_check(check); };
              });
  add_command(app, "convert", "stream one format into another", convert_footer,
              [&](CLI::App& command) {
                define_convert(command, convert);
                run = [&] { return run_convert(convert); };
              });
  add_command(app, "fmt", "rewrite JSON or STON in canonical layout", fmt_footer,
              [&](CLI::App& command) {
                define_fmt(command, fmt);
                run = [&] { return run_fmt(fmt); };
              });
  add_command(app, "get", "print the value at a JSON Pointer", get_footer, [&](CLI::App& command) {
    define_get(command, get);
    run = [&] { return run_get(get); };
  });
  add_command(app, "stats", "CSV columns' inferred types, counts, least and greatest values",
              stats_footer, [&](CLI::App& command) {
                define_stats(command, stats);
                run = [&] { return run_stats(stats); };
              });
  add_command(app, "cedict", "look words up in CC-CEDICT, and facts about it", cedict_footer,
              [&](CLI::App& command) { define_cedict(command, cedict, run); });
  add_help_flag(app);

  try {
    app.parse(argc, argv);
    if (!run) {  // no command
      std::fputs(app.help().c_str(), stderr);
      return 2;
    }
    return run();
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::CallForVersion& e) {
    std::printf("%s\n", e.what());
    return 0;
  } catch (const CLI::ParseError& e) {
    const std::string name = command_name(app);
    std::fprintf(stderr, "%s: %s\nTry '%s --help'.\n", name.c_str(), e.what(), name.c_str());
    return 2;
  }
}

}  // namespace bufstream::cli
