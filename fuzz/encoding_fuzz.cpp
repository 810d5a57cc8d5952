// Character encodings: the input decoded as each encoding through a DecodingReadStream with a
// tiny window over a tiny buffer gives what the whole-buffer decode gives, or fails at the same
// byte after the same text; what it gives is UTF-8; and the EncodingWriteStream, also with a
// tiny buffer, writes it back as the bytes it came from. With a byte-order mark detected, the
// stream reads what the whole-buffer decode of the rest reads.
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include <bufstream/buffered_read_stream.hpp>
#include <bufstream/decoding_read_stream.hpp>
#include <bufstream/encoding.hpp>
#include <bufstream/encoding_write_stream.hpp>
#include <bufstream/errors.hpp>
#include <bufstream/memory_read_stream.hpp>
#include <bufstream/string_write_stream.hpp>
#include <bufstream/utf8.hpp>

#include "fuzz_support.hpp"

namespace {

using namespace bufstream;

struct Outcome {
  std::string text;                    // what was read (before the error, if any)
  std::optional<std::uint64_t> error;  // the offset of a ParseError
};

Outcome whole(std::string_view bytes, Encoding e, OnInvalid on_invalid) {
  Outcome o;
  try {
    o.text = decode_to_utf8(bytes, e, on_invalid);
  } catch (const ParseError& error) {
    o.error = error.offset();
    o.text = decode_to_utf8(bytes.substr(0, error.offset()), e);  // the text before it
  }
  return o;
}

Outcome streamed(std::string_view bytes, std::size_t size, DecodingOptions options) {
  MemoryReadStream memory(bytes);
  BufferedReadStream buffered(memory, {.buffer_size = size});
  options.buffer_size = size % 13 + 1;
  DecodingReadStream in(buffered, options);
  Outcome o;
  try {
    // Byte by byte and in windows by turns, so that both paths meet every edge.
    for (bool by_byte = true;; by_byte = !by_byte) {
      if (by_byte) {
        const int c = in.next_byte();
        if (c == ReadStream::end_of_stream) break;
        o.text += static_cast<char>(c);
      } else {
        const std::string_view w = in.fill(size % 5 + 1);
        if (w.empty()) break;
        o.text.append(w);
        in.advance(w.size());
      }
    }
  } catch (const ParseError& error) {
    o.error = error.offset();
    o.text.append(in.buffered());    // a fill() that reaches the error leaves the text before it
    if (!in.failed()) std::abort();  // sticky
  }
  return o;
}

std::string encoded(std::string_view text, Encoding e, std::size_t size) {
  StringWriteStream sink;
  EncodingWriteStream out(sink, {.encoding = e, .buffer_size = size % 11 + 4});
  for (std::size_t i = 0; i < text.size(); i += size) out.write(text.substr(i, size));
  out.close();
  return std::string(sink.view());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const fuzz::FuzzInput input = fuzz::split_input(data, size);
  const std::string_view doc = input.document;
  for (const Encoding e : {Encoding::utf8, Encoding::utf16le, Encoding::utf16be, Encoding::utf32le,
                           Encoding::utf32be, Encoding::iso_8859_1, Encoding::windows_1252}) {
    for (const OnInvalid mode : {OnInvalid::error, OnInvalid::replace}) {
      const Outcome expected = whole(doc, e, mode);
      const Outcome got = streamed(doc, input.buffer_size,
                                   {.encoding = e, .bom = BomPolicy::keep, .on_invalid = mode});
      if (got.text != expected.text || got.error != expected.error) std::abort();
      if (!utf8::is_valid(got.text)) std::abort();
      if (mode == OnInvalid::replace && got.error) std::abort();
      // What was read without an error is written back as the bytes it was read from.
      if (!got.error && mode == OnInvalid::error &&
          encoded(got.text, e, input.buffer_size) != doc) {
        std::abort();
      }
    }
  }
  // A mark names the encoding and is skipped; without one the text is UTF-8.
  const std::optional<DetectedBom> bom = detect_bom(doc.substr(0, 4));
  const Outcome expected = whole(doc.substr(bom ? bom->length : 0),
                                 bom ? bom->encoding : Encoding::utf8, OnInvalid::replace);
  if (streamed(doc, input.buffer_size, {.on_invalid = OnInvalid::replace}).text != expected.text) {
    std::abort();
  }
  return 0;
}
