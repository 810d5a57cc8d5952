// The AVX-512 forms of the bit-position kernels (bufstream/kernels/bit_positions.hpp), for
// loops compiled for AVX-512 (F, BW and VBMI2): they carry target attributes, so call them
// only from such a loop, or where kernels::available says the processor has the set.
#pragma once

#include <bufstream/kernels/cpu.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <immintrin.h>

#include <bit>
#include <cstdint>

namespace bufstream::kernels::bits {

#define BUFSTREAM_KERNELS_AVX512_VBMI2 \
  __attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt")))

// The 32 byte numbers of half `Half` of `packed`, widened to 16 bits, with `base` added. (The
// masked extract, every lane selected, stands for the plain one, which GCC 12 warns of as
// reading an undefined value.)
template <int Half>
BUFSTREAM_KERNELS_AVX512_VBMI2 inline __m512i half_positions(__m512i packed,
                                                             __m512i base) noexcept {
  return _mm512_add_epi16(_mm512_cvtepu8_epi16(_mm512_maskz_extracti64x4_epi64(0xFF, packed, Half)),
                          base);
}

/// `append_positions` without a loop per bit: VPCOMPRESSB packs the byte numbers (0 to 63) of
/// `m`'s set bits, which are widened to 16 bits, moved by `base` and stored 32 at a time
/// whatever the count (`out` needs 32 slots of room past the last position); a second store
/// only for a word with more than 32.
BUFSTREAM_KERNELS_AVX512_VBMI2 inline std::uint32_t append_positions_avx512(
    std::uint64_t m, unsigned base, std::uint16_t* out, std::uint32_t n) noexcept {
  alignas(64) static constexpr std::uint8_t byte_numbers[64] = {
      0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
      22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
      44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
  const __m512i packed =
      _mm512_maskz_compress_epi8(_cvtu64_mask64(m), _mm512_load_si512(byte_numbers));
  const __m512i offset = _mm512_set1_epi16(static_cast<short>(base));
  const auto count = static_cast<unsigned>(std::popcount(m));
  _mm512_storeu_si512(out + n, half_positions<0>(packed, offset));
  if (count > 32) [[unlikely]]
    _mm512_storeu_si512(out + n + 32, half_positions<1>(packed, offset));
  return n + count;
}

/// `spans_portable<8>` by AVX-512 (F and BW), reading `at[0]` to `at[16]`: offsets and sizes
/// in 32-bit lanes, interleaved into one 64-byte store. (The masked widening, every lane
/// selected, stands for the plain one, which GCC 12 warns of as reading an undefined value.)
__attribute__((target("avx512f,avx512bw"))) inline unsigned spans8_avx512(const std::uint16_t* at,
                                                                          std::uint32_t start,
                                                                          void* out) noexcept {
  const __m512i here =
      _mm512_maskz_cvtepu16_epi32(0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
  const __m512i next = _mm512_maskz_cvtepu16_epi32(
      0xFF, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 1)));
  const __m512i offsets = _mm512_sub_epi32(here, _mm512_set1_epi32(static_cast<int>(start - 1)));
  const __m512i sizes = _mm512_sub_epi32(_mm512_sub_epi32(next, here), _mm512_set1_epi32(1));
  const __m512i interleave =
      _mm512_setr_epi32(0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
  _mm512_storeu_si512(out, _mm512_permutex2var_epi32(offsets, interleave, sizes));
  return static_cast<unsigned>(_cvtmask16_u32(_mm512_mask_testn_epi32_mask(0xFF, sizes, sizes)));
}

#undef BUFSTREAM_KERNELS_AVX512_VBMI2

}  // namespace bufstream::kernels::bits

#endif
