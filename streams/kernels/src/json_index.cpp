// The structural index of a JSON text (bufstream/kernels/json_index.hpp), a block of 64 bytes
// at a time: the forms classify the block's bytes into five masks, and one portable step
// turns the masks into the block's indexed bytes.
#include <bufstream/kernels/json_index.hpp>

#include <bit>

#include <bufstream/kernels/swar.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <immintrin.h>
#endif

namespace bufstream::kernels::json_index {

namespace {

// The bytes of one block, by class: bit i for byte i.
struct ByteClasses {
  std::uint64_t quote;       // '"'
  std::uint64_t backslash;   // '\\'
  std::uint64_t whitespace;  // ' ', '\t', '\r', '\n'
  std::uint64_t op;          // '{', '}', '[', ']', ':', ','
  std::uint64_t control;     // below 0x20
};

// Bit i of the result is the exclusive or of bits 0..i of x: set from an opening quote up to
// (not including) its closing one.
constexpr std::uint64_t prefix_xor(std::uint64_t x) noexcept {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// The bytes that an escaping backslash precedes. From the left, every backslash that is not
// itself escaped escapes the byte after it; `carry` (bit 0) says that the first byte is
// escaped, and is set for the next block when the last byte escapes. Backslashes are rare
// outside a few strings, so the loop runs once per escape.
inline std::uint64_t escaped_bytes(std::uint64_t backslash, std::uint64_t& carry) noexcept {
  std::uint64_t escaped = carry;
  std::uint64_t escaping = backslash & ~carry;
  carry = 0;
  while (escaping != 0) {
    const int i = std::countr_zero(escaping);
    if (i == 63) {
      carry = 1;
      break;
    }
    escaped |= std::uint64_t{1} << (i + 1);
    escaping &= ~(std::uint64_t{3} << i);
  }
  return escaped;
}

// The indexed bytes of a block, and the carry to the next. `prefix` computes prefix_xor (a
// form may have one instruction for it).
template <class PrefixXor>
[[gnu::always_inline]] inline std::uint64_t indexed_bytes(const ByteClasses& m, Carry& carry,
                                                          PrefixXor prefix) noexcept {
  const std::uint64_t escaped =
      (m.backslash | carry.escaped) == 0 ? 0 : escaped_bytes(m.backslash, carry.escaped);
  const std::uint64_t quote = m.quote & ~escaped;
  const std::uint64_t inside = prefix(quote) ^ carry.in_string;
  carry.in_string = static_cast<std::uint64_t>(static_cast<std::int64_t>(inside) >> 63);
  carry.control_in_string |= m.control & inside;
  const std::uint64_t escapes = m.backslash & ~escaped & inside;
  const std::uint64_t other = ~(m.whitespace | m.op | quote | inside);
  const std::uint64_t run_starts = other & ~((other << 1) | carry.in_run);
  carry.in_run = other >> 63;
  return (m.op & ~inside) | quote | escapes | run_starts;
}

template <class Classify>
[[gnu::always_inline]] inline std::size_t index_with(const char* text, std::size_t blocks,
                                                     Carry& carry, std::uint32_t* out,
                                                     Classify classify) noexcept {
  std::size_t n = 0;
  for (std::size_t w = 0; w < blocks; ++w) {
    std::uint64_t bits = indexed_bytes(classify(text + 64 * w), carry, prefix_xor);
    const auto base = static_cast<std::uint32_t>(64 * w);
    while (bits != 0) {
      out[n++] = base + static_cast<std::uint32_t>(std::countr_zero(bits));
      bits &= bits - 1;
    }
  }
  return n;
}

ByteClasses classify_portable(const char* p) noexcept {
  constexpr std::uint64_t space = swar::broadcast(' ');
  constexpr std::uint64_t tab = swar::broadcast('\t');
  constexpr std::uint64_t cr = swar::broadcast('\r');
  constexpr std::uint64_t lf = swar::broadcast('\n');
  constexpr std::uint64_t quote = swar::broadcast('"');
  constexpr std::uint64_t backslash = swar::broadcast('\\');
  constexpr std::uint64_t lower = swar::broadcast(0x20);
  constexpr std::uint64_t open = swar::broadcast('{');   // '[' | 0x20
  constexpr std::uint64_t close = swar::broadcast('}');  // ']' | 0x20
  constexpr std::uint64_t colon = swar::broadcast(':');
  constexpr std::uint64_t comma = swar::broadcast(',');
  ByteClasses m{0, 0, 0, 0, 0};
  for (unsigned i = 0; i < 8; ++i) {
    const std::uint64_t v = swar::load_memory_order(p + 8 * i);
    const std::uint64_t folded = v | lower;
    const std::uint64_t white = swar::equal_bytes_exact(v, space) |
                                swar::equal_bytes_exact(v, tab) | swar::equal_bytes_exact(v, cr) |
                                swar::equal_bytes_exact(v, lf);
    const std::uint64_t op = swar::equal_bytes_exact(folded, open) |
                             swar::equal_bytes_exact(folded, close) |
                             swar::equal_bytes_exact(v, colon) | swar::equal_bytes_exact(v, comma);
    m.quote |= swar::gather_flags(swar::equal_bytes_exact(v, quote)) << (8 * i);
    m.backslash |= swar::gather_flags(swar::equal_bytes_exact(v, backslash)) << (8 * i);
    m.whitespace |= swar::gather_flags(white) << (8 * i);
    m.op |= swar::gather_flags(op) << (8 * i);
    m.control |= swar::gather_flags(swar::below_bytes_exact(v, 0x20)) << (8 * i);
  }
  return m;
}

std::size_t index_portable(const char* text, std::size_t blocks, Carry& carry,
                           std::uint32_t* out) noexcept {
  return index_with(text, blocks, carry, out, classify_portable);
}

#if BUFSTREAM_KERNELS_X86_64
inline ByteClasses classify_sse2(const char* p) noexcept {
  const __m128i space = _mm_set1_epi8(' ');
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i cr = _mm_set1_epi8('\r');
  const __m128i lf = _mm_set1_epi8('\n');
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i lower = _mm_set1_epi8(0x20);
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  const __m128i colon = _mm_set1_epi8(':');
  const __m128i comma = _mm_set1_epi8(',');
  const __m128i last_control = _mm_set1_epi8(0x1F);
  ByteClasses m{0, 0, 0, 0, 0};
  for (unsigned at = 0; at < 64; at += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
    const __m128i folded = _mm_or_si128(v, lower);
    const __m128i white =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, tab)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, cr), _mm_cmpeq_epi8(v, lf)));
    const __m128i op =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, comma)));
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, last_control), last_control);
    const auto bits = [](__m128i x) {
      return std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(x))};
    };
    m.quote |= bits(_mm_cmpeq_epi8(v, quote)) << at;
    m.backslash |= bits(_mm_cmpeq_epi8(v, backslash)) << at;
    m.whitespace |= bits(white) << at;
    m.op |= bits(op) << at;
    m.control |= bits(control) << at;
  }
  return m;
}

