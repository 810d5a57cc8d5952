// Runs a program with arguments and standard input, and collects its standard output,
// standard error and exit status: for end-to-end tests of the bufstream command.
#pragma once

#include <string>
#include <vector>

namespace bufstream::testing {

struct ProgramResult {
  int status = -1;  // exit status, or 128 + signal number if a signal ended it
  std::string out;
  std::string err;
};

/// Runs `program` with `args`. `stdin_text` is written to its standard input; when
/// `stdout_path` is not empty standard output goes to that file (e.g. /dev/full) instead of
/// being collected.
ProgramResult run_program(const std::string& program, const std::vector<std::string>& args,
                          const std::string& stdin_text = {}, const std::string& stdout_path = {});

}  // namespace bufstream::testing
