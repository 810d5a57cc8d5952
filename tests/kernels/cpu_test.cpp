// The CPU probe: one answer, the portable form always there, the best form chosen from it.
#include <gtest/gtest.h>

#include <algorithm>

#include <bufstream/kernels/cpu.hpp>

namespace bufstream::kernels {
namespace {

TEST(KernelCpu, ThePortableFormIsAlwaysAvailableAndFirst) {
  const auto sets = available_sets();
  ASSERT_FALSE(sets.empty());
  EXPECT_EQ(sets.front(), InstructionSet::portable);
  EXPECT_TRUE(available(InstructionSet::portable));
  EXPECT_EQ(best(), sets.back());
  EXPECT_TRUE(std::is_sorted(sets.begin(), sets.end()));
  for (const InstructionSet s : {InstructionSet::portable, InstructionSet::sse2,
                                 InstructionSet::avx2, InstructionSet::avx512}) {
    EXPECT_EQ(available(s), std::find(sets.begin(), sets.end(), s) != sets.end()) << name(s);
  }
#if !BUFSTREAM_KERNELS_X86_64
  EXPECT_EQ(sets.size(), 1u);  // no SIMD compiled in: portable forms only
#endif
}

int portable_form() { return 0; }
int sse2_form() { return 1; }
int avx512_form() { return 3; }

TEST(KernelCpu, AFormIsTheBestOneAtOrBelowTheSet) {
  const Forms<int (*)()> forms{portable_form, sse2_form, nullptr, avx512_form};
  EXPECT_EQ(form_for(forms, InstructionSet::portable)(), 0);
  EXPECT_EQ(form_for(forms, InstructionSet::sse2)(), 1);
  EXPECT_EQ(form_for(forms, InstructionSet::avx2)(), 1);  // no AVX2 form: the SSE2 one
  EXPECT_EQ(form_for(forms, InstructionSet::avx512)(), 3);
  EXPECT_EQ(select(forms)(), form_for(forms, best())());
}

}  // namespace
}  // namespace bufstream::kernels
