// Character encodings: DecodingReadStream over every decorator source and window size,
// EncodingWriteStream into every write target, every code point through UTF-16 and UTF-32 and
// every byte of ISO-8859-1 and Windows-1252 both ways (glibc's iconv is the oracle), byte-order
// marks, invalid input with its offset or its replacement, and failures of the source and the
// sink.
#include <bufstream/decoding_read_stream.hpp>
#include <bufstream/encoding.hpp>
#include <bufstream/encoding_write_stream.hpp>

#include <iconv.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/utf8.hpp>
#include <faulty_read_stream.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using namespace std::string_literals;
using test::ReadSetup;

constexpr std::array all_encodings = {
    Encoding::utf8,    Encoding::utf16le,    Encoding::utf16be,     Encoding::utf32le,
    Encoding::utf32be, Encoding::iso_8859_1, Encoding::windows_1252};

std::string utf8_of(char32_t cp) {
  char buf[4];
  return {buf, utf8::encode(cp, buf)};
}

std::string utf8_of(std::initializer_list<char32_t> cps) {
  std::string s;
  for (const char32_t cp : cps) s += utf8_of(cp);
  return s;
}

/// The name glibc's iconv knows the encoding by.
const char* iconv_name(Encoding e) {
  switch (e) {
    case Encoding::utf8: return "UTF-8";
    case Encoding::utf16le: return "UTF-16LE";
    case Encoding::utf16be: return "UTF-16BE";
    case Encoding::utf32le: return "UTF-32LE";
    case Encoding::utf32be: return "UTF-32BE";
    case Encoding::iso_8859_1: return "ISO-8859-1";
    case Encoding::windows_1252: return "CP1252";
  }
  return "";
}

/// The oracle: a conversion by glibc's iconv. Construction throws IconvMissing if iconv lacks
/// the encodings (a cross build's emulator may have no conversion modules: the test skips).
struct IconvMissing {};
class Iconv {
 public:
  Iconv(const char* from, const char* to) : cd_(::iconv_open(to, from)) {
    // iconv_open's failure value is (iconv_t)-1, a pointer made from an integer by definition.
    // NOLINTNEXTLINE(performance-no-int-to-ptr)
    if (cd_ == reinterpret_cast<iconv_t>(static_cast<std::intptr_t>(-1))) throw IconvMissing{};
  }
  ~Iconv() { ::iconv_close(cd_); }
  Iconv(const Iconv&) = delete;
  Iconv& operator=(const Iconv&) = delete;

  /// The converted text, or `nullopt` if iconv refuses it.
  std::optional<std::string> operator()(std::string_view in) {
    ::iconv(cd_, nullptr, nullptr, nullptr, nullptr);  // the initial state
    std::string out(in.size() * 4 + 16, '\0');
    char* src = const_cast<char*>(in.data());
    std::size_t src_left = in.size();
    char* dst = out.data();
    std::size_t dst_left = out.size();
    if (::iconv(cd_, &src, &src_left, &dst, &dst_left) == static_cast<std::size_t>(-1)) {
      return std::nullopt;
    }
    out.resize(out.size() - dst_left);
    return out;
  }

 private:
  iconv_t cd_;
};

/// An Iconv, or the test skips itself (GTEST_SKIP returns from the test function). `name` is a
/// declarator, which parentheses would break.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ICONV_OR_SKIP(name, from, to)                                            \
  std::unique_ptr<Iconv> name;                                                   \
  try {                                                                          \
    name = std::make_unique<Iconv>(from, to);                                    \
  } catch (const IconvMissing&) {                                                \
    GTEST_SKIP() << "glibc's iconv cannot convert " << (from) << " to " << (to); \
  }
// NOLINTEND(bugprone-macro-parentheses)

/// Text each encoding can hold, with every edge of UTF-8 and UTF-16 for the Unicode ones and
/// ASCII runs long enough for the word-at-a-time paths.
std::string sample_for(Encoding e) {
  std::string s = "Plain ASCII, long enough for a few words: 0123456789 abcdefgh\nline two\r\n";
  if (e == Encoding::iso_8859_1 || e == Encoding::windows_1252) {
    for (char32_t cp = 0xA0; cp <= 0xFF; ++cp) s += utf8_of(cp);
    if (e == Encoding::iso_8859_1) {
      for (char32_t cp = 0x80; cp < 0xA0; ++cp) s += utf8_of(cp);
    } else {
      s += utf8_of({0x20AC, 0x201A, 0x2122, 0x0152, 0x0178, 0x017E});
    }
  } else {
    for (const char32_t cp : std::initializer_list<char32_t>{
             0x00, 0x7F, 0x80, 0xA9, 0xFF, 0x100, 0x7FF, 0x800, 0x20AC, 0xD7FF, 0xE000, 0xFEFF,
             0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF}) {
      s += utf8_of(cp);
      s += 'x';
    }
  }
  s += "\u00e9t\u00e9 ASCII again after the others, for the word loop\n";
  return s;
}

