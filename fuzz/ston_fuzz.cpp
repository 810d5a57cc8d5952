// STON reader: the same values (or the same error offset) whatever the buffer size; whatever
// it reads, the writer writes (compact and pretty) and the reader reads back equal, sharing
// and cycles included.
#include <cstdlib>
#include <optional>
#include <vector>

#include <bufstream/errors.hpp>
#include <bufstream/ston/reader.hpp>
#include <bufstream/ston/writer.hpp>
#include <bufstream/string_write_stream.hpp>

#include "fuzz_support.hpp"

namespace {

struct Outcome {
  bufstream::ston::Document doc;
  std::vector<bufstream::ston::Value> values;
  bool ok = false;
  std::uint64_t error_offset = 0;
};

void read_all(bufstream::ReadStream& in, Outcome& outcome, bool comments) {
  try {
    bufstream::ston::Reader reader(in, {.allow_comments = comments, .max_depth = 64});
    while (!reader.at_end()) outcome.values.push_back(reader.read(outcome.doc));
    outcome.ok = true;
  } catch (const bufstream::ParseError& e) {
    outcome.error_offset = e.offset();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  const bool comments = size > 0 && (data[0] & 1) != 0;
  fuzz::FuzzStream buffered(input);
  MemoryReadStream memory(input.document);
  Outcome a, b;
  read_all(buffered.stream(), a, comments);
  read_all(memory, b, comments);
  if (a.ok != b.ok) std::abort();
  if (!a.ok) {
    if (a.error_offset != b.error_offset) std::abort();
    return 0;
  }
  if (a.values.size() != b.values.size()) std::abort();
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    if (!(a.values[i] == b.values[i])) std::abort();
  }
  for (bool pretty : {false, true}) {
    StringWriteStream text;
    ston::Writer writer(text, {.indent = pretty ? 1U : 0U});
    try {
      for (const auto& v : a.values) writer.write(v);
    } catch (const bufstream::UsageError&) {
      continue;  // deeper than the writer's limit: refused, never written wrong
    }
    MemoryReadStream again(text.view());
    Outcome c;
    read_all(again, c, false);
    if (!c.ok || c.values.size() != a.values.size()) std::abort();
    for (std::size_t i = 0; i < a.values.size(); ++i) {
      if (!(c.values[i] == a.values[i])) std::abort();
    }
  }
  return 0;
}
