// Byte-set search: the first byte of a text that is in a small set (one to four bytes, and
// optionally the control or the non-ASCII bytes), and the same test made while the text is
// copied (copy_finding_any). It answers "where is the next one" for a text of any length, from
// any byte, reading nothing past its end: the CSV reader's fields outside its fast path and the
// CSV writer's check for quoting, the JSON reader's strings where no token masks cover the
// cursor (compact JSON), the JSON and STON writers' escape checks and short-string copies, the
// STON reader's strings, escapes::write_escaped's runs and the CEDICT line parser's long lines.
//
// Why no other classifier: the others make masks of whole 64-byte blocks (nested_byte_sets,
// byte_pair) or of a whole text (token_masks, structure_masks, json_index), read with bit scans
// after; a short string would pay for every byte of its blocks. With token masks for them,
// compact JSON's ASCII strings read 10-15% slower than with this search (f257316). The fused
// copy: a search then a memcpy cost the JSON and STON writes 8-10% (a679f3e: json write
// integers 1.479 -> 1.325 ms, ston write floats 3.384 -> 3.126).
//
// It has no 64-byte mask of its own: that job is nested_byte_sets' (the CSV reader's stop
// masks) and byte_pair's (CEDICT), and the mask this class had lost its last caller to the
// former (63a4d53) and was deleted.
//
// Forms: SSE2 (x86-64, sixteen bytes per step; always used there, not chosen through
// kernels::select) and portable (SWAR, eight bytes per step in a 64-bit word, the last 1-7 in
// one partial word). Both never read outside the text they are given. SSE2 over SWAR, in
// bufstream-bench against a build with the portable form on x86-64 too (3 rounds side by
// side, 3b38715): with the portable form the json suite's writes took 1.15x (floats) and
// 1.28x (integers) the time, its typed reads 1.16x and 1.14x, STON's reads 1.05x and 1.09x
// and its writes of integers 1.20x (CSV and CEDICT, which use it little: within 4%).
#pragma once

#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>

#include <bufstream/kernels/cpu.hpp>
#include <bufstream/kernels/swar.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif

namespace bufstream::kernels {

/// Ranges a ByteSet may hold besides its given bytes.
struct ByteRanges {
  bool controls = false;   ///< every byte below 0x20
  bool non_ascii = false;  ///< every byte from 0x80 up
};

/// A set of one to four given bytes and, optionally, the control bytes and the non-ASCII
/// bytes (give one of those as the byte when the ranges are all the set has). Plain data, the
/// same on every target; build it once, outside loops.
class ByteSet {
 public:
  constexpr ByteSet(std::initializer_list<char> bytes, ByteRanges ranges = {}) noexcept
      : ranges_(ranges) {
    std::size_t i = 0;
    char last = '\0';
    for (const char b : bytes) {
      if (i == 4) break;
      words_[i++] = swar::broadcast(static_cast<unsigned char>(b));
      member_[static_cast<unsigned char>(b)] = true;
      last = b;
    }
    for (; i < 4; ++i) words_[i] = swar::broadcast(static_cast<unsigned char>(last));
    for (unsigned c = 0; c < 256; ++c) {
      if ((ranges.controls && c < 0x20) || (ranges.non_ascii && c >= 0x80)) member_[c] = true;
    }
  }

  constexpr bool contains(char c) const noexcept { return member_[static_cast<unsigned char>(c)]; }

  /// The first byte of `[p, end)` in the set, or `end`.
  const char* find(const char* p, const char* end) const noexcept {
#if BUFSTREAM_KERNELS_X86_64
    return find_sse2(p, end);
#else
    return find_portable(p, end);
#endif
  }

  /// Copies the `n` bytes at `p` to `out` and tells whether any of them is in the set: a short
  /// string's check and its copy in one pass (a writer's plain string). `out` needs room for
  /// `max(n, 8)` bytes: a text shorter than eight bytes is stored as a whole word.
  bool copy_finding_any(const char* p, std::size_t n, char* out) const noexcept {
#if BUFSTREAM_KERNELS_X86_64
    return copy_finding_any_sse2(p, n, out);
#else
    return copy_finding_any_portable(p, n, out);
#endif
  }

  // ---- The forms, for the tests that hold each to the portable one ------------------------

  /// `find`, eight bytes at a time. The lowest byte a word test flags is always a true member
  /// (a borrow only flags bytes above a true one), and words are read in memory order, so the
  /// first flag is the first member.
  const char* find_portable(const char* p, const char* end) const noexcept {
    for (; end - p >= 8; p += 8) {
      if (const std::uint64_t hits = flags8(swar::load_memory_order(p)))
        return p + swar::first_flagged(hits);
    }
    // The last 1-7 bytes in one partial word, not a loop per byte (most strings are short, so
    // this is where most of them end). The zeros above them may look like members (a control
    // byte) and are masked off; a flag among the n bytes is still exact for the lowest.
    const auto n = static_cast<std::size_t>(end - p);
    if (n == 0) return end;
    const std::uint64_t in_text = swar::high_bits >> (8 * (8 - n));
    const std::uint64_t hits = flags8(swar::load_memory_order_partial(p, n)) & in_text;
    return hits != 0 ? p + swar::first_flagged(hits) : end;
  }