// ---- Decoding over every source -------------------------------------------------------------

class DecodingOver : public ::testing::TestWithParam<ReadSetup> {
 protected:
  /// A source over `bytes`, which lives as long as the test.
  ReadStream& source(std::string bytes) {
    bytes_.push_back(std::make_unique<std::string>(std::move(bytes)));
    readers_.push_back(GetParam().make(*bytes_.back()));
    return *readers_.back().stream;
  }

 private:
  std::vector<std::unique_ptr<std::string>> bytes_;
  std::vector<test::OwningReader> readers_;
};

INSTANTIATE_TEST_SUITE_P(Sources, DecodingOver, ::testing::ValuesIn(test::decorator_sources()),
                         test::setup_name);

TEST_P(DecodingOver, EveryEncodingAtEveryWindowSize) {
  for (const Encoding e : all_encodings) {
    const std::string text = sample_for(e);
    const std::string bytes = encode_from_utf8(text, e);
    for (const std::size_t size : testing::tiny_buffer_sizes()) {
      SCOPED_TRACE(std::string(encoding_name(e)) + ", window " + std::to_string(size));
      {
        DecodingReadStream in(source(bytes), {.encoding = e, .buffer_size = size});
        EXPECT_EQ(in.up_to_end(), text);
        EXPECT_TRUE(in.at_end());
        EXPECT_EQ(in.position(), text.size());
      }
      {
        DecodingReadStream in(source(bytes), {.encoding = e, .buffer_size = size});
        std::string got;
        for (int c = in.next_byte(); c != ReadStream::end_of_stream; c = in.next_byte()) {
          got += static_cast<char>(c);
        }
        EXPECT_EQ(got, text);
      }
    }
  }
}

TEST_P(DecodingOver, TheProtocolWorksOnDecodedText) {
  const std::string text = "first line \u00e9\r\nsecond: \U0001F600 end\nthird,field\u20ac,last";
  DecodingReadStream in(source(encode_from_utf8(text, Encoding::utf16be)),
                        {.encoding = Encoding::utf16be, .buffer_size = 1});
  EXPECT_EQ(in.peek(), 'f');
  EXPECT_EQ(in.next_line(), "first line \u00e9");
  EXPECT_EQ(in.position(), 15U);
  EXPECT_TRUE(in.peek_for('s'));
  EXPECT_EQ(in.up_to(':'), "econd");
  EXPECT_EQ(in.skip(1), 1U);
  EXPECT_EQ(in.next(4), "\U0001F600");
  const std::string_view window = in.fill(8);  // grows the one-byte window
  ASSERT_GE(window.size(), 8U);
  EXPECT_EQ(window.substr(0, 8), " end\nthi");
  in.advance(5);
  char chunk[6];
  EXPECT_EQ(in.read_into(std::span<char>(chunk)), 6U);
  EXPECT_EQ(std::string_view(chunk, 6), "third,");
  EXPECT_EQ(in.up_to_end(), "field\u20ac,last");
  EXPECT_TRUE(in.at_end());
  EXPECT_EQ(in.next(), std::nullopt);
  EXPECT_EQ(in.position(), text.size());
}

TEST_P(DecodingOver, AByteOrderMarkNamesTheEncodingAndIsSkipped) {
  const std::string text = sample_for(Encoding::utf8);
  for (const Encoding e : {Encoding::utf8, Encoding::utf16le, Encoding::utf16be, Encoding::utf32le,
                           Encoding::utf32be}) {
    SCOPED_TRACE(encoding_name(e));
    const std::string mark(byte_order_mark(e));
    // The default (detect) decides from the mark, whatever the options' encoding.
    DecodingReadStream in(source(mark + encode_from_utf8(text, e)),
                          {.encoding = Encoding::windows_1252, .buffer_size = 7});
    EXPECT_EQ(in.encoding(), e);
    EXPECT_EQ(in.bom_length(), mark.size());
    EXPECT_EQ(in.up_to_end(), text);
    EXPECT_EQ(in.position(), text.size());  // the mark is not counted
  }
}

