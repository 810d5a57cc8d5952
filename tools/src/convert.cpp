// bufstream convert: stream one format into another in constant memory (per record or value;
// CSV with --typed is read whole into a csv::Table).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <CLI/Error.hpp>

#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/table.hpp>
#include <bufstream/csv/writer.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/json/select.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>

#include "commands.hpp"
#include "convert_parallel.hpp"
#include "csv_events.hpp"
#include "csv_records.hpp"
#include "event_writers.hpp"
#include "file_format.hpp"
#include "format_readers.hpp"
#include "io.hpp"
#include "ston_csv_rows.hpp"
#include "ston_json.hpp"

namespace bufstream::cli {

namespace {

struct Plan {
  FileFormat from;
  FileFormat to;
  const ConvertArgs& args;
  std::optional<json::Pointer> select;  // --select, parsed
};

// Conversions call `output.end_record()` after each CSV record, each element of a top-level
// JSON array, each JSON Lines value and each top-level STON value: the units a pipeline waits
// for (`--flush-each`).

bool is_csv(FileFormat f) { return f == FileFormat::csv || f == FileFormat::tsv; }
bool is_json(FileFormat f) { return f == FileFormat::json || f == FileFormat::jsonl; }

csv::WriteOptions csv_writer_options(const Plan& plan) {
  csv::WriteOptions options;
  options.separator = plan.to == FileFormat::tsv ? '\t' : ',';
  options.line_end = plan.args.lf ? bufstream::LineEnd::lf : bufstream::LineEnd::crlf;
  return options;
}

// JSON is indented with --pretty; JSON Lines never is (a value is a line).
json::WriteOptions json_write_options(const Plan& plan) {
  const bool lines = plan.to == FileFormat::jsonl;
  return {.indent = plan.args.pretty && !lines ? 2u : 0u, .json_lines = lines};
}

// ---- CSV in ------------------------------------------------------------------------------

// Emits the records as events: an array (or, for JSON Lines, one top-level value each) of
// objects keyed by the header, or of arrays with --no-header.
template <class Events>
void emit_csv(csv::Reader& reader, Events& events, Output& output, bool top_level_array,
              bool header, bool infer) {
  std::vector<std::string> names;
  if (top_level_array) events.begin_array();
  if (header) names = read_names(reader);
  while (const csv::Record* record = reader.next()) {
    emit_record(events, *record, header ? &names : nullptr, infer);
    output.end_record();
  }
  if (top_level_array) events.end_array();
}

// One value of a table: null where the field was empty.
template <class Events>
void emit_value(Events& events, const csv::TableColumn& column, std::size_t row) {
  if (!column.is_valid(row)) {
    events.null();
    return;
  }
  switch (column.type()) {
    case csv::ColumnType::boolean: events.boolean(column.as<bool>()[row]); return;
    case csv::ColumnType::int64: events.integer(column.as<std::int64_t>()[row]); return;
    case csv::ColumnType::float64: events.floating(column.as<double>()[row]); return;
    case csv::ColumnType::text: break;
  }
  events.string(column.as<std::string_view>()[row]);
}

// --typed: the rows of the table as objects keyed by the column names, in an array (or, for
// JSON Lines, one top-level value each).
template <class Events>
void emit_table(const csv::Table& table, Events& events, Output& output, bool top_level_array,
                const std::string& name) {
  const std::vector<std::string> names = table.names();
  if (const auto i = repeated_name(names)) {
    // The table keeps no field positions: the header, which is the first line.
    throw ParseError({0, 1, 1}, repeated_name_message(names[*i]), name);
  }
  if (top_level_array) events.begin_array();
  for (std::size_t row = 0; row < table.row_count(); ++row) {
    events.begin_object();
    for (const csv::TableColumn& column : table.columns()) {
      events.key(column.name());
      emit_value(events, column, row);
    }
    events.end_object();
    output.end_record();
  }
  if (top_level_array) events.end_array();
}

void convert_typed_csv(const Plan& plan, Input& input, Output& output) {
  csv::TableOptions options{.separator = plan.args.read.separator,
                            .validate_utf8 = true,
                            .source_name = input.name(),
                            .parallel = {.threads = jobs_threads(plan.args.jobs)}};
  if (plan.args.no_header) options.header = false;
  const csv::Table table = csv::Table::read(input.stream(), options);
  if (plan.to == FileFormat::ston) {
    ston::Writer writer(output.stream(), {.indent = plan.args.pretty ? 1U : 0U});
    StonEventWriter events(writer);
    emit_table(table, events, output, true, input.name());
    output.stream().lf();
    return;
  }
  const bool lines = plan.to == FileFormat::jsonl;
  json::Writer writer(output.stream(), json_write_options(plan));
  json::EventWriter events(writer);
  emit_table(table, events, output, !lines, input.name());
  writer.finish();
  if (!lines) output.stream().lf();
}

void convert_from_csv(const Plan& plan, Input& input, Output& output) {
  if (plan.args.typed) {
    convert_typed_csv(plan, input, output);
    return;
  }
  csv::ReadOptions options = csv_reader_options(plan.from, plan.args.read, input.name());
  csv::Reader reader(input.stream(), options);
  const bool header = !plan.args.no_header;
  const bool infer = plan.args.infer;
  switch (plan.to) {
    case FileFormat::json:
    case FileFormat::jsonl: {
      const bool lines = plan.to == FileFormat::jsonl;
      json::Writer writer(output.stream(), json_write_options(plan));
      json::EventWriter events(writer);
      emit_csv(reader, events, output, !lines, header, infer);
      writer.finish();
      if (!lines) output.stream().lf();
      return;
    }
    case FileFormat::ston: {
      ston::Writer writer(output.stream(), {.indent = plan.args.pretty ? 1U : 0U});
      StonEventWriter events(writer);
      emit_csv(reader, events, output, true, header, infer);
      output.stream().lf();
      return;
    }
    case FileFormat::csv:
    case FileFormat::tsv: {
      csv::Writer writer(output.stream(), csv_writer_options(plan));
      while (const csv::Record* record = reader.next()) {
        writer.record(record->fields());
        output.end_record();
      }
      return;
    }
  }
}

// ---- JSON in -----------------------------------------------------------------------------

// Rows from arrays or objects; the first row decides which, and with objects the header.
class CsvRowWriter {
 public:
  CsvRowWriter(json::Reader& reader, csv::Writer& writer)
      : reader_(reader),
        records_(
            writer, {.a_list = "an array", .a_map = "an object", .map = "object", .record = "row"},
            [this](const ShapeProblem& p) {
              if (p.at_record_start) fail_here(p.message);
              reader_.fail_at_token(p.key.empty() ? p.message
                                                  : fmt::format("key '{}' {}", p.key, p.message));
            }) {}

