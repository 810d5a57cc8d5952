// The machine a run was made on, for the JSON output and the table headings.
#pragma once

#include <string>

namespace bufstream::bench {

struct MachineInfo {
  std::string cpu_model;   // /proc/cpuinfo's "model name", or "unknown"
  unsigned cores = 0;      // hardware threads the program may use
  std::string compiler;    // "GCC 12.2.0", "Clang 14.0.6"
  std::string build_type;  // CMAKE_BUILD_TYPE of the benchmark program
};

MachineInfo machine_info();

}  // namespace bufstream::bench