std::size_t index_sse2(const char* text, std::size_t blocks, Carry& carry,
                       std::uint32_t* out) noexcept {
  return index_with(text, blocks, carry, out, classify_sse2);
}

// Whitespace and structural bytes by two nibble look-ups: a byte is in a class when its low
// nibble's entry and its high nibble's entry share a bit.
//   bit 0: 0x09 0x0A 0x0D   bit 1: 0x20   (whitespace)
//   bit 2: 0x2C   bit 3: 0x3A   bit 4: 0x5B 0x5D 0x7B 0x7D   (structural)
// Bytes from 0x80 up have high nibbles 8..F, whose entries are zero.
constexpr std::uint8_t whitespace_bits = 0x03;
constexpr std::uint8_t op_bits = 0x1C;

#define BUFSTREAM_AVX2_TARGET __attribute__((target("avx2,bmi,popcnt")))

BUFSTREAM_AVX2_TARGET inline std::uint64_t bits(__m256i x) noexcept {
  return std::uint64_t{static_cast<std::uint32_t>(_mm256_movemask_epi8(x))};
}

// The bytes whose classes share a bit with `mask`.
BUFSTREAM_AVX2_TARGET inline std::uint64_t in_class(__m256i classes, __m256i mask) noexcept {
  const __m256i outside =
      _mm256_cmpeq_epi8(_mm256_and_si256(classes, mask), _mm256_setzero_si256());
  return ~bits(outside) & 0xFFFFFFFF;
}

