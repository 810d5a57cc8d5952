// Compiling a loop once more for a wider instruction set. A format whose loop is more than one
// kernel call (the CEDICT loader's scan of plain entries) writes it once, as a template over
// the kernels it calls, and marks a copy of it with one of these attributes: the compiler may
// then use the set's instructions in it and inline the kernels' forms for the set
// (x86/*.hpp). Such a function runs only where kernels::available(set) says so: list the
// copies in a kernels::Forms and take kernels::select (or form_for). Defined only when those
// forms are compiled in (BUFSTREAM_KERNELS_X86_64).
//
// Both include the bit instructions that kernels::available checks with the vector sets
// (BMI1, BMI2) and POPCNT (which every processor with AVX2 has): counting, scanning and
// clearing bits is what such loops do between kernel calls. Measured on the CEDICT load from
// memory: 7% of its time against the same copy without them.
#pragma once

#include <bufstream/kernels/cpu.hpp>

#if BUFSTREAM_KERNELS_X86_64
#define BUFSTREAM_KERNELS_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2,popcnt")))
#define BUFSTREAM_KERNELS_TARGET_AVX512 \
  __attribute__((target("avx512f,avx512bw,avx512vbmi2,avx2,bmi,bmi2,popcnt")))
#endif
