// JSON reader: whatever the buffer size, a document reads to the same value or fails at the
// same byte as reading it straight from memory; whatever it accepts, the writer writes and the
// reader reads back equal (the round trip).
#include <cstdlib>
#include <optional>

#include <bufstream/errors.hpp>
#include <bufstream/json/reader.hpp>
#include <bufstream/json/writer.hpp>
#include <bufstream/string_write_stream.hpp>

#include "fuzz_support.hpp"

namespace {

struct Outcome {
  std::optional<nlohmann::json> value;
  std::uint64_t error_offset = 0;
};

Outcome read_all(bufstream::ReadStream& in) {
  using namespace bufstream;
  Outcome outcome;
  try {
    json::Reader reader(in, {.max_depth = 64});
    nlohmann::json values = nlohmann::json::array();
    while (!reader.at_end()) values.push_back(reader.read());
    outcome.value = std::move(values);
  } catch (const ParseError& e) {
    outcome.error_offset = e.offset();
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  fuzz::FuzzStream buffered(input);
  MemoryReadStream memory(input.document);
  const Outcome a = read_all(buffered.stream());
  const Outcome b = read_all(memory);
  if (a.value.has_value() != b.value.has_value()) std::abort();
  if (!a.value) {
    if (a.error_offset != b.error_offset) std::abort();
    return 0;
  }
  if (*a.value != *b.value) std::abort();

  // Round trip: write every value as JSON Lines, read back, compare.
  StringWriteStream text;
  json::Writer writer(text, {.json_lines = true});
  for (const auto& v : *a.value) writer.value(v);
  writer.finish();
  MemoryReadStream again(text.view());
  const Outcome c = read_all(again);
  if (!c.value || *c.value != *a.value) std::abort();
  return 0;
}
