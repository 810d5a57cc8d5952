#include <bufstream/kernels/cpu.hpp>

#include <array>
#include <cstdio>
#include <cstdlib>

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
    // compiled for the set use (kernels/compiled_forms.hpp); every AVX2 processor has them.
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

// The set `best` returns on this thread instead of the unforced one.
thread_local std::optional<InstructionSet> forced_set;

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

namespace detail {

std::optional<InstructionSet> parse_instruction_set(std::string_view text) noexcept {
  for (const InstructionSet s : {InstructionSet::portable, InstructionSet::sse2,
                                 InstructionSet::avx2, InstructionSet::avx512}) {
    if (text == name(s)) return s;
  }
  return std::nullopt;
}

Choice choose(const char* cap, std::span<const InstructionSet> available) noexcept {
  Choice choice{available.back()};
  if (cap == nullptr || *cap == '\0') return choice;
  const std::optional<InstructionSet> limit = parse_instruction_set(cap);
  if (!limit) {
    choice.unknown_value = true;
    return choice;
  }
  // `available` is ascending and starts with the portable set, which no cap is below.
  for (const InstructionSet s : available) {
    if (s <= *limit) choice.set = s;
  }
  return choice;
}

InstructionSet unforced_best() noexcept {
  static const InstructionSet set = [] {
    const char* const cap = std::getenv("BUFSTREAM_ISA");
    const Choice choice = choose(cap, available_sets());
    if (choice.unknown_value) {
      std::fprintf(stderr,
                   "bufstream: BUFSTREAM_ISA=%s names no instruction set (portable, sse2, avx2, "
                   "avx512); ignored\n",
                   cap);
    }
    return choice.set;
  }();
  return set;
}

void force_instruction_set(std::optional<InstructionSet> set) noexcept { forced_set = set; }

}  // namespace detail

InstructionSet best() noexcept { return forced_set ? *forced_set : detail::unforced_best(); }

}  // namespace bufstream::kernels