BUFSTREAM_AVX2_TARGET inline ByteClasses classify_avx2(const char* p) noexcept {
  const __m256i low_table =
      _mm256_setr_epi8(0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x09, 0x10, 0x04, 0x11, 0, 0,  //
                       0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x09, 0x10, 0x04, 0x11, 0, 0);
  const __m256i high_table =
      _mm256_setr_epi8(0x01, 0, 0x06, 0x08, 0, 0x10, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0,  //
                       0x01, 0, 0x06, 0x08, 0, 0x10, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0);
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i white_mask = _mm256_set1_epi8(whitespace_bits);
  const __m256i op_mask = _mm256_set1_epi8(op_bits);
  const __m256i quote = _mm256_set1_epi8('"');
  const __m256i backslash = _mm256_set1_epi8('\\');
  const __m256i last_control = _mm256_set1_epi8(0x1F);
  ByteClasses m{0, 0, 0, 0, 0};
  for (unsigned at = 0; at < 64; at += 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + at));
    const __m256i low = _mm256_shuffle_epi8(low_table, _mm256_and_si256(v, nibble));
    const __m256i high =
        _mm256_shuffle_epi8(high_table, _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble));
    const __m256i classes = _mm256_and_si256(low, high);
    m.whitespace |= in_class(classes, white_mask) << at;
    m.op |= in_class(classes, op_mask) << at;
    m.quote |= bits(_mm256_cmpeq_epi8(v, quote)) << at;
    m.backslash |= bits(_mm256_cmpeq_epi8(v, backslash)) << at;
    m.control |= bits(_mm256_cmpeq_epi8(_mm256_max_epu8(v, last_control), last_control)) << at;
  }
  return m;
}

// The offsets of a block's set bits, eight at a time without a branch per bit: the writes
// past the last are overwritten by the next block's (`out` has room for 64 per block).
BUFSTREAM_AVX2_TARGET inline std::size_t write_offsets(std::uint64_t bits, std::uint32_t base,
                                                       std::uint32_t* out) noexcept {
  const auto count = static_cast<std::size_t>(_mm_popcnt_u64(bits));
  for (std::size_t i = 0; i < 8; ++i) {
    out[i] = base + static_cast<std::uint32_t>(_tzcnt_u64(bits));
    bits = _blsr_u64(bits);
  }
  for (std::size_t done = 8; done < count; done += 8) {
    for (std::size_t i = 0; i < 8; ++i) {
      out[done + i] = base + static_cast<std::uint32_t>(_tzcnt_u64(bits));
      bits = _blsr_u64(bits);
    }
  }
  return count;
}

BUFSTREAM_AVX2_TARGET std::size_t index_avx2(const char* text, std::size_t blocks, Carry& carry,
                                             std::uint32_t* out) noexcept {
  std::size_t n = 0;
  for (std::size_t w = 0; w < blocks; ++w) {
    const std::uint64_t bits = indexed_bytes(classify_avx2(text + 64 * w), carry, prefix_xor);
    n += write_offsets(bits, static_cast<std::uint32_t>(64 * w), out + n);
  }
  return n;
}

#undef BUFSTREAM_AVX2_TARGET

// AVX-512: the block in one register, each class straight into a mask register; the quotes'
// prefix xor as one carry-less multiplication by all ones; the offsets compressed out of a
// vector of 0..63 (VBMI2) and widened sixteen at a time.
// GCC 12 takes the unmasked broadcast, widening and extraction for reads of an uninitialised
// vector (-Wmaybe-uninitialized); their zero-masked forms with every lane kept are the same.
constexpr __mmask16 all_lanes = 0xFFFF;

#define BUFSTREAM_AVX512_TARGET \
  __attribute__((target("avx512f,avx512bw,avx512vbmi2,avx2,bmi,bmi2,popcnt,pclmul")))