TEST_P(DecodingOver, WithoutAMarkTheOptionsSayTheEncoding) {
  DecodingReadStream latin1(source("caf\xE9"), {.encoding = Encoding::iso_8859_1});
  EXPECT_EQ(latin1.up_to_end(), "caf\u00e9");
  EXPECT_EQ(latin1.bom_length(), 0U);
  DecodingReadStream utf8(source("caf\xC3\xA9"));  // the default: UTF-8
  EXPECT_EQ(utf8.encoding(), Encoding::utf8);
  EXPECT_EQ(utf8.up_to_end(), "caf\u00e9");
  DecodingReadStream tiny(source("A"));  // shorter than any mark
  EXPECT_EQ(tiny.up_to_end(), "A");
  DecodingReadStream empty(source(""));
  EXPECT_TRUE(empty.at_end());
}

TEST_P(DecodingOver, TheUtf32LittleEndianMarkWinsOverUtf16) {
  // FF FE 00 00 is UTF-32LE's mark, not UTF-16LE's followed by U+0000 ...
  DecodingReadStream detected(source("\xFF\xFE\0\0A\0\0\0"s));
  EXPECT_EQ(detected.encoding(), Encoding::utf32le);
  EXPECT_EQ(detected.up_to_end(), "A");
  // ... unless the caller says UTF-16LE: then only its own mark is skipped.
  DecodingReadStream told(source("\xFF\xFE\0\0A\0"s),
                          {.encoding = Encoding::utf16le, .bom = BomPolicy::skip});
  EXPECT_EQ(told.up_to_end(), "\0A"s);
  // A text of FF FE alone, or FF FE and one more byte, is UTF-16LE.
  DecodingReadStream short_text(source("\xFF\xFE"));
  EXPECT_EQ(short_text.encoding(), Encoding::utf16le);
  EXPECT_EQ(short_text.up_to_end(), "");
}

TEST_P(DecodingOver, MarksAreSkippedOnlyAsAsked) {
  DecodingReadStream other(source("\xEF\xBB\xBF"
                                  "A\0"s),
                           {.encoding = Encoding::utf16le, .bom = BomPolicy::skip});
  EXPECT_THROW((void)other.up_to_end(), ParseError);  // a UTF-8 mark is not UTF-16LE's
  DecodingReadStream kept(source("\xFE\xFF\0A"s),
                          {.encoding = Encoding::utf16be, .bom = BomPolicy::keep});
  EXPECT_EQ(kept.up_to_end(), "\uFEFFA");
  DecodingReadStream latin1(source("\xEF\xBB\xBF"),
                            {.encoding = Encoding::iso_8859_1, .bom = BomPolicy::skip});
  EXPECT_EQ(latin1.up_to_end(), "\u00ef\u00bb\u00bf");  // Latin-1 has no mark
}

/// Invalid input: where the error is, what it says, the text before it, and what replacement
/// makes of the whole.
struct BadInput {
  const char* name;
  Encoding encoding;
  std::string bytes;
  std::uint64_t offset;
  std::string message;
  std::string before;
  std::string replaced;
};

std::vector<BadInput> bad_inputs() {
  const std::string fffd = "\uFFFD";
  return {
      {"utf16 high surrogate at the end", Encoding::utf16le, "a\0\x3D\xD8"s, 2,
       "invalid UTF-16LE: high surrogate 0xD83D not followed by a low surrogate", "a", "a" + fffd},
      {"utf16 low surrogate alone", Encoding::utf16le,
       "a\0\x00\xDC"
       "b\0"s,
       2, "invalid UTF-16LE: low surrogate 0xDC00 without a high surrogate before it", "a",
       "a" + fffd + "b"},
      {"utf16 high then high", Encoding::utf16le, "\x3D\xD8\x3D\xD8\x00\xDE"s, 0,
       "invalid UTF-16LE: high surrogate 0xD83D not followed by a low surrogate", "",
       fffd + "\U0001F600"},
      {"utf16 reversed pair", Encoding::utf16be, "\xDE\x00\xD8\x3D\0a"s, 0,
       "invalid UTF-16BE: low surrogate 0xDE00 without a high surrogate before it", "",
       fffd + fffd + "a"},
      {"utf16 cut unit", Encoding::utf16be, "\0a\0"s, 2,
       "invalid UTF-16BE: the input ends inside a code unit (1 of 2 bytes)", "a", "a" + fffd},
      {"utf16 high and a cut unit", Encoding::utf16le, "z\0\x3D\xD8\x00"s, 2,
       "invalid UTF-16LE: high surrogate 0xD83D not followed by a low surrogate", "z",
       "z" + fffd + fffd},
      {"utf32 beyond U+10FFFF", Encoding::utf32le, "A\0\0\0\0\0\x11\0B\0\0\0"s, 4,
       "invalid UTF-32LE: code unit 0x00110000 is beyond U+10FFFF", "A", "A" + fffd + "B"},
      {"utf32 all ones", Encoding::utf32be, "\xFF\xFF\xFF\xFF"s, 0,
       "invalid UTF-32BE: code unit 0xFFFFFFFF is beyond U+10FFFF", "", fffd},
      {"utf32 surrogate", Encoding::utf32be, "\0\0\0A\0\0\xDB\xFF"s, 4,
       "invalid UTF-32BE: code unit 0x0000DBFF is a surrogate, not a character", "A", "A" + fffd},
      {"utf32 cut unit", Encoding::utf32le, "A\0\0\0B\0\0"s, 4,
       "invalid UTF-32LE: the input ends inside a code unit (3 of 4 bytes)", "A", "A" + fffd},
      {"windows-1252 unassigned", Encoding::windows_1252,
       "ab\x8F"
       "c",
       2, "invalid Windows-1252: byte 0x8f is unassigned", "ab", "ab" + fffd + "c"},
      {"utf8 bad continuation", Encoding::utf8, "ab\xC3(", 2,
       "expected UTF-8 text but found byte 0xc3 (invalid UTF-8: invalid continuation byte)", "ab",
       "ab" + fffd + "("},
      // One replacement for C0 80 however a window splits it (C0 alone is one byte's).
      {"utf8 overlong C0 80", Encoding::utf8,
       "a\xC0\x80"
       "b",
       1, "expected UTF-8 text but found byte 0xc0 (invalid UTF-8: overlong encoding)", "a",
       "a" + fffd + "b"},
      {"utf8 cut at the end", Encoding::utf8, "ab\xE2\x82", 2,
       "expected UTF-8 text but found byte 0xe2 (invalid UTF-8: truncated sequence)", "ab",
       "ab" + fffd},
  };
}

