// UTF-8: the stream decoder (across windows) and the whole-text validator must agree on every
// input, and every valid code point must re-encode to the same bytes.
#include <cstdlib>
#include <string>

#include <bufstream/errors.hpp>
#include <bufstream/utf8.hpp>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace bufstream;
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  const auto invalid = utf8::find_invalid(input.document);

  fuzz::FuzzStream in(input);
  std::string reencoded;
  bool stream_failed = false;
  try {
    while (auto cp = utf8::next(in.stream())) {
      char buf[4];
      reencoded.append(buf, utf8::encode(*cp, buf));
    }
  } catch (const ParseError& e) {
    stream_failed = true;
    if (!invalid || e.offset() != invalid->offset) std::abort();  // must report the same place
  }
  if (stream_failed != invalid.has_value()) std::abort();
  if (!invalid && reencoded != input.document) std::abort();
  if (!invalid) {
    // UTF-16 round trip.
    if (utf8::from_utf16(utf8::to_utf16(input.document)) != input.document) std::abort();
  }
  return 0;
}
