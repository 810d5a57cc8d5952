// The CPU probe: one answer, the portable form always there, the best form chosen from it, at
// most the cap BUFSTREAM_ISA sets, or the set a thread forces.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <bufstream/kernels/cpu.hpp>

namespace bufstream::kernels {
namespace {

using IS = InstructionSet;

TEST(KernelCpu, ThePortableFormIsAlwaysAvailableAndFirst) {
  const auto sets = available_sets();
  ASSERT_FALSE(sets.empty());
  EXPECT_EQ(sets.front(), IS::portable);
  EXPECT_TRUE(available(IS::portable));
  EXPECT_TRUE(std::is_sorted(sets.begin(), sets.end()));
  for (const IS s : {IS::portable, IS::sse2, IS::avx2, IS::avx512}) {
    EXPECT_EQ(available(s), std::find(sets.begin(), sets.end(), s) != sets.end()) << name(s);
  }
#if !BUFSTREAM_KERNELS_X86_64
  EXPECT_EQ(sets.size(), 1u);  // no SIMD compiled in: portable forms only
#endif
}

// Whatever this process's BUFSTREAM_ISA, best() is what the decision makes of it: available,
// and at most the cap.
TEST(KernelCpu, BestIsTheChoiceForThisProcessorAndEnvironment) {
  const auto sets = available_sets();
  EXPECT_EQ(best(), detail::choose(std::getenv("BUFSTREAM_ISA"), sets).set);
  EXPECT_TRUE(available(best()));
  EXPECT_LE(best(), sets.back());
}

int portable_form() { return 0; }
int sse2_form() { return 1; }
int avx512_form() { return 3; }

TEST(KernelCpu, AFormIsTheBestOneAtOrBelowTheSet) {
  const Forms<int (*)()> forms{portable_form, sse2_form, nullptr, avx512_form};
  EXPECT_EQ(form_for(forms, IS::portable)(), 0);
  EXPECT_EQ(form_for(forms, IS::sse2)(), 1);
  EXPECT_EQ(form_for(forms, IS::avx2)(), 1);  // no AVX2 form: the SSE2 one
  EXPECT_EQ(form_for(forms, IS::avx512)(), 3);
  EXPECT_EQ(select(forms)(), form_for(forms, best())());
}

TEST(KernelCpuCap, EveryNameParsesBackToItsSet) {
  for (const IS s : {IS::portable, IS::sse2, IS::avx2, IS::avx512}) {
    EXPECT_EQ(detail::parse_instruction_set(name(s)), s) << name(s);
  }
  for (const char* other : {"", "AVX2", "avx", "avx2 ", "sse4", "native", "x86-64-v3"}) {
    EXPECT_EQ(detail::parse_instruction_set(other), std::nullopt) << other;
  }
}

// The decision, apart from the environment and the processor: every cap against processors of
// each kind.
TEST(KernelCpuCap, TheCapLimitsTheChoiceToWhatTheProcessorRuns) {
  const std::vector<IS> portable_only{IS::portable};
  const std::vector<IS> x86_64{IS::portable, IS::sse2};
  const std::vector<IS> avx2{IS::portable, IS::sse2, IS::avx2};
  const std::vector<IS> avx512{IS::portable, IS::sse2, IS::avx2, IS::avx512};
  struct Case {
    const char* cap;
    const std::vector<IS>* sets;
    IS expected;
    bool unknown;
  };
  const Case cases[] = {
      // No cap: the processor's best.
      {nullptr, &avx512, IS::avx512, false},
      {"", &avx2, IS::avx2, false},
      {nullptr, &portable_only, IS::portable, false},
      // A cap at or below the processor's best.
      {"portable", &avx512, IS::portable, false},
      {"sse2", &avx512, IS::sse2, false},
      {"avx2", &avx512, IS::avx2, false},
      {"avx512", &avx512, IS::avx512, false},
      {"sse2", &avx2, IS::sse2, false},
      // A cap above it is no cap.
      {"avx512", &avx2, IS::avx2, false},
      {"avx2", &x86_64, IS::sse2, false},
      {"avx512", &portable_only, IS::portable, false},
      {"sse2", &portable_only, IS::portable, false},
      // A value that names no set is ignored, and said so.
      {"AVX2", &avx512, IS::avx512, true},
      {"fast", &avx2, IS::avx2, true},
      {"avx", &x86_64, IS::sse2, true},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.cap == nullptr ? "(unset)" : c.cap);
    const detail::Choice choice = detail::choose(c.cap, *c.sets);
    EXPECT_EQ(choice.set, c.expected) << name(choice.set);
    EXPECT_EQ(choice.unknown_value, c.unknown);
  }
}

TEST(KernelCpuForce, AForcedSetIsBestOnItsThreadOnly) {
  const IS unforced = best();
  for (const IS s : available_sets()) {
    detail::force_instruction_set(s);
    EXPECT_EQ(best(), s) << name(s);
    IS other_thread = s;
    std::thread([&] { other_thread = best(); }).join();
    EXPECT_EQ(other_thread, unforced);
    // What a process keeps (select) is not what one thread forces.
    EXPECT_EQ(detail::unforced_best(), unforced);
  }
  detail::force_instruction_set(std::nullopt);
  EXPECT_EQ(best(), unforced);
}

#ifdef BUFSTREAM_ISA_PROBE
// The probe's output ("USED CPU_BEST", after any warning) with BUFSTREAM_ISA set to `value`,
// or unset for nullptr; stderr comes first, merged in.
std::string run_probe(const char* value) {
  const std::string env =
      value == nullptr ? "env -u BUFSTREAM_ISA" : std::string("env BUFSTREAM_ISA='") + value + "'";
  const std::string command = env + " '" + BUFSTREAM_ISA_PROBE + "' 2>&1";
  FILE* const pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return "popen failed";
  std::string out;
  std::array<char, 256> buffer;
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr)
    out += buffer.data();
  return pclose(pipe) == 0 ? out : out + "(exit status)";
}

TEST(KernelCpuEnvironment, AProcessUsesTheSetItsEnvironmentCaps) {
  const std::string cpu(name(available_sets().back()));
  EXPECT_EQ(run_probe(nullptr), cpu + " " + cpu + "\n");
  EXPECT_EQ(run_probe("portable"), "portable " + cpu + "\n");
  EXPECT_EQ(run_probe("avx512"), cpu + " " + cpu + "\n");  // never above the processor
  if (available(IS::sse2)) {
    EXPECT_EQ(run_probe("sse2"), "sse2 " + cpu + "\n");
  }
}

TEST(KernelCpuEnvironment, AnUnknownValueIsIgnoredWithOneLineOnStderr) {
  const std::string cpu(name(available_sets().back()));
  EXPECT_EQ(run_probe("turbo"),
            "bufstream: BUFSTREAM_ISA=turbo names no instruction set (portable, sse2, avx2, "
            "avx512); ignored\n" +
                cpu + " " + cpu + "\n");
}
#endif

}  // namespace
}  // namespace bufstream::kernels
