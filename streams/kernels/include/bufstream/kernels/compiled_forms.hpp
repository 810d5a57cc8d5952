// Compiling a loop once per instruction set. A format whose hot loop is more than one kernel
// call (the CEDICT loader's scan of plain entries and its chunk indexer) writes that loop once,
// in its own portable code, as a template over `Ops`: the kernel operations it calls, one
// struct per instruction set, below. `compiled_forms<Loop>()` compiles it once per set, each
// copy marked with the set's target attributes (the compiler may then use the set's
// instructions in it and inlines the kernels' forms for the set), and lists the copies in a
// kernels::Forms, from which the caller takes one with form_for(forms, best()) or select.
// So the instruction-set-specific code (the attributes, the intrinsics) is all in this layer,
// and the loop, like any file outside it, is portable; this layer knows the operations, never
// the format.
//
// A loop is a struct:
//
//   struct Loop {
//     using Function = R (*)(Args...) noexcept;  // the type of each compiled copy
//     template <class Ops>
//     [[gnu::always_inline]] static R run(Args... args) noexcept;
//   };
//
// The copies for wider sets include the bit instructions that kernels::available checks with
// the vector sets (BMI1, BMI2) and POPCNT (which every processor with AVX2 has): counting,
// scanning and clearing bits is what such loops do between kernel calls. Measured on the CEDICT
// load from memory: 7% of its time against the same copy without them.
#pragma once

#include <cstddef>
#include <cstdint>

#include <bufstream/kernels/bit_positions.hpp>
#include <bufstream/kernels/byte_pair.hpp>
#include <bufstream/kernels/cpu.hpp>
#include <bufstream/kernels/x86/bit_positions.hpp>
#include <bufstream/kernels/x86/byte_pair.hpp>

namespace bufstream::kernels {

/// The kernel operations a compiled loop calls, in their portable forms (SSE2 where x86-64
/// has it anyway). The structs for wider sets have the same members.
struct PortableOps {
  /// The masks of `pair`'s bytes in the 64 bytes at `p` (all readable).
  static PairMasks pair_masks(const BytePair& pair, const char* p) noexcept {
    return pair.mask64(p);
  }
  /// The spans `span_block` writes at once.
  static constexpr std::uint32_t block_spans = 4;
  /// The first `block_spans` spans between the positions `at[0..]` (bits::spans_portable).
  static unsigned span_block(const std::uint16_t* at, std::uint32_t start, void* out) noexcept {
    return bits::spans4(at, start, out);
  }
  /// Lists the set bits of `m` at `out + n` (bits::append_positions), writing up to
  /// `max_positions_overrun` slots past the new count.
  template <unsigned Unrolled>
  static std::uint32_t list_positions(std::uint64_t m, unsigned base, std::uint16_t* out,
                                      std::uint32_t n) noexcept {
    return bits::append_positions<Unrolled>(m, base, out, n);
  }
};

/// The slots `list_positions` may write past the count it returns, on any set (`Unrolled` at
/// most this; AVX-512 stores 32 positions at a time).
inline constexpr std::size_t max_positions_overrun = 32;

#if BUFSTREAM_KERNELS_X86_64
#define BUFSTREAM_KERNELS_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define BUFSTREAM_KERNELS_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vbmi2,avx2,bmi,bmi2,popcnt")))

/// AVX2: 64 bytes compared 32 at a time.
struct Avx2Ops : PortableOps {
  BUFSTREAM_KERNELS_TARGET_AVX2 static PairMasks pair_masks(const BytePair& pair,
                                                            const char* p) noexcept {
    return x86::pair_masks_avx2(pair, p);
  }
};

/// AVX-512: 64 bytes compared at once, into mask registers; eight spans written at once; a
/// mask word's bits listed without a loop per bit (VPCOMPRESSB).
struct Avx512Ops : PortableOps {
  BUFSTREAM_KERNELS_TARGET_AVX512 static PairMasks pair_masks(const BytePair& pair,
                                                              const char* p) noexcept {
    return x86::pair_masks_avx512(pair, p);
  }
  static constexpr std::uint32_t block_spans = 8;
  BUFSTREAM_KERNELS_TARGET_AVX512 static unsigned span_block(const std::uint16_t* at,
                                                             std::uint32_t start,
                                                             void* out) noexcept {
    return bits::spans8_avx512(at, start, out);
  }
  template <unsigned>
  BUFSTREAM_KERNELS_TARGET_AVX512 static std::uint32_t list_positions(std::uint64_t m,
                                                                      unsigned base,
                                                                      std::uint16_t* out,
                                                                      std::uint32_t n) noexcept {
    return bits::append_positions_avx512(m, base, out, n);
  }
};
#endif

// GCC's straight-line (SLP) vectorizer packs some of a compiled loop's scalar steps into vector
// instructions that cost more than they save (the loops are vectorized by hand, through Ops),
// so it is off for the copies.
#if defined(__GNUC__) && !defined(__clang__)
#define BUFSTREAM_KERNELS_NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define BUFSTREAM_KERNELS_NO_SLP
#endif

namespace detail {

template <class Loop, class Function>
struct CompiledLoop;

template <class Loop, class R, class... Args>
struct CompiledLoop<Loop, R (*)(Args...) noexcept> {
  BUFSTREAM_KERNELS_NO_SLP static R portable(Args... args) noexcept {
    return Loop::template run<PortableOps>(args...);
  }
#if BUFSTREAM_KERNELS_X86_64
  BUFSTREAM_KERNELS_NO_SLP BUFSTREAM_KERNELS_TARGET_AVX2 static R avx2(Args... args) noexcept {
    return Loop::template run<Avx2Ops>(args...);
  }
  BUFSTREAM_KERNELS_NO_SLP BUFSTREAM_KERNELS_TARGET_AVX512 static R avx512(Args... args) noexcept {
    return Loop::template run<Avx512Ops>(args...);
  }
  static constexpr Forms<R (*)(Args...) noexcept> forms{portable, nullptr, avx2, avx512};
#else
  static constexpr Forms<R (*)(Args...) noexcept> forms{portable};
#endif
};

}  // namespace detail

/// `Loop` compiled once per instruction set with forms (see the top of this file).
template <class Loop>
const Forms<typename Loop::Function>& compiled_forms() noexcept {
  return detail::CompiledLoop<Loop, typename Loop::Function>::forms;
}

}  // namespace bufstream::kernels

#undef BUFSTREAM_KERNELS_NO_SLP
#undef BUFSTREAM_KERNELS_TARGET_AVX2
#undef BUFSTREAM_KERNELS_TARGET_AVX512
