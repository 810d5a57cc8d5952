// UTF-8: every error kind of the strict decoder, validation, reading code points from every
// kind of stream (sequences across window edges), the byte-order mark, encoding, and UTF-16.
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <bufstream/kernels/cpu.hpp>
#include <bufstream/kernels/utf8.hpp>
#include <bufstream/utf8.hpp>

#include "stream_fixtures.hpp"

namespace bufstream {
namespace {

using utf8::Error;

// A repeatable pseudo-random source (xorshift64) for the randomized tests: random(bound) is
// below bound.
class Xorshift {
 public:
  explicit Xorshift(std::uint64_t seed) : state_(seed) {}
  std::uint64_t operator()(std::uint64_t bound) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_ % bound;
  }

 private:
  std::uint64_t state_;
};

struct DecodeCase {
  std::string bytes;
  char32_t code_point;
  std::uint8_t length;
  Error error;
};

const std::vector<DecodeCase>& decode_cases() {
  static const std::vector<DecodeCase> cases{
      // Valid, at the edges of every length.
      {std::string(1, '\0'), 0, 1, Error::none},
      {"A", 0x41, 1, Error::none},
      {"\x7F", 0x7F, 1, Error::none},
      {"\xC2\x80", 0x80, 2, Error::none},
      {"\xDF\xBF", 0x7FF, 2, Error::none},
      {"\xE0\xA0\x80", 0x800, 3, Error::none},
      {"\xED\x9F\xBF", 0xD7FF, 3, Error::none},
      {"\xEE\x80\x80", 0xE000, 3, Error::none},
      {"\xEF\xBF\xBF", 0xFFFF, 3, Error::none},
      {"\xF0\x90\x80\x80", 0x10000, 4, Error::none},
      {"\xF4\x8F\xBF\xBF", 0x10FFFF, 4, Error::none},
      // Bytes that cannot start a sequence.
      {"\x80", 0, 1, Error::invalid_lead_byte},
      {"\xBF\x80", 0, 1, Error::invalid_lead_byte},
      {"\xF5\x80\x80\x80", 0, 1, Error::invalid_lead_byte},
      {"\xF7\xBF\xBF\xBF", 0, 1, Error::invalid_lead_byte},
      {"\xF8\x88\x80\x80\x80", 0, 1, Error::invalid_lead_byte},
      {"\xFE", 0, 1, Error::invalid_lead_byte},
      {"\xFF", 0, 1, Error::invalid_lead_byte},
      // A lead byte followed by something other than a continuation byte.
      {"\xC3\x28", 0, 1, Error::invalid_continuation_byte},
      {"\xE2\x28\xA1", 0, 1, Error::invalid_continuation_byte},
      {"\xE2\x82\x28", 0, 2, Error::invalid_continuation_byte},
      {"\xF0\x9F\x98\x41", 0, 3, Error::invalid_continuation_byte},
      {"\xC2\xC2\x80", 0, 1, Error::invalid_continuation_byte},
      // Overlong forms.
      {"\xC0\x80", 0, 2, Error::overlong_encoding},
      {"\xC1\xBF", 0, 2, Error::overlong_encoding},
      {"\xE0\x80\x80", 0, 3, Error::overlong_encoding},
      {"\xE0\x9F\xBF", 0, 3, Error::overlong_encoding},
      {"\xF0\x80\x80\x80", 0, 4, Error::overlong_encoding},
      {"\xF0\x8F\xBF\xBF", 0, 4, Error::overlong_encoding},
      // Surrogates.
      {"\xED\xA0\x80", 0, 3, Error::surrogate},
      {"\xED\xAF\xBF", 0, 3, Error::surrogate},
      {"\xED\xB0\x80", 0, 3, Error::surrogate},
      {"\xED\xBF\xBF", 0, 3, Error::surrogate},
      // Beyond U+10FFFF.
      {"\xF4\x90\x80\x80", 0, 4, Error::beyond_max_code_point},
      {"\xF4\xBF\xBF\xBF", 0, 4, Error::beyond_max_code_point},
      // The input ends inside a sequence.
      {"\xC3", 0, 1, Error::truncated_sequence},
      {"\xE2\x82", 0, 2, Error::truncated_sequence},
      {"\xF0\x9F\x98", 0, 3, Error::truncated_sequence},
      {"\xF0", 0, 1, Error::truncated_sequence},
  };
  return cases;
}

std::string hex(std::string_view bytes) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string s;
  for (char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    s += digits[b >> 4];
    s += digits[b & 0xF];
    s += ' ';
  }
  return s;
}

