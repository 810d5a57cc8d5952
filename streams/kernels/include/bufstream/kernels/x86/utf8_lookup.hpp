// The UTF-8 check of 32 bytes at a time by three nibble-table look-ups per byte (AVX2; 64 with
// AVX-512), the method of Keiser and Lemire ("Validating UTF-8 in less than one instruction per
// byte", 2021), written here from the paper. `utf8::find_invalid` runs it; the CEDICT loader
// calls the same kernel inside its own pass over the text, which classifies the bytes at the
// same time. Its functions carry target attributes: call them only where kernels::available
// says the processor has AVX2 (AVX-512 for the `512` ones).
#pragma once

#include <bufstream/kernels/cpu.hpp>

#if BUFSTREAM_KERNELS_X86_64
#include <immintrin.h>

#include <cstdint>

namespace bufstream::kernels::utf8_lookup {

// Each byte is judged with the byte before it: the high nibble of the previous byte, its low
// nibble and the high nibble of this byte each look up the set of errors (one bit per kind)
// that they allow; a bit left in all three is an error. The exception is a continuation after
// a continuation, which is right exactly where a three- or four-byte lead two or three bytes
// back calls for one (`errors` checks that apart).
inline constexpr std::uint8_t too_short = 1 << 0;       // a lead, then no continuation
inline constexpr std::uint8_t too_long = 1 << 1;        // ASCII, then a continuation
inline constexpr std::uint8_t overlong_3 = 1 << 2;      // E0 80..9F
inline constexpr std::uint8_t too_large = 1 << 3;       // F4 90..BF, F5.. and up
inline constexpr std::uint8_t surrogate = 1 << 4;       // ED A0..BF
inline constexpr std::uint8_t overlong_2 = 1 << 5;      // C0, C1
inline constexpr std::uint8_t too_large_1000 = 1 << 6;  // F5..FF then 80..8F
inline constexpr std::uint8_t overlong_4 =
    1 << 6;  // F0 80..8F (the same bit: both take 8x second bytes)
inline constexpr std::uint8_t two_conts = 1 << 7;  // a continuation after a continuation
inline constexpr std::uint8_t carry = too_short | too_long | two_conts;  // whatever the low nibble

// Indexed by the high nibble of the previous byte.
inline constexpr std::uint8_t first_high_table[16] = {
    too_long,
    too_long,
    too_long,
    too_long,
    too_long,
    too_long,
    too_long,
    too_long,  // 0x..7x
    two_conts,
    two_conts,
    two_conts,
    two_conts,                                            // 8x..Bx
    too_short | overlong_2,                               // Cx
    too_short,                                            // Dx
    too_short | overlong_3 | surrogate,                   // Ex
    too_short | too_large | too_large_1000 | overlong_4,  // Fx
};
// Indexed by the low nibble of the previous byte.
inline constexpr std::uint8_t first_low_table[16] = {
    carry | overlong_3 | overlong_2 | overlong_4,  // x0
    carry | overlong_2,                            // x1
    carry,
    carry,              // x2 x3
    carry | too_large,  // x4
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,              // x5..xC
    carry | too_large | too_large_1000 | surrogate,  // xD
    carry | too_large | too_large_1000,
    carry | too_large | too_large_1000,  // xE xF
};
// Indexed by the high nibble of this byte.
inline constexpr std::uint8_t second_high_table[16] = {
    too_short,
    too_short,
    too_short,
    too_short,
    too_short,
    too_short,
    too_short,
    too_short,                                                                     // 0x..7x
    too_long | overlong_2 | two_conts | overlong_3 | too_large_1000 | overlong_4,  // 8x
    too_long | overlong_2 | two_conts | overlong_3 | too_large,                    // 9x
    too_long | overlong_2 | two_conts | surrogate | too_large,                     // Ax
    too_long | overlong_2 | two_conts | surrogate | too_large,                     // Bx
    too_short,
    too_short,
    too_short,
    too_short,  // Cx..Fx
};

/// The three tables, each in both 128-bit lanes (VPSHUFB looks up within a lane). Made once
/// per call of a validating loop, outside it.
struct Tables {
  __m256i first_high, first_low, second_high;
};

__attribute__((target("avx2"))) inline __m256i lane_table(const std::uint8_t (&t)[16]) noexcept {
  return _mm256_broadcastsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

__attribute__((target("avx2"))) inline Tables tables() noexcept {
  return {lane_table(first_high_table), lane_table(first_low_table), lane_table(second_high_table)};
}

/// `in` moved `N` bytes later, with the last `N` bytes of `prev` in front.
template <int N>
__attribute__((target("avx2"))) inline __m256i previous_bytes(__m256i in, __m256i prev) noexcept {
  return _mm256_alignr_epi8(in, _mm256_permute2x128_si256(prev, in, 0x21), 16 - N);
}

/// Nonzero bytes where the 32 bytes `in`, after the 32 bytes `prev`, are not valid UTF-8. A
/// sequence that `in` cuts short is not flagged: the next call sees it (or `incomplete`). An
/// error is flagged at most three bytes after the start of its sequence, and never before it.
__attribute__((target("avx2"))) inline __m256i errors(const Tables& t, __m256i in,
                                                      __m256i prev) noexcept {
  const __m256i nibble = _mm256_set1_epi8(0x0F);
  const __m256i prev1 = previous_bytes<1>(in, prev);
  const __m256i first_high =
      _mm256_shuffle_epi8(t.first_high, _mm256_and_si256(_mm256_srli_epi16(prev1, 4), nibble));
  const __m256i first_low = _mm256_shuffle_epi8(t.first_low, _mm256_and_si256(prev1, nibble));
  const __m256i second_high =
      _mm256_shuffle_epi8(t.second_high, _mm256_and_si256(_mm256_srli_epi16(in, 4), nibble));
  const __m256i special = _mm256_and_si256(_mm256_and_si256(first_high, first_low), second_high);
  // Bit 7 where the byte two back leads three or four bytes, or the byte three back leads four.
  const __m256i third = _mm256_subs_epu8(previous_bytes<2>(in, prev),
                                         _mm256_set1_epi8(static_cast<char>(0xE0 - 0x80)));
  const __m256i fourth = _mm256_subs_epu8(previous_bytes<3>(in, prev),
                                          _mm256_set1_epi8(static_cast<char>(0xF0 - 0x80)));
  const __m256i must_continue =
      _mm256_and_si256(_mm256_or_si256(third, fourth), _mm256_set1_epi8(static_cast<char>(0x80)));
  return _mm256_xor_si256(must_continue, special);
}

/// Nonzero where the 32 bytes `prev` end inside a sequence (a lead in its last three bytes that
/// calls for bytes beyond them): what `errors` would flag if ASCII followed.
__attribute__((target("avx2"))) inline __m256i incomplete(__m256i prev) noexcept {
  // Saturating subtraction leaves a nonzero byte exactly at such a lead.
  const __m256i limits =
      _mm256_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                       -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, static_cast<char>(0xF0 - 1),
                       static_cast<char>(0xE0 - 1), static_cast<char>(0xC0 - 1));
  return _mm256_subs_epu8(prev, limits);
}

/// The three tables in all four 128-bit lanes, for `errors512`.
struct Tables512 {
  __m512i first_high, first_low, second_high;
};

// (The masked forms of the AVX-512 intrinsics below, with every lane selected, stand for the
// plain ones, which start from _mm512_undefined_epi32: GCC 12 warns of it as uninitialized.)
__attribute__((target("avx512f,avx512bw"))) inline __m512i lane_table512(
    const std::uint8_t (&t)[16]) noexcept {
  return _mm512_maskz_broadcast_i32x4(0xFFFF, _mm_loadu_si128(reinterpret_cast<const __m128i*>(t)));
}

__attribute__((target("avx512f,avx512bw"))) inline Tables512 tables512() noexcept {
  return {lane_table512(first_high_table), lane_table512(first_low_table),
          lane_table512(second_high_table)};
}

/// `errors` on 64 bytes (AVX-512 F and BW): nonzero bytes where `in`, after the 64 bytes
/// `prev`, is not valid UTF-8. Three-input logic instructions fold its ANDs and ORs.
__attribute__((target("avx512f,avx512bw"))) inline __m512i errors512(const Tables512& t, __m512i in,
                                                                     __m512i prev) noexcept {
  const __m512i nibble = _mm512_set1_epi8(0x0F);
  // Each 128-bit lane of `in` after the lane before it (the last of `prev` for the first), so
  // that one byte shift per lane moves `in` N bytes later.
  const __m512i lanes_before = _mm512_maskz_alignr_epi64(0xFF, in, prev, 6);
  const __m512i prev1 = _mm512_alignr_epi8(in, lanes_before, 16 - 1);
  const __m512i prev2 = _mm512_alignr_epi8(in, lanes_before, 16 - 2);
  const __m512i prev3 = _mm512_alignr_epi8(in, lanes_before, 16 - 3);
  const __m512i first_high =
      _mm512_shuffle_epi8(t.first_high, _mm512_and_si512(_mm512_srli_epi16(prev1, 4), nibble));
  const __m512i first_low = _mm512_shuffle_epi8(t.first_low, _mm512_and_si512(prev1, nibble));
  const __m512i second_high =
      _mm512_shuffle_epi8(t.second_high, _mm512_and_si512(_mm512_srli_epi16(in, 4), nibble));
  const __m512i third = _mm512_subs_epu8(prev2, _mm512_set1_epi8(static_cast<char>(0xE0 - 0x80)));
  const __m512i fourth = _mm512_subs_epu8(prev3, _mm512_set1_epi8(static_cast<char>(0xF0 - 0x80)));
  // Truth tables over 0xF0, 0xCC, 0xAA (the three inputs): (third | fourth) & 0x80 is 0xA8,
  // bit 7 where a continuation must follow; the AND of the three look-ups is 0x80.
  const __m512i must_continue =
      _mm512_ternarylogic_epi32(third, fourth, _mm512_set1_epi8(static_cast<char>(0x80)), 0xA8);
  const __m512i special = _mm512_ternarylogic_epi32(first_high, first_low, second_high, 0x80);
  return _mm512_xor_si512(must_continue, special);
}

}  // namespace bufstream::kernels::utf8_lookup

#endif