BUFSTREAM_AVX512_TARGET inline ByteClasses classify_avx512(const char* p) noexcept {
  const __m512i low_table = _mm512_maskz_broadcast_i32x4(
      all_lanes, _mm_setr_epi8(0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0x09, 0x10, 0x04, 0x11, 0, 0));
  const __m512i high_table = _mm512_maskz_broadcast_i32x4(
      all_lanes, _mm_setr_epi8(0x01, 0, 0x06, 0x08, 0, 0x10, 0, 0x10, 0, 0, 0, 0, 0, 0, 0, 0));
  const __m512i nibble = _mm512_set1_epi8(0x0F);
  const __m512i v = _mm512_loadu_si512(p);
  const __m512i low = _mm512_shuffle_epi8(low_table, _mm512_and_si512(v, nibble));
  const __m512i high =
      _mm512_shuffle_epi8(high_table, _mm512_and_si512(_mm512_srli_epi16(v, 4), nibble));
  const __m512i classes = _mm512_and_si512(low, high);
  return {
      _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('"'))),
      _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8('\\'))),
      _cvtmask64_u64(_mm512_test_epi8_mask(classes, _mm512_set1_epi8(whitespace_bits))),
      _cvtmask64_u64(_mm512_test_epi8_mask(classes, _mm512_set1_epi8(op_bits))),
      _cvtmask64_u64(_mm512_cmple_epu8_mask(v, _mm512_set1_epi8(0x1F))),
  };
}

BUFSTREAM_AVX512_TARGET inline std::uint64_t prefix_xor_clmul(std::uint64_t x) noexcept {
  const __m128i product =
      _mm_clmulepi64_si128(_mm_cvtsi64_si128(static_cast<std::int64_t>(x)), _mm_set1_epi8(-1), 0);
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(product));
}

// As write_offsets, sixteen at a time: the writes past the last are overwritten by the next
// block's.
BUFSTREAM_AVX512_TARGET inline std::size_t write_offsets_avx512(std::uint64_t bits,
                                                                std::uint32_t base,
                                                                std::uint32_t* out) noexcept {
  const __m512i byte_offsets = _mm512_set_epi8(
      63, 62, 61, 60, 59, 58, 57, 56, 55, 54, 53, 52, 51, 50, 49, 48, 47, 46, 45, 44, 43, 42, 41,
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18,
      17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const __m512i packed = _mm512_maskz_compress_epi8(_cvtu64_mask64(bits), byte_offsets);
  const __m512i bases = _mm512_set1_epi32(static_cast<int>(base));
  const auto count = static_cast<std::size_t>(_mm_popcnt_u64(bits));
  _mm512_storeu_si512(
      out,
      _mm512_add_epi32(bases, _mm512_maskz_cvtepu8_epi32(
                                  all_lanes, _mm512_maskz_extracti32x4_epi32(0xF, packed, 0))));
  if (count > 16) [[unlikely]] {
    _mm512_storeu_si512(
        out + 16,
        _mm512_add_epi32(bases, _mm512_maskz_cvtepu8_epi32(
                                    all_lanes, _mm512_maskz_extracti32x4_epi32(0xF, packed, 1))));
    _mm512_storeu_si512(
        out + 32,
        _mm512_add_epi32(bases, _mm512_maskz_cvtepu8_epi32(
                                    all_lanes, _mm512_maskz_extracti32x4_epi32(0xF, packed, 2))));
    _mm512_storeu_si512(
        out + 48,
        _mm512_add_epi32(bases, _mm512_maskz_cvtepu8_epi32(
                                    all_lanes, _mm512_maskz_extracti32x4_epi32(0xF, packed, 3))));
  }
  return count;
}

BUFSTREAM_AVX512_TARGET std::size_t index_avx512(const char* text, std::size_t blocks, Carry& carry,
                                                 std::uint32_t* out) noexcept {
  std::size_t n = 0;
  for (std::size_t w = 0; w < blocks; ++w) {
    const std::uint64_t bits =
        indexed_bytes(classify_avx512(text + 64 * w), carry, prefix_xor_clmul);
    n += write_offsets_avx512(bits, static_cast<std::uint32_t>(64 * w), out + n);
  }
  return n;
}

#undef BUFSTREAM_AVX512_TARGET
#endif

}  // namespace

const Forms<Index>& index_forms() noexcept {
#if BUFSTREAM_KERNELS_X86_64
  static constexpr Forms<Index> forms{index_portable, index_sse2, index_avx2, index_avx512};
#else
  static constexpr Forms<Index> forms{index_portable};
#endif
  return forms;
}

}  // namespace bufstream::kernels::json_index