  void row() {
    const json::ValueType type = reader_.peek();
    if (type == json::ValueType::array) {
      records_.begin_list();
      reader_.begin_array();
      while (reader_.next_element()) records_.list_field(scalar_text());
      records_.end_list();
    } else if (type == json::ValueType::object) {
      records_.begin_map();
      reader_.begin_object();
      while (auto key = reader_.next_key()) {
        std::optional<std::string>& slot = records_.map_slot(*key);
        slot = scalar_text();
      }
      records_.end_map();
    } else {
      fail_here("expected an array or an object (one CSV record)");
    }
  }

 private:
  // An error at the value the reader has peeked at (not yet consumed).
  [[noreturn]] void fail_here(std::string message) {
    reader_.fail_at(reader_.position().offset, std::move(message));
  }

  // The text of the JSON scalar the reader is at, as one CSV field: strings as they are,
  // numbers exactly (integers digit for digit, doubles as the shortest round-trip text).
  std::string scalar_text() {
    switch (reader_.peek()) {
      case json::ValueType::string: return std::string(reader_.read_string());
      case json::ValueType::number: {
        const json::Number n = reader_.read_number();
        if (n.kind == json::Number::Kind::signed_integer) return std::to_string(n.i);
        if (n.kind == json::Number::Kind::unsigned_integer) return std::to_string(n.u);
        char buf[max_double_chars];
        return std::string(buf, format_double(buf, n.d));
      }
      case json::ValueType::boolean: return reader_.read_bool() ? "true" : "false";
      case json::ValueType::null:
        fail_here(
            "null cannot be written to CSV (it would be indistinguishable from an empty string)");
      case json::ValueType::array: fail_here("a nested array cannot be a CSV field");
      case json::ValueType::object: fail_here("a nested object cannot be a CSV field");
    }
    return {};
  }

