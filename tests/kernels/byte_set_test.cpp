// ByteSet: every form finds what a plain loop finds, on every length 0..130 at every alignment,
// with members at every position, for each kind of set the formats use.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <bufstream/kernels/byte_set.hpp>

namespace bufstream::kernels {
namespace {

struct SetCase {
  const char* name;
  ByteSet set;
};

std::vector<SetCase> set_cases() {
  return {
      {"csv unquoted", ByteSet({',', '"', '\r', '\n'})},
      {"csv quoted", ByteSet({'"', '\r', '\n'})},
      {"one byte", ByteSet({' '})},
      {"NUL and 0xFF", ByteSet({'\0', '\xff'})},
      {"json string", ByteSet({'"', '\\'}, {.controls = true, .non_ascii = true})},
      {"json escapes", ByteSet({'"', '\\'}, {.controls = true})},
      {"ston string", ByteSet({'\'', '\\', '\x7f'}, {.controls = true, .non_ascii = true})},
      {"non-ASCII only", ByteSet({'\x80'}, {.non_ascii = true})},
  };
}

const char* plain_find(const ByteSet& set, const char* p, const char* end) {
  while (p != end && !set.contains(*p)) ++p;
  return p;
}

// Bytes that are not in any of the sets above, and the ones that are near their edges.
constexpr char filler = 'a';
const std::vector<char> probes = {',',    '"',  '\r',   '\n',   ' ',    '\0',   '\xff',
                                  '\\',   '\'', '\x7f', '\x1f', '\x20', '\x80', '\x7e',
                                  '\x21', '!',  '\xc3', '#',    '+',    '-'};

TEST(KernelByteSet, ContainsWhatItWasGiven) {
  const ByteSet csv({',', '"', '\r', '\n'});
  EXPECT_TRUE(csv.contains(','));
  EXPECT_TRUE(csv.contains('\n'));
  EXPECT_FALSE(csv.contains('\0'));  // no padding member
  EXPECT_FALSE(csv.contains('\x80'));
  const ByteSet json({'"', '\\'}, {.controls = true, .non_ascii = true});
  for (int c = 0; c < 256; ++c) {
    const bool expected = c < 0x20 || c >= 0x80 || c == '"' || c == '\\';
    EXPECT_EQ(json.contains(static_cast<char>(c)), expected) << c;
  }
}

TEST(KernelByteSet, FindAgreesWithAPlainLoopAtEveryLengthAndAlignment) {
  std::vector<char> buffer(130 + 16 + 16);
  for (const SetCase& c : set_cases()) {
    SCOPED_TRACE(c.name);
    for (std::size_t align = 0; align < 16; ++align) {
      for (std::size_t length = 0; length <= 130; ++length) {
        char* const begin = buffer.data() + align;
        char* const end = begin + length;
        // No member at all, then a probe byte at each position in turn (two of them per
        // position, a different pair for each length); bytes after the end are members of
        // most sets, which must not be seen.
        std::fill(buffer.begin(), buffer.end(), '\0');
        for (std::size_t at = 0; at <= length; ++at) {
          const char first = probes[(at + length) % probes.size()];
          const char second = probes[(at + length + 7) % probes.size()];
          for (const char probe :
               at == length ? std::vector<char>{filler} : std::vector<char>{first, second}) {
            std::fill(begin, end, filler);
            if (at < length) begin[at] = probe;
            if (at + 5 < length) begin[at + 5] = ',';  // a later member must not win
            const char* const expected = plain_find(c.set, begin, end);
            ASSERT_EQ(c.set.find_portable(begin, end), expected)
                << "length " << length << " at " << at;
#if BUFSTREAM_KERNELS_X86_64
            ASSERT_EQ(c.set.find_sse2(begin, end), expected) << "length " << length << " at " << at;
#endif
            ASSERT_EQ(c.set.find(begin, end), expected);
          }
        }
      }
    }
  }
}

TEST(KernelByteSet, CopyFindingAnyCopiesAndAnswersAsAPlainLoop) {
  constexpr char canary = '\x5a';
  for (const SetCase& c : set_cases()) {
    SCOPED_TRACE(c.name);
    for (std::size_t align = 0; align < 16; ++align) {
      for (std::size_t length = 0; length <= 130; ++length) {
        // The text ends where its allocation ends, so that a read past it is a sanitizer error.
        std::vector<char> source(align + length);
        char* const begin = source.data() + align;
        std::vector<char> out(align + std::max<std::size_t>(length, 8) + 16);
        for (std::size_t at = 0; at <= length; ++at) {
          std::fill(begin, begin + length, filler);
          if (at < length) begin[at] = probes[(at * 3 + length) % probes.size()];
          std::fill(out.begin(), out.end(), canary);
          const bool expected = plain_find(c.set, begin, begin + length) != begin + length;
          const auto check = [&](bool any, const char* form) {
            ASSERT_EQ(any, expected) << form << ", length " << length << " at " << at;
            ASSERT_TRUE(std::equal(begin, begin + length, out.data() + align))
                << form << ", length " << length;
            // Nothing written before the room nor past max(length, 8).
            for (std::size_t i = 0; i < align; ++i) ASSERT_EQ(out[i], canary) << form;
            for (std::size_t i = align + std::max<std::size_t>(length, 8); i < out.size(); ++i)
              ASSERT_EQ(out[i], canary) << form << ", length " << length;
            std::fill(out.begin(), out.end(), canary);
          };
          check(c.set.copy_finding_any_portable(begin, length, out.data() + align), "portable");
#if BUFSTREAM_KERNELS_X86_64
          check(c.set.copy_finding_any_sse2(begin, length, out.data() + align), "sse2");
#endif
          check(c.set.copy_finding_any(begin, length, out.data() + align), "dispatched");
        }
      }
    }
  }
}

}  // namespace
}  // namespace bufstream::kernels
