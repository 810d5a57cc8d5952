// CSV reader, strict and lenient: the same records (or the same error offset) whatever the
// buffer size; whatever it reads, the writer writes and the reader reads back equal. Typed
// rows (string, double, integer) are the same whatever the buffer size, and their numbers
// are what parse_double and parse_integer make of the fields. A csv::Table (types inferred
// from a sample of two rows, so that widenings happen) is the same read on one thread as in
// small chunks on three, from a stream of the chosen buffer size: columns, values,
// widenings and error message.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/row_reader.hpp>
#include <bufstream/csv/table.hpp>
#include <bufstream/csv/writer.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/numbers.hpp>
#include <bufstream/string_write_stream.hpp>

#include "fuzz_support.hpp"

namespace {

using Records = std::vector<std::vector<std::string>>;

struct Outcome {
  std::optional<Records> records;
  std::uint64_t error_offset = 0;
};

Outcome read_all(bufstream::ReadStream& in, const bufstream::csv::ReadOptions& options) {
  Outcome outcome;
  try {
    bufstream::csv::Reader reader(in, options);
    outcome.records = reader.read_all();
  } catch (const bufstream::ParseError& e) {
    outcome.error_offset = e.offset();
  }
  return outcome;
}

using Row = std::tuple<std::string, double, std::int64_t>;

struct TypedOutcome {
  std::optional<std::vector<Row>> rows;
  std::uint64_t error_offset = 0;
};

TypedOutcome read_typed(bufstream::ReadStream& in, const bufstream::csv::ReadOptions& options) {
  TypedOutcome outcome;
  try {
    bufstream::csv::Reader reader(in, options);
    outcome.rows = bufstream::csv::read_rows<Row>(reader);
  } catch (const bufstream::ParseError& e) {
    outcome.error_offset = e.offset();
  }
  return outcome;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

bool same_row(const Row& a, const Row& b) {
  return std::get<0>(a) == std::get<0>(b) && same_bits(std::get<1>(a), std::get<1>(b)) &&
         std::get<2>(a) == std::get<2>(b);
}

void check_typed(const bufstream::fuzz::FuzzInput& input,
                 const bufstream::csv::ReadOptions& options,
                 const std::optional<Records>& records) {
  using namespace bufstream;
  fuzz::FuzzStream buffered(input);
  MemoryReadStream memory(input.document);
  const TypedOutcome a = read_typed(buffered.stream(), options);
  const TypedOutcome b = read_typed(memory, options);
  if (a.rows.has_value() != b.rows.has_value()) std::abort();
  if (!a.rows) {
    if (a.error_offset != b.error_offset) std::abort();
    return;
  }
  if (a.rows->size() != b.rows->size() || !records || records->size() != a.rows->size())
    std::abort();
  for (std::size_t i = 0; i < a.rows->size(); ++i) {
    const Row& row = (*a.rows)[i];
    if (!same_row(row, (*b.rows)[i])) std::abort();
    const auto& fields = (*records)[i];
    if (fields.size() != 3 || fields[0] != std::get<0>(row)) std::abort();
    if (auto d = parse_double(fields[1]); d && !same_bits(*d, std::get<1>(row))) std::abort();
    if (auto n = parse_integer<std::int64_t>(fields[2]); !n || *n != std::get<2>(row)) std::abort();
  }
}

// A table as text: each column's name, type and values as written back, the widenings; or
// the error's message.
std::string describe_table(bufstream::ReadStream& in, const bufstream::csv::TableOptions& options) {
  using namespace bufstream;
  std::string out;
  try {
    const csv::Table table = csv::Table::read(in, options);
    for (const csv::TableColumn& column : table.columns()) {
      out += column.name() + ":" + std::string(csv::to_string(column.type())) + "\n";
      for (std::size_t i = 0; i < column.size(); ++i)
        out += column.is_valid(i)
                   ? std::to_string(column.text_of(i).size()) + ":" + column.text_of(i)
                   : "-";
      out += "\n";
    }
    for (const csv::Widening& w : table.widenings()) {
      out += std::to_string(w.column) + " " + std::to_string(w.row) + " " + std::to_string(w.line) +
             " " + w.value + "\n";
    }
  } catch (const ParseError& e) {
    out = std::string("error: ") + e.what();
  } catch (const UsageError& e) {
    out = std::string("usage: ") + e.what();
  }
  return out;
}

void check_table(const bufstream::fuzz::FuzzInput& input, const bufstream::csv::ReadOptions& read) {
  using namespace bufstream;
  csv::TableOptions one{.separator = read.separator,
                        .sample_rows = 2,
                        .lazy_quotes = read.lazy_quotes,
                        .variable_field_count = read.variable_field_count,
                        .parallel = {.threads = 1}};
  MemoryReadStream memory(input.document);
  const std::string expected = describe_table(memory, one);
  csv::TableOptions many = one;
  many.parallel = {.threads = 3, .chunk_size = 1 + input.document.size() % 13};
  fuzz::FuzzStream buffered(input);
  if (describe_table(buffered.stream(), many) != expected) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  // The selector byte also picks the dialect: strict or lenient, comma or semicolon.
  const std::uint8_t selector = size > 0 ? data[0] : 0;
  csv::ReadOptions options;
  options.lazy_quotes = (selector & 1) != 0;
  options.variable_field_count = (selector & 1) != 0;
  options.separator = (selector & 2) != 0 ? ';' : ',';

  fuzz::FuzzStream buffered(input);
  MemoryReadStream memory(input.document);
  const Outcome a = read_all(buffered.stream(), options);
  const Outcome b = read_all(memory, options);
  if (a.records.has_value() != b.records.has_value()) std::abort();
  check_typed(input, options, a.records);
  check_table(input, options);
  if (!a.records) {
    if (a.error_offset != b.error_offset) std::abort();
    return 0;
  }
  if (*a.records != *b.records) std::abort();

  StringWriteStream text;
  csv::Writer writer(text, {.separator = options.separator});
  for (const auto& record : *a.records) writer.record(record);
  writer.flush();
  MemoryReadStream again(text.view());
  csv::ReadOptions strict_any_width;
  strict_any_width.separator = options.separator;
  strict_any_width.variable_field_count = true;
  strict_any_width.skip_bom = false;  // a first field that starts with a BOM must stay
  const Outcome c = read_all(again, strict_any_width);
  if (!c.records || *c.records != *a.records) std::abort();
  return 0;
}
