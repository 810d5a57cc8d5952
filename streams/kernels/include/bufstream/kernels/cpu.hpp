// The kernel layer: the byte-level loops every format spends its time in (find the first of
// some bytes, validate UTF-8, read digits, scale by powers of ten, write and read \u escapes),
// written once here and called by every format. Private to the build: these headers are not
// installed, and no installed header includes them. The number kernels that json's event walk
// inlines (kernels/installed/: digits, swar, powers of ten, config) are the one exception, and
// installed as a detail (see streams/CMakeLists.txt).
//
// Each kernel has a portable C++ form (plain or SWAR: eight bytes in a 64-bit word), which is
// the specification and runs everywhere, and may have forms for wider instruction sets. The
// instruction-set-specific code lives only under this folder, under guards that match what it
// uses; every other file in the tree is portable. A kernel with several forms picks one at run
// time, once, through `select` below; tests run every form that the machine has against the
// portable one.
//
// BUFSTREAM_SIMD=OFF (CMake) defines BUFSTREAM_NO_SIMD in the generated config.hpp: only the
// portable forms are compiled.
#pragma once

#include <bufstream/kernels/config.hpp>

#include <cstdint>
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
std::span<const InstructionSet> available_sets() noexcept;

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

/// The best instruction set this processor runs.
InstructionSet best() noexcept;

/// The form a kernel uses: its best one that this processor runs. Call it once (keep the
/// result in a static) rather than per call.
template <class Function>
Function select(const Forms<Function>& forms) noexcept {
  return form_for(forms, best());
}

}  // namespace bufstream::kernels