TEST(Utf8Decode, EveryValidFormAndEveryErrorKind) {
  for (const auto& c : decode_cases()) {
    const auto d = utf8::decode(c.bytes.data(), c.bytes.data() + c.bytes.size());
    EXPECT_EQ(d.error, c.error) << hex(c.bytes);
    EXPECT_EQ(d.length, c.length) << hex(c.bytes);
    if (c.error == Error::none) {
      EXPECT_EQ(d.code_point, c.code_point) << hex(c.bytes);
    }
  }
}

TEST(Utf8Decode, EveryScalarValueRoundTrips) {
  char buf[4];
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (!utf8::is_scalar_value(cp)) continue;
    const char* end = utf8::encode(cp, buf);
    const auto d = utf8::decode(buf, end);
    ASSERT_EQ(d.error, Error::none) << std::hex << static_cast<std::uint32_t>(cp);
    ASSERT_EQ(d.code_point, cp);
    ASSERT_EQ(d.length, static_cast<std::size_t>(end - buf));
    ASSERT_EQ(utf8::sequence_length(static_cast<unsigned char>(buf[0])), d.length);
  }
}

TEST(Utf8Validate, FindInvalidGivesTheOffsetAndKind) {
  for (const auto& c : decode_cases()) {
    for (const std::string prefix : {"", "ab", "0123456789abcdefghij", "\xC3\xA9\xE2\x82\xAC"}) {
      const std::string text = prefix + c.bytes + "tail";
      const auto invalid = utf8::find_invalid(text);
      if (c.error == Error::none) {
        EXPECT_FALSE(invalid) << hex(text);
        EXPECT_TRUE(utf8::is_valid(text));
      } else {
        ASSERT_TRUE(invalid) << hex(text);
        EXPECT_EQ(invalid->offset, prefix.size()) << hex(text);
        // At the end of `text` "tail" follows, so a truncated sequence reads as a bad
        // continuation; without the tail it is truncated.
        if (c.error != Error::truncated_sequence) {
          EXPECT_EQ(invalid->error, c.error) << hex(text);
        }
        EXPECT_FALSE(utf8::is_valid(text));
      }
    }
    if (c.error == Error::truncated_sequence) {
      const auto invalid = utf8::find_invalid("xyz" + c.bytes);
      ASSERT_TRUE(invalid);
      EXPECT_EQ(invalid->offset, 3u);
      EXPECT_EQ(invalid->error, Error::truncated_sequence);
    }
  }
  EXPECT_FALSE(utf8::find_invalid(""));
  EXPECT_FALSE(utf8::find_invalid(std::string(1000, 'a') + "\xF0\x9F\x98\x80"));
}

// ---- Every implementation of find_invalid against a byte-by-byte decode ------------------

// The answer by definition: decode one sequence after another.
std::optional<utf8::Invalid> reference_find_invalid(std::string_view text) {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  for (const char* p = begin; p != end;) {
    const auto d = utf8::decode(p, end);
    if (d.error != Error::none) return utf8::Invalid{static_cast<std::size_t>(p - begin), d.error};
    p += d.length;
  }
  return std::nullopt;
}

// The validator's forms are the kernel layer's (bufstream/kernels/utf8.hpp): each instruction
// set this processor runs, the portable one first.
using Form = kernels::InstructionSet;

std::vector<Form> available_validators() {
  const auto sets = kernels::available_sets();
  return {sets.begin(), sets.end()};
}

std::optional<utf8::Invalid> find_invalid_with(Form form, std::string_view text) {
  return kernels::form_for(kernels::utf8::validate_forms(), form)(text);
}

