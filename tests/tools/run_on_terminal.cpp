#include "run_on_terminal.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "child_process.hpp"

namespace bufstream::testing {

ProgramResult run_program_with_terminal_stderr(const std::string& program,
                                               const std::vector<std::string>& args) {
  using detail::must;
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  must(master >= 0, "posix_openpt");
  must(::grantpt(master) == 0 && ::unlockpt(master) == 0, "grantpt/unlockpt");
  const char* slave_name = ::ptsname(master);
  must(slave_name != nullptr, "ptsname");
  const int slave = ::open(slave_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
  must(slave >= 0, "open the terminal's slave side");
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  must(null >= 0, "open /dev/null");
  int out[2];
  must(::pipe2(out, O_CLOEXEC) == 0, "pipe");

  const pid_t pid = detail::spawn(program, args, {null, out[1], slave});
  ::close(null);
  ::close(slave);
  ::close(out[1]);
  // The terminal's master side ends with EIO once the child, the last holder of the slave
  // side, has gone.
  return detail::collect(pid, out[0], master, -1, {});
}

}  // namespace bufstream::testing
