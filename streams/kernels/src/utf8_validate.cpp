// The UTF-8 validation kernel behind utf8::find_invalid: a block of 16, 32 or 64 bytes at a time.
//
// With AVX2: the nibble-table check (bufstream/kernels/x86/utf8_lookup.hpp), which judges every
// byte with the three before it, 64 bytes at a time; at the first block with an error, the
// byte-by-byte decoder says exactly where and what.
//
// With SSE2 only (which has no byte shuffle for the tables): from a position known to start a
// sequence, one block is classified with vector compares into bit masks (one bit per byte):
// non-ASCII bytes, lead bytes (>= 0xC0), leads of three or four bytes (>= 0xE0), and "special"
// bytes whose validity depends on more than the shape (C0 C1 E0 ED, and F0..FF: the four-byte
// leads are rare enough to check one by one). Without special bytes, a block is valid exactly
// when its continuation bytes (10xxxxxx) are where its lead bytes say they must be:
// `lead << 1 | lead3 << 2 == continuation`. A sequence that runs past the block's end is
// checked by the next block, which starts at its lead. Anything else (an error, or a special
// byte) sends that one block to the byte-by-byte decoder, which says exactly what is wrong; so
// the fast path only ever has to accept.
#include <bufstream/kernels/utf8.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>

#include <bufstream/kernels/x86/utf8_lookup.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif

namespace bufstream::kernels::utf8 {

using bufstream::utf8::decode;
using bufstream::utf8::Decoded;
using bufstream::utf8::Error;
using bufstream::utf8::Invalid;

namespace {

// Decodes from `p` (the start of a sequence) until the first sequence boundary at or after
// `stop`, or `end`, and moves `p` there. Returns false at an error, which is stored in `bad`.
// (Not a pointer with nullptr for the error: an empty text may have a null data pointer.)
bool check_bytes(const char* begin, const char*& p, const char* stop, const char* end,
                 Invalid& bad) noexcept {
  while (p < stop) {
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++p;
      continue;
    }
    const Decoded d = decode(p, end);
    if (d.error != Error::none) {
      bad = {static_cast<std::size_t>(p - begin), d.error};
      return false;
    }
    p += d.length;
  }
  return true;
}

Result find_invalid_scalar(std::string_view text) noexcept {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* p = begin;
  Invalid bad{};
  while (p != end) {
    // ASCII runs are the common case: eight bytes at a time.
    while (end - p >= 8) {
      std::uint64_t chunk;
      std::memcpy(&chunk, p, 8);
      if ((chunk & 0x8080808080808080ULL) != 0) break;
      p += 8;
    }
    // One sequence (or up to eight ASCII bytes), then back to the word loop.
    if (!check_bytes(begin, p, std::min(p + 8, end), end, bad)) return bad;
  }
  return std::nullopt;
}

// The verdict on one block's masks (bit i for byte i), the block starting a sequence:
// how far the caller may move on (up to `width`), or 0 if the block needs the decoder.
inline std::size_t accepted_bytes(std::uint64_t high, std::uint64_t lead, std::uint64_t lead3,
                                  std::uint64_t special, unsigned width) noexcept {
  if (special != 0) return 0;
  const std::uint64_t expected = (lead << 1) | (lead3 << 2);
  const std::uint64_t in_block = (std::uint64_t{1} << width) - 1;
  if ((expected & in_block) != (high & ~lead)) return 0;
  if ((expected >> width) == 0) return width;
  // The last sequence continues in the next block: stop at its lead (at least width - 3).
  return static_cast<std::size_t>(63 - std::countl_zero(lead));
}

#if BUFSTREAM_KERNELS_X86_64
Result find_invalid_sse2(std::string_view text) noexcept {
  const char* const begin = text.data();
  const char* const end = begin + text.size();
  const char* p = begin;
  Invalid bad{};
  const auto at_least = [](__m128i v, int c) {  // unsigned v >= c
    return _mm_cmpeq_epi8(_mm_max_epu8(v, _mm_set1_epi8(static_cast<char>(c))), v);
  };
  const auto eq = [](__m128i v, int c) {
    return _mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(c)));
  };
  const auto bits = [](__m128i v) {
    return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(v)) & 0xFFFFu);
  };
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const std::uint64_t high = bits(v);
    if (high == 0) {
      p += 16;
      continue;
    }
    const __m128i c0_c1 = eq(_mm_and_si128(v, _mm_set1_epi8(static_cast<char>(0xFE))), 0xC0);
    const std::uint64_t special = bits(_mm_or_si128(_mm_or_si128(c0_c1, eq(v, 0xE0)),
                                                    _mm_or_si128(eq(v, 0xED), at_least(v, 0xF0))));
    if (const std::size_t n =
            accepted_bytes(high, bits(at_least(v, 0xC0)), bits(at_least(v, 0xE0)), special, 16)) {
      p += n;
      continue;
    }
    if (!check_bytes(begin, p, p + 16, end, bad)) return bad;
  }
  if (!check_bytes(begin, p, end, end, bad)) return bad;
  return std::nullopt;
}
#endif

