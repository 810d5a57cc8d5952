#include "child_process.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace bufstream::testing::detail {

void must(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string(what) + " failed");
}

pid_t spawn(const std::string& program, const std::vector<std::string>& args, ChildStdio stdio) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(program.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);

  const pid_t pid = ::fork();
  must(pid >= 0, "fork");
  if (pid == 0) {
    // The program starts as a shell would start it in the foreground, whatever the test
    // runner ignores or blocks: the default action for the signals tests send, none blocked.
    for (const int signal : {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE}) ::signal(signal, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    // dup2 clears close-on-exec on the copies, so exactly these three survive execv.
    if (::dup2(stdio.in, 0) < 0 || ::dup2(stdio.out, 1) < 0 || ::dup2(stdio.err, 2) < 0)
      ::_exit(126);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

ProgramResult collect(pid_t pid, int out_fd, int err_fd, int in_fd, const std::string& stdin_text) {
  ProgramResult result;
  std::size_t written = 0;
  if (in_fd >= 0 && stdin_text.empty()) {
    ::close(in_fd);
    in_fd = -1;
  }
  // The child may exit without reading its input: do not die of SIGPIPE here.
  struct sigaction ignore {
  }, previous{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &previous);
  int outputs[2] = {out_fd, err_fd};
  while (outputs[0] >= 0 || outputs[1] >= 0 || in_fd >= 0) {
    pollfd fds[3] = {{outputs[0], POLLIN, 0}, {outputs[1], POLLIN, 0}, {in_fd, POLLOUT, 0}};
    if (::poll(fds, 3, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    char buf[65536];
    for (int i = 0; i < 2; ++i) {
      if ((fds[i].revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
      const ssize_t n = ::read(outputs[i], buf, sizeof buf);
      if (n > 0) {
        (i == 0 ? result.out : result.err).append(buf, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(outputs[i]);
        outputs[i] = -1;
      }
    }
    if (in_fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
      const ssize_t n = ::write(in_fd, stdin_text.data() + written, stdin_text.size() - written);
      if (n > 0) written += static_cast<std::size_t>(n);
      if ((n < 0 && errno != EINTR) || written == stdin_text.size()) {
        ::close(in_fd);
        in_fd = -1;
      }
    }
  }
  ::sigaction(SIGPIPE, &previous, nullptr);
  for (int fd : outputs) {
    if (fd >= 0) ::close(fd);
  }
  if (in_fd >= 0) ::close(in_fd);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

}  // namespace bufstream::testing::detail