TEST_P(DecodingOver, InvalidInputIsAnErrorAtItsOffsetAfterTheTextBeforeIt) {
  for (const BadInput& bad : bad_inputs()) {
    SCOPED_TRACE(bad.name);
    DecodingReadStream in(source(bad.bytes),
                          {.encoding = bad.encoding, .bom = BomPolicy::keep, .buffer_size = 3});
    std::string got;
    try {
      for (int c = in.next_byte(); c != ReadStream::end_of_stream; c = in.next_byte()) {
        got += static_cast<char>(c);
      }
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), bad.offset);
      EXPECT_EQ(e.message(), bad.message);
    }
    EXPECT_EQ(got, bad.before);
    EXPECT_TRUE(in.failed());
    EXPECT_THROW((void)in.next_byte(), ParseError);  // sticky
  }
}

TEST_P(DecodingOver, ReplacementTurnsEachInvalidSequenceIntoUFFFD) {
  for (const BadInput& bad : bad_inputs()) {
    SCOPED_TRACE(bad.name);
    DecodingReadStream in(source(bad.bytes), {.encoding = bad.encoding,
                                              .bom = BomPolicy::keep,
                                              .on_invalid = OnInvalid::replace,
                                              .buffer_size = 2});
    EXPECT_EQ(in.up_to_end(), bad.replaced);
    EXPECT_FALSE(in.failed());
  }
}

TEST_P(DecodingOver, OffsetsCountTheMarkAndErrorsNameTheInput) {
  DecodingReadStream in(source("\xFF\xFE"
                               "a\0\x00\xDC"s),
                        {.source_name = "data.tsv"});
  try {
    (void)in.up_to_end();
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 4U);
    EXPECT_EQ(e.source_name(), "data.tsv");
  }
}

TEST(DecodingReadStream, ClosesOnlyASourceItOwns) {
  MemoryReadStream borrowed("ab");
  {
    DecodingReadStream in(borrowed);
    in.close();
    EXPECT_THROW((void)in.next_byte(), IoError);
  }
  EXPECT_FALSE(borrowed.is_closed());
  auto owned = std::make_unique<MemoryReadStream>("ab");
  MemoryReadStream* source = owned.get();
  DecodingReadStream in(std::move(owned));
  EXPECT_EQ(in.up_to_end(), "ab");
  in.close();
  EXPECT_TRUE(source->is_closed());
}

TEST(DecodingReadStream, SourceFailuresAreStickyAfterTheTextDecodedBeforeThem) {
  const std::string text = sample_for(Encoding::utf16le);
  const std::string bytes = encode_from_utf8(text, Encoding::utf16le);
  for (const testing::FaultySetupKind& kind : testing::fault_setups()) {
    for (std::size_t fail_at = 1; fail_at <= 12; ++fail_at) {
      SCOPED_TRACE(kind.name + ", read " + std::to_string(fail_at));
      testing::FaultySetup s = kind.make(bytes, {.fail_at = fail_at, .max_per_read = 5});
      DecodingReadStream in(s.stream(), {.encoding = Encoding::utf16le, .buffer_size = 7});
      std::string got;
      try {
        for (int c = in.next_byte(); c != ReadStream::end_of_stream; c = in.next_byte()) {
          got += static_cast<char>(c);
        }
        ADD_FAILURE() << "no error";
      } catch (const IoError& e) {
        EXPECT_EQ(e.code().value(), EIO);
      }
      EXPECT_EQ(got, text.substr(0, got.size()));
      EXPECT_TRUE(in.failed());
      EXPECT_THROW((void)in.next_byte(), IoError);
    }
  }
}