void expect_same_as_reference(std::string_view text) {
  const auto expected = reference_find_invalid(text);
  for (auto v : available_validators()) {
    const auto got = find_invalid_with(v, text);
    ASSERT_EQ(got.has_value(), expected.has_value())
        << "validator " << kernels::name(v) << ": " << hex(text);
    if (expected) {
      ASSERT_EQ(got->offset, expected->offset)
          << "validator " << kernels::name(v) << ": " << hex(text);
      ASSERT_EQ(got->error, expected->error)
          << "validator " << kernels::name(v) << ": " << hex(text);
    }
  }
  const auto chosen = utf8::find_invalid(text);
  ASSERT_EQ(chosen.has_value(), expected.has_value()) << hex(text);
  if (expected) {
    ASSERT_EQ(chosen->offset, expected->offset) << hex(text);
  }
}

TEST(Utf8Validate, PortableAndSse2AreAlwaysAvailable) {
  EXPECT_TRUE(kernels::available(Form::portable));
#if BUFSTREAM_KERNELS_X86_64
  EXPECT_TRUE(kernels::available(Form::sse2));
#endif
}

// An empty text is valid, also when its data pointer is null (a default string_view): the
// vector validators once took their null position for an error (found by utf8_fuzz).
TEST(Utf8Validate, EmptyTextIsValidEvenWithANullPointer) {
  for (auto v : available_validators()) {
    EXPECT_FALSE(find_invalid_with(v, std::string_view()).has_value()) << kernels::name(v);
    EXPECT_FALSE(find_invalid_with(v, std::string_view("x").substr(0, 0)).has_value())
        << kernels::name(v);
  }
  EXPECT_FALSE(utf8::find_invalid(std::string_view()).has_value());
  EXPECT_TRUE(utf8::is_valid(std::string_view()));
}

// Each decode case (valid or not) at every offset of a 64-byte block, inside ASCII text,
// inside text of three-byte characters, and at the very end (where sequences are truncated).
TEST(Utf8Validate, EveryCaseAtEveryOffsetAgreesWithTheDecoder) {
  const std::string cjk_fill = "\xE4\xBD\xA0\xE5\xA5\xBD";  // 你好
  for (const auto& c : decode_cases()) {
    for (std::size_t offset = 0; offset <= 70; ++offset) {
      std::string ascii_before(offset, 'a');
      expect_same_as_reference(ascii_before + c.bytes + std::string(70, 'z'));
      expect_same_as_reference(ascii_before + c.bytes);
      std::string mixed;
      while (mixed.size() < offset) mixed += mixed.size() % 4 == 0 ? std::string("x") : cjk_fill;
      expect_same_as_reference(mixed + c.bytes + cjk_fill + cjk_fill + std::string(40, 'q') +
                               cjk_fill);
      expect_same_as_reference(mixed + c.bytes);
    }
  }
}

// Valid sequences of every length straddling every block boundary.
TEST(Utf8Validate, SequencesAcrossBlockEdgesAreValid) {
  for (const std::string seq : {"\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\xED\x9F\xBF",
                                "\xE0\xA0\x80", "\xF4\x8F\xBF\xBF"}) {
    for (std::size_t offset = 0; offset < 70; ++offset) {
      std::string text(offset, 'a');
      for (int i = 0; i < 20; ++i) text += seq;
      text += "end";
      ASSERT_FALSE(reference_find_invalid(text));
      expect_same_as_reference(text);
    }
  }
}

// Random text from valid characters of every length, with a few bytes overwritten by random
// bytes in most cases: the implementations find the same first error as the decoder.
TEST(Utf8Validate, RandomTextAgreesWithTheDecoder) {
  Xorshift random(0x9E3779B97F4A7C15ULL);
  const char32_t samples[] = {'a',    ' ',    '/',    0x7F,   0x80,   0xE9,    0x7FF,   0x800,
                              0x4F60, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF};
  char buf[4];
  for (int round = 0; round < 4000; ++round) {
    std::string text;
    const std::uint64_t length = random(200);
    while (text.size() < length) {
      const char32_t cp = random(3) == 0 ? samples[random(std::size(samples))]
                                         : static_cast<char32_t>('a' + random(26));
      text.append(buf, utf8::encode(cp, buf));
    }
    for (std::uint64_t k = random(4); k > 0 && !text.empty(); --k) {
      text[random(text.size())] = static_cast<char>(random(256));
    }
    expect_same_as_reference(text);
  }
}

