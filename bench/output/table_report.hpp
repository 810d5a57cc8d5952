// The terminal tables: one per suite, in the shape of the original experiments (rows:
// variants; columns: median ms and the speed-up against `unbuffered`, or against
// `v1-iostream` for CEDICT).
#pragma once

#include <cstdio>

#include "harness/options.hpp"
#include "harness/results.hpp"
#include "output/machine_info.hpp"

namespace bufstream::bench {

void print_tables(std::FILE* out, const Results& results, const Options& options,
                  const MachineInfo& machine);

}  // namespace bufstream::bench