TEST(DecodingReadStream, InterruptedAndShortReadsChangeNothing) {
  for (const Encoding e : all_encodings) {
    const std::string text = sample_for(e);
    for (const testing::FaultySetupKind& kind : testing::fault_setups()) {
      SCOPED_TRACE(std::string(encoding_name(e)) + ", " + kind.name);
      testing::FaultySetup s =
          kind.make(encode_from_utf8(text, e), {.max_per_read = 1, .interrupt_every = 2});
      DecodingReadStream in(s.stream(), {.encoding = e, .bom = BomPolicy::keep, .buffer_size = 1});
      EXPECT_EQ(in.up_to_end(), text);
      EXPECT_GT(s.source->interrupts(), 0U);
    }
  }
}

// ---- Every code point, every byte: iconv is the oracle ---------------------------------------

std::string decode_stream(std::string_view bytes, Encoding e) {
  MemoryReadStream source(bytes);
  DecodingReadStream in(source, {.encoding = e, .bom = BomPolicy::keep});
  return in.up_to_end();
}

std::string encode_stream(std::string_view text, Encoding e, EncodingOptions options = {}) {
  StringWriteStream sink;
  options.encoding = e;
  EncodingWriteStream out(sink, options);
  out.write(text);
  out.close();
  return std::string(sink.view());
}

/// The text with the bytes of each `width`-byte unit reversed: little- to big-endian.
std::string swap_units(std::string text, std::size_t width) {
  for (std::size_t i = 0; i + width <= text.size(); i += width) {
    std::reverse(text.begin() + static_cast<std::ptrdiff_t>(i),
                 text.begin() + static_cast<std::ptrdiff_t>(i + width));
  }
  return text;
}

TEST(Encodings, EveryCodePointThroughUtf16AndUtf32BothWays) {
  ICONV_OR_SKIP(to_utf16, "UTF-8", "UTF-16LE");
  // Every Unicode scalar value, U+0000..U+10FFFF without the surrogates, in UTF-8 and (by the
  // definition of UTF-32) in UTF-32LE; iconv says what UTF-16LE is; big-endian is the same
  // units with their bytes swapped. One text each, a few megabytes: one stream per encoding.
  std::string text;
  std::string utf32le;
  text.reserve(4 * 0x110000);
  utf32le.reserve(4 * 0x110000);
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (cp == 0xD800) cp = 0xE000;
    char buf[4];
    text.append(buf, utf8::encode(cp, buf));
    for (int i = 0; i < 4; ++i) utf32le += static_cast<char>((cp >> (8 * i)) & 0xFF);
  }
  const std::optional<std::string> utf16le = (*to_utf16)(text);
  ASSERT_TRUE(utf16le);
  const std::pair<Encoding, std::string> expected[] = {
      {Encoding::utf16le, *utf16le},
      {Encoding::utf16be, swap_units(*utf16le, 2)},
      {Encoding::utf32le, utf32le},
      {Encoding::utf32be, swap_units(utf32le, 4)},
  };
  for (const auto& [e, bytes] : expected) {
    SCOPED_TRACE(encoding_name(e));
    EXPECT_TRUE(encode_stream(text, e) == bytes);  // (not EXPECT_EQ: megabytes of output)
    EXPECT_TRUE(decode_stream(bytes, e) == text);
  }
}

