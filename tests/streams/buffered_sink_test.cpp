// BufferedSink through the decorators built on it (BufferedWriteStream,
// EncodingWriteStream): one table of decorators and buffer sizes, and the rules the base gives
// all of them: bulk writes consumed from the caller's memory, bytes kept on failure, and
// failures of the sink (a ParseError too, or a failing close) made sticky.
#include <bufstream/buffered_write_stream.hpp>
#include <bufstream/encoding.hpp>
#include <bufstream/encoding_write_stream.hpp>
#include <bufstream/string_write_stream.hpp>

#include <cerrno>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <gtest/gtest.h>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using namespace std::string_literals;

struct Decorator {
  std::string name;
  std::function<std::unique_ptr<BufferedSink>(WriteStream&, std::size_t)> make;
  std::function<std::string(std::string_view)> expected;  // what the sink gets for a text
};

std::vector<Decorator> decorators() {
  std::vector<Decorator> all;
  all.push_back({"buffered",
                 [](WriteStream& sink, std::size_t size) -> std::unique_ptr<BufferedSink> {
                   return std::make_unique<BufferedWriteStream>(sink,
                                                                BufferOptions{.buffer_size = size});
                 },
                 [](std::string_view text) { return std::string(text); }});
  for (Encoding e : {Encoding::utf8, Encoding::utf16le, Encoding::utf32be}) {
    all.push_back({"encoding_" + std::string(encoding_name(e)),
                   [e](WriteStream& sink, std::size_t size) -> std::unique_ptr<BufferedSink> {
                     return std::make_unique<EncodingWriteStream>(
                         sink, EncodingOptions{.encoding = e, .buffer_size = size});
                   },
                   [e](std::string_view text) { return encode_from_utf8(text, e); }});
  }
  return all;
}

TEST(BufferedSink, EveryOperationAtEveryBufferSizeGivesTheSameBytes) {
  // Multi-byte characters everywhere, so that encoders see them cut by every buffer's end;
  // the long write is larger than every tiny buffer and ends inside a character.
  const std::string text = "a\u00e9\u20ac\U0001F600b";
  std::string long_text;
  for (int i = 0; i < 300; ++i) long_text += text;
  const std::string cut_end = "\xF0\x9F";  // the first half of U+1F600
  for (const Decorator& d : decorators()) {
    for (std::size_t size : testing::tiny_buffer_sizes()) {
      StringWriteStream sink;
      auto out = d.make(sink, size);
      out->put('<');
      out->write(text);
      out->write(long_text + cut_end);  // straight from here past a buffer of <= 1 KiB
      out->write("\x98\x80");           // the rest of the cut character
      char* room = out->reserve(5);
      room[0] = '1';
      room[1] = '2';
      out->commit(2);
      out->print(345);
      out->flush();
      for (char c : text) out->put(c);
      out->write(long_text);
      out->close();
      const std::string all = "<" + text + long_text + "\U0001F600" + "12345" + text + long_text;
      EXPECT_EQ(out->position(), all.size()) << d.name << " buffer " << size;
      EXPECT_TRUE(out->pending().empty());
      EXPECT_EQ(sink.view(), d.expected(all)) << d.name << " buffer " << size;
    }
  }
}

TEST(BufferedSink, TheBufferSizeIsTheOneAskedForWithAMinimum) {
  StringWriteStream sink;
  EXPECT_EQ(BufferedWriteStream(sink, {.buffer_size = 0}).buffer_size(), 1U);
  EXPECT_EQ(BufferedWriteStream(sink, {.buffer_size = 7}).buffer_size(), 7U);
  // An encoder keeps up to three bytes of a cut character: its buffer holds at least four.
  EXPECT_EQ(EncodingWriteStream(sink, {.buffer_size = 1}).buffer_size(), 4U);
  EXPECT_EQ(EncodingWriteStream(sink).buffer_size(), default_buffer_size);
}

TEST(EncodingWriteStream, AnInvalidByteStaysPendingWithTheTextAfterIt) {
  StringWriteStream sink;
  EncodingWriteStream out(sink, {.encoding = Encoding::utf16be});
  out.write(
      "abc\xFF"
      "def");
  EXPECT_THROW(out.flush(), ParseError);
  EXPECT_EQ(sink.view(), "\0a\0b\0c"s);
  EXPECT_EQ(out.pending(),
            "\xFF"
            "def");
  EXPECT_EQ(out.position() - out.pending().size(), 3U);  // what was converted
}

TEST(EncodingWriteStream, ALargeWriteIsConvertedAtOnceAndReportsItsErrorThere) {
  StringWriteStream sink;
  EncodingWriteStream out(sink, {.encoding = Encoding::utf16le, .buffer_size = 8});
  out.write("ab");  // buffered
  const std::string large = std::string(20, 'x') + "\xC3(" + std::string(10, 'y');
  try {
    out.write(large);
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 22U);  // in the UTF-8 written: "ab" and twenty x
  }
  EXPECT_EQ(sink.view(), encode_from_utf8("ab" + std::string(20, 'x'), Encoding::utf16le));
  EXPECT_EQ(out.position(), 22U);  // the rest is still the caller's
  EXPECT_TRUE(out.failed());
  EXPECT_THROW(out.put('z'), ParseError);
}

TEST(BufferedWriteStream, AParseErrorOfTheSinkIsSticky) {
  StringWriteStream file;
  EncodingWriteStream latin1(file, {.encoding = Encoding::iso_8859_1});
  BufferedWriteStream out(latin1, {.buffer_size = 16});
  out.write("caf\u00e9 \u0100");  // é is in ISO-8859-1, U+0100 is not
  EXPECT_THROW(out.flush(), ParseError);
  EXPECT_TRUE(out.failed());
  EXPECT_THROW(out.put('x'), ParseError);
  EXPECT_THROW(out.close(), ParseError);
  EXPECT_EQ(file.view(), "caf\xE9 ");
}

/// A sink that takes every byte and fails to close (as a file system that is full at close).
class CloseFailsSink final : public WriteStream {
 protected:
  void write_slow(const char* /*data*/, std::size_t n) override {
    throw_if_unusable();
    add_direct_bytes(n);
  }
  void close_sink() override { throw IoError::from_errno(ENOSPC, "close", "sink"); }
};

TEST(BufferedSink, AFailingCloseOfTheSinkIsSticky) {
  const auto failing_sink = [] { return std::make_unique<CloseFailsSink>(); };
  std::vector<std::unique_ptr<BufferedSink>> streams;
  streams.push_back(std::make_unique<BufferedWriteStream>(failing_sink()));
  streams.push_back(std::make_unique<EncodingWriteStream>(
      failing_sink(), EncodingOptions{.encoding = Encoding::utf16le}));
  for (auto& out : streams) {
    out->write("text");
    try {
      out->close();
      ADD_FAILURE() << "close did not fail";
    } catch (const IoError& e) {
      EXPECT_EQ(e.code(), std::error_code(ENOSPC, std::generic_category()));
    }
    EXPECT_TRUE(out->failed());
    try {
      out->put('x');  // the failure, not "write after close"
      ADD_FAILURE() << "put after a failed close";
    } catch (const IoError& e) {
      EXPECT_EQ(e.code(), std::error_code(ENOSPC, std::generic_category()));
    }
  }
}

}  // namespace
}  // namespace bufstream
