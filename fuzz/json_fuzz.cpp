// JSON reader: whatever the buffer size, a document reads to the same value or fails at the
// same byte as reading it straight from memory; whatever it accepts, the writer writes and the
// reader reads back equal (the round trip). Typed reading of number arrays (whose fast paths
// read whole words from the window) agrees with the DOM reader's general path. A json::Document
// of the input agrees with the event reader.
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/json.hpp>
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

// The DOM's numbers as T, or nothing when `dom` is not an array of numbers that T holds.
template <class T>
std::optional<std::vector<T>> numbers_as(const nlohmann::json& dom) {
  if (!dom.is_array()) return std::nullopt;
  std::vector<T> out;
  for (const auto& e : dom) {
    if constexpr (std::is_floating_point_v<T>) {
      if (!e.is_number()) return std::nullopt;
      out.push_back(e.get<double>());
    } else if (e.is_number_unsigned()) {
      const auto u = e.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
      out.push_back(static_cast<T>(u));
    } else if (e.is_number_integer()) {
      out.push_back(e.get<std::int64_t>());
    } else {
      return std::nullopt;
    }
  }
  return out;
}

// Reads `in` as a std::vector<T>: it must give the DOM's numbers exactly, or fail when those
// are not all T (or when the document is malformed, no later than the DOM reader failed).
template <class T>
void check_typed(bufstream::ReadStream& in, const Outcome& dom) {
  using namespace bufstream;
  std::optional<std::vector<T>> typed;
  std::uint64_t error_offset = 0;
  try {
    typed = json::read<std::vector<T>>(in);
  } catch (const ParseError& e) {
    error_offset = e.offset();
  }
  if (!dom.value) {
    if (typed || error_offset > dom.error_offset) std::abort();
    return;
  }
  const auto expected = dom.value->size() == 1 ? numbers_as<T>((*dom.value)[0]) : std::nullopt;
  if (!expected) {
    if (typed) std::abort();
    return;
  }
  if (!typed || typed->size() != expected->size()) std::abort();
  for (std::size_t i = 0; i < expected->size(); ++i) {
    if (!((*typed)[i] == (*expected)[i])) std::abort();
  }
}

// json::Document from the same input with tiny buffers: it holds exactly one value, so it
// reads when the event reader found one value (and then equals it, and writes and reads back
// equal), and fails otherwise, no later than the event reader failed.
void check_document(bufstream::ReadStream& in, const Outcome& events) {
  using namespace bufstream;
  std::optional<json::Document> doc;
  std::uint64_t error_offset = 0;
  try {
    doc.emplace(json::Document::parse(in, {.max_depth = 64}));
  } catch (const ParseError& e) {
    error_offset = e.offset();
  }
  const bool one_value = events.value && events.value->size() == 1;
  if (!one_value) {
    if (doc || (!events.value && error_offset > events.error_offset)) std::abort();
    return;
  }
  if (!doc || json::to_nlohmann(doc->root()) != (*events.value)[0]) std::abort();
  StringWriteStream text;
  json::Writer writer(text);
  writer.value(doc->root());
  writer.finish();
  const json::Document again = json::Document::parse(text.view(), {.max_depth = 64});
  if (json::to_nlohmann(again.root()) != (*events.value)[0]) std::abort();
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
  check_document(fuzz::FuzzStream(input).stream(), a);
  if (!a.value) {
    if (a.error_offset != b.error_offset) std::abort();
    check_typed<double>(fuzz::FuzzStream(input).stream(), a);
    return 0;
  }
  if (*a.value != *b.value) std::abort();
  check_typed<double>(fuzz::FuzzStream(input).stream(), a);
  check_typed<std::int64_t>(fuzz::FuzzStream(input).stream(), a);
  {
    MemoryReadStream direct(input.document);
    check_typed<double>(direct, a);
  }

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