TEST(Encodings, EveryByteOfLatin1AndWindows1252BothWays) {
  for (const Encoding e : {Encoding::iso_8859_1, Encoding::windows_1252}) {
    SCOPED_TRACE(encoding_name(e));
    ICONV_OR_SKIP(to_utf8, iconv_name(e), "UTF-8");
    std::string all_bytes;
    std::string all_text;
    for (int b = 0; b < 256; ++b) {
      const std::string byte(1, static_cast<char>(b));
      const std::optional<std::string> expected = (*to_utf8)(byte);
      if (e == Encoding::iso_8859_1) {
        ASSERT_EQ(expected, utf8_of(static_cast<char32_t>(b)));  // Latin-1 by its definition
      }
      if (!expected) {  // Windows-1252's five unassigned bytes
        EXPECT_TRUE(b == 0x81 || b == 0x8D || b == 0x8F || b == 0x90 || b == 0x9D) << b;
        EXPECT_THROW((void)decode_to_utf8(byte, e), ParseError) << b;
        EXPECT_EQ(decode_to_utf8(byte, e, OnInvalid::replace), "\uFFFD") << b;
        continue;
      }
      EXPECT_EQ(decode_to_utf8(byte, e), *expected) << b;
      EXPECT_EQ(encode_from_utf8(*expected, e), byte) << b;
      all_bytes += byte;
      all_text += *expected;
    }
    EXPECT_EQ(e == Encoding::iso_8859_1 ? 256U : 251U, all_bytes.size());
    EXPECT_EQ(decode_stream(all_bytes, e), all_text);
    EXPECT_EQ(encode_stream(all_text, e), all_bytes);
  }
}

TEST(Encodings, WhatLatin1AndWindows1252LackIsAnErrorOrAQuestionMark) {
  // Every code point below U+3000 (beyond every one Windows-1252 has) and a few above.
  for (const Encoding e : {Encoding::iso_8859_1, Encoding::windows_1252}) {
    SCOPED_TRACE(encoding_name(e));
    ICONV_OR_SKIP(from_utf8, "UTF-8", iconv_name(e));
    std::size_t lacking = 0;
    for (char32_t cp = 0; cp <= 0x3000; ++cp) {
      if (cp == 0xD800) cp = 0xE000;
      const std::string one = utf8_of(cp);
      const std::optional<std::string> expected = (*from_utf8)(one);
      // Replacement says which are missing without an exception per code point.
      ASSERT_EQ(encode_from_utf8(one, e, OnInvalid::replace), expected.value_or("?"))
          << static_cast<std::uint32_t>(cp);
      if (!expected && lacking++ % 97 == 0) {
        ASSERT_THROW((void)encode_from_utf8(one, e), ParseError) << static_cast<std::uint32_t>(cp);
      }
    }
    EXPECT_EQ(encode_from_utf8(utf8_of({0x10000, 0x10FFFF}), e, OnInvalid::replace), "??");
    EXPECT_THROW((void)encode_from_utf8(utf8_of(0x10FFFF), e), ParseError);
  }
}

// ---- Byte-order marks and names -------------------------------------------------------------

TEST(Encodings, DetectBomReadsEveryMark) {
  struct Case {
    std::string start;
    std::optional<DetectedBom> expected;
  };
  const std::vector<Case> cases = {
      {"\xEF\xBB\xBF", DetectedBom{Encoding::utf8, 3}},
      {"\xEF\xBB\xBF{}", DetectedBom{Encoding::utf8, 3}},
      {"\xFF\xFE", DetectedBom{Encoding::utf16le, 2}},
      {"\xFF\xFE"
       "A\0"s,
       DetectedBom{Encoding::utf16le, 2}},
      {"\xFF\xFE\0"s, DetectedBom{Encoding::utf16le, 2}},  // too short for UTF-32LE's
      {"\xFF\xFE\0\0"s, DetectedBom{Encoding::utf32le, 4}},
      {"\xFF\xFE\0\0A\0\0\0"s, DetectedBom{Encoding::utf32le, 4}},
      {"\xFE\xFF", DetectedBom{Encoding::utf16be, 2}},
      {"\xFE\xFF\0\0"s, DetectedBom{Encoding::utf16be, 2}},
      {"\0\0\xFE\xFF"s, DetectedBom{Encoding::utf32be, 4}},
      {"", std::nullopt},
      {"\xEF\xBB", std::nullopt},
      {"\xFF", std::nullopt},
      {"\0\0\xFE"s, std::nullopt},
      {"\0\0\xFF\xFE"s, std::nullopt},
      {"\xFE\xFE", std::nullopt},
      {"abc", std::nullopt},
  };
  for (const Case& c : cases)
    EXPECT_EQ(detect_bom(c.start), c.expected) << ::testing::PrintToString(c.start);
}

TEST(Encodings, NamesAndLabels) {
  for (const Encoding e : all_encodings) EXPECT_EQ(parse_encoding(encoding_name(e)), e);
  EXPECT_EQ(parse_encoding("utf8"), Encoding::utf8);
  EXPECT_EQ(parse_encoding("utf-16le"), Encoding::utf16le);
  EXPECT_EQ(parse_encoding("UTF_32BE"), Encoding::utf32be);
  EXPECT_EQ(parse_encoding("latin1"), Encoding::iso_8859_1);
  EXPECT_EQ(parse_encoding("CP1252"), Encoding::windows_1252);
  EXPECT_EQ(parse_encoding("utf-16"), std::nullopt);  // which byte order?
  EXPECT_EQ(parse_encoding("ebcdic"), std::nullopt);
  EXPECT_EQ(parse_encoding(""), std::nullopt);
  EXPECT_EQ(byte_order_mark(Encoding::iso_8859_1), "");
}

