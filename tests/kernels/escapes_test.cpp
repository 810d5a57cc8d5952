// The backslash escapes JSON and STON share: every code point through `\u` and back in both
// dialects, the two-byte escapes both ways, and each kind of malformed `\u`.
#include <bufstream/kernels/escapes.hpp>

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

namespace bufstream::kernels::escapes {
namespace {

std::string encode(char32_t cp, const Dialect& d) {
  char buffer[max_u_length];
  return std::string(buffer, encode_u(cp, buffer, d));
}

TEST(KernelEscapes, EveryCodePointRoundTripsInBothDialects) {
  for (const Dialect* d : {&json, &ston}) {
    for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
      if (cp >= 0xD800 && cp <= 0xDFFF) continue;
      const std::string text = encode(cp, *d);
      const auto code = static_cast<std::uint32_t>(cp);
      ASSERT_EQ(text.size(), cp > 0xFFFF ? 12U : 6U) << code;
      const Decoded back = decode_u(text);
      ASSERT_EQ(back.error, Decoded::Error::none) << code;
      ASSERT_EQ(static_cast<std::uint32_t>(back.code_point), code);
      ASSERT_EQ(back.at, text.size());
    }
  }
}

TEST(KernelEscapes, HexCaseIsTheDialects) {
  EXPECT_EQ(encode(0xE9, json), "\\u00e9");
  EXPECT_EQ(encode(0xE9, ston), "\\u00E9");
  EXPECT_EQ(encode(0x1F600, json), "\\ud83d\\ude00");
  EXPECT_EQ(encode(0x1F600, ston), "\\uD83D\\uDE00");
  EXPECT_EQ(static_cast<std::uint32_t>(decode_u("\\uD83d\\uDe00").code_point),
            0x1F600U);  // either case is read
}

TEST(KernelEscapes, ShortEscapesBothWays) {
  for (int c = 0; c < 128; ++c) {
    for (const Dialect* d : {&json, &ston}) {
      const char letter = short_escape(static_cast<char>(c), *d);
      if (letter != 0) {
        EXPECT_EQ(short_unescape(letter, *d), c) << c;
      }
      char out[6];
      const std::string escaped(out, escape_ascii(static_cast<char>(c), out, *d));
      if (letter != 0) {
        EXPECT_EQ(escaped, std::string({'\\', letter}));
      } else {
        EXPECT_EQ(escaped, encode(static_cast<char32_t>(c), *d));
      }
    }
  }
  EXPECT_EQ(short_escape('"', json), '"');
  EXPECT_EQ(short_escape('\'', json), 0);
  EXPECT_EQ(short_escape('\'', ston), '\'');
  EXPECT_EQ(short_escape('"', ston), 0);
  EXPECT_EQ(short_unescape('\'', json), -1);
  EXPECT_EQ(short_unescape('\'', ston), '\'');
  EXPECT_EQ(short_unescape('"', ston), '"');
  EXPECT_EQ(short_unescape('/', json), '/');
  EXPECT_EQ(short_unescape('x', json), -1);
  EXPECT_EQ(short_unescape('u', json), -1);
  EXPECT_EQ(short_unescape(-1, json), -1);
}

TEST(KernelEscapes, MalformedEscapesSayWhatAndWhere) {
  struct Case {
    std::string_view text;
    Decoded::Error error;
    std::size_t at;
    std::string_view message;
  };
  const Case cases[] = {
      {"\\u12G4", Decoded::Error::bad_hex, 4, "expected 4 hex digits after '\\u' but found 'G'"},
      {"\\u12", Decoded::Error::bad_hex, 4,
       "expected 4 hex digits after '\\u' but found end of input"},
      {"\\uDC00", Decoded::Error::lone_low, 0,
       "expected a character escape but found the lone low surrogate \\uDC00 (a low surrogate "
       "must follow a high one)"},
      {"\\uD800\"", Decoded::Error::missing_low, 6,
       "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found '\"'"},
      {"\\uD800\\n", Decoded::Error::missing_low, 7,
       "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found 'n'"},
      {"\\uD800", Decoded::Error::missing_low, 6,
       "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found end of input"},
      {"\\uD800\\u0041", Decoded::Error::bad_low, 6,
       "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found \\u0041"},
      {"\\uD800\\uD800", Decoded::Error::bad_low, 6,
       "expected a low surrogate escape \\uDC00-\\uDFFF after \\uD800 but found \\uD800"},
      {"\\uD800\\u00", Decoded::Error::bad_hex, 10,
       "expected 4 hex digits after '\\u' but found end of input"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const Decoded d = decode_u(c.text);
    EXPECT_EQ(d.error, c.error);
    EXPECT_EQ(d.at, c.at);
    EXPECT_EQ(describe(d, c.text), c.message);
  }
  EXPECT_EQ(describe_bad_escape('x', json),
            "expected an escape ('\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') after '\\' but "
            "found 'x'");
  EXPECT_EQ(describe_bad_escape(-1, ston),
            "expected an escape (''', '\"', '\\', '/', 'b', 'f', 'n', 'r', 't' or 'u') after '\\' "
            "but found end of input");
}

}  // namespace
}  // namespace bufstream::kernels::escapes
