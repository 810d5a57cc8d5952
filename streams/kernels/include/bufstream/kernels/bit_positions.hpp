// Bit positions: the set bits of a 64-bit mask word listed as positions (what a structural
// scan does with its masks: the CEDICT loader lists a chunk's line ends and slashes so), and
// the spans between consecutive positions (the fields between separators: a CEDICT entry's
// glosses between its slashes).
//
// Forms: portable (a bit scan per position; a plain loop per span), SSE2 (four spans at once).
// The AVX-512 forms, for loops compiled for AVX-512, are in x86/bit_positions.hpp. The SSE2
// spans, which the loader's portable, SSE2 and AVX2 loops call, against a build with the
// portable spans (BUFSTREAM_ISA=avx2, 3 rounds side by side, 7ee5154): without them the CEDICT
// bulk load took 1.14x the time (1.13-1.15x in every round) and the mapped load 1.06x.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include <bufstream/kernels/cpu.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <emmintrin.h>
#endif

namespace bufstream::kernels::bits {

// The rest of `append_positions` for a word with more bits than it writes unrolled: one
// position per bit. Out of line, and a plain loop (a vector version of it costs more than it
// saves for the few bits there are).
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-vectorize")))
#endif
[[gnu::noinline, gnu::cold]] inline void
append_rest(std::uint64_t m, unsigned base, std::uint16_t* out) noexcept {
#if defined(__clang__)
#pragma clang loop vectorize(disable)
#endif
  for (; m != 0; m &= m - 1)
    *out++ = static_cast<std::uint16_t>(base + static_cast<unsigned>(std::countr_zero(m)));
}

/// Writes `base + i` for each set bit i of `m`, in order, at `out + n`, and returns
/// `n + popcount(m)`. Writes `Unrolled` slots whatever the count (those beyond it are scratch,
/// which the next word's positions overwrite: `out` needs `Unrolled` slots of room past the
/// last position), and loops only for a word with more bits: a branch that the common word
/// does not take, where a loop per bit would end at a different count each time.
template <unsigned Unrolled>
[[gnu::always_inline]] inline std::uint32_t append_positions(std::uint64_t m, unsigned base,
                                                             std::uint16_t* out,
                                                             std::uint32_t n) noexcept {
  const auto count = static_cast<unsigned>(std::popcount(m));
  std::uint16_t* const o = out + n;
  for (unsigned k = 0; k < Unrolled; ++k) {
    // No branch for zero: a top bit set first (any position up to 63 is scratch then).
    o[k] = static_cast<std::uint16_t>(
        base + static_cast<unsigned>(std::countr_zero(m | (std::uint64_t{1} << 63))));
    m &= m - 1;
  }
  if (count > Unrolled) [[unlikely]]
    append_rest(m, base, o + Unrolled);
  return n + count;
}

/// Writes, for k < N, the span strictly between positions `at[k]` and `at[k + 1]`, as two
/// 32-bit numbers at `out + 8 k` (native order, the layout of `struct {uint32_t offset, size;}`):
/// its offset from `start` (`at[k] + 1 - start`) and its size (`at[k + 1] - at[k] - 1`).
/// Returns bit k set for an empty span k. Reads `at[0]` to `at[N]`.
template <unsigned N>
inline unsigned spans_portable(const std::uint16_t* at, std::uint32_t start, void* out) noexcept {
  unsigned empty = 0;
  auto* const o = static_cast<unsigned char*>(out);
  for (unsigned k = 0; k < N; ++k) {
    const std::uint32_t here = at[k];
    const std::uint32_t next = at[k + 1];
    const std::uint32_t span[2] = {here + 1 - start, next - here - 1};
    std::memcpy(o + 8 * k, span, 8);
    empty |= static_cast<unsigned>(next == here + 1) << k;
  }
  return empty;
}

#if BUFSTREAM_KERNELS_X86_64
/// `spans_portable<4>` by SSE2: four positions widened to 32 bits, offsets and sizes
/// interleaved into two stores.
inline unsigned spans4_sse2(const std::uint16_t* at, std::uint32_t start, void* out) noexcept {
  const __m128i zero = _mm_setzero_si128();
  const __m128i here =
      _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at)), zero);
  const __m128i next =
      _mm_unpacklo_epi16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(at + 1)), zero);
  const __m128i offsets = _mm_sub_epi32(here, _mm_set1_epi32(static_cast<int>(start - 1)));
  const __m128i sizes = _mm_sub_epi32(_mm_sub_epi32(next, here), _mm_set1_epi32(1));
  _mm_storeu_si128(static_cast<__m128i*>(out), _mm_unpacklo_epi32(offsets, sizes));
  _mm_storeu_si128(static_cast<__m128i*>(out) + 1, _mm_unpackhi_epi32(offsets, sizes));
  return static_cast<unsigned>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(sizes, zero))));
}
#endif

/// Four spans (see `spans_portable`), by the best form this build calls directly.
inline unsigned spans4(const std::uint16_t* at, std::uint32_t start, void* out) noexcept {
#if BUFSTREAM_KERNELS_X86_64
  return spans4_sse2(at, start, out);
#else
  return spans_portable<4>(at, start, out);
#endif
}

}  // namespace bufstream::kernels::bits