  /// `copy_finding_any`, a word at a time; the last 1-7 bytes of a text of eight or more in a
  /// word overlapping the one before (flags anywhere in a word answer "any", and a word test
  /// flags nothing when no byte is a member).
  bool copy_finding_any_portable(const char* p, std::size_t n, char* out) const noexcept {
    if (n < 8) {
      if (n == 0) return false;
      const std::uint64_t v = swar::load_memory_order_partial(p, n);
      swar::store_memory_order(out, v);
      return (flags8(v) & (swar::high_bits >> (8 * (8 - n)))) != 0;  // not the zeros above
    }
    std::uint64_t hits = 0;
    std::size_t i = 0;
    for (; n - i >= 8; i += 8) {
      const std::uint64_t v = swar::load_memory_order(p + i);
      swar::store_memory_order(out + i, v);
      hits |= flags8(v);
    }
    if (i != n) {
      const std::uint64_t v = swar::load_memory_order(p + n - 8);
      swar::store_memory_order(out + n - 8, v);
      hits |= flags8(v);
    }
    return hits != 0;
  }

#if BUFSTREAM_KERNELS_X86_64
  const char* find_sse2(const char* p, const char* end) const noexcept {
    const Vectors vectors = vectors_sse2();
    for (; end - p >= 16; p += 16) {
      if (const unsigned hits = flags16(vectors, p)) return p + std::countr_zero(hits);
    }
    return find_portable(p, end);
  }

  bool copy_finding_any_sse2(const char* p, std::size_t n, char* out) const noexcept {
    if (n < 16) return copy_finding_any_portable(p, n, out);
    const Vectors vectors = vectors_sse2();
    unsigned hits = 0;
    const auto copy_block = [&](std::size_t at) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + at), v);
      hits |= flags16(vectors, v);
    };
    std::size_t i = 0;
    for (; n - i >= 16; i += 16) copy_block(i);
    if (i != n) copy_block(n - 16);  // the last 1-15 bytes, in a block overlapping the one before
    return hits != 0;
  }
#endif

 private:
  // One flag (0x80) per byte of `v` that is in the set; exact for the lowest flagged byte.
  std::uint64_t flags8(std::uint64_t v) const noexcept {
    std::uint64_t flags = swar::zero_bytes(v ^ words_[0]) | swar::zero_bytes(v ^ words_[1]) |
                          swar::zero_bytes(v ^ words_[2]) | swar::zero_bytes(v ^ words_[3]);
    if (ranges_.controls) flags |= swar::below_bytes(v, 0x20);
    if (ranges_.non_ascii) flags |= v;
    return flags & swar::high_bits;
  }

#if BUFSTREAM_KERNELS_X86_64
  struct Vectors {
    __m128i bytes[4];
    __m128i controls_on;   // all ones when the set has the control bytes
    __m128i non_ascii_on;  // all ones when it has the non-ASCII bytes
  };
  Vectors vectors_sse2() const noexcept {
    Vectors v;
    for (int i = 0; i < 4; ++i) v.bytes[i] = _mm_set1_epi64x(static_cast<long long>(words_[i]));
    v.controls_on = ranges_.controls ? _mm_set1_epi8(-1) : _mm_setzero_si128();
    v.non_ascii_on = ranges_.non_ascii ? _mm_set1_epi8(-1) : _mm_setzero_si128();
    return v;
  }
  // Bit i set when byte i of the 16 at `p` is in the set.
  static unsigned flags16(const Vectors& set, const char* p) noexcept {
    return flags16(set, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)));
  }
  static unsigned flags16(const Vectors& set, __m128i v) noexcept {
    const __m128i last_control = _mm_set1_epi8(0x1F);
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, last_control), last_control);
    const __m128i hits = _mm_or_si128(
        _mm_or_si128(
            _mm_or_si128(_mm_cmpeq_epi8(v, set.bytes[0]), _mm_cmpeq_epi8(v, set.bytes[1])),
            _mm_or_si128(_mm_cmpeq_epi8(v, set.bytes[2]), _mm_cmpeq_epi8(v, set.bytes[3]))),
        _mm_or_si128(_mm_and_si128(control, set.controls_on), _mm_and_si128(v, set.non_ascii_on)));
    return static_cast<unsigned>(_mm_movemask_epi8(hits));
  }
#endif

  std::uint64_t words_[4] = {};
  ByteRanges ranges_;
  std::array<bool, 256> member_{};
};

}  // namespace bufstream::kernels
