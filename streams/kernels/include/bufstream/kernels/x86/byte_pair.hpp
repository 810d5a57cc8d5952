// The AVX2 and AVX-512 forms of the byte-pair masks (bufstream/kernels/byte_pair.hpp), for
// loops compiled for those instruction sets: they carry target attributes, so call them only
// from such a loop, or where kernels::available says the processor has the set.
#pragma once

#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/cpu.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <immintrin.h>

#include <cstdint>

namespace bufstream::kernels::x86 {

/// The pair's masks of the 64 bytes `lo` (the first 32) and `hi`.
__attribute__((target("avx2"))) inline PairMasks pair_masks_avx2(const BytePair& pair, __m256i lo,
                                                                 __m256i hi) noexcept {
  const auto bits = [ lo, hi ](char c) __attribute__((target("avx2"))) {
    const __m256i cc = _mm256_set1_epi8(c);
    const auto low = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, cc)));
    const auto high = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, cc)));
    return std::uint64_t{low} | std::uint64_t{high} << 32;
  };
  return {bits(pair.first()), bits(pair.second())};
}

/// The pair's masks of the 64 bytes at `p` (all readable).
__attribute__((target("avx2"))) inline PairMasks pair_masks_avx2(const BytePair& pair,
                                                                 const char* p) noexcept {
  return pair_masks_avx2(pair, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                         _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32)));
}

/// The pair's masks of the 64 bytes `v` (AVX-512 F and BW): the compares' mask registers.
__attribute__((target("avx512f,avx512bw"))) inline PairMasks pair_masks_avx512(const BytePair& pair,
                                                                               __m512i v) noexcept {
  return {_cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(pair.first()))),
          _cvtmask64_u64(_mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8(pair.second())))};
}

/// The pair's masks of the 64 bytes at `p` (all readable).
__attribute__((target("avx512f,avx512bw"))) inline PairMasks pair_masks_avx512(
    const BytePair& pair, const char* p) noexcept {
  return pair_masks_avx512(pair, _mm512_loadu_si512(p));
}

}  // namespace bufstream::kernels::x86

#endif
