#include "structure_masks.hpp"

#include <bufstream/utf8.hpp>

#include <bit>
#include <cstring>
#include <initializer_list>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define BUFSTREAM_CEDICT_AVX2 1
#endif

namespace bufstream::cedict::detail {

namespace {

// The masks of one 64-byte block: the four of the structure, and for the UTF-8 check (all
// zero when the block is ASCII) the bytes >= 0x80, >= 0xC0 (lead bytes), >= 0xE0 (leads of
// three or four bytes), and the "special" bytes C0 C1 E0 ED F0..FF, whose validity depends on
// more than the shape.
struct BlockBits {
  std::uint64_t newline, space, slash, close;
  std::uint64_t high, lead, lead3, special;
  std::uint64_t lead4;  // >= 0xF0; only filled in when `special` is not zero
};

BlockBits classify_block_scalar(const char* p) noexcept {
  BlockBits b{0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (unsigned i = 0; i < 64; ++i) {
    const std::uint64_t bit = std::uint64_t{1} << i;
    const auto u = static_cast<unsigned char>(p[i]);
    if (u >= 0x80) b.high |= bit;
    if (u >= 0xC0) b.lead |= bit;
    if (u >= 0xE0) b.lead3 |= bit;
    if (u >= 0xF0) b.lead4 |= bit;
    if (u == 0xC0 || u == 0xC1 || u == 0xE0 || u == 0xED || u >= 0xF0) b.special |= bit;
    switch (p[i]) {
      case '\n': b.newline |= bit; break;
      case ' ': b.space |= bit; break;
      case '/': b.slash |= bit; break;
      case ']': b.close |= bit; break;
      default: break;
    }
  }
  return b;
}

#if defined(__SSE2__)
inline std::uint64_t bits16(__m128i v, char c, unsigned at) noexcept {
  const auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c))));
  return static_cast<std::uint64_t>(m & 0xFFFFu) << at;
}

inline std::uint64_t at_least16(__m128i v, int c, unsigned at) noexcept {  // unsigned v >= c
  const __m128i m = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(static_cast<char>(c))), v);
  return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(m)) & 0xFFFFu) << at;
}

[[gnu::always_inline]] inline BlockBits classify_block_sse2(const char* p) noexcept {
  BlockBits b{0, 0, 0, 0, 0, 0, 0, 0, 0};
  for (unsigned at = 0; at < 64; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    b.newline |= bits16(v, '\n', at);
    b.space |= bits16(v, ' ', at);
    b.slash |= bits16(v, '/', at);
    b.close |= bits16(v, ']', at);
    const std::uint64_t high = static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(v)) & 0xFFFFu) << at;
    if (high == 0) continue;
    b.high |= high;
    b.lead |= at_least16(v, 0xC0, at);
    b.lead3 |= at_least16(v, 0xE0, at);
    b.lead4 |= at_least16(v, 0xF0, at);
    const __m128i c0_c1 = _mm_and_si128(v, _mm_set1_epi8(static_cast<char>(0xFE)));
    b.special |= bits16(c0_c1, static_cast<char>(0xC0), at) | bits16(v, static_cast<char>(0xE0), at) |
                 bits16(v, static_cast<char>(0xED), at) | at_least16(v, 0xF0, at);
  }
  return b;
}
#endif

#if defined(BUFSTREAM_CEDICT_AVX2)
__attribute__((target("avx2"))) inline std::uint64_t bits64(__m256i lo, __m256i hi, char c) noexcept {
  const __m256i cc = _mm256_set1_epi8(c);
  const auto l = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, cc)));
  const auto h = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, cc)));
  return (static_cast<std::uint64_t>(h) << 32) | l;
}

// The top bit of each byte of 64.
__attribute__((target("avx2"))) inline std::uint64_t top_bits64(__m256i lo, __m256i hi) noexcept {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(_mm256_movemask_epi8(hi))) << 32) |
         static_cast<std::uint32_t>(_mm256_movemask_epi8(lo));
}

// The structure masks only: the AVX2 classifier checks UTF-8 with `utf8_errors`.
__attribute__((target("avx2"), always_inline)) inline BlockBits classify_block_avx2(const char* p) noexcept {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  BlockBits b{bits64(lo, hi, '\n'), bits64(lo, hi, ' '), bits64(lo, hi, '/'), bits64(lo, hi, ']'), 0, 0, 0, 0, 0};
  return b;
}
#endif