// ---- The vector validators against the scalar one, exhaustively -------------------------
//
// The AVX2 validator judges each byte with the three before it, 64 bytes at a time, and the
// last bytes in a zero-padded block; these run every short sequence where a block ends (and
// in the padded block), every one-byte change of valid text, and every length up to two
// blocks. Plain loops (one gtest assertion per mismatch would be slow).

// The vector validators this processor runs.
std::vector<Form> vector_validators() {
  std::vector<Form> out;
  for (auto v : available_validators()) {
    if (v != Form::portable) out.push_back(v);
  }
  return out;
}

// The first text on which a vector validator differs from the scalar one, described.
class ScalarComparison {
 public:
  void check(std::string_view text) {
    ++checked_;
    if (!first_difference_.empty()) return;
    const auto expected = find_invalid_with(Form::portable, text);
    for (auto v : validators_) {
      const auto got = find_invalid_with(v, text);
      const bool same =
          got.has_value() == expected.has_value() &&
          (!got || (got->offset == expected->offset && got->error == expected->error));
      if (!same) {
        first_difference_ =
            "validator " + std::string(kernels::name(v)) + " on [" + hex(text) + "]: " +
            (got ? std::to_string(got->offset) + " " + std::string(utf8::describe(got->error))
                 : std::string("valid")) +
            ", scalar: " +
            (expected ? std::to_string(expected->offset) + " " +
                            std::string(utf8::describe(expected->error))
                      : std::string("valid"));
        return;
      }
    }
  }
  std::size_t checked() const { return checked_; }
  const std::string& first_difference() const { return first_difference_; }

 private:
  std::vector<Form> validators_ = vector_validators();
  std::size_t checked_ = 0;
  std::string first_difference_;
};

// `bytes` alone (the padded last block), and ending a 64-byte block of ASCII so that it
// straddles the edge into the next block (of ASCII and then a three-byte character).
void check_everywhere(ScalarComparison& c, std::string& buffer, std::string_view bytes) {
  c.check(bytes);
  buffer.assign(64 - (bytes.size() + 1) / 2, 'a');
  buffer += bytes;
  buffer.append(40, 'b');
  buffer += "\xE4\xBD\xA0";
  buffer.append(30, 'c');
  c.check(buffer);
}

TEST(Utf8Validate, EveryOneAndTwoByteTextAgreesWithTheScalarValidator) {
  ScalarComparison c;
  std::string buffer;
  for (unsigned a = 0; a < 256; ++a) {
    const char one[1] = {static_cast<char>(a)};
    check_everywhere(c, buffer, {one, 1});
    for (unsigned b = 0; b < 256; ++b) {
      const char two[2] = {static_cast<char>(a), static_cast<char>(b)};
      check_everywhere(c, buffer, {two, 2});
    }
  }
  EXPECT_EQ(c.first_difference(), "");
  EXPECT_EQ(c.checked(), 2u * (256 + 256 * 256));
}

