#include "run_program.hpp"

#include <fcntl.h>
#include <unistd.h>

#include "child_process.hpp"

namespace bufstream::testing {

ProgramResult run_program(const std::string& program, const std::vector<std::string>& args,
                          const std::string& stdin_text, const std::string& stdout_path) {
  using detail::must;
  int in[2], out[2], err[2];
  must(::pipe2(in, O_CLOEXEC) == 0 && ::pipe2(out, O_CLOEXEC) == 0 && ::pipe2(err, O_CLOEXEC) == 0,
       "pipe");
  int stdout_file = -1;
  if (!stdout_path.empty()) {
    stdout_file = ::open(stdout_path.c_str(), O_WRONLY | O_CLOEXEC);
    must(stdout_file >= 0, "open the standard output file");
  }
  const pid_t pid =
      detail::spawn(program, args, {in[0], stdout_file >= 0 ? stdout_file : out[1], err[1]});
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (stdout_file >= 0) ::close(stdout_file);
  return detail::collect(pid, out[0], err[0], in[1], stdin_text);
}

}  // namespace bufstream::testing