// Whether a sequence led by one of the special bytes `special` (bit i: byte block[i]) breaks a
// rule beyond its shape (overlong, surrogate, above U+10FFFF, never a lead), or is cut short
// by `end`: the decoder looks at each. They are rare (CC-CEDICT has 188 F0 leads in 9 MB).
std::uint64_t special_values_bad(const char* block, std::uint64_t special, const char* end) noexcept {
  for (; special != 0; special &= special - 1) {
    const char* const p = block + std::countr_zero(special);
    if (utf8::decode(p, end).error != utf8::Error::none) return 1;
  }
  return 0;
}

// The body of the classification, for each `classify_block`; a macro, so that the AVX2
// version's loop is compiled for AVX2 too and inlines its block function. The UTF-8 check:
// every continuation byte must be where a lead byte (or one of the previous block, `carry`)
// says one must be; `bad` collects the bytes where that fails, and the special bytes whose
// sequences break a rule beyond the shape.
#define BUFSTREAM_CEDICT_CLASSIFY_ALL(classify_block)                                  \
  std::uint64_t carry = 0;                                                             \
  std::uint64_t bad = 0;                                                               \
  const auto store = [&](std::size_t w, const BlockBits& b, std::uint64_t in_range) {  \
    newline[w] = b.newline;                                                            \
    space[w] = b.space;                                                                \
    slash[w] = b.slash;                                                                \
    close[w] = b.close;                                                                \
    if ((b.high | carry) != 0) {                                                       \
      const std::uint64_t expected = (b.lead << 1) | (b.lead3 << 2) | (b.lead4 << 3) | carry; \
      bad |= (expected ^ (b.high & ~b.lead)) & in_range;                               \
      carry = (b.lead >> 63) | (b.lead3 >> 62) | (b.lead4 >> 61);                      \
      if ((b.special & in_range) != 0) [[unlikely]] {                                  \
        bad |= special_values_bad(text + w * 64, b.special & in_range, text + size);   \
      }                                                                                \
    }                                                                                  \
  };                                                                                   \
  std::size_t w = 0;                                                                   \
  for (; (w + 1) * 64 <= size; ++w) store(w, classify_block(text + w * 64), ~std::uint64_t{0}); \
  if (w * 64 < size) { /* the last bytes, padded with zeros (which match nothing) */   \
    char padded[64] = {};                                                              \
    std::memcpy(padded, text + w * 64, size - w * 64);                                 \
    store(w, classify_block(padded), (std::uint64_t{1} << (size - w * 64)) - 1);       \
    ++w;                                                                               \
  }                                                                                    \
  for (const std::size_t zero : {w, w + 1}) {                                          \
    newline[zero] = space[zero] = slash[zero] = close[zero] = 0;                       \
  }                                                                                    \
  return bad == 0;

bool classify_all_portable(const char* text, std::size_t size, std::uint64_t* newline, std::uint64_t* space,
                           std::uint64_t* slash, std::uint64_t* close) noexcept {
  BUFSTREAM_CEDICT_CLASSIFY_ALL(classify_block_scalar)
}

#if defined(__SSE2__)
bool classify_all_sse2(const char* text, std::size_t size, std::uint64_t* newline, std::uint64_t* space,
                       std::uint64_t* slash, std::uint64_t* close) noexcept {
  BUFSTREAM_CEDICT_CLASSIFY_ALL(classify_block_sse2)
}
#endif

