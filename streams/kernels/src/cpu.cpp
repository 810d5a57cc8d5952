#include <bufstream/kernels/cpu.hpp>

#include <array>

namespace bufstream::kernels {

namespace {

bool probe(InstructionSet set) noexcept {
  if (set == InstructionSet::portable) return true;
#if BUFSTREAM_KERNELS_X86_64
  switch (set) {
    case InstructionSet::portable:
    case InstructionSet::sse2:
      return true;  // part of x86-64
    // AVX2 with the bit instructions that came with it (BMI1, BMI2: x86-64-v3), which loops
    // compiled for the set use (kernels/target.hpp); every AVX2 processor has them.
    case InstructionSet::avx2:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx2") != 0 && __builtin_cpu_supports("bmi") != 0 &&
             __builtin_cpu_supports("bmi2") != 0;
    // AVX-512 F, BW and VBMI2 (Ice Lake, Zen 4 and later), with the AVX2 set and PCLMULQDQ,
    // which every such processor has.
    case InstructionSet::avx512:
      __builtin_cpu_init();
      return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512bw") != 0 &&
             __builtin_cpu_supports("avx512vbmi2") != 0 && __builtin_cpu_supports("avx2") != 0 &&
             __builtin_cpu_supports("bmi") != 0 && __builtin_cpu_supports("bmi2") != 0 &&
             __builtin_cpu_supports("pclmul") != 0;
  }
#endif
  return false;
}

struct Probed {
  std::array<InstructionSet, 4> sets{};
  std::size_t count = 0;
  std::array<bool, 4> has{};
};

const Probed& probed() noexcept {
  static const Probed result = [] {
    Probed p;
    for (const InstructionSet s : {InstructionSet::portable, InstructionSet::sse2,
                                   InstructionSet::avx2, InstructionSet::avx512}) {
      if (!probe(s)) continue;
      p.sets[p.count++] = s;
      p.has[static_cast<std::size_t>(s)] = true;
    }
    return p;
  }();
  return result;
}

}  // namespace

std::string_view name(InstructionSet set) noexcept {
  switch (set) {
    case InstructionSet::portable: return "portable";
    case InstructionSet::sse2: return "sse2";
    case InstructionSet::avx2: return "avx2";
    case InstructionSet::avx512: return "avx512";
  }
  return "unknown";
}

bool available(InstructionSet set) noexcept { return probed().has[static_cast<std::size_t>(set)]; }

std::span<const InstructionSet> available_sets() noexcept {
  const Probed& p = probed();
  return {p.sets.data(), p.count};
}

InstructionSet best() noexcept { return available_sets().back(); }

}  // namespace bufstream::kernels
