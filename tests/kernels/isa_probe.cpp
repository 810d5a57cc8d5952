// Prints the instruction set the kernels use (kernels::best) and the processor's best: what
// cpu_test's subprocess cases run with BUFSTREAM_ISA set.
#include <cstdio>
#include <string>

#include <bufstream/kernels/cpu.hpp>

int main() {
  using namespace bufstream::kernels;
  const std::string used(name(best()));
  const std::string cpu(name(available_sets().back()));
  std::printf("%s %s\n", used.c_str(), cpu.c_str());
  return 0;
}