#if defined(BUFSTREAM_CEDICT_AVX2)
// The UTF-8 check of the AVX2 classifier: the three-table method of Keiser and Lemire
// ("Validating UTF-8 in less than one instruction per byte", 2021). Each byte is judged with
// the byte before it: the high nibble of the previous byte, its low nibble and the high nibble
// of this byte each look up a set of the errors that they allow (a bit per kind of error); a
// bit left in all three is an error, except that a continuation after a continuation must
// be exactly where a three- or four-byte lead two or three bytes back calls for one.
namespace utf8_tables {
constexpr std::uint8_t too_short = 1 << 0;    // a lead, then no continuation
constexpr std::uint8_t too_long = 1 << 1;     // ASCII, then a continuation
constexpr std::uint8_t overlong_3 = 1 << 2;   // E0 80..9F
constexpr std::uint8_t too_large = 1 << 3;    // F4 90..BF, F5.. and up
constexpr std::uint8_t surrogate = 1 << 4;    // ED A0..BF
constexpr std::uint8_t overlong_2 = 1 << 5;   // C0, C1
constexpr std::uint8_t too_large_1000 = 1 << 6;  // F5..FF then 80..8F
constexpr std::uint8_t overlong_4 = 1 << 6;      // F0 80..8F (the same bit: both take 8x second bytes)
constexpr std::uint8_t two_conts = 1 << 7;       // a continuation after a continuation
constexpr std::uint8_t carry = too_short | too_long | two_conts;  // whatever the low nibble
}  // namespace utf8_tables

// A 16-entry table, in both 128-bit lanes (VPSHUFB looks up within a lane).
__attribute__((target("avx2"))) inline __m256i nibble_table(const std::uint8_t (&t)[16]) noexcept {
  const __m128i lane = _mm_loadu_si128(reinterpret_cast<const __m128i*>(t));
  return _mm256_broadcastsi128_si256(lane);
}

// `in` moved `N` bytes later, with the last `N` bytes of `prev` in front.
template <int N>
__attribute__((target("avx2"))) inline __m256i previous_bytes(__m256i in, __m256i prev) noexcept {
  return _mm256_alignr_epi8(in, _mm256_permute2x128_si256(prev, in, 0x21), 16 - N);
}

struct Utf8Tables {
  __m256i first_high, first_low, second_high;
};

// Nonzero bytes where `in` (after `prev`) is not valid UTF-8 (a sequence cut short by the end
// of `in` is not flagged: the next call sees it).
__attribute__((target("avx2"))) inline __m256i utf8_errors(const Utf8Tables& t, __m256i in, __m256i prev) noexcept {
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i prev1 = previous_bytes<1>(in, prev);
  const __m256i first_high = _mm256_shuffle_epi8(t.first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
  const __m256i first_low = _mm256_shuffle_epi8(t.first_low, _mm256_and_si256(prev1, nibble));
  const __m256i second_high = _mm256_shuffle_epi8(t.second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
  const __m256i special = _mm256_and_si256(_mm256_and_si256(first_high, first_low), second_high);
  // Bit 7 where the byte two back leads three or four bytes, or the byte three back leads four.
  const __m256i third = _mm256_subs_epu8(previous_bytes<2>(in, prev), _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80)));
  const __m256i fourth = _mm256_subs_epu8(previous_bytes<3>(in, prev), _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80)));
  const __m256i must_continue =
      _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(static_cast<char>(0x80)));
  return _mm256_xor_si256(must_continue, special);
}

