// CSV reader, strict and lenient: the same records (or the same error offset) whatever the
// buffer size; whatever it reads, the writer writes and the reader reads back equal.
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <bufstream/csv/reader.hpp>
#include <bufstream/csv/writer.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/string_write_stream.hpp>

#include "fuzz_support.hpp"

namespace {

using Records = std::vector<std::vector<std::string>>;

struct Outcome {
  std::optional<Records> records;
  std::uint64_t error_offset = 0;
};

Outcome read_all(bufstream::ReadStream& in, const bufstream::csv::ReaderOptions& options) {
  Outcome outcome;
  try {
    bufstream::csv::Reader reader(in, options);
    outcome.records = reader.read_all();
  } catch (const bufstream::ParseError& e) {
    outcome.error_offset = e.offset();
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  // The selector byte also picks the dialect: strict or lenient, comma or semicolon.
  const std::uint8_t selector = size > 0 ? data[0] : 0;
  csv::ReaderOptions options;
  options.lazy_quotes = (selector & 1) != 0;
  options.variable_field_count = (selector & 1) != 0;
  options.separator = (selector & 2) != 0 ? ';' : ',';

  fuzz::FuzzStream buffered(input);
  MemoryReadStream memory(input.document);
  const Outcome a = read_all(buffered.stream(), options);
  const Outcome b = read_all(memory, options);
  if (a.records.has_value() != b.records.has_value()) std::abort();
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
  csv::ReaderOptions strict_any_width;
  strict_any_width.separator = options.separator;
  strict_any_width.variable_field_count = true;
  strict_any_width.skip_bom = false;  // a first field that starts with a BOM must stay
  const Outcome c = read_all(again, strict_any_width);
  if (!c.records || *c.records != *a.records) std::abort();
  return 0;
}