// Every three-byte text that starts with a lead byte or C0 C1 F5..FF, whose second byte is a
// continuation (any third byte) or of any other class (a third byte from every class); a
// first byte that is ASCII or a continuation ends there, which the two-byte texts cover. And
// every four-byte text that starts with a four-byte lead (or F5..F7) with any second byte and
// a third and fourth byte from every class.
TEST(Utf8Validate, EveryThreeAndFourByteTextAgreesWithTheScalarValidator) {
  const unsigned classes[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0,
                              0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF};
  ScalarComparison c;
  std::string buffer;
  std::size_t expected_checks = 0;
  for (unsigned a = 0xC0; a < 256; ++a) {
    for (unsigned b = 0; b < 256; ++b) {
      const bool continuation = (b & 0xC0) == 0x80;
      for (unsigned i = 0; i < (continuation ? 256u : std::size(classes)); ++i) {
        const unsigned d = continuation ? i : classes[i];
        const char three[3] = {static_cast<char>(a), static_cast<char>(b), static_cast<char>(d)};
        c.check({three, 3});
        ++expected_checks;
      }
    }
  }
  // At a block edge: the second and third bytes from every class.
  for (unsigned a = 0x80; a < 256; ++a) {
    for (unsigned b : classes) {
      for (unsigned d : classes) {
        const char three[3] = {static_cast<char>(a), static_cast<char>(b), static_cast<char>(d)};
        check_everywhere(c, buffer, {three, 3});
      }
    }
  }
  // Four bytes: the second decides (overlong, beyond U+10FFFF); the others from the classes
  // that differ for them.
  const unsigned later[] = {0x00, 0x7F, 0x80, 0xBF, 0xC0, 0xF0, 0xFF};
  for (unsigned a = 0xF0; a < 0xF8; ++a) {
    for (unsigned b = 0; b < 256; ++b) {
      for (unsigned d : later) {
        for (unsigned e : later) {
          const char four[4] = {static_cast<char>(a), static_cast<char>(b), static_cast<char>(d),
                                static_cast<char>(e)};
          check_everywhere(c, buffer, {four, 4});
        }
      }
    }
  }
  EXPECT_EQ(c.first_difference(), "");
  EXPECT_EQ(c.checked(), expected_checks + 2u * 128 * 20 * 20 + 2u * 8 * 256 * 7 * 7);
}

// Random valid text of every kind of character, with each byte in turn replaced by bytes of
// every class: the first error is found at the same place, of the same kind.
TEST(Utf8Validate, EveryOneByteChangeAgreesWithTheScalarValidator) {
  Xorshift random(0x2545F4914F6CDD1DULL);
  const char32_t samples[] = {'a',    0x7F,   0x80,   0x7FF,   0x800,   0x4F60,
                              0xD7FF, 0xE000, 0xFFFF, 0x10000, 0x10FFFF};
  const char replacements[] = {'\0',   'z',    '\x7F', '\x80', '\xBF', '\xC0', '\xC2', '\xDF',
                               '\xE0', '\xED', '\xEF', '\xF0', '\xF4', '\xF5', '\xFF'};
  ScalarComparison c;
  char buf[4];
  for (int round = 0; round < 40; ++round) {
    std::string text;
    const std::uint64_t length = 60 + random(150);
    while (text.size() < length) {
      const char32_t cp = random(2) == 0 ? samples[random(std::size(samples))]
                                         : static_cast<char32_t>('a' + random(26));
      text.append(buf, utf8::encode(cp, buf));
    }
    ASSERT_TRUE(find_invalid_with(Form::portable, text) == std::nullopt);
    for (std::size_t i = 0; i < text.size(); ++i) {
      const char original = text[i];
      for (char r : replacements) {
        text[i] = r;
        c.check(text);
      }
      text[i] = static_cast<char>(random(256));
      c.check(text);
      text[i] = original;
    }
  }
  EXPECT_EQ(c.first_difference(), "");
}

// Every length from 0 to 130 bytes (the tail of every size, and a full block and more), of
// ASCII, of valid mixed text, and of mixed text cut at that length (often inside a sequence).
TEST(Utf8Validate, EveryLengthAgreesWithTheScalarValidator) {
  const std::string pieces[] = {"a", "\xC3\xA9", "\xE4\xBD\xA0", "\xF0\x9F\x98\x80",
                                "\xED\x9F\xBF"};
  ScalarComparison c;
  for (std::size_t length = 0; length <= 130; ++length) {
    c.check(std::string(length, 'x'));
    for (std::size_t start = 0; start < std::size(pieces); ++start) {
      std::string mixed;
      for (std::size_t k = start; mixed.size() < length; ++k)
        mixed += pieces[k % std::size(pieces)];
      c.check(std::string_view(mixed).substr(0, length));  // may cut the last sequence
      std::string exact;
      for (std::size_t k = start; exact.size() + 4 <= length; ++k)
        exact += pieces[k % std::size(pieces)];
      exact.append(length - exact.size(), 'y');
      c.check(exact);
      ASSERT_EQ(exact.size(), length);
      // An error in the last byte, and in the first.
      if (length > 0) {
        std::string last = exact;
        last.back() = '\x80';
        c.check(last);
        std::string first = exact;
        first.front() = '\xFF';
        c.check(first);
      }
    }
  }
  EXPECT_EQ(c.first_difference(), "");
}