__attribute__((target("avx2"))) bool classify_all_avx2(const char* text, std::size_t size, std::uint64_t* newline,
                                                       std::uint64_t* space, std::uint64_t* slash,
                                                       std::uint64_t* close) noexcept {
  using namespace utf8_tables;
  static constexpr std::uint8_t first_high[16] = {
      too_long, too_long, too_long, too_long, too_long, too_long, too_long, too_long,  // 0x..7x
      two_conts, two_conts, two_conts, two_conts,                                      // 8x..Bx
      too_short | overlong_2,                                                          // Cx
      too_short,                                                                       // Dx
      too_short | overlong_3 | surrogate,                                              // Ex
      too_short | too_large | too_large_1000 | overlong_4,                             // Fx
  };
  static constexpr std::uint8_t first_low[16] = {
      carry | overlong_3 | overlong_2 | overlong_4,  // x0
      carry | overlong_2,                            // x1
      carry, carry,                                  // x2 x3
      carry | too_large,                             // x4
      carry | too_large | too_large_1000, carry | too_large | too_large_1000, carry | too_large | too_large_1000,
      carry | too_large | too_large_1000, carry | too_large | too_large_1000, carry | too_large | too_large_1000,
      carry | too_large | too_large_1000, carry | too_large | too_large_1000,  // x5..xC
      carry | too_large | too_large_1000 | surrogate,                          // xD
      carry | too_large | too_large_1000, carry | too_large | too_large_1000,  // xE xF
  };
  static constexpr std::uint8_t second_high[16] = {
      too_short, too_short, too_short, too_short, too_short, too_short, too_short, too_short,  // 0x..7x
      too_long | overlong_2 | two_conts | overlong_3 | too_large_1000 | overlong_4,           // 8x
      too_long | overlong_2 | two_conts | overlong_3 | too_large,                             // 9x
      too_long | overlong_2 | two_conts | surrogate | too_large,                              // Ax
      too_long | overlong_2 | two_conts | surrogate | too_large,                              // Bx
      too_short, too_short, too_short, too_short,                                             // Cx..Fx
  };
  const Utf8Tables tables{nibble_table(first_high), nibble_table(first_low), nibble_table(second_high)};
  __m256i prev = _mm256_setzero_si256();  // a chunk starts a line: nothing is pending before it
  __m256i errors = _mm256_setzero_si256();
  std::size_t w = 0;
  for (; (w + 1) * 64 <= size; ++w) {
    const BlockBits b = classify_block_avx2(text + w * 64);
    newline[w] = b.newline;
    space[w] = b.space;
    slash[w] = b.slash;
    close[w] = b.close;
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + w * 64));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + w * 64 + 32));
    errors = _mm256_or_si256(errors, _mm256_or_si256(utf8_errors(tables, lo, prev), utf8_errors(tables, hi, lo)));
    prev = hi;
  }
  bool valid = _mm256_testz_si256(errors, errors) != 0;
  if (w * 64 < size) {  // the last bytes, padded with zeros (which match nothing)
    alignas(32) char padded[64] = {};
    std::memcpy(padded, text + w * 64, size - w * 64);
    const BlockBits b = classify_block_avx2(padded);
    newline[w] = b.newline;
    space[w] = b.space;
    slash[w] = b.slash;
    close[w] = b.close;
    const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded));
    const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded + 32));
    // Only the errors among the text's bytes: a sequence that the padding cuts short is not one.
    const __m256i zero = _mm256_setzero_si256();
    const std::uint64_t ok = top_bits64(_mm256_cmpeq_epi8(utf8_errors(tables, lo, prev), zero),
                                        _mm256_cmpeq_epi8(utf8_errors(tables, hi, lo), zero));
    const std::uint64_t in_range = (std::uint64_t{1} << (size - w * 64)) - 1;
    valid = valid && (~ok & in_range) == 0;
    ++w;
  }
  for (const std::size_t zero : {w, w + 1}) newline[zero] = space[zero] = slash[zero] = close[zero] = 0;
  return valid;
}

bool has_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}
#endif
#undef BUFSTREAM_CEDICT_CLASSIFY_ALL

}  // namespace

bool StructureMasks::classify(const char* text, std::size_t size) noexcept {
#if defined(BUFSTREAM_CEDICT_AVX2)
  static const bool avx2 = has_avx2();
  if (avx2) return classify_all_avx2(text, size, newline_, space_, slash_, close_);
#endif
#if defined(__SSE2__)
  return classify_all_sse2(text, size, newline_, space_, slash_, close_);
#else
  return classify_all_portable(text, size, newline_, space_, slash_, close_);
#endif
}

bool StructureMasks::available(Classifier c) noexcept {
  switch (c) {
    case Classifier::portable: return true;
#if defined(__SSE2__)
    case Classifier::sse2: return true;
#endif
#if defined(BUFSTREAM_CEDICT_AVX2)
    case Classifier::avx2: return has_avx2();
#endif
    default: return false;
  }
}

bool StructureMasks::classify_with(Classifier c, const char* text, std::size_t size) noexcept {
  switch (c) {
#if defined(BUFSTREAM_CEDICT_AVX2)
    case Classifier::avx2: return classify_all_avx2(text, size, newline_, space_, slash_, close_);
#endif
#if defined(__SSE2__)
    case Classifier::sse2: return classify_all_sse2(text, size, newline_, space_, slash_, close_);
#endif
    default: return classify_all_portable(text, size, newline_, space_, slash_, close_);
  }
}

}  // namespace bufstream::cedict::detail
