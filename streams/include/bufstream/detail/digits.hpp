// Decimal digits eight at a time: the reading side of every number parser (parse_integer,
// parse_double, the JSON and STON readers' numbers). Not a public API: installed because json's
// event walk, a template over the user's handler, scans its numbers inline with them (out of
// line, the call and its result cost canada.json's events 12% of their time). So it holds no
// intrinsics header and nothing the library's configuration decides: the same body in every
// program that includes it.
//
// A number's digits are read as a 64-bit word of eight bytes in memory order (swar.hpp: the
// first byte lowest on every target, big-endian included): one load, the count of its leading
// digit bytes from the word's trailing zeros, and their value from three multiply-and-mask
// steps. No loop and no branch per digit: a loop per digit ends at a different count for
// nearly every number, and each such end is a mispredicted branch.
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include <bufstream/detail/swar.hpp>

namespace bufstream::detail {

constexpr std::array<std::uint64_t, 20> make_powers_of_ten_u64() noexcept {
  std::array<std::uint64_t, 20> powers{};
  std::uint64_t p = 1;
  for (std::size_t i = 0; i < powers.size(); ++i, p *= 10) powers[i] = p;  // wraps after the last
  return powers;
}

/// 10^0 to 10^19: every power of ten a 64-bit unsigned integer holds.
inline constexpr std::array<std::uint64_t, 20> powers_of_ten_u64 = make_powers_of_ten_u64();

/// 0x80 in each byte of `word` that is not an ASCII digit, exact for the lowest such byte
/// (the bytes above it may be flagged or not). A byte's top bit is set by subtracting '0' when
/// it is below '0', and by adding 0x46 when it is above '9' (0x3A + 0x46 = 0x80; a byte of
/// 0xBA or more carries out instead, but subtracting '0' sets its top bit). A digit neither
/// borrows nor carries, so a borrow or carry only runs upwards from a non-digit.
constexpr std::uint64_t non_digit_bytes(std::uint64_t word) noexcept {
  return ((word + swar::broadcast(0x46)) | (word - swar::broadcast('0'))) & swar::high_bits;
}

/// How many of the word's bytes, from the first, are ASCII digits: 0 to 8.
constexpr unsigned leading_digits(std::uint64_t word) noexcept {
  return static_cast<unsigned>(std::countr_zero(non_digit_bytes(word))) / 8;  // 64 / 8: all
}

/// The value of the first `n` bytes of the word (n from 0 to 8, all digits), the first the
/// most significant. They are moved to the top of the word, zeros below them as leading
/// zeros, and combined pairwise in the register: digits into 2-digit values in 16-bit lanes,
/// those into 4-digit values in 32-bit lanes, those into one; no lane overflows into the next
/// (99 < 2^8, 9999 < 2^16). The bytes after the n digits may borrow from each other when '0'
/// is taken away, never from the digits below them, and are shifted out.
constexpr std::uint64_t digits_value(std::uint64_t word, unsigned n) noexcept {
  const unsigned shift = 32 - 4 * n;  // two shifts of half the distance: n = 0 shifts out all
  std::uint64_t v = ((word - swar::broadcast('0')) << shift) << shift;
  v = (v * 10 + (v >> 8)) & 0x00FF00FF00FF00FF;
  v = (v * 100 + (v >> 16)) & 0x0000FFFF0000FFFF;
  return (v * 10000 + (v >> 32)) & 0xFFFFFFFF;
}

static_assert(leading_digits(0x3736353433323130) == 8);  // "01234567"
static_assert(leading_digits(0x373635342E323130) == 3);  // "012.4567"
static_assert(leading_digits(0x373635343A323130) == 3 && leading_digits(0x373635342F323130) == 3);
static_assert(leading_digits(0x37363534FA323130) == 3 && leading_digits(0x3736353433323120) == 0);
static_assert(leading_digits(0x3736353480323130) == 3 && leading_digits(0x37363534BA323130) == 3);
static_assert(leading_digits(0x0000000000003231) == 2 && leading_digits(0) == 0);
static_assert(digits_value(0x3837363534333231, 8) == 12345678);
static_assert(digits_value(0x3837363534FF3231, 2) == 12);
static_assert(digits_value(0x3939393939393939, 0) == 0);

/// A run of 1 to 7 digits at the start of an eight-byte word, which therefore also holds the
/// byte after them: the commonest integer of a data file, its length and value from one load.
/// `count` is 0 when the word starts with no digit or with eight.
struct WordDigits {
  std::uint64_t value;
  unsigned count;
};
/// The word is the eight bytes at `p`, which must all be readable.
[[gnu::always_inline]] inline WordDigits short_digit_run(const char* p) noexcept {
  const std::uint64_t word = swar::load_memory_order(p);
  const unsigned n = leading_digits(word);
  if (n - 1 >= 7) return {0, 0};  // 0 or 8 (unsigned: 0 - 1 wraps)
  return {digits_value(word, n), n};
}

/// Consumes the digits at `p` (up to `end`), appending them to `value` (modulo 2^64), one byte
/// at a time: the form for runs of a few digits, such as the start of a number's integer part
/// (scan_integer_part). There a loop whose branch the processor predicts beats computing a
/// word's digit count, whose latency the next step waits for.
[[gnu::always_inline]] inline const char* scan_short_digits(const char* p, const char* const end,
                                                            std::uint64_t& value) noexcept {
  for (; p != end; ++p) {
    const unsigned digit = static_cast<unsigned char>(*p) - unsigned{'0'};
    if (digit > 9) break;
    value = value * 10 + digit;
  }
  return p;
}

/// Consumes the digits at `p` (up to `end`), appending them to `value` (value * 10^k + their
/// value, modulo 2^64: callers that need it exact count the digits, at most 19 fit), and
/// returns where they end. Eight at a time while eight bytes are left, then the rest from one
/// partial load.
[[gnu::always_inline]] inline const char* scan_digits(const char* p, const char* const end,
                                                      std::uint64_t& value) noexcept {
  // Appends the word's leading digits and returns how many there were. The first word is
  // written out before the loop: most numbers end in it, and when the caller starts from
  // value 0 the compiler drops its multiplication.
  const auto append = [&value](std::uint64_t word) {
    const unsigned n = leading_digits(word);
    value = value * powers_of_ten_u64[n] + digits_value(word, n);
    return n;
  };
  if (end - p >= 8) {
    unsigned n = append(swar::load_memory_order(p));
    while (n == 8) {
      p += 8;
      if (end - p < 8) break;
      n = append(swar::load_memory_order(p));
    }
    if (n < 8) return p + n;
  }
  // Fewer than eight bytes left: zeros past `end`, which are not digits.
  return p + append(swar::load_memory_order_partial(p, static_cast<std::size_t>(end - p)));
}

/// Consumes a number's integer part at `p` (up to `end`) as scan_digits does. Most are a few
/// digits ("-65.6136", "12,"): up to four are read a byte at a time, written out (a loop
/// costs a counter and a compare per digit: canada.json's events 4% more instructions),
/// longer ones (identifiers, large integers) go on by words. Measured against words alone:
/// json::Document's parse of canada.json 8.6% faster; against bytes alone: bufstream-bench's
/// CSV read of 25,000 rows 14-18% faster, its JSON read of integers 4-6%.
[[gnu::always_inline]] inline const char* scan_integer_part(const char* p, const char* const end,
                                                            std::uint64_t& value) noexcept {
  if (end - p <= 4) return scan_short_digits(p, end, value);
  const auto digit = [p](int i) { return static_cast<unsigned char>(p[i]) - unsigned{'0'}; };
  unsigned d = digit(0);
  if (d > 9) return p;
  value = value * 10 + d;
  if ((d = digit(1)) > 9) return p + 1;
  value = value * 10 + d;
  if ((d = digit(2)) > 9) return p + 2;
  value = value * 10 + d;
  if ((d = digit(3)) > 9) return p + 3;
  value = value * 10 + d;
  return scan_digits(p + 4, end, value);
}

/// The digits that lead sixteen bytes, from one pass over all sixteen: a number's fraction,
/// which in data files is mostly 6 to 15 digits long. No branch depends on the count: each
/// different count is a different way through scan_digits, and each change a mispredicted
/// branch. The value is scaled to sixteen digits, as if zeros followed the digits, so that no
/// step depends on the count either; a number parser then takes the exponent as -16.
struct ScaledDigits {
  std::uint64_t value;  // the leading digits' value times 10^(16 - count)
  unsigned count;       // how many bytes lead that are digits: 0 to 16 (16: more may follow)
};

/// The sixteen bytes' lanes, in GCC's and Clang's generic vectors (SSE2 on x86-64, NEON on
/// AArch64, words elsewhere). A lane's first byte in memory is its more significant digit:
/// the low byte of a 16-bit lane on a little-endian target, the high one on a big-endian one,
/// and so on for the wider lanes.
namespace lanes {
using u8x16 = unsigned char __attribute__((vector_size(16)));
using i8x16 = signed char __attribute__((vector_size(16)));
using i16x8 = short __attribute__((vector_size(16)));
using u32x4 = std::uint32_t __attribute__((vector_size(16)));
using u64x2 = std::uint64_t __attribute__((vector_size(16)));
inline constexpr bool little = std::endian::native == std::endian::little;

/// The digits' values of the sixteen bytes at `p`: 0 to 9 for a digit, above 9 for any other.
inline u8x16 values(const char* p) noexcept {
  u8x16 bytes;
  std::memcpy(&bytes, p, 16);
  return bytes - '0';
}

/// The values of the first `count` lanes as 2-digit values in 16-bit lanes, the others zero.
inline i16x8 leading_pairs(u8x16 values, unsigned count) noexcept {
  constexpr i8x16 index = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
  const u8x16 digits = values & std::bit_cast<u8x16>(index < static_cast<signed char>(count));
  const auto d = std::bit_cast<i16x8>(digits);
  return little ? (d & 0xFF) * 10 + (d >> 8) : (d >> 8) * 10 + (d & 0xFF);
}
}  // namespace lanes

/// The generic form: the count from the lanes read as two words, the pairs combined in 32-bit
/// lanes and then in scalar words. Every target can run it; the tests run it on x86-64 too.
inline ScaledDigits sixteen_digits_generic(const char* p) noexcept {
  using namespace lanes;
  const u8x16 v = values(p);
  const auto words = std::bit_cast<u64x2>(v > 9);
  const auto lead = [](std::uint64_t w) {  // a word's leading digit lanes: 0 to 8
    return static_cast<unsigned>(little ? std::countr_zero(w) : std::countl_zero(w)) / 8;
  };
  const unsigned first = lead(words[0]);
  const unsigned count = first == 8 ? 8 + lead(words[1]) : first;
  const i16x8 scaled = leading_pairs(v, count) * i16x8{100, 1, 100, 1, 100, 1, 100, 1};
  const auto q32 = std::bit_cast<u32x4>(scaled);  // 99 * 100 + 99 < 2^15: no lane overflows
  const auto quads = std::bit_cast<u64x2>((q32 & 0xFFFF) + (q32 >> 16));
  const auto eight = [](std::uint64_t w) {
    return little ? (w & 0xFFFFFFFF) * 10000 + (w >> 32) : (w >> 32) * 10000 + (w & 0xFFFFFFFF);
  };
  return {eight(quads[0]) * 100000000 + eight(quads[1]), count};
}

#if defined(__SSE2__)
/// The x86-64 form: the generic lanes, with the three SSE2 operations that generic vectors do
/// not express as the compiler's own builtins (no intrinsics header, and no build option
/// decides it: every x86-64 target has SSE2). The count from the lanes' top bits (pmovmskb),
/// the pairs combined by multiply-adds of adjacent lanes (pmaddwd, packssdw). The generic form
/// alone cost canada.json's events 12% and its document 8% (bufstream-bench json-files, three
/// rounds side by side).
inline ScaledDigits sixteen_digits_sse2(const char* p) noexcept {
  using namespace lanes;
  using c8x16 = char __attribute__((vector_size(16)));
  using i32x4 = int __attribute__((vector_size(16)));
  const u8x16 v = values(p);
  const auto top_bits = __builtin_ia32_pmovmskb128(std::bit_cast<c8x16>(v > 9));
  const auto count =
      static_cast<unsigned>(std::countr_zero(static_cast<unsigned>(top_bits) | 0x10000U));
  const i32x4 quads =
      __builtin_ia32_pmaddwd128(leading_pairs(v, count), i16x8{100, 1, 100, 1, 100, 1, 100, 1});
  const i32x4 eights = __builtin_ia32_pmaddwd128(__builtin_ia32_packssdw128(quads, quads),
                                                 i16x8{10000, 1, 10000, 1, 10000, 1, 10000, 1});
  const std::uint64_t both = std::bit_cast<u64x2>(eights)[0];
  return {(both & 0xFFFFFFFF) * 100000000 + (both >> 32), count};
}
#endif

/// The digits that lead the sixteen bytes at `p`, which must all be readable.
inline ScaledDigits sixteen_digits(const char* p) noexcept {
#if defined(__SSE2__)
  return sixteen_digits_sse2(p);
#else
  return sixteen_digits_generic(p);
#endif
}

/// The value of the digits `[p, end)` and whether it is one: false when a byte is not a
/// digit, there is none, or the value does not fit in 64 bits. Leading zeros are allowed.
struct DigitsValue {
  std::uint64_t value;
  bool ok;
};
inline DigitsValue value_of_digits(const char* p, const char* const end) noexcept {
  // 1 to 8 digits, the commonest field: one load, no loop.
  if (const auto n = static_cast<std::size_t>(end - p); n - 1 < 8) {
    const std::uint64_t word = swar::load_memory_order_partial(p, n);
    const unsigned count = leading_digits(word);
    return {digits_value(word, count), count == n};
  }
  if (p == end) return {0, false};
  // Any 19 digits fit in 64 bits, a 20th only sometimes; more only as leading zeros.
  while (end - p > 19 && *p == '0') ++p;
  const auto n = end - p;
  if (n > 20) return {0, false};
  std::uint64_t value = 0;
  if (scan_digits(p, end, value) != end) return {0, false};
  // 20 digits: at most 18446744073709551615; a larger one wrapped, to below 10^19.
  if (n == 20 && (*p > '1' || value < powers_of_ten_u64[19])) return {0, false};
  return {value, true};
}

}  // namespace bufstream::detail