  json::Reader& reader_;
  CsvRecords records_;
};

void convert_from_json(const Plan& plan, Input& input, Output& output) {
  json::Reader reader(input.stream(), {.source_name = input.name()});
  const bool lines_in = plan.from == FileFormat::jsonl;
  const std::optional<json::Pointer>& select = plan.select;
  // Calls `each` for every top-level unit: the values --select selects (in each value, for
  // jsonl), else the elements of the top-level array (json), or each value (jsonl).
  auto for_each_unit = [&](auto each) {
    if (select) {
      // The selected values of one value; a pointer without `*` stops reading after its one.
      const auto each_selected = [&] {
        json::Selection selection(reader, *select);
        while (selection.next()) {
          each();
          output.end_record();
        }
        return selection;
      };
      if (lines_in) {
        while (!reader.at_end()) each_selected().skip_rest();
      } else if (each_selected().pointer().has_wildcards()) {
        reader.finish();
      }
    } else if (lines_in) {
      while (!reader.at_end()) {
        each();
        output.end_record();
      }
    } else {
      if (reader.peek() != json::ValueType::array) {
        reader.fail_at(reader.position().offset,
                       "expected an array (its elements are the output's rows or lines)");
      }
      reader.begin_array();
      while (reader.next_element()) {
        each();
        output.end_record();
      }
      reader.finish();
    }
  };
  // Into one JSON or STON value: JSON Lines values and selected values become the elements
  // of an array, a top-level array's elements are copied one at a time, any other value whole.
  auto write_units = [&](auto& events) {
    if (lines_in || select) {
      events.begin_array();
      for_each_unit([&] { reader.parse(events); });
      events.end_array();
    } else {
      copy_by_elements(reader, events, [&] { output.end_record(); });
      reader.finish();
    }
  };
  switch (plan.to) {
    case FileFormat::csv:
    case FileFormat::tsv: {
      csv::Writer writer(output.stream(), csv_writer_options(plan));
      CsvRowWriter rows(reader, writer);
      for_each_unit([&] { rows.row(); });
      return;
    }
    case FileFormat::json: {
      json::Writer writer(output.stream(), json_write_options(plan));
      json::EventWriter events(writer);
      write_units(events);
      writer.finish();
      output.stream().lf();
      return;
    }
    case FileFormat::jsonl: {
      json::Writer writer(output.stream(), json_write_options(plan));
      json::EventWriter events(writer);
      for_each_unit([&] { reader.parse(events); });
      writer.finish();
      return;
    }
    case FileFormat::ston: {
      ston::Writer writer(output.stream(), {.indent = plan.args.pretty ? 1U : 0U});
      StonEventWriter events(writer);
      write_units(events);
      output.stream().lf();
      return;
    }
  }
}

// ---- STON in -----------------------------------------------------------------------------

void convert_from_ston(const Plan& plan, Input& input, Output& output) {
  ston::Reader reader(input.stream(), ston_reader_options(plan.args.read, input.name()));
  // Each top-level value is written on its own; a value that the target cannot hold is an
  // error at the start of the top-level value that holds it, naming the value.
  auto write_ston = [&](ston::Writer& writer, const ston::Value& v, const SourcePosition& start) {
    try {
      writer.write(v);
    } catch (const bufstream::UsageError& e) {
      throw ParseError(start, fmt::format("cannot convert this value: {}", e.what()), input.name());
    }
  };
  // Calls `each(value, start, first)` for every top-level value. An input with none (nothing
  // but whitespace) is an error, as in Pharo: "expected a value but found end of input".
  auto for_each_value = [&](auto each) {
    bool first = true;
    (void)reader.at_end();  // skips what comes before the first value, so `start` is where it is
    do {
      const SourcePosition start = reader.position();
      ston::Document doc;
      each(reader.read(doc), start, first);
      output.end_record();
      first = false;
    } while (!reader.at_end());
  };
  switch (plan.to) {
    case FileFormat::json:
    case FileFormat::jsonl: {
      // Through json::Writer, as from CSV and JSON: the same data gives the same bytes. As
      // JSON and JSON Lines turn into each other: several top-level values become one array
      // and one top-level list's elements become the lines.
      const bool lines = plan.to == FileFormat::jsonl;
      json::Writer writer(output.stream(), json_write_options(plan));
      StonJsonWriter values(writer, input.name());
      bool array = false;
      for_each_value([&](const ston::Value& v, const SourcePosition& start, bool first) {
        values.new_document();
        const bool only = first && reader.at_end();
        if (lines && only && v.is_list()) {
          for (const ston::Value& element : v.as_list()) {
            values.write(element, start);
            output.end_record();
          }
          return;
        }
        if (!lines && first && !only) {
          writer.begin_array();
          array = true;
        }
        values.write(v, start);
      });
      if (array) writer.end_array();
      writer.finish();
      if (!lines) output.stream().lf();
      return;
    }
    case FileFormat::ston: {
      ston::Writer writer(output.stream(), {.indent = plan.args.pretty ? 1U : 0U});
      for_each_value([&](const ston::Value& v, const SourcePosition& start, bool) {
        write_ston(writer, v, start);
      });
      output.stream().lf();
      return;
    }
    case FileFormat::csv:
    case FileFormat::tsv: {
      csv::Writer writer(output.stream(), csv_writer_options(plan));
      convert_ston_to_csv(reader, writer, input.name(), [&] { output.end_record(); });
      return;
    }
  }
}

// The combinations of options the conversion cannot do are usage errors.
void check_options(const Plan& plan) {
  const ConvertArgs& args = plan.args;
  if (!is_csv(plan.from) && (args.no_header || args.infer)) {
    throw CLI::ValidationError("--no-header and --infer apply to CSV input only");
  }
  if (!is_csv(plan.from) && args.typed) {
    throw CLI::ValidationError("--typed applies to CSV input only");
  }
  if (args.typed && args.infer) {
    throw CLI::ValidationError("--typed and --infer exclude each other");
  }
  if (args.typed && is_csv(plan.to)) {
    throw CLI::ValidationError("--typed applies to CSV converted to json, jsonl or ston");
  }
  if (args.read.bytes && !(is_csv(plan.from) && is_csv(plan.to))) {
    throw CLI::ValidationError(
        "--bytes applies to CSV to CSV only (JSON and STON hold text, which must be UTF-8)");
  }
  if ((args.output_encoding || args.bom) && !is_csv(plan.to)) {
    throw CLI::ValidationError(
        "--output-encoding and --bom apply to CSV and TSV output only (JSON and "
        "STON are written in UTF-8)");
  }
  if (args.select && !is_json(plan.from)) {
    throw CLI::ValidationError("--select applies to JSON and JSON Lines input only");
  }
  const Encoding out_encoding = args.output_encoding.value_or(Encoding::utf8);
  if (args.bom && byte_order_mark(out_encoding).empty()) {
    throw CLI::ValidationError(
        fmt::format("{} has no byte-order mark", encoding_name(out_encoding)));
  }
}

}  // namespace

int run_convert(const ConvertArgs& args) {
  const Plan plan{
      resolve_format(args.from, args.in, "--from"), resolve_format(args.to, args.out, "--to"), args,
      args.select ? std::optional(parse_pointer_argument(*args.select, "--select", true))
                  : std::nullopt};
  check_options(plan);
  const Encoding out_encoding = args.output_encoding.value_or(Encoding::utf8);
  // UTF-16 and UTF-32 always get their mark: without it a reader cannot tell their byte order.
  const bool bom =
      args.bom || (out_encoding != Encoding::utf8 && !byte_order_mark(out_encoding).empty());

  Input input(args.in);  // decompressed if it is compressed, whatever its name
  // With --bytes the input is not text: no byte-order mark is looked for unless --encoding.
  if (args.read.encoding || !args.read.bytes) input.read_as(args.read.encoding);
  Output output(args.out, args.flush_each);  // compressed for a .gz or .zst name
  if (args.output_encoding || bom) output.write_as(out_encoding, bom);
  const ParallelConversion parallel{plan.from,
                                    plan.to,
                                    args,
                                    csv_reader_options(plan.from, args.read, input.name()),
                                    csv_writer_options(plan),
                                    json_write_options(plan)};
  if (convert_in_parallel(parallel, input, output, jobs_threads(args.jobs))) {
    // read and written on several threads
  } else if (is_csv(plan.from)) {
    convert_from_csv(plan, input, output);
  } else if (is_json(plan.from)) {
    convert_from_json(plan, input, output);
  } else {
    convert_from_ston(plan, input, output);
  }
  output.finish();
  return 0;
}

}  // namespace bufstream::cli