#if BUFSTREAM_KERNELS_X86_64
// True if the `size` bytes at `p` are all ASCII; eight at a time.
bool is_ascii(const char* p, std::size_t size) noexcept {
  std::uint64_t high = 0;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, p + i, 8);
    high |= word;
  }
  for (; i < size; ++i) high |= static_cast<unsigned char>(p[i]);
  return (high & 0x8080808080808080ULL) == 0;
}

// The first error of `text`, where the table check flagged one in the 64-byte block at
// `block` (and none before it): the decoder finds it exactly. An error is flagged at most three
// bytes after the start of its sequence, so the first bad sequence starts at `block - 3` or
// later, and everything before that is valid; the decoder starts at the sequence that holds
// byte `block - 4` (a lead, or ASCII, at most three bytes earlier).
Result exact_error(const char* begin, std::size_t size, std::size_t block) noexcept {
  std::size_t from = block >= 4 ? block - 4 : 0;
  while (from > 0 && (static_cast<unsigned char>(begin[from]) & 0xC0) == 0x80) --from;
  Result bad = find_invalid_scalar({begin + from, size - from});
  if (bad) bad->offset += from;
  return bad;
}

// Three nibble-table look-ups per byte (bufstream/kernels/x86/utf8_lookup.hpp), 64 bytes at a time,
// an ASCII block only checked for a sequence that the block before left unfinished; the last
// bytes padded with zeros, which end any sequence, so that one cut short by the end is flagged.
__attribute__((target("avx2"))) Result find_invalid_avx2(std::string_view text) noexcept {
  namespace lookup = utf8_lookup;
  const char* const begin = text.data();
  const std::size_t size = text.size();
  if (size < 64 && is_ascii(begin, size)) return std::nullopt;  // names, keys, short strings
  const lookup::Tables tables = lookup::tables();
  __m256i prev = _mm256_setzero_si256();
  std::size_t block = 0;
  for (; size - block >= 64; block += 64) {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(begin + block));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(begin + block + 32));
    const __m256i errors =
        _mm256_movemask_epi8(_mm256_or_si256(lo, hi)) == 0
            ? lookup::incomplete(prev)
            : _mm256_or_si256(lookup::errors(tables, lo, prev), lookup::errors(tables, hi, lo));
    if (_mm256_testz_si256(errors, errors) == 0) return exact_error(begin, size, block);
    prev = hi;
  }
  alignas(32) char padded[64] = {};
  if (size != block)
    std::memcpy(padded, begin + block, size - block);  // (an empty text may have no data)
  const __m256i lo = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded));
  const __m256i hi = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded + 32));
  const __m256i errors =
      _mm256_or_si256(lookup::errors(tables, lo, prev), lookup::errors(tables, hi, lo));
  if (_mm256_testz_si256(errors, errors) == 0) return exact_error(begin, size, block);
  return std::nullopt;
}
#endif

}  // namespace

const Forms<Validate>& validate_forms() noexcept {
#if BUFSTREAM_KERNELS_X86_64
  static constexpr Forms<Validate> forms{find_invalid_scalar, find_invalid_sse2, find_invalid_avx2};
#else
  static constexpr Forms<Validate> forms{find_invalid_scalar};
#endif
  return forms;
}

}  // namespace bufstream::kernels::utf8