TEST(Utf8Validate, DescribeNamesEveryKind) {
  EXPECT_EQ(utf8::describe(Error::invalid_lead_byte), "invalid UTF-8: invalid lead byte");
  EXPECT_EQ(utf8::describe(Error::invalid_continuation_byte),
            "invalid UTF-8: invalid continuation byte");
  EXPECT_EQ(utf8::describe(Error::overlong_encoding), "invalid UTF-8: overlong encoding");
  EXPECT_EQ(utf8::describe(Error::surrogate), "invalid UTF-8: encoded surrogate");
  EXPECT_EQ(utf8::describe(Error::beyond_max_code_point),
            "invalid UTF-8: code point beyond U+10FFFF");
  EXPECT_EQ(utf8::describe(Error::truncated_sequence), "invalid UTF-8: truncated sequence");
}

class Utf8Streams : public test::ReadSetupTest {};

INSTANTIATE_TEST_SUITE_P(AllStreams, Utf8Streams, ::testing::ValuesIn(test::all_read_setups()),
                         test::setup_name);

TEST_P(Utf8Streams, NextReadsCodePointsAcrossWindows) {
  const std::u32string expected = U"a\u00e9\u20ac\U0001F600z\u07ff\uffff\U0010FFFF\u0800.";
  std::string text;
  for (int i = 0; i < 5; ++i) {  // shift every sequence across every window edge
    text += std::string(static_cast<std::size_t>(i), '-');
    for (char32_t cp : expected) {
      char buf[4];
      text.append(buf, utf8::encode(cp, buf));
    }
  }
  auto r = open(text);
  std::u32string got;
  while (auto cp = utf8::next(*r.stream)) got += *cp;
  std::u32string want;
  for (int i = 0; i < 5; ++i) want += std::u32string(static_cast<std::size_t>(i), U'-') + expected;
  EXPECT_TRUE(got == want);
  EXPECT_EQ(r.stream->position(), text.size());
}

TEST_P(Utf8Streams, NextReportsEveryErrorKindAtItsOffset) {
  for (const auto& c : decode_cases()) {
    if (c.error == Error::none) continue;
    const std::string text = "ok" + c.bytes;
    auto r = open(text);
    EXPECT_EQ(utf8::next(*r.stream), U'o');
    EXPECT_EQ(utf8::next(*r.stream), U'k');
    try {
      (void)utf8::next(*r.stream);
      ADD_FAILURE() << "no error for " << hex(c.bytes);
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), 2u) << hex(c.bytes);
      EXPECT_EQ(e.message(), utf8::describe(c.error)) << hex(c.bytes);
    }
    EXPECT_EQ(r.stream->position(), 2u);  // the bad sequence is not consumed
  }
}

TEST_P(Utf8Streams, SkipBom) {
  struct Case {
    std::string text;
    bool skipped;
    std::string rest;
  };
  const std::vector<Case> cases{{"\xEF\xBB\xBF"
                                 "abc",
                                 true, "abc"},
                                {"\xEF\xBB\xBF", true, ""},
                                {"abc", false, "abc"},
                                {"\xEF\xBB", false, "\xEF\xBB"},
                                {"\xEF\xBBx", false, "\xEF\xBBx"},
                                {"", false, ""}};
  for (const auto& c : cases) {
    auto r = open(c.text);
    EXPECT_EQ(utf8::skip_bom(*r.stream), c.skipped) << hex(c.text);
    EXPECT_EQ(r.stream->up_to_end(), c.rest) << hex(c.text);
  }
}

TEST(Utf8Encode, PutWritesEveryLengthAndRefusesNonScalars) {
  StringWriteStream out;
  for (char32_t cp :
       {U'A', char32_t{0xE9}, char32_t{0x20AC}, char32_t{0x1F600}, char32_t{0x10FFFF}}) {
    utf8::put(out, cp);
  }
  EXPECT_EQ(out.view(), "A\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF");
  EXPECT_THROW(utf8::put(out, 0xD800), UsageError);
  EXPECT_THROW(utf8::put(out, 0xDFFF), UsageError);
  EXPECT_THROW(utf8::put(out, 0x110000), UsageError);
  EXPECT_EQ(out.view().size(), 14u);
}

