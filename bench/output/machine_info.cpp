#include "output/machine_info.hpp"

#include <fstream>
#include <string_view>
#include <thread>

#include <fmt/format.h>
#include <bufstream/kernels/cpu.hpp>

#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
#include <simdjson.h>
#endif

#ifndef BUFSTREAM_BENCH_BUILD_TYPE
#define BUFSTREAM_BENCH_BUILD_TYPE "unknown"
#endif

namespace bufstream::bench {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (!line.starts_with("model name")) continue;
    const auto colon = line.find(':');
    if (colon == std::string::npos) break;
    const auto start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? "unknown" : line.substr(start);
  }
  return "unknown";
}

std::string compiler() {
#if defined(__clang__)
  return fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  return fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  return "unknown";
#endif
}

std::string simdjson_implementation() {
#ifdef BUFSTREAM_BENCH_HAVE_SIMDJSON
  return std::string(simdjson::get_active_implementation()->name());
#else
  return "";
#endif
}

}  // namespace

std::string instruction_sets(const MachineInfo& machine) {
  std::string text = "kernels " + machine.isa;
  if (machine.isa != machine.isa_cpu) text += " of " + machine.isa_cpu + " (BUFSTREAM_ISA)";
  if (!machine.simdjson.empty()) text += ", simdjson " + machine.simdjson;
  return text;
}

MachineInfo machine_info() {
  std::string build_type = BUFSTREAM_BENCH_BUILD_TYPE;
  if (build_type.empty()) build_type = "none";
  return {.cpu_model = cpu_model(),
          .cores = std::thread::hardware_concurrency(),
          .compiler = compiler(),
          .build_type = std::move(build_type),
          .isa = std::string(kernels::name(kernels::best())),
          .isa_cpu = std::string(kernels::name(kernels::available_sets().back())),
          .simdjson = simdjson_implementation()};
}

}  // namespace bufstream::bench
