// The parts of running a program under test that every runner shares: starting it with
// chosen standard descriptors, and collecting its output and exit status without letting any
// pipe fill up.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "run_program.hpp"

namespace bufstream::testing::detail {

/// Descriptors the child gets as its standard input, output and error.
struct ChildStdio {
  int in;
  int out;
  int err;
};

/// Throws std::runtime_error naming `what` unless `ok`.
void must(bool ok, const char* what);

/// Starts `program` with `args` and `stdio`. Every descriptor the parent holds should be
/// close-on-exec, so that the child inherits only its three.
pid_t spawn(const std::string& program, const std::vector<std::string>& args, ChildStdio stdio);

/// Writes `stdin_text` to `in_fd` (then closes it; -1: no input to give) while reading
/// `out_fd` and `err_fd` until each ends (end of file, or an error such as the EIO a terminal's
/// master side gives once the child is gone), then waits for `pid`. Closes every descriptor
/// it was given.
ProgramResult collect(pid_t pid, int out_fd, int err_fd, int in_fd, const std::string& stdin_text);

}  // namespace bufstream::testing::detail
