// ASCII runs: each function does what a plain loop does, on every length 0..130 at every
// alignment, with the first non-ASCII byte or unit at every position (and none), in both byte
// orders. On a big-endian machine this is what holds the word loads and stores to memory order.
#include <gtest/gtest.h>

#include <bit>
#include <cstddef>
#include <string>
#include <vector>

#include <bufstream/kernels/ascii_runs.hpp>

namespace bufstream::kernels {
namespace {

constexpr std::size_t max_length = 130;
constexpr std::size_t alignments = 8;

// Bytes that stop a run.
const std::vector<unsigned char> stoppers = {0x80, 0xFF};

// Where the first stopper goes in a text of n: everywhere in a short text; in a long one, in
// and around the first and last two words and the middle (n itself: nowhere).
std::vector<std::size_t> stop_positions(std::size_t n) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i <= n; ++i) {
    if (n <= 32 || i < 17 || n - i < 17 || i == n / 2) at.push_back(i);
  }
  return at;
}

std::string ascii_text(std::size_t n) {
  std::string s(n, '\0');
  for (std::size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 37 + 11) % 128);
  return s;
}

std::size_t plain_prefix(const std::string& s) {
  std::size_t i = 0;
  while (i < s.size() && static_cast<unsigned char>(s[i]) < 0x80) ++i;
  return i;
}

TEST(KernelAsciiRuns, PrefixLengthIsWhereThePlainLoopStops) {
  std::vector<char> storage(max_length + alignments);
  for (std::size_t n = 0; n <= max_length; ++n) {
    for (const std::size_t stop : stop_positions(n)) {
      for (const unsigned char bad : stoppers) {
        std::string text = ascii_text(n);
        if (stop < n) text[stop] = static_cast<char>(bad);
        const std::size_t expected = plain_prefix(text);
        for (std::size_t a = 0; a < alignments; ++a) {
          std::copy(text.begin(), text.end(), storage.begin() + static_cast<std::ptrdiff_t>(a));
          ASSERT_EQ(ascii::prefix_length(storage.data() + a, n), expected)
              << "n " << n << " stop " << stop << " align " << a;
        }
        if (stop == n) break;  // no stopper: one pass is enough
      }
    }
  }
}

// UTF-16 units in the given order, from code unit values.
std::string utf16_bytes(const std::vector<unsigned>& units, std::endian order) {
  std::string s;
  for (const unsigned u : units) {
    const char hi = static_cast<char>(u >> 8);
    const char lo = static_cast<char>(u & 0xFF);
    if (order == std::endian::big) {
      s += hi;
      s += lo;
    } else {
      s += lo;
      s += hi;
    }
  }
  return s;
}

TEST(KernelAsciiRuns, NarrowingUtf16StopsAtTheFirstUnitAboveAscii) {
  // A unit stops the run by its high byte (0x0100, 0xD800) or its low byte (0x0080).
  const std::vector<unsigned> bad_units = {0x0080, 0x0100, 0x8041};
  std::vector<char> src(2 * max_length + alignments);
  std::vector<char> dst(max_length + alignments);
  for (const std::endian order : {std::endian::little, std::endian::big}) {
    for (std::size_t n = 0; n <= max_length; ++n) {
      for (const std::size_t stop : stop_positions(n)) {
        for (const unsigned bad : bad_units) {
          std::vector<unsigned> units(n);
          for (std::size_t i = 0; i < n; ++i) units[i] = (i * 37 + 11) % 128;
          if (stop < n) units[stop] = bad;
          const std::string bytes = utf16_bytes(units, order);
          for (std::size_t a = 0; a < alignments; ++a) {
            std::copy(bytes.begin(), bytes.end(), src.begin() + static_cast<std::ptrdiff_t>(a));
            const std::size_t got = ascii::narrow_utf16(src.data() + a, n, dst.data() + a, order);
            ASSERT_EQ(got, stop) << "n " << n << " align " << a;
            for (std::size_t i = 0; i < got; ++i) {
              ASSERT_EQ(static_cast<unsigned char>(dst[a + i]), units[i]) << i;
            }
          }
          if (stop == n) break;
        }
      }
    }
  }
}

TEST(KernelAsciiRuns, WideningToUtf16StopsAtTheFirstByteAboveAscii) {
  std::vector<char> src(max_length + alignments);
  std::vector<char> dst(2 * max_length + alignments);
  for (const std::endian order : {std::endian::little, std::endian::big}) {
    for (std::size_t n = 0; n <= max_length; ++n) {
      for (const std::size_t stop : stop_positions(n)) {
        for (const unsigned char bad : stoppers) {
          std::string text = ascii_text(n);
          if (stop < n) text[stop] = static_cast<char>(bad);
          std::vector<unsigned> units;
          for (std::size_t i = 0; i < stop; ++i)
            units.push_back(static_cast<unsigned char>(text[i]));
          const std::string expected = utf16_bytes(units, order);
          for (std::size_t a = 0; a < alignments; ++a) {
            std::copy(text.begin(), text.end(), src.begin() + static_cast<std::ptrdiff_t>(a));
            const std::size_t got = ascii::widen_to_utf16(src.data() + a, n, dst.data() + a, order);
            ASSERT_EQ(got, stop) << "n " << n << " align " << a;
            ASSERT_EQ(std::string(dst.data() + a, 2 * got), expected) << "n " << n;
          }
          if (stop == n) break;
        }
      }
    }
  }
}

}  // namespace
}  // namespace bufstream::kernels
