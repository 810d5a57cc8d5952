// Byte-pair masks: where each of two given bytes is in one 64-byte block, one bit mask for
// each (bit i for byte i), from one load. The CEDICT loader's plain-entry scan takes a line's
// spaces and ']' from its first 64 bytes so (through kernels::compiled_forms' Ops), and the
// structure masks (structure_masks.hpp) are these masks of every block of a text.
//
// Why no other classifier: ByteSet::mask64 gives one mask for a whole set (two calls load and
// compare every byte twice); NestedByteSets, given (a, a, a, b), gives the first mask but the
// second only after an and-not, and has no AVX2 or AVX-512 form for the compiled loops; the
// token masks and the JSON index classify JSON's fixed bytes.
//
// Forms: portable (SWAR, eight bytes per word, each flag exact), SSE2 (x86-64, sixteen bytes
// per compare; what mask64 calls there, so the scan's portable copy uses it), and AVX2 and
// AVX-512 in x86/byte_pair.hpp, for loops compiled for those sets. All read exactly the 64
// bytes they are given. Each form is measured only with the structure masks' form of its set,
// as the loader's path for that set: SSE2 over SWAR as the structure masks' SSE2 form, whose
// masks these are (without it the bulk load took 1.78x the time, the mapped load 1.51x;
// structure_masks.hpp); AVX2 over SSE2 as the loader's whole AVX2 path (BUFSTREAM_ISA=avx2
// against sse2, 3 rounds side by side, 3b38715: bulk load 8.03 -> 3.84 ms, mapped 12.44 ->
// 8.34); AVX-512 over AVX2 as its whole AVX-512 path (899d3be: mapped file 2.55 -> 2.35 ms).
#pragma once

#include <cstdint>

#include <bufstream/kernels/cpu.hpp>
#include <bufstream/kernels/swar.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif

namespace bufstream::kernels {

/// The masks of a pair's two bytes in one block.
struct PairMasks {
  std::uint64_t first = 0;
  std::uint64_t second = 0;
};

/// Two bytes whose masks are wanted separately. Plain data; build it once, outside loops.
class BytePair {
 public:
  constexpr BytePair(char first, char second) noexcept : first_(first), second_(second) {}

  constexpr char first() const noexcept { return first_; }
  constexpr char second() const noexcept { return second_; }

  /// The masks of the 64 bytes at `p` (all readable).
  PairMasks mask64(const char* p) const noexcept {
#if BUFSTREAM_KERNELS_X86_64
    return mask64_sse2(p);
#else
    return mask64_portable(p);
#endif
  }

  // ---- The forms, for the tests that hold each to the portable one ------------------------

  PairMasks mask64_portable(const char* p) const noexcept {
    const std::uint64_t a = swar::broadcast(static_cast<unsigned char>(first_));
    const std::uint64_t b = swar::broadcast(static_cast<unsigned char>(second_));
    PairMasks m;
    for (unsigned i = 0; i < 8; ++i) {
      const std::uint64_t v = swar::load_memory_order(p + 8 * i);
      m.first |= swar::gather_flags(swar::equal_bytes_exact(v, a)) << (8 * i);
      m.second |= swar::gather_flags(swar::equal_bytes_exact(v, b)) << (8 * i);
    }
    return m;
  }

#if BUFSTREAM_KERNELS_X86_64
  PairMasks mask64_sse2(const char* p) const noexcept {
    const __m128i a = _mm_set1_epi8(first_);
    const __m128i b = _mm_set1_epi8(second_);
    PairMasks m;
    for (unsigned at = 0; at < 64; at += 16) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at));
      m.first |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, a)))}
                 << at;
      m.second |= std::uint64_t{static_cast<std::uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, b)))}
                  << at;
    }
    return m;
  }
#endif

 private:
  char first_;
  char second_;
};

}  // namespace bufstream::kernels
