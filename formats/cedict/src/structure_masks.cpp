#include "structure_masks.hpp"

#include <bufstream/kernels/cpu.hpp>
#include <bufstream/utf8.hpp>

#include <bit>
#include <cstring>
#include <initializer_list>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif
#include <bufstream/kernels/x86/utf8_lookup.hpp>
#if BUFSTREAM_KERNELS_X86_64
#include <immintrin.h>
#define BUFSTREAM_CEDICT_AVX2 1
#endif

namespace bufstream::cedict::detail {

namespace {

// The masks of one 64-byte block: the two of the structure, and for the UTF-8 check (all
// zero when the block is ASCII) the bytes >= 0x80, >= 0xC0 (lead bytes), >= 0xE0 (leads of
// three or four bytes), and the "special" bytes C0 C1 E0 ED F0..FF, whose validity depends on
// more than the shape.
struct BlockBits {
  std::uint64_t newline, slash;
  std::uint64_t high, lead, lead3, special;
  std::uint64_t lead4;  // >= 0xF0; only filled in when `special` is not zero
};

BlockBits classify_block_scalar(const char* p) noexcept {
  BlockBits b{0, 0, 0, 0, 0, 0, 0};
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
      case '/': b.slash |= bit; break;
      default: break;
    }
  }
  return b;
}

#if BUFSTREAM_KERNELS_X86_64
inline std::uint64_t bits16(__m128i v, char c, unsigned at) noexcept {
  const auto m = static_cast<unsigned>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c))));
  return static_cast<std::uint64_t>(m & 0xFFFFu) << at;
}

inline std::uint64_t at_least16(__m128i v, int c, unsigned at) noexcept {  // unsigned v >= c
  const __m128i m = _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(static_cast<char>(c))), v);
  return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(m)) & 0xFFFFu) << at;
}

[[gnu::always_inline]] inline BlockBits classify_block_sse2(const char* p) noexcept {
  BlockBits b{0, 0, 0, 0, 0, 0, 0};
  for (unsigned at = 0; at < 64; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    b.newline |= bits16(v, '\n', at);
    b.slash |= bits16(v, '/', at);
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

// The structure masks only: the AVX2 classifier checks UTF-8 with `lookup::errors`.
__attribute__((target("avx2"), always_inline)) inline BlockBits classify_block_avx2(const char* p) noexcept {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  BlockBits b{bits64(lo, hi, '\n'), bits64(lo, hi, '/'), 0, 0, 0, 0, 0};
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
    slash[w] = b.slash;                                                                \
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
    newline[zero] = slash[zero] = 0;                                                   \
  }                                                                                    \
  return bad == 0;

bool classify_all_portable(const char* text, std::size_t size, std::uint64_t* newline,
                           std::uint64_t* slash) noexcept {
  BUFSTREAM_CEDICT_CLASSIFY_ALL(classify_block_scalar)
}

#if BUFSTREAM_KERNELS_X86_64
bool classify_all_sse2(const char* text, std::size_t size, std::uint64_t* newline, std::uint64_t* slash) noexcept {
  BUFSTREAM_CEDICT_CLASSIFY_ALL(classify_block_sse2)
}
#endif

#if defined(BUFSTREAM_CEDICT_AVX2)
// The AVX2 classifier checks UTF-8 with the stream layer's nibble-table kernel
// (bufstream/kernels/x86/utf8_lookup.hpp), the one `utf8::find_invalid` runs, inlined here into the
// pass that classifies the same bytes.
namespace lookup = kernels::utf8_lookup;

__attribute__((target("avx2"))) bool classify_all_avx2(const char* text, std::size_t size, std::uint64_t* newline,
                                                       std::uint64_t* slash) noexcept {
  const lookup::Tables tables = lookup::tables();
  __m256i prev = _mm256_setzero_si256();  // a chunk starts a line: nothing is pending before it
  __m256i errors = _mm256_setzero_si256();
  std::size_t w = 0;
  for (; (w + 1) * 64 <= size; ++w) {
    const BlockBits b = classify_block_avx2(text + w * 64);
    newline[w] = b.newline;
    slash[w] = b.slash;
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + w * 64));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(text + w * 64 + 32));
    errors = _mm256_or_si256(errors, _mm256_or_si256(lookup::errors(tables, lo, prev), lookup::errors(tables, hi, lo)));
    prev = hi;
  }
  bool valid = _mm256_testz_si256(errors, errors) != 0;
  if (w * 64 < size) {  // the last bytes, padded with zeros (which match nothing)
    alignas(32) char padded[64] = {};
    std::memcpy(padded, text + w * 64, size - w * 64);
    const BlockBits b = classify_block_avx2(padded);
    newline[w] = b.newline;
    slash[w] = b.slash;
    const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded));
    const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded + 32));
    // Only the errors among the text's bytes: a sequence that the padding cuts short is not one.
    const __m256i zero = _mm256_setzero_si256();
    const std::uint64_t ok = top_bits64(_mm256_cmpeq_epi8(lookup::errors(tables, lo, prev), zero),
                                        _mm256_cmpeq_epi8(lookup::errors(tables, hi, lo), zero));
    const std::uint64_t in_range = (std::uint64_t{1} << (size - w * 64)) - 1;
    valid = valid && (~ok & in_range) == 0;
    ++w;
  }
  for (const std::size_t zero : {w, w + 1}) newline[zero] = slash[zero] = 0;
  return valid;
}

