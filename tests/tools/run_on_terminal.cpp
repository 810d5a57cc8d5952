#include "run_on_terminal.hpp"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace bufstream::testing {

namespace {

void must(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string(what) + " failed");
}

}  // namespace

ProgramResult run_program_with_terminal_stderr(const std::string& program, const std::vector<std::string>& args) {
  const int master = ::posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  must(master >= 0, "posix_openpt");
  must(::grantpt(master) == 0 && ::unlockpt(master) == 0, "grantpt/unlockpt");
  const char* slave_name = ::ptsname(master);
  must(slave_name != nullptr, "ptsname");
  const int slave = ::open(slave_name, O_RDWR | O_NOCTTY | O_CLOEXEC);
  must(slave >= 0, "open the terminal's slave side");
  int out[2];
  must(::pipe2(out, O_CLOEXEC) == 0, "pipe");

  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  const pid_t pid = ::fork();
  must(pid >= 0, "fork");
  if (pid == 0) {
    const int null = ::open("/dev/null", O_RDONLY);
    if (null < 0) ::_exit(126);
    ::dup2(null, 0);
    ::dup2(out[1], 1);
    ::dup2(slave, 2);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(slave);
  ::close(out[1]);

  // Drain both until each ends: the pipe with EOF, the terminal with EIO once the child (the
  // last holder of the slave side) has gone.
  ProgramResult result;
  bool out_open = true, err_open = true;
  while (out_open || err_open) {
    pollfd fds[2] = {{out_open ? out[0] : -1, POLLIN, 0}, {err_open ? master : -1, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    char buf[65536];
    for (int i = 0; i < 2; ++i) {
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
        if (n > 0) {
          (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
        } else if (n == 0 || errno != EINTR) {
          (i == 0 ? out_open : err_open) = false;
        }
      }
    }
  }
  ::close(out[0]);
  ::close(master);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace bufstream::testing