TEST(Encodings, WholeBufferErrorsNameTheirOffset) {
  try {
    (void)decode_to_utf8("a\0b\0\x00\xDC"s, Encoding::utf16le);
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 4U);
  }
  try {
    (void)encode_from_utf8("abc\u0100", Encoding::iso_8859_1);
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 3U);
    EXPECT_EQ(e.message(), "U+0100 cannot be written in ISO-8859-1");
  }
}

// ---- Encoding into every target -------------------------------------------------------------

class EncodingInto : public ::testing::TestWithParam<test::WriteSetup> {};

INSTANTIATE_TEST_SUITE_P(Targets, EncodingInto, ::testing::ValuesIn(test::all_write_setups()),
                         test::write_setup_name);

TEST_P(EncodingInto, EveryWayOfWritingGivesTheEncodedText) {
  // One target takes the output of an encoder after another (each closed: it flushes the
  // sink it borrows), so that each target, some of them slow to finish, is made once.
  const std::unique_ptr<test::WriteTarget> target = GetParam().make();
  std::string expected;
  for (const Encoding e :
       {Encoding::utf8, Encoding::utf16le, Encoding::utf32be, Encoding::windows_1252}) {
    for (const std::size_t size : {std::size_t{4}, std::size_t{7}, default_buffer_size}) {
      SCOPED_TRACE(std::string(encoding_name(e)) + ", buffer " + std::to_string(size));
      const std::string text = sample_for(e);
      EncodingWriteStream out(target->stream(), {.encoding = e, .buffer_size = size});
      // Bytes one at a time (each character cut somewhere), then writes of every size, a
      // number formatted in place, and a write larger than the buffer.
      const std::size_t third = text.size() / 3;
      for (std::size_t i = 0; i < third; ++i) out.put(text[i]);
      for (std::size_t i = third, n = 1; i < 2 * third; i += n, ++n) {
        out.write(std::string_view(text).substr(i, std::min(n, 2 * third - i)));
      }
      out.print(-1234567);
      out.write(std::string_view(text).substr(2 * third));
      out.close();
      expected +=
          encode_from_utf8(text.substr(0, 2 * third) + "-1234567" + text.substr(2 * third), e);
    }
  }
  EXPECT_EQ(target->finish(), expected);
}

TEST(EncodingWriteStream, WritesTheMarkFirstWhenAsked) {
  for (const Encoding e : {Encoding::utf8, Encoding::utf16le, Encoding::utf16be, Encoding::utf32le,
                           Encoding::utf32be}) {
    SCOPED_TRACE(encoding_name(e));
    const std::string mark(byte_order_mark(e));
    EXPECT_EQ(encode_stream("", e, {.bom = true}), mark);
    EXPECT_EQ(encode_stream("hi \u00e9", e, {.bom = true}),
              mark + encode_from_utf8("hi \u00e9", e));
    EXPECT_EQ(encode_stream("hi", e), encode_from_utf8("hi", e));  // no mark by default
  }
  StringWriteStream sink;
  EXPECT_THROW(EncodingWriteStream(sink, {.encoding = Encoding::iso_8859_1, .bom = true}),
               UsageError);
}

/// Counts the lost-data reports while it lives, instead of aborting.
class LostDataCounter {
 public:
  LostDataCounter() { previous_ = set_lost_data_handler(&count); }
  ~LostDataCounter() { set_lost_data_handler(previous_); }
  LostDataCounter(const LostDataCounter&) = delete;
  LostDataCounter& operator=(const LostDataCounter&) = delete;
  static int reports() { return reports_; }

 private:
  static void count(std::string_view) noexcept { ++reports_; }
  static inline int reports_ = 0;
  LostDataHandler previous_;
};

TEST(EncodingWriteStream, AMissingCharacterIsAnErrorAtFlushWithItsOffset) {
  const LostDataCounter counter;
  const int before = LostDataCounter::reports();
  StringWriteStream sink;
  {
    EncodingWriteStream out(sink, {.encoding = Encoding::iso_8859_1, .sink_name = "out.txt"});
    out.write("abc\u0100def");  // buffered: not converted yet
    try {
      out.flush();
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), 3U);
      EXPECT_EQ(e.message(), "U+0100 cannot be written in ISO-8859-1");
      EXPECT_EQ(e.source_name(), "out.txt");
    }
    EXPECT_EQ(sink.view(), "abc");  // the text before it was written
    EXPECT_TRUE(out.failed());
    EXPECT_THROW(out.put('x'), ParseError);  // sticky
    EXPECT_THROW(out.close(), ParseError);
  }
  EXPECT_EQ(LostDataCounter::reports(), before);  // the caller was told: no report
  EXPECT_EQ(encode_stream("abc\u0100def", Encoding::iso_8859_1, {.on_invalid = OnInvalid::replace}),
            "abc?def");
  EXPECT_EQ(
      encode_stream("\u20ac\u0081", Encoding::windows_1252, {.on_invalid = OnInvalid::replace}),
      "\x80?");
}