bool has_avx2() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}
#endif

#if defined(BUFSTREAM_CEDICT_AVX2)
// AVX-512 (F and BW): 64 bytes per step. The byte compares set mask registers, which are the
// structure words as they stand; the UTF-8 check is the same nibble-table kernel on 64 bytes.
#define BUFSTREAM_CEDICT_AVX512 1
#define BUFSTREAM_CEDICT_AVX512_TARGET __attribute__((target("avx512f,avx512bw")))

BUFSTREAM_CEDICT_AVX512_TARGET bool classify_all_avx512(const char* text, std::size_t size, std::uint64_t* newline,
                                                        std::uint64_t* slash) noexcept {
  const lookup::Tables512 tables = lookup::tables512();
  const __m512i newline_byte = _mm512_set1_epi8('\n');
  const __m512i slash_byte = _mm512_set1_epi8('/');
  __m512i prev = _mm512_setzero_si512();  // a chunk starts a line: nothing is pending before it
  __m512i errors = _mm512_setzero_si512();
  std::size_t w = 0;
  for (; (w + 1) * 64 <= size; ++w) {
    const __m512i in = _mm512_loadu_si512(text + w * 64);
    newline[w] = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(in, newline_byte));
    slash[w] = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(in, slash_byte));
    errors = _mm512_or_si512(errors, lookup::errors512(tables, in, prev));
    prev = in;
  }
  bool valid = _mm512_test_epi8_mask(errors, errors) == 0;
  if (w * 64 < size) {  // the last bytes; those beyond them are loaded as zeros (which match nothing)
    const __mmask64 in_range = _cvtu64_mask64((std::uint64_t{1} << (size - w * 64)) - 1);
    const __m512i in = _mm512_maskz_loadu_epi8(in_range, text + w * 64);
    newline[w] = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(in, newline_byte));
    slash[w] = _cvtmask64_u64(_mm512_cmpeq_epi8_mask(in, slash_byte));
    // Only the errors among the text's bytes: a sequence that the zeros cut short is not one.
    const __m512i last = lookup::errors512(tables, in, prev);
    valid = valid && _mm512_mask_test_epi8_mask(in_range, last, last) == 0;
    ++w;
  }
  for (const std::size_t zero : {w, w + 1}) newline[zero] = slash[zero] = 0;
  return valid;
}

#undef BUFSTREAM_CEDICT_AVX512_TARGET

bool has_avx512() noexcept {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512bw") != 0;
}
#endif
#undef BUFSTREAM_CEDICT_CLASSIFY_ALL

}  // namespace

bool StructureMasks::classify(const char* text, std::size_t size) noexcept {
#if defined(BUFSTREAM_CEDICT_AVX512)
  static const bool avx512 = has_avx512();
  if (avx512) return classify_all_avx512(text, size, newline_, slash_);
#endif
#if defined(BUFSTREAM_CEDICT_AVX2)
  static const bool avx2 = has_avx2();
  if (avx2) return classify_all_avx2(text, size, newline_, slash_);
#endif
#if BUFSTREAM_KERNELS_X86_64
  return classify_all_sse2(text, size, newline_, slash_);
#else
  return classify_all_portable(text, size, newline_, slash_);
#endif
}

bool StructureMasks::available(Classifier c) noexcept {
  switch (c) {
    case Classifier::portable: return true;
#if BUFSTREAM_KERNELS_X86_64
    case Classifier::sse2: return true;
#endif
#if defined(BUFSTREAM_CEDICT_AVX2)
    case Classifier::avx2: return has_avx2();
#endif
#if defined(BUFSTREAM_CEDICT_AVX512)
    case Classifier::avx512: return has_avx512();
#endif
    default: return false;
  }
}

bool StructureMasks::classify_with(Classifier c, const char* text, std::size_t size) noexcept {
  switch (c) {
#if defined(BUFSTREAM_CEDICT_AVX512)
    case Classifier::avx512: return classify_all_avx512(text, size, newline_, slash_);
#endif
#if defined(BUFSTREAM_CEDICT_AVX2)
    case Classifier::avx2: return classify_all_avx2(text, size, newline_, slash_);
#endif
#if BUFSTREAM_KERNELS_X86_64
    case Classifier::sse2: return classify_all_sse2(text, size, newline_, slash_);
#endif
    default: return classify_all_portable(text, size, newline_, slash_);
  }
}

}  // namespace bufstream::cedict::detail
