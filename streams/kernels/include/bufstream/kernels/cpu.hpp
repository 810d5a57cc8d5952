// The kernel layer: the byte-level loops every format spends its time in (find the first of
// some bytes, validate UTF-8, read digits, scale by powers of ten, write and read \u escapes),
// written once here and called by every format. Private to the build: these headers are not
// installed, and no installed header includes them (scripts/check-headers). The digit words
// that json's event walk inlines live outside the layer, as an installed detail in portable
// code (bufstream/detail/digits.hpp and swar.hpp, see streams/CMakeLists.txt).
//
// Each kernel has a portable C++ form (plain or SWAR: eight bytes in a 64-bit word), which is
// the specification and runs everywhere, and may have forms for wider instruction sets. The
// instruction-set-specific code lives only under this folder, under guards that match what it
// uses; every other file in the tree is portable. A kernel with several forms picks one at run
// time, once, through `select` below; tests run every form that the machine has against the
// portable one.
//
// The environment variable BUFSTREAM_ISA=portable|sse2|avx2|avx512 caps the set chosen (to
// measure or debug a narrower form); a cap above what the processor runs is no cap, and any
// other non-empty value is ignored with one line on stderr. Tests still run every form the
// processor has (`available_sets`), whatever the cap.
//
// BUFSTREAM_SIMD=OFF (CMake) defines BUFSTREAM_NO_SIMD in the generated config.hpp (private to
// the build, like this layer): only the portable forms are compiled.
#pragma once

#include <bufstream/kernels/config.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace bufstream::kernels {

/// The instruction sets kernels are written for, from the portable form up. AVX-512 means the
/// F, BW and VBMI2 subsets together.
enum class InstructionSet : std::uint8_t { portable, sse2, avx2, avx512 };

/// "portable", "sse2", "avx2", "avx512".
std::string_view name(InstructionSet set) noexcept;

/// True if forms for `set` were compiled in and this processor runs them (asked once).
bool available(InstructionSet set) noexcept;

/// Every available instruction set, the portable one first: what the tests run each kernel on.
/// Not capped by BUFSTREAM_ISA.
std::span<const InstructionSet> available_sets() noexcept;

/// The instruction set the kernels use: the best this processor runs, capped by BUFSTREAM_ISA
/// (read once, at the first call). On a thread that forces a set (detail::force_instruction_set),
/// that set.
InstructionSet best() noexcept;

namespace detail {

/// What a value of BUFSTREAM_ISA makes of the available sets.
struct Choice {
  InstructionSet set;          // the set the kernels use
  bool unknown_value = false;  // the value named no set, and was ignored
};

/// The set named "portable", "sse2", "avx2" or "avx512" (as `name` spells it), or nullopt.
std::optional<InstructionSet> parse_instruction_set(std::string_view text) noexcept;

/// The decision behind `best`, apart from the environment and the processor: the best of
/// `available` (ascending, the portable set first) at or below the set `cap` names. A null or
/// empty `cap` is no cap; a value that names no set is no cap, with `unknown_value` set.
Choice choose(const char* cap, std::span<const InstructionSet> available) noexcept;

/// The set `best` returned before any thread forced one: the processor's best under the cap.
InstructionSet unforced_best() noexcept;

/// For tests and fuzzers: makes `best` return `set` on the calling thread (precondition:
/// `available(*set)`), or, with nullopt, the unforced choice again. Code that keeps a form in
/// a static (`select`) is not affected; code that asks `best` per operation is (the CEDICT
/// loader asks once per load).
void force_instruction_set(std::optional<InstructionSet> set) noexcept;

}  // namespace detail

/// A kernel's forms, one per instruction set; nullptr where it has none.
template <class Function>
struct Forms {
  Function portable;
  Function sse2 = nullptr;
  Function avx2 = nullptr;
  Function avx512 = nullptr;
};

/// The form for `set`, or the best form below it that the kernel has.
template <class Function>
Function form_for(const Forms<Function>& forms, InstructionSet set) noexcept {
  switch (set) {
    case InstructionSet::avx512:
      if (forms.avx512 != nullptr) return forms.avx512;
      [[fallthrough]];
    case InstructionSet::avx2:
      if (forms.avx2 != nullptr) return forms.avx2;
      [[fallthrough]];
    case InstructionSet::sse2:
      if (forms.sse2 != nullptr) return forms.sse2;
      [[fallthrough]];
    case InstructionSet::portable: break;
  }
  return forms.portable;
}

/// The form a kernel uses: its best one that this processor runs, within BUFSTREAM_ISA's cap.
/// Call it once (keep the result in a static) rather than per call; as its result is kept for
/// the process, it ignores a set forced on the calling thread.
template <class Function>
Function select(const Forms<Function>& forms) noexcept {
  return form_for(forms, detail::unforced_best());
}

}  // namespace bufstream::kernels