TEST(Utf8Encode, PutThroughTinyBuffers) {
  for (std::size_t size : testing::tiny_buffer_sizes()) {
    StringWriteStream sink;
    {
      BufferedWriteStream out(sink, {.buffer_size = size});
      for (char32_t cp : std::u32string_view(U"\u00e9\U0001F600x\u20ac")) utf8::put(out, cp);
    }
    EXPECT_EQ(sink.view(), "\xC3\xA9\xF0\x9F\x98\x80x\xE2\x82\xAC") << size;
  }
}

TEST(Utf16, RoundTripsIncludingAstralCodePoints) {
  const std::vector<std::pair<std::string, std::u16string>> cases{
      {"", u""},
      {"plain ascii", u"plain ascii"},
      {"caf\xC3\xA9 \xE2\x82\xAC", u"caf\u00e9 \u20ac"},
      {"\xF0\x9F\x98\x80", std::u16string{0xD83D, 0xDE00}},
      {"\xF4\x8F\xBF\xBF", std::u16string{0xDBFF, 0xDFFF}},
      {"\xF0\x90\x80\x80", std::u16string{0xD800, 0xDC00}},
      {"\xEF\xBF\xBF\xEE\x80\x80", std::u16string{0xFFFF, 0xE000}},
      {std::string("nul\0inside", 10), std::u16string(u"nul\0inside", 10)},
  };
  for (const auto& [utf8_text, utf16_text] : cases) {
    EXPECT_TRUE(utf8::to_utf16(utf8_text) == utf16_text) << hex(utf8_text);
    EXPECT_EQ(utf8::from_utf16(utf16_text), utf8_text) << hex(utf8_text);
  }
  std::u16string appended = u">";
  utf8::append_utf16("\xC3\xA9", appended);
  EXPECT_TRUE(appended == u">\u00e9");
}

TEST(Utf16, EveryScalarValueRoundTrips) {
  std::string all;
  char buf[4];
  for (char32_t cp = 0; cp <= 0x10FFFF; ++cp) {
    if (utf8::is_scalar_value(cp)) all.append(buf, utf8::encode(cp, buf));
  }
  const std::u16string utf16 = utf8::to_utf16(all);
  EXPECT_EQ(utf16.size(), 0x10000u - 0x800u + 2u * 0x100000u);
  EXPECT_TRUE(utf8::from_utf16(utf16) == all);
}

TEST(Utf16, LoneSurrogatesAreErrorsAtTheirOffset) {
  const std::vector<std::pair<std::u16string, std::uint64_t>> cases{
      {std::u16string{0xD800}, 0},
      {std::u16string{u'a', 0xDC00, u'b'}, 1},
      {std::u16string{u'a', u'b', 0xD83D}, 2},      // high surrogate at the end
      {std::u16string{0xD83D, u'x'}, 0},            // high surrogate without its low half
      {std::u16string{0xDE00, 0xD83D}, 0},          // low before high
      {std::u16string{0xD83D, 0xDE00, 0xDE00}, 2},  // a pair, then a lone low half
  };
  for (const auto& [text, offset] : cases) {
    try {
      (void)utf8::from_utf16(text);
      ADD_FAILURE() << "no error at " << offset;
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), offset);
      EXPECT_NE(e.message().find("lone UTF-16 surrogate"), std::string::npos) << e.message();
    }
  }
}

TEST(Utf16, InvalidUtf8IsAnErrorAtItsOffset) {
  for (const auto& c : decode_cases()) {
    if (c.error == Error::none) continue;
    try {
      (void)utf8::to_utf16("abc" + c.bytes);
      ADD_FAILURE() << hex(c.bytes);
    } catch (const ParseError& e) {
      EXPECT_EQ(e.offset(), 3u) << hex(c.bytes);
      EXPECT_EQ(e.message(), utf8::describe(c.error)) << hex(c.bytes);
    }
  }
}

}  // namespace
}  // namespace bufstream