TEST(EncodingWriteStream, InvalidUtf8IsAnErrorAtCloseWithItsOffset) {
  StringWriteStream sink;
  EncodingWriteStream out(sink, {.encoding = Encoding::utf16le});
  out.write(
      "ab\xFF"
      "cd");
  try {
    out.close();
    ADD_FAILURE() << "no error";
  } catch (const ParseError& e) {
    EXPECT_EQ(e.offset(), 2U);
    EXPECT_EQ(e.message(),
              "expected UTF-8 text but found byte 0xff (invalid UTF-8: invalid lead byte)");
  }
  EXPECT_EQ(sink.view(), "a\0b\0"s);
  EXPECT_EQ(encode_stream("ab\xFF"
                          "c",
                          Encoding::utf16be, {.on_invalid = OnInvalid::replace}),
            "\0a\0b\xFF\xFD\0c"s);
}

TEST(EncodingWriteStream, ACharacterCutByAFlushWaitsForItsOtherBytes) {
  StringWriteStream sink;
  EncodingWriteStream out(sink, {.encoding = Encoding::utf16be, .buffer_size = 4});
  out.write("a\xE2\x82");
  out.flush();
  EXPECT_EQ(sink.view(), "\0a"s);
  out.write("\xAC");
  out.close();
  EXPECT_EQ(sink.view(), "\0a\x20\xAC"s);
}

TEST(EncodingWriteStream, ACharacterCutAtTheEndIsAnError) {
  const LostDataCounter counter;
  StringWriteStream sink;
  {
    EncodingWriteStream out(sink, {.encoding = Encoding::utf32le});
    out.write("a\xF0\x9F\x98");
    try {
      out.close();
      ADD_FAILURE() << "no error";
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), 1U);
      EXPECT_EQ(e.message(),
                "expected UTF-8 text but found byte 0xf0 (invalid UTF-8: truncated sequence)");
    }
    EXPECT_EQ(sink.view(), "a\0\0\0"s);
  }
  // Destroyed with a cut character and never told: the lost-data handler hears of it.
  const int before = LostDataCounter::reports();
  {
    EncodingWriteStream out(sink, {.encoding = Encoding::utf32le});
    out.write("\xC3");
  }
  EXPECT_EQ(LostDataCounter::reports(), before + 1);
}

TEST(EncodingWriteStream, SinkFailuresAreReportedAtFlushAndClose) {
  const LostDataCounter counter;
  const int before = LostDataCounter::reports();
  {
    testing::FaultyWriteStream sink({.fail_at = 1, .error_number = ENOSPC});
    EncodingWriteStream out(sink, {.encoding = Encoding::utf16le});
    out.write("hello");  // buffered: no error yet
    EXPECT_THROW(out.flush(), IoError);
    EXPECT_TRUE(out.failed());
    EXPECT_THROW(out.write("more"), IoError);
    EXPECT_THROW(out.close(), IoError);
  }
  EXPECT_EQ(LostDataCounter::reports(), before);
  {
    testing::FaultyWriteStream sink({.fail_at = 1});
    EncodingWriteStream out(sink, {.encoding = Encoding::utf16le});
    out.write("never flushed");
  }
  EXPECT_EQ(LostDataCounter::reports(), before + 1);  // destroyed unflushed: reported
}

TEST(EncodingWriteStream, ClosesOnlyASinkItOwns) {
  StringWriteStream borrowed;
  {
    EncodingWriteStream out(borrowed, {.encoding = Encoding::utf16be});
    out.write("A");
    out.close();
  }
  EXPECT_FALSE(borrowed.is_closed());
  EXPECT_EQ(borrowed.view(), "\0A"s);
  auto owned = std::make_unique<testing::FaultyWriteStream>();
  testing::FaultyWriteStream* sink = owned.get();
  EncodingWriteStream out(std::move(owned), {.encoding = Encoding::utf16be});
  out.write("B");
  out.close();
  EXPECT_TRUE(sink->closed());
  EXPECT_EQ(sink->written(), "\0B"s);
}

}  // namespace
}  // namespace bufstream
