// Nested byte sets: the masks of two sets in one pass over a 64-byte block, an inner set of
// three bytes and the outer set, the inner one and a fourth byte. Its one caller is the CSV
// reader's fast path (StopMasks, formats/csv/src/scanners.hpp): inside quotes the quote, CR and
// LF end a run, outside them the separator too. It keeps both masks of a block from record to
// record while the window stays, and tells a separator from the other stops by the two masks,
// without reading the byte again.
//
// Why no other classifier: ByteSet::find scans again from each field's start (the masks took a
// scan of the 25,000 rows from 818 to 738-760 us, f2d219d); two ByteSet::mask64 calls load and
// compare every byte twice and test ranges CSV has none of (a bisect put half of a 26% loss of
// the CSV read of floats on them; with this kernel and a digit fix the read went from 1.26x to
// 1.06x the old time, 63a4d53); BytePair masks one byte each, not a set of three; the token
// masks and the JSON index classify JSON's fixed bytes.
//
// Forms: portable (SWAR, eight bytes per word, each flag exact) and SSE2 (x86-64, sixteen bytes
// per compare, always used there). Both read exactly the 64 bytes they are given. SSE2 over
// SWAR, in bufstream-bench against a build with the portable form on x86-64 too (3 rounds
// side by side, 3b38715): with the portable form the csv suite's reads took 1.15x (floats)
// and 1.17x (integers) the time.
#pragma once

#include <cstdint>

#include <bufstream/kernels/cpu.hpp>
#include <bufstream/kernels/swar.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif

namespace bufstream::kernels {

/// Bit i set when byte i of the block is in the set.
struct NestedMasks {
  std::uint64_t inner = 0;
  std::uint64_t outer = 0;  ///< inner | the extra byte's
};

/// An inner set of three bytes (repeat one for fewer) and one extra byte that only the outer
/// set has. Plain data; build it once, outside loops.
class NestedByteSets {
 public:
  constexpr NestedByteSets(char a, char b, char c, char extra) noexcept
      : inner_{a, b, c}, extra_(extra) {}

  /// The masks of the 64 bytes at `p` (all readable).
  NestedMasks mask64(const char* p) const noexcept {
#if BUFSTREAM_KERNELS_X86_64
    return mask64_sse2(p);
#else
    return mask64_portable(p);
#endif
  }

  // ---- The forms, for the tests that hold each to the portable one ------------------------

  NestedMasks mask64_portable(const char* p) const noexcept {
    const std::uint64_t a = swar::broadcast(static_cast<unsigned char>(inner_[0]));
    const std::uint64_t b = swar::broadcast(static_cast<unsigned char>(inner_[1]));
    const std::uint64_t c = swar::broadcast(static_cast<unsigned char>(inner_[2]));
    const std::uint64_t x = swar::broadcast(static_cast<unsigned char>(extra_));
    NestedMasks m;
    for (unsigned i = 0; i < 8; ++i) {
      const std::uint64_t v = swar::load_memory_order(p + 8 * i);
      const std::uint64_t inner = swar::equal_bytes_exact(v, a) | swar::equal_bytes_exact(v, b) |
                                  swar::equal_bytes_exact(v, c);
      m.inner |= swar::gather_flags(inner) << (8 * i);
      m.outer |= swar::gather_flags(inner | swar::equal_bytes_exact(v, x)) << (8 * i);
    }
    return m;
  }

#if BUFSTREAM_KERNELS_X86_64
  NestedMasks mask64_sse2(const char* p) const noexcept {
    const __m128i a = _mm_set1_epi8(inner_[0]);
    const __m128i b = _mm_set1_epi8(inner_[1]);
    const __m128i c = _mm_set1_epi8(inner_[2]);
    const __m128i x = _mm_set1_epi8(extra_);
    NestedMasks m;
    for (unsigned at = 0; at < 64; at += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
      const __m128i inner = _mm_or_si128(_mm_cmpeq_epi8(v, a),
                                         _mm_or_si128(_mm_cmpeq_epi8(v, b), _mm_cmpeq_epi8(v, c)));
      const __m128i outer = _mm_or_si128(inner, _mm_cmpeq_epi8(v, x));
      m.inner |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(inner))} << at;
      m.outer |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(outer))} << at;
    }
    return m;
  }
#endif

 private:
  char inner_[3];
  char extra_;
};

}  // namespace bufstream::kernels
